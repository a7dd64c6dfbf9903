"""Writing the citations an editor sets on a claim into its sentence in the page's text, as a revision of the page.

A claim's citations are read from its sentence at every save of its page, so citations set apart from the text
would disagree with it and be lost at the next edit of that sentence. The sentence's citations are rewritten in
place: a citation kept stays as written (by title, short name or identifier), a changed locator is changed where it
stands, a citation dropped is taken out, and a new one joins the sentence's last citation of its kind (``来源`` or
``综合``), else a citation of its own after the sentence's last one, or at the end of a sentence that had none: after
its final punctuation (``…RL。（来源：…）``), or before it on a page that writes its citations so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from wiki.markdown import MarkdownTooComplex
from wiki.markdown.citations import KIND_BY_WORD
from wiki.markdown.claim_markers import (
    ClaimPlace,
    claim_place,
    ends_before_stop,
    is_writable_title,
    marker_text,
    writable_locator,
)
from wiki.models import Claim, Revision, Source
from wiki.references.locators import locator_key
from wiki.roles import User
from wiki.services.pages import page_save
from wiki.services.sources import sources_by_title

WORD_BY_KIND = {kind: word for word, kind in KIND_BY_WORD.items()}


@dataclass(frozen=True)
class WrittenCitation:
    """A citation as the sentence is to write it: the work, its locator (as a citation can hold it) and kind."""

    source: Source
    locator: str
    kind: str


def written_citations(citations: Sequence[tuple[Source, str, str]]) -> list[WrittenCitation]:
    """(work, locator, kind) as a sentence writes them, once each work at each locator however typed (the first kind and
    form given: ``pp.3-4`` and ``第3-4页`` are one locator)."""
    unique: dict[tuple[int, str], WrittenCitation] = {}
    for source, locator, kind in citations:
        locator = writable_locator(locator)
        unique.setdefault((source.pk, locator_key(locator)), WrittenCitation(source=source, locator=locator, kind=kind))
    return list(unique.values())


def claim_cite_in_text(*, claim: Claim, citations: Sequence[WrittenCitation], comment: str,
                       user: User | None = None) -> Revision | None:
    """Rewrites the citations of ``claim``'s sentence in its page's latest text to ``citations`` and saves that text
    as a new revision (by ``user``, with ``comment``); None when the text cites them so already.

    The caller holds the page's row locked, so the text is the latest and the save cannot conflict. A sentence that
    cannot be found in the text, a work no citation can name, or a text that would break the page's limits raises
    ``ValidationError`` and saves nothing.
    """
    page = claim.page
    body = page.body
    try:
        place = claim_place(body, key=claim.key, text=claim.text, before_stop=ends_before_stop(body))
    except MarkdownTooComplex as error:
        raise ValidationError(str(error), code="too_complex") from error
    if place is None:
        raise ValidationError(gettext_lazy(
            "The sentence of claim #%(id)s could not be found in the text of “%(page)s”: edit the page to change its "
            "citations."), code="sentence_not_found", params={"id": claim.pk, "page": page.title})
    written = [title for marker in place.markers for title, _ in marker.items]
    offered = [name for c in citations for name in (c.source.title, c.source.short_name, c.source.arxiv_id, c.source.doi)
               if is_writable_title(name)]
    resolved = {title: source.pk for title, source in sources_by_title(dict.fromkeys(written + offered)).items()}
    # Each work by the name the sentence already writes it with, else the first name of it a citation can hold.
    names: dict[int, str] = {}
    for name in [*written, *offered]:
        if name in resolved:
            names.setdefault(resolved[name], name)
    for cited in citations:
        if cited.source.pk not in names:
            raise ValidationError(gettext_lazy(
                "The page's text cannot cite “%(work)s”: neither its title nor its short name, arXiv ID or DOI can be "
                "written in a citation and be read back as this work."), code="unwritable_work",
                params={"work": cited.source.short_name})
    new_body = _rewritten(body, place, citations, names=names, resolved=resolved)
    if new_body == body:
        return None
    latest = page.revisions.order_by("-number").values_list("number", flat=True).first()
    try:
        saved = page_save(slug=page.slug, title=page.title, summary=page.summary, body=new_body, comment=comment,
                          user=user, base_revision=latest)
    except MarkdownTooComplex as error:
        raise ValidationError(str(error), code="too_complex") from error
    except ValidationError as error:
        # The text's limits, as the page form names them: here they are no field of the claim's form.
        raise ValidationError(error.messages, code="invalid_text") from error
    return saved.revision


def _rewritten(body: str, place: ClaimPlace, citations: Sequence[WrittenCitation], *, names: dict[int, str],
               resolved: dict[str, int]) -> str:
    """``body`` with the sentence at ``place`` citing ``citations``; a title that names no work is left as written."""
    wanted = [(c.source.pk, c.locator, c.kind) for c in citations]
    free = list(range(len(wanted)))
    slots = [(i, j, title, locator, resolved.get(title), KIND_BY_WORD[marker.word])
             for i, marker in enumerate(place.markers) for j, (title, locator) in enumerate(marker.items)]
    kept: dict[tuple[int, int], tuple[str, str] | None] = {}
    # A citation still wanted stays as written (twice written, twice kept); one naming no work is not the form's.
    for i, j, title, locator, pk, kind in slots:
        if pk is None or (pk, locator, kind) in wanted:
            kept[i, j] = (title, locator)
            free = [w for w in free if wanted[w] != (pk, locator, kind)]
    # A work still cited at another locator: the locator changes where it stands.
    for i, j, title, _, pk, kind in slots:
        if (i, j) not in kept:
            w = next((w for w in free if wanted[w][0] == pk and wanted[w][2] == kind), None)
            kept[i, j] = None if w is None else (title, wanted[w][1])
            free = [other for other in free if other != w]
    added: dict[str, list[tuple[str, str]]] = {}
    for w in free:
        pk, locator, kind = wanted[w]
        added.setdefault(WORD_BY_KIND[kind], []).append((names[pk], locator))
    edits: list[tuple[int, int, str]] = []
    last_of = {marker.word: i for i, marker in enumerate(place.markers)}
    for i, marker in enumerate(place.markers):
        items = [item for j in range(len(marker.items)) if (item := kept[i, j]) is not None]
        if last_of[marker.word] == i:
            items += added.pop(marker.word, [])
        if items == marker.items:
            continue
        start = marker.start
        if not items and body[marker.end:marker.end + 1] in ("", "\n"):
            start = len(body[:start].rstrip(" \t"))
        edits.append((start, marker.end, marker_text(marker.word, items) if items else ""))
    if added:
        at = place.markers[-1].end if place.markers else place.end
        assert at is not None
        edits.append((at, at, "".join(marker_text(word, items) for word, items in added.items())))
    for start, end, text in sorted(edits, reverse=True):
        body = body[:start] + text + body[end:]
    return body
