"""Suggestions for many works at once: stored and classified again only when what they read changed; the triage
order over the whole queue; reports computed once for every language, by one request at a time."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.client import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classifier.model import current_weights
from tests.factories import make_classification, make_editor, make_source
from wiki import suggestions
from wiki.caching import release
from wiki.models import Source, StoredSuggestion
from wiki.reports import consistency

pytestmark = pytest.mark.django_db

STRICT = "We train the web agent with GRPO in a live browser environment over many steps; task success is the reward."
SFT = "We fine-tune the model on expert trajectories filtered by a verifier."


def _editor_client() -> Client:
    client = Client()
    client.force_login(make_editor())
    return client


def test_the_agreement_report_classifies_only_works_whose_text_or_weights_changed(
    classified: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = _editor_client()
    works = [make_source(short_name=f"Kept{n}", abstract=SFT) for n in range(3)]
    for work in works:
        make_classification(work, mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                            multi_step=False, verifiable_reward=False, rl_update=False)
    url = reverse("wiki:classifier-agreement")
    assert client.get(url).status_code == 200
    assert {"Kept0", "Kept1", "Kept2"} <= set(classified)
    classified.clear()
    cache.clear()  # nothing remembers that the suggestions are up to date: the stored digests say so
    html = client.get(url).content.decode()
    assert classified == []
    assert "agrees on\n3 of 3 works" in html or re.search(r"3\s+of\s+3 works", html)
    works[1].abstract = STRICT
    works[1].save()
    client.get(url)
    assert classified == ["Kept1"]
    classified.clear()
    # New weights: every stored suggestion was made with the old ones.
    newer = dataclasses.replace(current_weights(), version=current_weights().version + 1)
    monkeypatch.setattr(suggestions, "current_weights", lambda: newer)
    monkeypatch.setattr("wiki.reports.agreement.current_weights", lambda: newer)
    client.get(url)
    assert {"Kept0", "Kept1", "Kept2"} <= set(classified)
    assert set(StoredSuggestion.objects.values_list("weights_version", flat=True)) == {newer.version}


def test_stored_and_fresh_suggestions_are_the_same(classified: list[str]) -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    suggestions.suggestions_refresh(limit=None)
    row = StoredSuggestion.objects.get(source=source, component=None)
    assert row.as_suggestion() == suggestions.suggestion_for(source).suggestion
    classified.clear()
    [view] = suggestions.stored_suggestions_for([source]).values()
    assert classified == [] and view.suggestion == row.as_suggestion() and view.has_suggestion


def _cards(html: str) -> list[str]:
    return re.findall(r'<li class="card triage-item" tabindex="0" id="triage-([^"]+)">', html)


def test_the_triage_order_is_over_the_whole_queue_a_page_at_a_time() -> None:
    sure = [make_source(short_name=f"Sure{n:02}", abstract=STRICT) for n in range(51)]
    vague = make_source(short_name="Vague", abstract="A system.")  # the newest work, the least confident
    client = _editor_client()
    least = client.get(reverse("wiki:triage") + "?order=least").content.decode()
    assert _cards(least)[0] == vague.slug and len(_cards(least)) == 50
    most = client.get(reverse("wiki:triage")).content.decode()
    assert _cards(most) == [source.slug for source in sure[:50]]
    second = client.get(reverse("wiki:triage") + "?p=2").content.decode()
    assert _cards(second) == [sure[50].slug, vague.slug]
    assert "52 works without a classification; 51–52 shown" in second
    assert 'rel="prev"' in second and 'rel="next"' not in second
    # The last of page one makes way for the first of page two.
    card = most[most.index(f'id="triage-{sure[49].slug}"'):]
    assert f'name="then" value="{sure[50].slug}"' in card[:card.index("</form>")]
    # Accepting on page two comes back to page two, at the next work.
    accept = reverse("wiki:triage-accept", kwargs={"slug": sure[50].slug})
    response = client.post(accept, {"then": vague.slug, "p": "2"})
    assert response["Location"] == reverse("wiki:triage") + f"?p=2#triage-{vague.slug}"
    assert _cards(client.get(response["Location"]).content.decode()) == [vague.slug]


def test_a_page_past_the_end_of_the_queue_shows_the_last() -> None:
    make_source(short_name="Only", abstract=STRICT)
    html = _editor_client().get(reverse("wiki:triage") + "?p=99").content.decode()
    assert len(_cards(html)) == 1


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per computation of the consistency report."""
    calls: list[int] = []
    real = consistency.consistency_report

    def counted() -> consistency.ConsistencyReport:
        calls.append(1)
        return real()

    monkeypatch.setattr(consistency, "consistency_report", counted)
    return calls


def test_the_consistency_report_is_computed_once_for_readers_of_every_language(computed: list[int]) -> None:
    make_classification(make_source(short_name="Loom-RL"), mechanism="harness", verdict="not_strict", rl_update=False)
    url = reverse("wiki:consistency-report")
    english = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = Client().get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert len(computed) == 1
    assert "the name says RL, the mechanism is Harness / scaffold" in english
    assert "名称说是 RL，机制却是" in chinese and "the name says RL" not in chinese


def test_while_one_request_computes_the_report_the_others_get_the_last_one(computed: list[int]) -> None:
    make_classification(make_source(short_name="Loom-RL"), mechanism="harness", verdict="not_strict", rl_update=False)
    url = reverse("wiki:consistency-report")
    Client().get(url)
    make_classification(make_source(short_name="Weft-RL"), mechanism="harness", verdict="not_strict", rl_update=False)
    lock = f"wiki:consistency-report:{release.RELEASE}:computing"
    assert cache.add(lock, True, 60)
    html = Client().get(url).content.decode()
    assert len(computed) == 1 and "Loom-RL" in html and "Weft-RL" not in html
    cache.delete(lock)
    assert "Weft-RL" in Client().get(url).content.decode()
    assert len(computed) == 2


def test_a_disagreeing_verdict_reads_in_the_readers_language() -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    make_classification(source, mechanism="harness", verdict="not_strict", interactive_env=False, multi_step=False,
                        verifiable_reward=False, rl_update=False)
    [finding] = consistency.consistency_report().verdict_disagrees
    from django.utils import translation

    with translation.override("en"):
        assert finding.detail.startswith("editor: Not strict; suggested: Strict Agentic RL — Policy gradient")
    with translation.override("zh-hans"):
        assert finding.detail.startswith("编辑者：") and "机制：策略梯度" in finding.detail


def test_works_classified_as_read_the_works_table_once() -> None:
    sql = str(Source.objects.classified_as(mechanism="harness", verdict="not_strict").query)
    assert len(re.findall(r'(?:FROM|JOIN) "wiki_source"', sql)) == 1


def test_generating_a_wiki_analyzes_its_tables_and_stores_every_suggestion() -> None:
    with CaptureQueriesContext(connection) as queries:
        call_command("generate_wiki", works=4, claims=6, pages=1, no_index=True, verbosity=0)
    assert any(query["sql"].startswith("ANALYZE ") and '"wiki_source"' in query["sql"] for query in queries.captured_queries)
    assert set(StoredSuggestion.objects.filter(component=None).values_list("source_id", flat=True)) == set(
        Source.objects.values_list("pk", flat=True))


def test_with_nothing_written_since_the_last_refresh_no_query_asks_whether_anything_changed(
    classified: list[str],
) -> None:
    work = make_source(short_name="Still", abstract=SFT)
    assert suggestions.suggestions_refresh(limit=None)
    assert suggestions.suggestions_refresh()  # the rows it stored were a write: no work is marked as changed
    with CaptureQueriesContext(connection) as queries:
        assert suggestions.suggestions_refresh()
    assert len(queries) == 0

    classified.clear()
    work.abstract = STRICT
    work.save()
    with CaptureQueriesContext(connection) as queries:
        assert suggestions.suggestions_refresh()
    assert any(suggestions.STALE_TABLE in query["sql"] for query in queries.captured_queries)
    assert classified == ["Still"]
