"""A deleted page's claims and questions leave the graphs, comparisons, classification cards and questions with it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    STRICT_FACTS,
    make_claim,
    make_indexed_question,
    make_page,
    make_source,
)
from wiki.models import Claim, Source
from wiki.roles import Account
from wiki.services.classifications import classification_save
from wiki.services.deletion import page_delete, page_restore

pytestmark = pytest.mark.django_db

SECRET = "Spamclaim 用 GRPO 更新了策略"


def _doomed_claim() -> tuple[Claim, Source, Source]:
    work, other = make_source(short_name="Gripforge", title="Gripforge"), make_source(short_name="Otherwork", title="Otherwork")
    make_page(slug="kept", title="Kept", body=f"## 关键要点\n\n- 另一个论断（来源：{other.title}，§2）\n")
    claim = make_claim(SECRET, cites=[work, other], locator="§3")
    return claim, work, other


def _local(kind: str, key: object) -> str:
    return reverse("wiki:graph-local", kwargs={"kind": kind, "key": key})


def test_the_graphs_leave_out_a_deleted_pages_claims_and_questions(client: Client, staff: Account) -> None:
    claim, work, other = _doomed_claim()
    question = make_indexed_question(title="Spamquestion 是否成立？", page=claim.page, claims=[claim], sources=[work])
    around_work, around_question = _local("source", work.slug), _local("question", question.pk)
    assert SECRET in client.get(around_work).content.decode()
    assert client.get(_local("claim", claim.pk)).status_code == 200

    page_delete(page=claim.page, user=staff, reason="spam")

    # the claim's and the question's own addresses are gone, so are their neighbourhoods
    assert client.get(_local("claim", claim.pk)).status_code == 404
    assert client.get(around_question).status_code == 404
    assert client.get("/api/v1/graph/local/", {"node": f"claim:{claim.pk}"}).status_code == 404
    for url in (around_work, around_work + "?depth=2", reverse("wiki:contrast", args=[work.slug, other.slug]),
                reverse("wiki:contrast-multi") + f"?works={work.slug},{other.slug}", reverse("wiki:source-detail", args=[work.slug])):
        shown = client.get(url).content.decode()
        assert SECRET not in shown and "Spamquestion" not in shown, url
    graph = client.get("/api/v1/graph/local/", {"node": f"source:{work.slug}", "depth": "2"}).json()
    assert f"claim:{claim.pk}" not in {node["id"] for node in graph["nodes"]}

    page_restore(page=claim.page, user=staff)
    assert SECRET in client.get(around_work).content.decode()
    assert client.get(around_question).status_code == 200


def test_a_classifications_evidence_on_a_deleted_page_is_not_shown(client: Client, staff: Account) -> None:
    claim, work, other = _doomed_claim()
    fields = {"mechanism": "policy_gradient", "verdict": "strict", **STRICT_FACTS, "evidence_claim": claim, "evidence_locator": "§3"}
    classification = classification_save(source=work, fields=fields, user=staff)
    card, comparison = reverse("wiki:source-detail", args=[work.slug]), reverse("wiki:compare") + f"?works={work.slug},{other.slug}"
    history = reverse("wiki:classification-history", args=[classification.pk])
    assert all(SECRET in client.get(url).content.decode() for url in (card, comparison, history))

    page_delete(page=claim.page, user=staff, reason="spam")

    for url in (card, comparison, comparison + "&format=json", comparison + "&format=csv", history):
        shown = client.get(url).content.decode()
        assert SECRET not in shown and claim.page.get_absolute_url() not in shown, url
    # the locator typed with it is still the classification's own
    assert "§3" in client.get(card).content.decode()

    page_restore(page=claim.page, user=staff)
    assert SECRET in client.get(card).content.decode()


def test_a_question_no_longer_lists_a_claim_of_a_deleted_page(client: Client, staff: Account) -> None:
    claim, _work, _other = _doomed_claim()
    kept = Claim.objects.current().get(page__slug="kept")
    question = make_indexed_question(title="Which claim holds?", page=kept.page, claims=[claim, kept])
    address = question.get_absolute_url()
    assert SECRET in client.get(address).content.decode()

    page_delete(page=claim.page, user=staff, reason="spam")

    shown = client.get(address).content.decode()
    assert SECRET not in shown and claim.page.title not in shown
    assert "另一个论断" in shown


def test_a_claim_no_longer_lists_the_questions_of_a_deleted_page(client: Client, staff: Account) -> None:
    claim, work, _other = _doomed_claim()
    kept = Claim.objects.current().get(page__slug="kept")
    make_indexed_question(title="Spamquestion 是否成立？", page=claim.page, claims=[kept], sources=[work])
    make_indexed_question(title="Spamanswered 是否成立？", page=claim.page, claims=[kept], answer_claim=kept,
                           status="answered")
    address = kept.get_detail_url()
    assert "Spamquestion" in client.get(address).content.decode()

    page_delete(page=claim.page, user=staff, reason="spam")

    shown = client.get(address).content.decode()
    assert "Spamquestion" not in shown and "Spamanswered" not in shown
