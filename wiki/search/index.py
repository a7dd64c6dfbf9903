"""Keeping ``SearchDocument`` rows in step with pages, claims, sources and open questions.

Each ``search_reindex_*`` function takes object ids, reads them in chunks with one query per
chunk (plus one for source classifications), and upserts their documents with one
``INSERT … ON CONFLICT`` per chunk; the tsvector is built in PostgreSQL from the tokens of
``wiki.search.tokenize``. Objects that no longer exist (or claims now orphaned) lose their document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count
from django.urls import reverse

from wiki.markdown.wikilinks import WIKILINK_RE
from wiki.models import Claim, Classification, OpenQuestion, Page, SearchDocument, Source
from wiki.search.tokenize import document_text
from wiki.text.spaces import collapse_spaces

CHUNK_SIZE = 2000
Kind = SearchDocument.Kind

# The renderer's own pattern: a snippet shows exactly the links the page shows.
_WIKILINK_RE = re.compile(WIKILINK_RE)
_MARKUP_RE = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s+|[-*+]\s+|\d+\.\s+|>\s?)|[*_`|]+|^-{3,}\s*$|\$\$?")


@dataclass(frozen=True)
class Document:
    object_id: int
    title: str
    body: str
    url: str
    heading: str  # indexed with weight A: ranks matches in titles above matches in the text
    mechanism: str = ""
    verdict: str = ""


def plain_text(markdown: str) -> str:
    """Markdown as readable text for snippets: wiki links become their labels, markup characters go."""
    text = _WIKILINK_RE.sub(lambda m: m.group(2) or m.group(1), markdown)
    text = _MARKUP_RE.sub(" ", text)
    return collapse_spaces(text, keep_lines=True)


def _chunks(ids: Iterable[int]) -> Iterator[list[int]]:
    chunk: list[int] = []
    for object_id in ids:
        chunk.append(object_id)
        if len(chunk) >= CHUNK_SIZE:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


_UPSERT = """
INSERT INTO wiki_searchdocument (kind, object_id, title, body, url, mechanism, verdict, vector, updated_at)
SELECT %s, d.object_id, d.title, d.body, d.url, d.mechanism, d.verdict,
       setweight(to_tsvector('simple', d.heading), 'A') || setweight(to_tsvector('simple', d.words), 'D'),
       now()
FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[])
     AS d(object_id, title, body, url, mechanism, verdict, heading, words)
ON CONFLICT (kind, object_id) DO UPDATE SET
    title = EXCLUDED.title, body = EXCLUDED.body, url = EXCLUDED.url, mechanism = EXCLUDED.mechanism,
    verdict = EXCLUDED.verdict, vector = EXCLUDED.vector, updated_at = EXCLUDED.updated_at
"""


def _write(kind: str, ids: list[int], documents: list[Document]) -> None:
    """Upserts ``documents`` and deletes the documents of ``ids`` that produced none (two queries)."""
    with connection.cursor() as cursor:
        if documents:
            cursor.execute(
                _UPSERT,
                [
                    kind,
                    [d.object_id for d in documents],
                    [d.title[:500] for d in documents],
                    [d.body for d in documents],
                    [d.url[:500] for d in documents],
                    [d.mechanism for d in documents],
                    [d.verdict for d in documents],
                    [document_text(d.heading) for d in documents],
                    [document_text(f"{d.title}\n{d.body}") for d in documents],
                ],
            )
        gone = sorted(set(ids) - {d.object_id for d in documents})
        if gone:
            cursor.execute("DELETE FROM wiki_searchdocument WHERE kind = %s AND object_id = ANY(%s)", [kind, gone])


def _page_documents(ids: list[int]) -> list[Document]:
    pages = Page.objects.filter(pk__in=ids).only("id", "slug", "title", "summary", "body")
    return [
        Document(
            object_id=p.pk,
            title=p.title,
            body=plain_text(f"{p.summary}\n{p.body}"),
            url=reverse("wiki:page-detail", kwargs={"slug": p.slug}),
            heading=p.title,
        )
        for p in pages
    ]


def _claim_documents(ids: list[int]) -> list[Document]:
    rows = Claim.objects.current().filter(pk__in=ids).values_list("id", "text", "section", "anchor", "page__slug", "page__title")
    documents = []
    for pk, text, section, anchor, page_slug, page_title in rows:
        url = reverse("wiki:page-detail", kwargs={"slug": page_slug}) + f"#{anchor or f'claim-{pk}'}"
        title = f"{page_title} › {section}" if section else page_title
        documents.append(Document(object_id=pk, title=title, body=plain_text(text), url=url, heading=""))
    return documents


def _work_classifications(source_ids: list[int]) -> dict[int, tuple[str, str]]:
    """Mechanism and verdict per source: the work-level classification, else its first component's."""
    found: dict[int, tuple[str, str]] = {}
    rows = (
        Classification.objects.filter(source_id__in=source_ids)
        .order_by("source_id", "component_id")
        .values_list("source_id", "component_id", "mechanism", "verdict")
    )
    for source_id, component_id, mechanism, verdict in rows:
        if component_id is None or source_id not in found:
            found[source_id] = (mechanism, verdict)
    return found


def _source_documents(ids: list[int]) -> list[Document]:
    sources = Source.objects.filter(pk__in=ids).only("id", "slug", "short_name", "title", "authors", "abstract", "notes")
    classes = _work_classifications(ids)
    documents = []
    for s in sources:
        mechanism, verdict = classes.get(s.pk, ("", ""))
        title = s.short_name if s.short_name == s.title else f"{s.short_name} — {s.title}"
        documents.append(
            Document(
                object_id=s.pk,
                title=title,
                body="\n".join(part for part in (s.abstract, s.notes, s.authors) if part),
                url=reverse("wiki:source-detail", kwargs={"slug": s.slug}),
                heading=f"{s.short_name} {s.title}",
                mechanism=mechanism,
                verdict=verdict,
            )
        )
    return documents


def _question_documents(ids: list[int]) -> list[Document]:
    questions = OpenQuestion.objects.filter(pk__in=ids).only("id", "title", "text", "resolution_criteria")
    return [
        Document(
            object_id=q.pk,
            title=q.title,
            body="\n".join(part for part in (q.text, q.resolution_criteria) if part),
            url=reverse("wiki:question-detail", kwargs={"pk": q.pk}),
            heading=q.title,
        )
        for q in questions
    ]


def _reindex(kind: str, ids: Iterable[int], build: Callable[[list[int]], list[Document]]) -> None:
    for chunk in _chunks(ids):
        _write(kind, chunk, build(chunk))


@transaction.atomic
def search_reindex_pages(ids: Iterable[int]) -> None:
    _reindex(Kind.PAGE, ids, _page_documents)


@transaction.atomic
def search_reindex_claims(ids: Iterable[int]) -> None:
    """Orphaned claims (removed from their page's text) are taken out of the index."""
    _reindex(Kind.CLAIM, ids, _claim_documents)


@transaction.atomic
def search_reindex_sources(ids: Iterable[int]) -> None:
    _reindex(Kind.SOURCE, ids, _source_documents)


@transaction.atomic
def search_reindex_questions(ids: Iterable[int]) -> None:
    _reindex(Kind.QUESTION, ids, _question_documents)


@transaction.atomic
def search_reindex_page_with_claims(page_id: int) -> None:
    """After a page is saved: the page, every claim it has had (new, kept and orphaned), and the sources they cite
    (saving may create sources for newly cited titles)."""
    search_reindex_pages([page_id])
    search_reindex_claims(Claim.objects.filter(page_id=page_id).values_list("id", flat=True))
    search_reindex_sources(Source.objects.filter(citations__claim__page_id=page_id).distinct().values_list("id", flat=True))


@transaction.atomic
def search_reindex_all() -> dict[str, int]:
    """Rebuilds every document, dropping those whose object is gone; returns the count per kind."""
    SearchDocument.objects.filter(kind=Kind.PAGE).exclude(object_id__in=Page.objects.values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.CLAIM).exclude(object_id__in=Claim.objects.current().values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.SOURCE).exclude(object_id__in=Source.objects.values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.QUESTION).exclude(object_id__in=OpenQuestion.objects.values("id")).delete()
    search_reindex_pages(Page.objects.order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE))
    search_reindex_claims(Claim.objects.current().order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE))
    search_reindex_sources(Source.objects.order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE))
    search_reindex_questions(OpenQuestion.objects.order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE))
    counts = dict(SearchDocument.objects.order_by().values_list("kind").annotate(n=Count("id")))
    return {kind: counts.get(kind, 0) for kind in Kind.values}
