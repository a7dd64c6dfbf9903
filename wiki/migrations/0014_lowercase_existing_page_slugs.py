"""Page slugs are lower case, as wiki links find them: a page saved with capitals in its slug (``ABC``) gets the
lower-cased slug, or, when another page has that already, the first free ``abc-2``, ``abc-3``… Links to it were
shown as wanted: ``manage.py render_pages`` renders them again. An old address typed with capitals redirects to
the page with the lower-cased slug."""

from typing import Any

from django.db import migrations


def _lowercase(apps: Any, schema_editor: Any) -> None:
    Page = apps.get_model("wiki", "Page")
    capitalised = [page for page in Page._default_manager.only("id", "slug").iterator() if page.slug != page.slug.lower()]
    if not capitalised:
        return
    taken = set(Page._default_manager.values_list("slug", flat=True))
    for page in capitalised:
        base = page.slug.lower()[:190]
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add(slug)
        page.slug = slug
        page.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [("wiki", "0013_lowercase_page_slugs_and_visible_text")]

    # Going back keeps the lower-cased slugs: they are valid under the older rules too.
    operations = [migrations.RunPython(_lowercase, migrations.RunPython.noop)]
