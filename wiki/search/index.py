"""Keeping ``SearchDocument`` rows in step with pages, claims, sources and open questions.

Each ``search_reindex_*`` function takes object ids, reads them in chunks with one query per
chunk (plus one for source classifications), and upserts their documents with one
``INSERT … ON CONFLICT`` per chunk; the tsvector is built in PostgreSQL from the tokens of
``wiki.search.tokenize``. Objects that no longer exist (or claims now orphaned) lose their document.

Each document also gets a static ``importance``: a page by the pages linking to it, a claim by its
page's importance, a source by the current claims citing it, an open question by being open and by
priority (computed when the object is indexed; saving, deleting or restoring a page reindexes the pages
whose count of links from live pages that changed, and their claims: ``search_reindex_linked_pages``).
Besides its words, the vector holds markers that the tokenizer can never produce: ``@claim`` on every
claim, ``@claim2`` on the 10,000 most important claims and ``@claim1`` on the first 1,000 of them
(``TIERS``; likewise for each kind). A search asks the GIN index for ``words & @claim1``, so a word
found in half the wiki reads about a thousand rows, not fifty thousand (``wiki.search.query``). After
each write the tiers of the kind are brought up to date (``_refresh_tiers``: one statement, touching
only the documents whose tier changed). A classified work also carries ``@mechanism-<key>`` and
``@verdict-<key>`` for each of its classifications, its own and its components' (``wiki.search.terms``), so
that a query naming a mechanism or a verdict finds the works classified so through the same GIN index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, F
from django.urls import reverse

from wiki.models import Citation, Claim, Classification, OpenQuestion, Page, SearchDocument, Source, WikiLink
from wiki.models.questions import PRIORITY_RANK, QuestionPriority, QuestionStatus
from wiki.search.plain import plain_text
from wiki.search.tokenize import document_text

CHUNK_SIZE = 2000
Kind = SearchDocument.Kind
# The 1,000 and the 10,000 most important documents of each kind carry its tier markers 1 and 2.
TIERS = (1000, 10_000)
# Between a work's short name and its title in its document's title.
SOURCE_TITLE_SEPARATOR = " — "


def kind_marker(kind: str, tier: int | None = None) -> str:
    """``@claim`` on every claim; with ``tier`` 1 or 2, ``@claim1`` / ``@claim2`` on the ``TIERS`` most important."""
    return f"@{kind}{tier or ''}"


@dataclass(frozen=True)
class Document:
    object_id: int
    title: str
    body: str
    url: str
    heading: str  # indexed with weight A: ranks matches in titles above matches in the text
    # one entry per classification of a work, the work's own first: mechanisms[i] with verdicts[i]
    mechanisms: tuple[str, ...] = ()
    verdicts: tuple[str, ...] = ()
    importance: int = 0


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
INSERT INTO wiki_searchdocument (kind, object_id, title, body, url, mechanisms, verdicts, importance, vector, updated_at)
SELECT %s, d.object_id, d.title, d.body, d.url, d.mechanisms, d.verdicts, d.importance,
       setweight(to_tsvector('simple', d.heading), 'A') || setweight(to_tsvector('simple', d.words), 'D')
           || array_to_tsvector(
                  ARRAY['@' || %s]
                  || ARRAY(SELECT '@mechanism-' || m FROM unnest(d.mechanisms) m)
                  || ARRAY(SELECT '@verdict-' || v FROM unnest(d.verdicts) v)
              ),
       now()
FROM (
    SELECT object_id, title, body, url, string_to_array(mechanisms, ' ') AS mechanisms,
           string_to_array(verdicts, ' ') AS verdicts, importance, heading, words
    FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::integer[], %s::text[], %s::text[])
         AS u(object_id, title, body, url, mechanisms, verdicts, importance, heading, words)
) d
ON CONFLICT (kind, object_id) DO UPDATE SET
    title = EXCLUDED.title, body = EXCLUDED.body, url = EXCLUDED.url, mechanisms = EXCLUDED.mechanisms,
    verdicts = EXCLUDED.verdicts, importance = EXCLUDED.importance, vector = EXCLUDED.vector,
    updated_at = EXCLUDED.updated_at
"""


def _write(kind: str, ids: list[int], documents: list[Document]) -> None:
    """Upserts ``documents`` and deletes the documents of ``ids`` that produced none (two queries)."""
    with connection.cursor() as cursor:
        if documents:
            cursor.execute(
                _UPSERT,
                [
                    kind,
                    kind,
                    [d.object_id for d in documents],
                    [d.title[:500] for d in documents],
                    [d.body for d in documents],
                    [d.url[:500] for d in documents],
                    # keys are words without spaces: each list travels as one text, split again in the statement
                    [" ".join(d.mechanisms) for d in documents],
                    [" ".join(d.verdicts) for d in documents],
                    [d.importance for d in documents],
                    [document_text(d.heading) for d in documents],
                    [document_text(f"{d.title}\n{d.body}") for d in documents],
                ],
            )
        gone = sorted(set(ids) - {d.object_id for d in documents})
        if gone:
            cursor.execute("DELETE FROM wiki_searchdocument WHERE kind = %s AND object_id = ANY(%s)", [kind, gone])


def _backlinks(slugs: Iterable[str]) -> dict[str, int]:
    """How many pages not deleted link to each of ``slugs`` (one query)."""
    rows = (
        WikiLink.objects.from_live_pages().filter(target_slug__in=set(slugs))
        .order_by().values("target_slug").annotate(n=Count("id"))
    )
    return {row["target_slug"]: row["n"] for row in rows}


def _page_documents(ids: list[int]) -> list[Document]:
    pages = list(Page.objects.filter(pk__in=ids).only("id", "slug", "title", "summary", "body"))
    backlinks = _backlinks(p.slug for p in pages)
    return [
        Document(
            object_id=p.pk,
            title=p.title,
            body=plain_text(f"{p.summary}\n{p.body}"),
            url=reverse("wiki:page-detail", kwargs={"slug": p.slug}),
            heading=p.title,
            importance=backlinks.get(p.slug, 0),
        )
        for p in pages
    ]


def _claim_documents(ids: list[int]) -> list[Document]:
    rows = list(
        Claim.objects.current().filter(pk__in=ids).values_list("id", "text", "section", "anchor", "page__slug", "page__title")
    )
    backlinks = _backlinks(row[4] for row in rows)
    documents = []
    for pk, text, section, anchor, page_slug, page_title in rows:
        url = reverse("wiki:page-detail", kwargs={"slug": page_slug}) + f"#{anchor or f'claim-{pk}'}"
        title = f"{page_title} › {section}" if section else page_title
        documents.append(Document(object_id=pk, title=title, body=plain_text(text), url=url, heading="",
                                  importance=backlinks.get(page_slug, 0)))
    return documents


def _work_classifications(source_ids: list[int]) -> dict[int, list[tuple[str, str]]]:
    """Mechanism and verdict of each classification per source: the work's own first, then its components' by name."""
    found: dict[int, list[tuple[str, str]]] = {}
    rows = (
        Classification.objects.filter(source_id__in=source_ids)
        .order_by("source_id", F("component__name_sort").asc(nulls_first=True), "pk")
        .values_list("source_id", "mechanism", "verdict")
    )
    for source_id, mechanism, verdict in rows:
        found.setdefault(source_id, []).append((mechanism, verdict))
    return found


def _citing_claims(source_ids: list[int]) -> dict[int, int]:
    """How many current claims cite each source (one query)."""
    rows = (
        Citation.objects.filter(source_id__in=source_ids, claim__is_orphaned=False, claim__page__deleted_at__isnull=True)
        .order_by().values("source_id").annotate(n=Count("claim_id", distinct=True))
    )
    return {row["source_id"]: row["n"] for row in rows}


def _source_documents(ids: list[int]) -> list[Document]:
    sources = Source.objects.filter(pk__in=ids).only("id", "slug", "short_name", "title", "authors", "abstract", "notes",
                                                     "arxiv_id", "doi", "bibtex_key")
    classes = _work_classifications(ids)
    citing = _citing_claims(ids)
    documents = []
    for s in sources:
        pairs = classes.get(s.pk, [])
        title = s.short_name if s.short_name == s.title else f"{s.short_name}{SOURCE_TITLE_SEPARATOR}{s.title}"
        documents.append(
            Document(
                object_id=s.pk,
                title=title,
                body="\n".join(part for part in (s.abstract, s.notes, s.authors) if part),
                url=reverse("wiki:source-detail", kwargs={"slug": s.slug}),
                # its identifiers are words of its title: a search for one finds it first (wiki.search.identifiers)
                heading=" ".join((s.short_name, s.title, s.arxiv_id, s.doi, s.bibtex_key)),
                mechanisms=tuple(m for m, _ in pairs),
                verdicts=tuple(v for _, v in pairs),
                importance=citing.get(s.pk, 0),
            )
        )
    return documents


_UNSETTLED = {QuestionStatus.OPEN, QuestionStatus.INVESTIGATING}


def _question_importance(question: OpenQuestion) -> int:
    """Unsettled questions before answered or dropped ones, then by priority."""
    return (len(PRIORITY_RANK) if question.status in _UNSETTLED else 0) + len(PRIORITY_RANK) - 1 - PRIORITY_RANK[QuestionPriority(question.priority)]


def _question_documents(ids: list[int]) -> list[Document]:
    questions = OpenQuestion.objects.live().filter(pk__in=ids).only("id", "title", "text", "resolution_criteria", "status", "priority")
    return [
        Document(
            object_id=q.pk,
            title=q.title,
            body="\n".join(part for part in (q.text, q.resolution_criteria) if part),
            url=reverse("wiki:question-detail", kwargs={"pk": q.pk}),
            heading=q.title,
            importance=_question_importance(q),
        )
        for q in questions
    ]


# Marks the TIERS[1] most important documents of a kind with its tier 2 marker and the first TIERS[0]
# of them with tier 1 too, changing only the documents whose tiers differ (a freshly written vector
# carries no tier yet).
_REFRESH_TIERS = """
WITH wanted AS (
    SELECT id, row_number() OVER (ORDER BY importance DESC, id) <= %(top1)s AS top1
    FROM (
        SELECT id, importance FROM wiki_searchdocument WHERE kind = %(kind)s ORDER BY importance DESC, id LIMIT %(top2)s
    ) best
), marked AS (
    SELECT id, vector @@ %(top1_marker)s::tsquery AS top1
    FROM wiki_searchdocument WHERE vector @@ %(marked)s::tsquery
), changed AS (
    SELECT coalesce(w.id, m.id) AS id, w.id IS NOT NULL AS top2, coalesce(w.top1, false) AS top1
    FROM wanted w FULL JOIN marked m ON m.id = w.id
    WHERE w.id IS NULL OR m.id IS NULL OR w.top1 <> m.top1
)
UPDATE wiki_searchdocument d
SET vector = ts_delete(d.vector, %(markers)s::text[]) || array_to_tsvector(
    CASE WHEN c.top1 THEN %(markers)s::text[] WHEN c.top2 THEN ARRAY[%(top2_marker)s] ELSE ARRAY[]::text[] END
)
FROM changed c WHERE d.id = c.id
"""


def _refresh_tiers(kind: str) -> None:
    top1, top2 = kind_marker(kind, 1), kind_marker(kind, 2)
    with connection.cursor() as cursor:
        cursor.execute(_REFRESH_TIERS, {
            "kind": kind, "top1": TIERS[0], "top2": TIERS[1], "top1_marker": f"'{top1}'", "top2_marker": top2,
            "marked": f"'{top2}'", "markers": [top1, top2],
        })


# Told (kind, objects just indexed) after each chunk: progress bars for long rebuilds.
Progress = Callable[[str, int], None]


def _reindex(kind: str, ids: Iterable[int], build: Callable[[list[int]], list[Document]], progress: Progress | None) -> None:
    for chunk in _chunks(ids):
        _write(kind, chunk, build(chunk))
        if progress is not None:
            progress(kind, len(chunk))
    _refresh_tiers(kind)


@transaction.atomic
def search_reindex_pages(ids: Iterable[int], *, progress: Progress | None = None) -> None:
    _reindex(Kind.PAGE, ids, _page_documents, progress)


@transaction.atomic
def search_reindex_claims(ids: Iterable[int], *, progress: Progress | None = None) -> None:
    """Orphaned claims (removed from their page's text) are taken out of the index."""
    _reindex(Kind.CLAIM, ids, _claim_documents, progress)


@transaction.atomic
def search_reindex_sources(ids: Iterable[int], *, progress: Progress | None = None) -> None:
    _reindex(Kind.SOURCE, ids, _source_documents, progress)


@transaction.atomic
def search_reindex_questions(ids: Iterable[int], *, progress: Progress | None = None) -> None:
    _reindex(Kind.QUESTION, ids, _question_documents, progress)


@transaction.atomic
def search_reindex_page_with_claims(page_id: int) -> None:
    """After a page is saved, deleted or restored: the page, every claim it has had (new, kept and orphaned), the
    sources they cite (saving may create sources for newly cited titles) and its questions."""
    search_reindex_pages([page_id])
    search_reindex_questions(OpenQuestion.objects.filter(page_id=page_id).values_list("id", flat=True))
    search_reindex_claims(Claim.objects.filter(page_id=page_id).values_list("id", flat=True))
    search_reindex_sources(Source.objects.filter(citations__claim__page_id=page_id).distinct().values_list("id", flat=True))


@transaction.atomic
def search_reindex_linked_pages(slugs: Iterable[str]) -> None:
    """The live pages at ``slugs`` and their current claims, after the links of live pages to them changed (a page
    linking to them was saved, deleted or restored): their importance counts those links. A fixed number of queries
    however many slugs; none when ``slugs`` is an empty collection."""
    linked = list(Page.objects.filter(slug__in=slugs).values_list("id", flat=True))
    if not linked:
        return
    search_reindex_pages(linked)
    search_reindex_claims(Claim.objects.current().filter(page_id__in=linked).values_list("id", flat=True))


@transaction.atomic
def search_reindex_all(*, progress: Progress | None = None) -> dict[str, int]:
    """Rebuilds every document, dropping those whose object is gone; returns the count per kind."""
    SearchDocument.objects.filter(kind=Kind.PAGE).exclude(object_id__in=Page.objects.values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.CLAIM).exclude(object_id__in=Claim.objects.current().values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.SOURCE).exclude(object_id__in=Source.objects.values("id")).delete()
    SearchDocument.objects.filter(kind=Kind.QUESTION).exclude(object_id__in=OpenQuestion.objects.live().values("id")).delete()
    search_reindex_pages(Page.objects.order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE),
                         progress=progress)
    search_reindex_claims(Claim.objects.current().order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE),
                          progress=progress)
    search_reindex_sources(Source.objects.order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE),
                           progress=progress)
    search_reindex_questions(OpenQuestion.objects.live().order_by("id").values_list("id", flat=True).iterator(chunk_size=CHUNK_SIZE),
                             progress=progress)
    search_index_flush()
    counts = dict(SearchDocument.objects.order_by().values_list("kind").annotate(n=Count("id")))
    return {kind: counts.get(kind, 0) for kind in Kind.values}


def search_index_flush() -> None:
    """Moves the GIN index's pending list into the index proper. Bulk writes leave thousands of new entries there
    (``fastupdate``), which every search then reads one by one until autovacuum merges them: on a freshly generated
    10,000-page wiki that was most of the time of a search for a rare word."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT gin_clean_pending_list('searchdocument_vector_gin'::regclass)")
