"""Saving what an editor sends from the page form, as a wiki does: an edit started from a revision someone has saved
after is merged with what they saved and saved at once when nothing clashes; one section of a page, edited alone, is
spliced back into the text it was read from.

The REST API keeps :func:`wiki.services.pages.page_save`'s answer to a stale edit (``409`` with both versions, or
``412`` for a stale ``If-Match``): its clients merge themselves."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy

from wiki import markdown as wiki_markdown
from wiki.models import Page, Revision
from wiki.models.rules import normalize_page_slug
from wiki.roles import User
from wiki.services.pages import MergedEdit, PageSaved, page_locked, page_save, page_validate
from wiki.text.diff import Diff, side_by_side
from wiki.text.merge import merge_edit
from wiki.text.sections import SectionNotFound, section_splice


def edit_values(revision: Revision) -> dict[str, str]:
    """What an edit of a page changes, as ``revision`` holds it: its title, summary and text."""
    return {"title": revision.title, "summary": revision.summary, "body": revision.body}


def _savable(*, slug: str, values: dict[str, str], comment: str) -> bool:
    try:
        page_validate(slug=slug, comment=comment, **values)
        wiki_markdown.check_complexity(values["body"])
    except (ValidationError, wiki_markdown.MarkdownTooComplex):
        return False
    return True


@transaction.atomic
def page_save_merging(
    *,
    slug: str,
    title: str,
    body: str,
    summary: str = "",
    comment: str = "",
    user: User | None = None,
    base_revision: int | None = None,
    new_works: Collection[str] = (),
    minor: bool = False,
    page_id: int | None = None,
    blanking_confirmed: bool = True,
) -> PageSaved:
    """:func:`page_save`, except that an edit from a revision someone has saved after (``base_revision`` older than
    the latest) is merged three ways with the latest (:func:`wiki.text.merge.merge_edit`), and the merge is saved
    when nothing clashes: ``merged`` then names the revisions it was merged with. When something clashes, or the
    merge breaks a rule of the page (too long, too complex), nothing is saved and :class:`EditConflict` is raised as
    ``page_save`` raises it, with the edit as sent.

    The page's row is locked from reading the latest revision until the merge is saved: a save landing meanwhile
    waits and is then merged with in turn, and one that landed before is the latest read, never overwritten.

    ``page_id``: the page the edit was opened on, saved wherever it is now (``slug`` is then only where the editor
    last saw it): a page moved since is edited at its new address, and a page created meanwhile at its former one is
    left alone. Its row is locked first, so that a move waits for the save; :class:`PageDeleted` when it was deleted
    meanwhile.

    ``blanking_confirmed`` false: an edit (merged or not) leaving the page without text is refused until confirmed
    (:class:`~wiki.services.pages.PageBlanking`).

    A text over the limits raises :class:`~wiki.markdown.MarkdownTooComplex` before anything is read or merged.
    """
    wiki_markdown.check_complexity(body)
    if page_id is not None:
        slug = page_locked(page_id=page_id).slug
    values = {"title": title, "summary": summary, "body": body}
    merged = None
    page = Page.objects.select_for_update().only("id").filter(slug=normalize_page_slug(slug)).first()
    latest = page.revisions.order_by("-number").first() if page is not None else None
    if page is not None and latest is not None and base_revision and base_revision < latest.number:
        base = page.revisions.filter(number=base_revision).first()
        edit = merge_edit(base=edit_values(base), theirs=edit_values(latest), mine=values) if base is not None else None
        if edit is not None and edit.is_clean and _savable(slug=slug, values=edit.values(), comment=comment):
            values = edit.values()
            merged = MergedEdit(base=base_revision, theirs=latest.number)
            base_revision = latest.number
    saved = page_save(slug=slug, title=values["title"], summary=values["summary"], body=values["body"], comment=comment,
                      user=user, base_revision=base_revision, new_works=new_works,
                      minor=minor, blanking_confirmed=blanking_confirmed)
    return saved if merged is None or saved.unchanged else replace(saved, merged=merged)


def section_edit_values(*, page: Page, base_revision: int, section: int, text: str) -> dict[str, str]:
    """The page as an edit of one section leaves it: the title, summary and text of its revision ``base_revision``,
    with ``text`` in place of section ``section``. A revision or a section that is not there is a ``ValidationError``
    on the field naming it."""
    base = page.revisions.filter(number=base_revision).only("title", "summary", "body").first()
    if base is None:
        raise _no_revision(base_revision)
    return _spliced(base, section=section, text=text)


def _no_revision(number: int) -> ValidationError:
    return ValidationError({"base_revision": [ValidationError(
        gettext_lazy("This page has no revision %(number)s."), code="no_revision", params={"number": number})]})


def _spliced(base: Revision, *, section: int, text: str) -> dict[str, str]:
    try:
        body = section_splice(base.body, section, text)
    except SectionNotFound as missing:
        raise ValidationError({"section": [ValidationError(
            gettext_lazy("Revision %(number)s of this page has no section %(section)s."), code="no_section",
            params={"number": base.number, "section": section})]}) from missing
    return {"title": base.title, "summary": base.summary, "body": body}


@dataclass(frozen=True)
class EditChanges:
    """What saving an edit would change in the revision it started from (``base``): the title, summary and text the
    page would have (``values``), and the side-by-side diff of the text."""

    base: Revision
    values: dict[str, str]
    diff: Diff

    @property
    def is_empty(self) -> bool:
        return self.diff.is_empty and edit_values(self.base) == self.values


def edit_changes(*, page: Page, values: Mapping[str, str], base_revision: int | None,
                 section: int | None = None) -> EditChanges:
    """The changes an edit makes to revision ``base_revision`` of ``page`` (the latest when it names none), without
    saving anything: "Show changes". ``values`` are the edited title, summary and text; for one section's edit
    (``section``) only its text, which is spliced into the revision's whole text, so that the diff is of the whole
    page, numbered by its lines, as its history's diff will read once it is saved. A revision or a section that is
    not there is a ``ValidationError`` on the field naming it, as in :func:`section_edit_values`."""
    revisions = page.revisions.select_related("author")
    base = (revisions.filter(number=base_revision) if base_revision else revisions.order_by("-number")).first()
    if base is None:
        raise _no_revision(base_revision or 0)
    if section is not None:
        edited = _spliced(base, section=section, text=values["body"])
    else:
        edited = {name: values[name] for name in ("title", "summary", "body")}
    return EditChanges(base=base, values=edited, diff=side_by_side(base.body, edited["body"]))


def page_save_section(
    *,
    page: Page,
    section: int,
    text: str,
    comment: str = "",
    user: User | None = None,
    base_revision: int,
    new_works: Collection[str] = (),
    minor: bool = False,
    blanking_confirmed: bool = True,
) -> PageSaved:
    """Saves ``text`` as section ``section`` of ``page`` as it read at revision ``base_revision`` (where the editor
    read the section): spliced into that revision's text (:func:`section_edit_values`), then saved as any edit from
    that revision is (:func:`page_save_merging`), merged with what was saved since; ``blanking_confirmed`` as there, for
the whole text the section leaves."""
    values = section_edit_values(page=page, base_revision=base_revision, section=section, text=text)
    return page_save_merging(slug=page.slug, **values, comment=comment, user=user, base_revision=base_revision,
                             new_works=new_works, minor=minor, page_id=page.pk, blanking_confirmed=blanking_confirmed)
