"""Works a page's citations create are named as other works are: never under a short name another work has. A title
cited as a work's short name, in any case, width or punctuation, is that work."""

from __future__ import annotations

from tests.factories import claims_of, make_source
from wiki.models import Citation, Source
from wiki.services.citations import citations_resolve
from wiki.services.pages import page_save
from wiki.services.sources import sources_by_title, sources_ensure_for_titles


def test_a_title_cited_as_a_short_name_written_otherwise_is_that_work(db: None) -> None:
    tree = make_source(short_name="Tree-GRPO", title="Tree Search for LLM Agent Reinforcement Learning")
    _, report = citations_resolve(titles=["Tree GRPO", "ｔｒｅｅ-ｇｒｐｏ"])
    assert [(m.outcome, m.work.slug if m.work else None) for m in report.matches] == [
        ("short_name", tree.slug), ("short_name", tree.slug)]


def test_saving_a_page_that_cites_a_short_name_written_otherwise_cites_the_work_and_creates_none(db: None) -> None:
    tree = make_source(short_name="Tree-GRPO", title="Tree Search for LLM Agent Reinforcement Learning")
    saved = page_save(slug="trees", title="Trees", body="## 要点\n\n- 树搜索有效。（来源：Tree GRPO，§3）\n")
    assert list(Source.objects.values_list("pk", flat=True)) == [tree.pk]
    claim = claims_of(saved.revision.page)[0]
    assert list(Citation.objects.filter(claim=claim).values_list("source", "locator")) == [(tree.pk, "§3")]
    # Rendering reads citations the same way.
    assert sources_by_title(["Tree GRPO"]) == {"Tree GRPO": tree}


def test_a_cited_title_whose_head_names_another_work_is_called_by_its_whole_title(db: None) -> None:
    make_source(short_name="Mirage", title="Mirage: Seeing Things", year=2021, authors="Doe, John")
    _, created = sources_ensure_for_titles(titles=["Mirage: Hearing Things"])
    assert [(s.short_name, s.slug) for s in created] == [("Mirage: Hearing Things", "mirage-hearing-things")]
    assert Source.objects.filter(short_name="Mirage").count() == 1


def test_titles_cited_together_get_distinct_names_and_a_title_cited_whole_keeps_its_own(db: None) -> None:
    matched, _ = sources_ensure_for_titles(titles=["Echo: Listening Agents", "Echo: Speaking Agents", "Echo"])
    assert {title: source.short_name for title, source in matched.items()} == {
        "Echo: Listening Agents": "Echo: Listening Agents", "Echo: Speaking Agents": "Echo: Speaking Agents", "Echo": "Echo"}


def test_a_title_two_older_works_share_as_short_name_gets_a_numbered_name(db: None) -> None:
    make_source(short_name="Twin", title="The First Twin")
    make_source(short_name="twin", title="The Second Twin")
    matched, created = sources_ensure_for_titles(titles=["Twin"])
    assert [(s.title, s.short_name) for s in created] == [("Twin", "Twin (2)")]
    # Cited again, the title finds the work created for it.
    assert sources_by_title(["Twin"]) == {"Twin": matched["Twin"]}
