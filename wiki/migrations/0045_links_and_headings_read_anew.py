"""Past a page's address, a wiki link reads Traditional characters as Simplified, as search does: ``[[強化學習]]`` leads
to the page titled 强化学习 and to the term 强化学习. The title keys and glossary link keys of names written with
Traditional characters are read again in Simplified ones; a former title of a page written so, kept under the key it
had, is kept under the new one too; and the pages whose links name something in Traditional characters, or name a key
read anew, are rendered again, so that those links lead where they now do. So are the pages whose headings, or links
to a section, hold a point between digits, which now parts them in a heading's id (``## 2.1 节`` is ``#2-1-节``, no
longer ``#21-节``), so that a page's headings and the links to them agree; and those linking to a section without a
label of their own, since a link of a glossary term's name with a section (``[[组相对策略优化#优势估计]]``) leads to the term
and is labelled with its name alone."""

import re
from typing import Any

from django.db import migrations
from django.db.models import Q
from django.utils.text import slugify

BATCH = 2000
MAX_SLUG_LENGTH = 200
_SLUG = re.compile(r"^[-\w]*[^\W_][-\w]*$")
_COLON = re.compile(r"[:：]")


def _traditional() -> str:
    """A regular expression's class of the characters read in their Simplified forms."""
    from wiki.search.tokenize import traditional_characters

    return f"[{traditional_characters()}]"


def _key(name: str, *, simplified: bool) -> str:
    """``wiki.markdown.wikilinks.link_key`` as it is with this migration (``simplified``) and ``target_slug``, the key
    before it."""
    from wiki.search.tokenize import fold_variants

    name = name.strip()
    if _SLUG.match(name) and name == name.lower():
        key = name[:MAX_SLUG_LENGTH]
    else:
        key = slugify(_COLON.sub(" ", name), allow_unicode=True)[:MAX_SLUG_LENGTH].rstrip("-")
    return fold_variants(key) if simplified else key


def _rekey(apps: Any, *, simplified: bool) -> set[str]:
    """Writes the keys of the titles and names written with Traditional characters; returns the keys that changed
    (those now named)."""
    traditional = _traditional()
    Page = apps.get_model("wiki", "Page")
    changed = []
    for page in Page._default_manager.filter(title__regex=traditional).only("id", "title", "title_key").iterator(chunk_size=BATCH):
        key = _key(page.title, simplified=simplified)
        if key != page.title_key:
            page.title_key = key
            changed.append(page)
    Page._default_manager.bulk_update(changed, ["title_key"], batch_size=BATCH)
    keys = {page.title_key for page in changed}

    GlossaryTerm = apps.get_model("wiki", "GlossaryTerm")
    terms = []
    for term in GlossaryTerm._default_manager.only("id", "slug", "name_zh", "name_en", "aliases_zh", "aliases_en",
                                                    "link_keys").iterator(chunk_size=BATCH):
        names = [n for n in (term.name_zh, term.name_en, *term.aliases_zh, *term.aliases_en) if n.strip()]
        term_keys = sorted({term.slug, *(k for k in (_key(n, simplified=simplified) for n in names) if k)})
        if term_keys != term.link_keys:
            keys |= set(term_keys) - set(term.link_keys)
            term.link_keys = term_keys
            terms.append(term)
    GlossaryTerm._default_manager.bulk_update(terms, ["link_keys"], batch_size=BATCH)
    return keys


def _keep_former_titles(apps: Any) -> None:
    """A page's former title in Traditional characters led to it under its old key: it does under the new one, unless
    that key is an address, or another page's former address or title already."""
    Page = apps.get_model("wiki", "Page")
    PageRedirect = apps.get_model("wiki", "PageRedirect")
    Revision = apps.get_model("wiki", "Revision")
    titles = Revision._default_manager.filter(title__regex=_traditional()).values_list("page_id", "title").distinct()
    for page_id, title in titles.iterator(chunk_size=BATCH):
        old, new = _key(title, simplified=False), _key(title, simplified=True)
        if old == new or not new or not PageRedirect._default_manager.filter(slug=old, page_id=page_id).exists():
            continue
        if (Page._default_manager.filter(slug=new).exists() or PageRedirect._default_manager.filter(slug=new).exists()
                or Page._default_manager.filter(title_key=new).exclude(pk=page_id).exists()):
            continue
        PageRedirect._default_manager.create(slug=new, page_id=page_id)


# A heading, or a link to a section, holding a point between digits (``## 2.1 节``, ``[[Page#2.1 节]]``), whose id is
# no longer ``21-节`` but ``2-1-节``: a line with a ``#`` before such a number, or a Setext heading's line.
_DECIMAL_HEADING = r"#[^\n]*[0-9０-９][.．][0-9０-９]|[0-9０-９][.．][0-9０-９][^\n]*\n *(=+|-+) *(\n|$)"


def _rerender(keys: set[str]) -> None:
    # The renderer of today, as 0042 renders with it: these pages' links are to lead where a link leads now, and their
    # headings to have the ids links to them are given now.
    from wiki.models import Page
    from wiki.services.pages import pages_rerender

    # A wiki link whose page part holds a Traditional character, or whose target is a key that now names a page or term.
    traditional = Q(body__regex=r"\[\[[^]\[|#\n]*" + _traditional())
    renamed = Q(body__regex=_DECIMAL_HEADING)
    # A link to a section with no label of its own: one leading to a glossary term is labelled with the term's name.
    to_section = Q(body__regex=r"\[\[[^]\[|#\n]+#[^]\[|\n]*\]\]")
    linking = traditional | renamed | to_section | Q(outgoing_links__target_slug__in=keys)
    pages_rerender(pages=Page.all_objects.filter(linking).distinct())


def forward(apps: Any, schema_editor: Any) -> None:
    keys = _rekey(apps, simplified=True)
    _keep_former_titles(apps)
    _rerender(keys)


def backward(apps: Any, schema_editor: Any) -> None:
    # The keys as they were; the pages are rendered again by the renderer they go back to: ``manage.py render_pages``
    # once it is deployed.
    _rekey(apps, simplified=False)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0044_watchlist_feed_keys")]

    operations = [migrations.RunPython(forward, backward)]
