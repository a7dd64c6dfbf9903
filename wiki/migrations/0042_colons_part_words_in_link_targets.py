"""A colon in a wiki link's target, or in a title a link names, parts the words around it as a space does: ``[[User:ed2]]``
leads to ``user-ed2``, no longer ``usered2``. The title keys and glossary link keys of names with a colon are read
again; a former title of a page (``Old:Name``), kept under the key it had, is kept under the new one too; and the pages
whose links name something with a colon are rendered again, so that those links lead where they now do."""

import re
from typing import Any

from django.db import migrations
from django.utils.text import slugify

BATCH = 2000
MAX_SLUG_LENGTH = 200
_SLUG = re.compile(r"^[-\w]*[^\W_][-\w]*$")
_COLON = re.compile(r"[:：]")
# A wiki link whose page part holds a colon.
_COLON_LINK = r"\[\[[^]\[|#\n]*[:：]"


def _key(name: str, *, colons_part_words: bool) -> str:
    """``wiki.markdown.wikilinks.target_slug`` as it is with this migration (``colons_part_words``) and was before."""
    name = name.strip()
    if _SLUG.match(name) and name == name.lower():
        return name[:MAX_SLUG_LENGTH]
    if colons_part_words:
        name = _COLON.sub(" ", name)
    return slugify(name, allow_unicode=True)[:MAX_SLUG_LENGTH].rstrip("-")


def _rekey(apps: Any, *, colons_part_words: bool) -> None:
    Page = apps.get_model("wiki", "Page")
    changed = []
    for page in Page._default_manager.filter(title__regex="[:：]").only("id", "title", "title_key").iterator(chunk_size=BATCH):
        key = _key(page.title, colons_part_words=colons_part_words)
        if key != page.title_key:
            page.title_key = key
            changed.append(page)
    Page._default_manager.bulk_update(changed, ["title_key"], batch_size=BATCH)

    GlossaryTerm = apps.get_model("wiki", "GlossaryTerm")
    terms = []
    for term in GlossaryTerm._default_manager.only("id", "slug", "name_zh", "name_en", "aliases_zh", "aliases_en",
                                                    "link_keys").iterator(chunk_size=BATCH):
        names = [n for n in (term.name_zh, term.name_en, *term.aliases_zh, *term.aliases_en) if n.strip()]
        if not any(_COLON.search(name) for name in names):
            continue
        keys = sorted({term.slug, *(k for k in (_key(n, colons_part_words=colons_part_words) for n in names) if k)})
        if keys != term.link_keys:
            term.link_keys = keys
            terms.append(term)
    GlossaryTerm._default_manager.bulk_update(terms, ["link_keys"], batch_size=BATCH)


def _keep_former_titles(apps: Any) -> None:
    """A page's former title with a colon led to it under its old key: it does under the new one, unless that key is
    an address, or another page's former address or title already."""
    Page = apps.get_model("wiki", "Page")
    PageRedirect = apps.get_model("wiki", "PageRedirect")
    Revision = apps.get_model("wiki", "Revision")
    titles = Revision._default_manager.filter(title__regex="[:：]").values_list("page_id", "title").distinct()
    for page_id, title in titles.iterator(chunk_size=BATCH):
        old, new = _key(title, colons_part_words=False), _key(title, colons_part_words=True)
        if old == new or not new or not PageRedirect._default_manager.filter(slug=old, page_id=page_id).exists():
            continue
        if (Page._default_manager.filter(slug=new).exists() or PageRedirect._default_manager.filter(slug=new).exists()
                or Page._default_manager.filter(title_key=new).exclude(pk=page_id).exists()):
            continue
        PageRedirect._default_manager.create(slug=new, page_id=page_id)


def _rerender(apps: Any) -> None:
    # The renderer of today, as 0033 reads claims with it: these pages' links are to lead where a link leads now.
    from wiki.models import Page
    from wiki.services.pages import pages_rerender

    pages_rerender(pages=Page.all_objects.filter(body__regex=_COLON_LINK))


def forward(apps: Any, schema_editor: Any) -> None:
    _rekey(apps, colons_part_words=True)
    _keep_former_titles(apps)
    _rerender(apps)


def backward(apps: Any, schema_editor: Any) -> None:
    # The keys as they were; the pages are rendered again by the renderer they go back to: ``manage.py render_pages``
    # once it is deployed.
    _rekey(apps, colons_part_words=False)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0041_content_version")]

    operations = [migrations.RunPython(forward, backward)]
