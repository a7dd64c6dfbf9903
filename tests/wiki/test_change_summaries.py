"""What the wiki writes itself into recent changes reads in the reader's language; an editor's words read as typed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_claim, make_editor, make_source
from wiki.change_summaries import summary
from wiki.models import ChangeEvent, ClaimStatus, QuestionStatus
from wiki.services.claims import claim_set_status
from wiki.services.classifications import classification_save
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_create, question_update
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db


def _changes(client: Client, language: str) -> str:
    return client.get(reverse("wiki:changes"), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_wikis_own_summaries_read_in_each_readers_language(client: Client) -> None:
    claim = make_claim("SkillForge 用 GRPO 更新策略。")
    claim_set_status(claim=claim, status=ClaimStatus.VERIFIED)
    source = make_source(title="Tree Search for Agents", venue="")
    source_update(source=source, fields={"venue": "ICLR", "year": 2026})
    classification_save(source=source, fields={"mechanism": "inference_time_search", "verdict": "not_strict"})
    question_create(fields={"title": "Does the reward leak?", "priority": "high"})

    stored = dict(ChangeEvent.objects.exclude(summary_key="").values_list("summary_key", "summary"))
    assert stored["claim_status"] == "status Needs verification → Verified"
    assert stored["changed_fields"] == "changed Venue, Year"
    assert stored["classified"] == "Inference-time search, Not strict"
    chinese, english = _changes(client, "zh-Hans"), _changes(client, "en")
    for said in ("状态 待核实 → 已核实", "修改了发表处、年份", "优先级：高"):
        assert said in chinese
    for said in ("status Needs verification → Verified", "changed Venue, Year", "priority High"):
        assert said in english
    assert "needs_verification" not in chinese + english and "inference_time_search" not in chinese + english


def test_an_answered_question_is_said_answered_in_the_words_its_status_is_shown_in(client: Client) -> None:
    question = question_create(fields={"title": "Does the reward leak?", "priority": "high"})
    answer = make_claim("它没有泄漏。")
    question_update(question=question, fields={"status": QuestionStatus.ANSWERED, "answer_claim": answer}, claims=[answer])

    event = ChangeEvent.objects.get(summary_key="question_answered")
    with translation.override("zh-hans"):
        assert summary(event.summary_key, **event.summary_values).text() == str(QuestionStatus.ANSWERED.label) == "已回答"
    assert "已解答" not in _changes(client, "zh-Hans")


def test_answering_a_question_says_what_else_the_edit_changed_of_its_triage(client: Client) -> None:
    question = question_create(fields={"title": "Does the reward leak?", "priority": "high"})
    answer = make_claim("它没有泄漏。")
    question_update(question=question, fields={"status": QuestionStatus.ANSWERED, "priority": "low",
                                               "assignee": make_editor("lin"), "answer_claim": answer}, claims=[answer])

    assert "已回答；优先级 高 → 低；指派给 lin" in _changes(client, "zh-Hans")
    assert "answered; priority High → Low; assigned to lin" in _changes(client, "en")
    # the answer is told when and by whom it was given, as a plain one is
    page = client.get(reverse("wiki:question-detail", kwargs={"pk": question.pk}), HTTP_ACCEPT_LANGUAGE="en")
    assert page.context["question"].answered_at is not None


def test_an_editors_own_summary_is_shown_as_typed(client: Client) -> None:
    page_save_revision(slug="typed", title="Typed", body="Text.", comment="no change")
    event = ChangeEvent.objects.get(label="Typed")
    assert (event.summary, event.summary_key) == ("no change", "")
    # The same words the wiki would write, typed by an editor, stay theirs.
    assert "no change" in _changes(client, "zh-Hans")
    with translation.override("zh-hans"):
        assert summary("no_change").text() == "无改动"


def test_renaming_a_question_says_its_old_and_new_title_as_a_page_rename_does(client: Client, editor_client: Client) -> None:
    question = question_create(fields={"title": "Does the reward leak?", "priority": "high"})
    question_update(question=question, fields={"title": "Does the shaped reward leak?"})
    form = {"title": "Does the dense reward leak?", "text": "", "page": "", "status": "open", "priority": "low",
            "assignee": "", "resolution_criteria": "", "answer_claim": "", "sources": ""}
    saved = editor_client.post(reverse("wiki:question-edit", kwargs={"pk": question.pk}), form)

    assert saved.status_code == 302
    chinese, english = _changes(client, "zh-Hans"), _changes(client, "en")
    assert "标题：Does the reward leak? → Does the shaped reward leak?" in chinese
    assert "标题：Does the shaped reward leak? → Does the dense reward leak?；优先级 高 → 低" in chinese
    assert "Title: Does the shaped reward leak? → Does the dense reward leak?; priority High → Low" in english
    assert not ChangeEvent.objects.filter(object_id=question.pk, summary_key="question_details").exists()
