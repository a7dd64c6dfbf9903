"""What a search reads and returns when a word is common: the most important matches, ranked, with capped totals."""

from __future__ import annotations

import pytest
from django.contrib.postgres.search import SearchQuery
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_page, make_question, make_source
from tests.queries import query_names
from wiki.devtools.generate import wiki_generate
from wiki.models import Claim, Page, SearchDocument
from wiki.search.index import search_reindex_all, search_reindex_claims, search_reindex_questions
from wiki.search.query import COUNT_CAP, RANKED, search
from wiki.services.deletion import page_delete, page_restore
from wiki.services.page_import import PageFile, page_import
from wiki.services.pages import page_revert, page_save_revision

pytestmark = pytest.mark.django_db


def _matching(tsquery: str, kind: str):  # type: ignore[no-untyped-def]
    return SearchDocument.objects.filter(kind=kind, vector=SearchQuery(tsquery, config="simple", search_type="raw"))


def _most_important(tsquery: str, kind: str, n: int) -> set[int]:
    return set(_matching(tsquery, kind).order_by("-importance", "id").values_list("object_id", flat=True)[:n])


@pytest.fixture
def many_claims(seed: None) -> None:
    """About 1,500 claims on 150 pages: 实验 is in every claim, 对照 in one in five (GRPO as usual)."""
    generated = wiki_generate(works=60, claims=1500, pages=150, seed=21)
    search_reindex_claims(generated.claim_ids)
    search_reindex_all()  # the generated links change the pages' importance


def test_a_word_in_every_claim_counts_up_to_the_cap_and_says_so(many_claims: None) -> None:
    assert _matching("实验", "claim").count() > COUNT_CAP

    [group] = search("实验", kinds=["claim"], limit=50).groups

    assert group.total == COUNT_CAP
    assert group.total_capped
    assert len(group.hits) == 50


def test_a_rare_word_is_counted_exactly(many_claims: None) -> None:
    expected = _matching("grpo:*", "claim").count()
    assert 0 < expected < COUNT_CAP

    [group] = search("GRPO", kinds=["claim"], limit=50).groups

    assert group.total == expected
    assert not group.total_capped


@pytest.mark.parametrize("word, tsquery", [("实验", "实验"), ("对照", "对照"), ("GRPO", "grpo:*")])
def test_the_ranked_hits_are_the_most_important_matches_whatever_the_word(many_claims: None, word: str, tsquery: str) -> None:
    [group] = search(word, kinds=["claim"], limit=RANKED).groups

    assert {hit.object_id for hit in group.hits} == _most_important(tsquery, "claim", RANKED)


def test_pages_of_hits_never_overlap_across_the_ranked_boundary(many_claims: None) -> None:
    seen: list[int] = []
    for offset in range(0, RANKED + 100, 50):
        [group] = search("实验", kinds=["claim"], limit=50, offset=offset).groups
        seen += [hit.object_id for hit in group.hits]

    assert len(seen) == len(set(seen)) == RANKED + 100
    assert set(seen) == _most_important("实验", "claim", RANKED + 100)


def test_deep_pages_stay_reachable_beyond_the_count_cap(many_claims: None) -> None:
    [group] = search("实验", kinds=["claim"], limit=10, offset=COUNT_CAP + 20).groups

    assert len(group.hits) == 10
    assert group.total == COUNT_CAP + 30 and group.total_capped


def test_a_title_match_ranks_above_a_more_important_page_mentioning_the_word() -> None:
    mentioned = make_page(slug="orchard", title="Orchard", body="Notes on 榴莲 and other fruit.")
    titled = make_page(slug="durian", title="榴莲", body="A fruit.")
    for n in range(3):
        make_page(slug=f"linker-{n}", title=f"Linker {n}", body="See [[Orchard]].")
    search_reindex_all()
    assert SearchDocument.objects.get(kind="page", object_id=mentioned.pk).importance == 3

    hits = search("榴莲", kinds=["page"]).groups[0].hits

    assert [hit.object_id for hit in hits] == [titled.pk, mentioned.pk]


def test_links_from_a_deleted_page_add_nothing_to_importance() -> None:
    linked = make_page(slug="orchard", title="Orchard", body="## 关键要点\n\n- 榴莲 grows here.\n")
    linkers = [make_page(slug=f"linker-{n}", title=f"Linker {n}", body="See [[Orchard]].") for n in range(3)]
    page_delete(page=linkers[0], user=None, reason="Spam page")

    search_reindex_all()

    claim = Claim.objects.current().get(page=linked)
    assert SearchDocument.objects.get(kind="page", object_id=linked.pk).importance == 2
    assert SearchDocument.objects.get(kind="claim", object_id=claim.pk).importance == 2


def test_deleting_and_restoring_a_page_changes_the_importance_of_the_pages_it_links_to_at_once() -> None:
    linked = make_page(slug="orchard", title="Orchard", body="## 关键要点\n\n- 榴莲 grows here.\n")
    linkers = [make_page(slug=f"linker-{n}", title=f"Linker {n}", body="See [[Orchard]].") for n in range(2)]
    search_reindex_all()
    claim = Claim.objects.current().get(page=linked)

    def importance() -> tuple[int, int]:
        return (SearchDocument.objects.get(kind="page", object_id=linked.pk).importance,
                SearchDocument.objects.get(kind="claim", object_id=claim.pk).importance)

    assert importance() == (2, 2)
    page_delete(page=linkers[0], user=None, reason="Spam page")
    assert importance() == (1, 1)
    page_restore(page=linkers[0], user=None)
    assert importance() == (2, 2)


def _importance(page: Page) -> tuple[int, int]:
    """The importance of ``page``'s search document and of its one claim's."""
    claim = Claim.objects.current().get(page=page)
    return (SearchDocument.objects.get(kind="page", object_id=page.pk).importance,
            SearchDocument.objects.get(kind="claim", object_id=claim.pk).importance)


def _relink(page: Page, body: str) -> None:
    page_save_revision(slug=page.slug, title=page.title, body=body)


def test_adding_a_link_raises_the_linked_pages_importance_and_rank_at_once_and_removing_it_lowers_them() -> None:
    first = make_page(slug="apple", title="Apple", body="## 关键要点\n\n- 榴莲 grows here.\n")
    second = make_page(slug="banana", title="Banana", body="## 关键要点\n\n- 榴莲 grows here.\n")
    linker = make_page(slug="orchard", title="Orchard", body="No links yet.")

    def ranked() -> list[int]:
        return [hit.object_id for hit in search("榴莲", kinds=["page"]).groups[0].hits]

    assert _importance(second) == (0, 0) and ranked() == [first.pk, second.pk]
    _relink(linker, "See [[Banana]].")
    assert _importance(second) == (1, 1) and ranked() == [second.pk, first.pk]
    _relink(linker, "No links now.")
    assert _importance(second) == (0, 0) and ranked() == [first.pk, second.pk]


def test_a_save_reindexes_the_targets_it_added_or_removed_and_leaves_the_kept_ones_alone() -> None:
    kept, dropped, added = (make_page(slug=slug, title=slug.title(), body=f"## 关键要点\n\n- 榴莲 on {slug}.\n")
                            for slug in ("kept", "dropped", "added"))
    linker = make_page(slug="orchard", title="Orchard", body="See [[Kept]] and [[Dropped]].")
    assert (_importance(kept), _importance(dropped), _importance(added)) == ((1, 1), (1, 1), (0, 0))
    # A stand-in for a document some other write would refresh: the save must not touch it.
    SearchDocument.objects.filter(kind="page", object_id=kept.pk).update(importance=99)

    _relink(linker, "See [[Kept]] and [[Added]].")

    assert (_importance(kept), _importance(dropped), _importance(added)) == ((99, 1), (0, 0), (1, 1))


def test_reverting_to_a_revision_without_a_link_lowers_the_linked_pages_importance_and_reverting_back_raises_it() -> None:
    linked = make_page(slug="banana", title="Banana", body="## 关键要点\n\n- 榴莲 grows here.\n")
    linker = make_page(slug="orchard", title="Orchard", body="No links yet.")
    _relink(linker, "See [[Banana]].")
    assert _importance(linked) == (1, 1)

    page_revert(page=linker, number=1)
    assert _importance(linked) == (0, 0)
    page_revert(page=linker, number=2)
    assert _importance(linked) == (1, 1)


def test_importing_a_page_that_links_raises_the_linked_pages_importance_at_once() -> None:
    linked = make_page(slug="banana", title="Banana", body="## 关键要点\n\n- 榴莲 grows here.\n")

    page_import(page_file=PageFile(slug="orchard", title="Orchard", summary="", body="See [[Banana]].\n"))

    assert _importance(linked) == (1, 1)


def _queries_to_add_and_remove_links(n: int) -> tuple[list[str], list[str]]:
    targets = [make_page(slug=f"target-{n}-{i}", title=f"Target {n} {i}", body=f"## 关键要点\n\n- 榴莲 {n} {i}.\n")
               for i in range(n)]
    linker = make_page(slug=f"linker-{n}", title=f"Linker {n}", body="No links yet.")
    with CaptureQueriesContext(connection) as added:
        _relink(linker, " ".join(f"[[{t.slug}]]" for t in targets))
    assert {_importance(t) for t in targets} == {(1, 1)}
    with CaptureQueriesContext(connection) as removed:
        _relink(linker, "No links now.")
    assert {_importance(t) for t in targets} == {(0, 0)}
    return query_names(added), query_names(removed)


def test_a_save_reindexes_the_pages_it_links_to_in_the_same_queries_for_one_link_or_many() -> None:
    assert _queries_to_add_and_remove_links(1) == _queries_to_add_and_remove_links(15)


def test_importance_follows_links_citations_and_question_state(many_claims: None) -> None:
    page = Page.objects.get(slug="agentic-rl")
    page_doc = SearchDocument.objects.get(kind="page", object_id=page.pk)
    claim = Claim.objects.current().filter(page=page).first()
    assert claim is not None

    assert page_doc.importance == Page.objects.filter(outgoing_links__target_slug=page.slug).count() > 0
    assert SearchDocument.objects.get(kind="claim", object_id=claim.pk).importance == page_doc.importance
    cited = claim.citations.first()
    assert cited is not None
    assert SearchDocument.objects.get(kind="source", object_id=cited.source_id).importance == (
        Claim.objects.current().filter(citations__source_id=cited.source_id).distinct().count()
    )
    urgent = make_question(title="Urgent 榴莲", priority="high", status="open")
    settled = make_question(title="Settled 榴莲", priority="high", status="dropped")
    search_reindex_questions([urgent.pk, settled.pk])
    importance = dict(SearchDocument.objects.filter(kind="question").values_list("object_id", "importance"))
    assert importance[urgent.pk] > importance[settled.pk]


def test_generate_wiki_builds_the_search_index_it_needs(seed: None) -> None:
    from io import StringIO

    out = StringIO()
    call_command("generate_wiki", works=20, claims=200, pages=20, seed=5, stdout=out, verbosity=0)

    assert "Search index rebuilt" in out.getvalue()
    assert SearchDocument.objects.filter(kind="claim").count() == Claim.objects.current().count()
    assert search("实验", kinds=["claim"]).groups[0].total == Claim.objects.current().filter(text__contains="实验").count()


def test_generate_wiki_says_plainly_when_it_left_the_index_alone(seed: None) -> None:
    from io import StringIO

    out = StringIO()
    call_command("generate_wiki", works=20, claims=50, pages=5, seed=6, no_index=True, stdout=out, verbosity=0)

    assert "Search index NOT built" in out.getvalue()
    assert SearchDocument.objects.filter(kind="claim").count() < Claim.objects.current().count()


@pytest.mark.parametrize("query", ["Cua", "cua", "CUA", " Cua "])
def test_a_work_called_exactly_what_is_searched_ranks_first_above_the_glossary_terms_works(seed: None, query: str) -> None:
    results = search(query, kinds=["source"])

    assert [t.slug for t in results.terms] == ["computer-use-agent"]
    [group] = results.groups
    assert len(group.hits) > 1
    assert group.hits[0].url == "/sources/cua/"


def test_a_work_whose_short_name_or_title_is_the_query_ranks_first_whatever_the_case(seed: None) -> None:
    short = make_source(slug="durian-short", short_name="Durian", title="Durian: a study of the king of fruits")
    titled = make_source(slug="durian-titled", short_name="KoF", title="durian")
    mentions = [make_source(slug=f"durian-notes-{n}", short_name=f"Notes {n}", title=f"Durian and durian-like fruits {n}",
                            abstract="Durian, durian, durian.") for n in range(3)]
    search_reindex_all()

    hits = search("DURIAN", kinds=["source"]).groups[0].hits

    assert {hit.object_id for hit in hits[:2]} == {short.pk, titled.pk}
    assert {hit.object_id for hit in hits[2:]} == {m.pk for m in mentions}


def test_a_page_titled_exactly_as_the_query_ranks_above_the_page_defining_a_term_it_names(seed: None) -> None:
    titled = make_page(slug="policy-gradient-notes", title="Policy Gradient", body="Short notes.")
    search_reindex_all()

    hits = search("policy gradient", kinds=["page"]).groups[0].hits

    assert hits[0].object_id == titled.pk
    assert hits[1].url == "/wiki/agentic-rl/"
