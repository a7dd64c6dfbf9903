import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.client import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_classification, make_editor, make_source
from wiki.caching import versions
from wiki.models import Classification

pytestmark = pytest.mark.django_db


def _get(client: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("wiki:classifier-agreement"))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_agreement_page_shows_the_editors_decisions_against_suggestions() -> None:
    client = Client()
    client.force_login(make_editor())
    source = make_source(short_name="Quillmate",
                         abstract="We train the web agent with PPO in a live browser environment; task success is the reward.")
    make_classification(source, mechanism="harness", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    _, html = _get(client)
    assert "Confusion matrix" in html
    assert "Per mechanism" in html
    # The editors said harness, the suggestion says policy gradient: one work in that cell, the rest empty;
    # rows and columns named by the mechanisms' labels, not their keys.
    columns = re.findall(r'<th scope="col" data-mechanism="([a-z_]+)">([^<]+)</th>', html)
    assert ("policy_gradient", "Policy gradient") in columns and ("harness", "Harness / scaffold") in columns
    row = re.search(r'<tr><th scope="row" data-mechanism="harness">Harness / scaffold</th>(.*?)</tr>', html)
    assert row is not None
    cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
    assert cells[[key for key, _ in columns].index("policy_gradient")] == "1"
    assert sorted(cells) == ["1"] + ["·"] * (len(columns) - 1)


@pytest.mark.usefixtures("small_wiki")
def test_agreement_page_runs_the_same_queries_however_many_works() -> None:
    client = Client()
    client.force_login(make_editor())
    _get(client)  # the editor's account is cached from the first request on

    def classified(n: int) -> None:
        make_classification(make_source(short_name=f"Work{n}", abstract="We fine-tune the model on expert trajectories."),
                            mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                            multi_step=False, verifiable_reward=False, rl_update=False)

    # Each count right after works were added (their suggestions are stored), then again with nothing changed.
    versions.bump()
    classified(0)
    before = [_get(client)[0], _get(client)[0]]
    for n in range(1, 9):
        classified(n)
    after = [_get(client)[0], _get(client)[0]]
    assert after == before


def test_agreement_page_is_for_logged_in_editors() -> None:
    response = Client().get(reverse("wiki:classifier-agreement"))
    assert response.status_code == 302


def test_agreement_page_reads_the_classifications_again_only_when_they_change() -> None:
    client = Client()
    client.force_login(make_editor())
    source = make_source(short_name="Quillmate",
                         abstract="We train the web agent with PPO in a live browser environment; task success is the reward.")
    classification = make_classification(source, mechanism="harness", verdict="not_strict", interactive_env=False,
                                         multi_step=False, verifiable_reward=False, rl_update=False)
    _get(client)

    with CaptureQueriesContext(connection) as queries:
        _, unchanged = _get(client)
    classification_table = Classification._meta.db_table
    assert not any(f'FROM "{classification_table}"' in q["sql"] for q in queries.captured_queries)
    assert re.search(r"agrees on\s+0 of 1 works", unchanged)

    classification.mechanism = "policy_gradient"
    classification.save()
    _, changed = _get(client)
    assert re.search(r"agrees on\s+1 of 1 works", changed)


def _strict_work() -> Classification:
    """A work whose text the classifier reads as strict policy-gradient Agentic RL, and the editors' classification of it
    with the four facts holding."""
    source = make_source(short_name="Quillmate",
                         abstract="We train the web agent with PPO in a live browser environment; task success is the reward.")
    return make_classification(source, mechanism="policy_gradient", verdict="strict")


def test_strict_or_not_agreement_is_with_the_verdict_the_editors_gave() -> None:
    client = Client()
    client.force_login(make_editor())
    classification = _strict_work()
    assert re.search(r"strict-or-not on\s+1\.", _get(client)[1])

    # The editors judged it not strict although its four facts hold (with their reason): the suggestion disagrees.
    classification.verdict = "not_strict"
    classification.rationale = "The reward is the benchmark's own leaderboard, not the agent's environment."
    classification.save()

    assert re.search(r"strict-or-not on\s+0\.", _get(client)[1])


def test_a_classification_counts_in_the_month_it_was_saved_where_the_reader_is() -> None:
    client = Client()
    client.force_login(make_editor())
    classification = _strict_work()
    # Saved on 1 December at 04:00 in Shanghai, still 30 November in London.
    Classification.objects.filter(pk=classification.pk).update(updated_at=datetime(2026, 11, 30, 20, 0, tzinfo=UTC))

    shanghai = _get(client)[1]
    client.cookies["wiki_time_zone"] = "Europe/London"
    london = _get(client)[1]

    assert "<td>2026-12</td>" in shanghai and "2026-11" not in shanghai
    assert "<td>2026-11</td>" in london and "2026-12" not in london
