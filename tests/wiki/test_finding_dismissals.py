"""Consistency findings an editor dismisses with a reason: kept, listed apart, reversible, recorded in recent changes."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import FIXTURES
from tests.factories import make_claim, make_classification, make_contrast, make_reader, make_source
from wiki.models import ChangeEvent, Classification, FindingDismissal
from wiki.reports.consistency import classification_key, consistency_report
from wiki.reports.reviewed import consistency_report_reviewed
from wiki.roles import Account
from wiki.services.findings import finding_reopen
from wiki.services.seed import seed_load

pytestmark = pytest.mark.django_db

REPORT = "wiki:consistency-report"


def _section(key: str):  # type: ignore[no-untyped-def]
    return next(section for section in consistency_report_reviewed(cached=False).sections if section.key == key)


def _fresh_finding() -> Classification:
    """A work named …RL… classified as a harness: one new finding in the RL-name section."""
    return make_classification(make_source(slug="fresh-rl", short_name="Fresh-RL"), mechanism="harness",
                               verdict="not_strict", rl_update=False)


def _dismiss(client: Client, classification: Classification, reason: str = "A harness on purpose: the paper trains nothing."):  # type: ignore[no-untyped-def]
    return client.post(reverse("wiki:finding-dismiss"),
                       {"kind": "rl_name_not_rl", "key": classification_key(classification.pk), "reason": reason})


def _table_after(html: str, heading: str) -> str:
    return html.split(heading, 1)[1].split("</table>", 1)[0]


def _loaded_dismissal() -> Classification:
    """A finding dismissed as the wiki was loaded: a dismissal with a reason and no recent change."""
    classification = make_classification(make_source(slug="loaded-rl", short_name="Loaded-RL"), mechanism="infrastructure",
                                         verdict="not_strict", rl_update=False)
    FindingDismissal.objects.create(kind="rl_name_not_rl", key=classification_key(classification.pk), subject="Loaded-RL",
                                    reason="Infrastructure on purpose.")
    return classification


@pytest.mark.usefixtures("seed")
def test_the_seed_explains_its_on_purpose_findings_with_reasons_from_its_documents() -> None:
    rl_names = _section("rl_name_not_rl")
    assert rl_names.open == []
    assert {item.finding.subject for item in rl_names.dismissed} == {"prime-rl", "RLinf", "Agent RL Environment"}
    reasons = {item.finding.subject: item.dismissal.reason for item in rl_names.dismissed}
    assert "属于 Agentic RL 基础设施" in reasons["RLinf"] and "属于 Agentic RL 基础设施" in reasons["prime-rl"]
    assert "提供状态、执行、捕获与判分" in reasons["Agent RL Environment"]
    contrasts = _section("one_sided_contrast")
    assert contrasts.open == []
    assert {item.finding.subject for item in contrasts.dismissed} == {"FACET vs SkillForge", "Agentic ESOpt vs SkillForge"}
    for item in contrasts.dismissed:
        # the reason quotes the other key point that gives SkillForge's side
        assert "GRPO 同时更新环境动作和 skill calling" in item.dismissal.reason
        assert item.dismissal.dismissed_by is None
    # the contrasts' evidence really does name one side only: the check still finds them
    assert {f.subject for f in consistency_report().one_sided_contrast} == {"FACET vs SkillForge", "Agentic ESOpt vs SkillForge"}


@pytest.mark.usefixtures("seed")
def test_loading_the_seed_again_adds_no_dismissal_and_keeps_an_editors_reopening(editor: Account) -> None:
    before = FindingDismissal.objects.count()
    seed_load(directory=FIXTURES)
    assert FindingDismissal.objects.count() == before
    rlinf = Classification.objects.get(source__slug="rlinf")
    finding_reopen(kind="rl_name_not_rl", key=classification_key(rlinf.pk), user=editor)
    seed_load(directory=FIXTURES)
    assert FindingDismissal.objects.count() == before
    assert "RLinf" in {finding.subject for finding in _section("rl_name_not_rl").open}


def test_an_editor_dismisses_a_finding_with_a_reason_shown_with_who_and_when(editor_client: Client, editor: Account) -> None:
    classification = _fresh_finding()
    response = _dismiss(editor_client, classification)
    assert response.status_code == 302
    assert response["Location"] == reverse(REPORT) + f"#finding-rl_name_not_rl-classification-{classification.pk}"
    html = editor_client.get(reverse(REPORT)).content.decode()
    dismissed = _table_after(html.split('id="rl_name_not_rl"', 1)[1], "Dismissed by an editor")
    assert "Fresh-RL" in dismissed and "A harness on purpose: the paper trains nothing." in dismissed
    assert "editor" in dismissed and "<time" in dismissed
    assert "Fresh-RL" not in html.split('id="rl_name_not_rl"', 1)[1].split("Dismissed by an editor", 1)[0]
    event = ChangeEvent.objects.get(kind="finding")
    assert (event.action, event.label, event.user, event.summary) == (
        "dismissed", "Fresh-RL", editor, "A harness on purpose: the paper trains nothing.")
    changes = editor_client.get(reverse("wiki:changes"), {"kind": "finding"}).content.decode()
    assert "Consistency finding" in changes and "Fresh-RL" in changes and "dismissed" in changes


def test_a_dismissal_holds_when_the_report_is_computed_again(editor_client: Client) -> None:
    classification = _fresh_finding()
    _dismiss(editor_client, classification)
    cache.clear()
    make_source(short_name="Unrelated")
    assert "Fresh-RL" in {item.finding.subject for item in _section("rl_name_not_rl").dismissed}
    html = Client().get(reverse(REPORT)).content.decode()
    assert "Fresh-RL" in _table_after(html.split('id="rl_name_not_rl"', 1)[1], "Dismissed by an editor")


def test_reopening_puts_the_finding_back_keeps_the_record_and_is_recorded(editor_client: Client, editor: Account) -> None:
    classification = _fresh_finding()
    _dismiss(editor_client, classification)
    key = classification_key(classification.pk)
    response = editor_client.post(reverse("wiki:finding-reopen"), {"kind": "rl_name_not_rl", "key": key})
    assert response.status_code == 302
    assert "Fresh-RL" in {finding.subject for finding in _section("rl_name_not_rl").open}
    kept = FindingDismissal.objects.get(key=key)
    assert kept.reopened_by == editor and kept.reopened_at is not None
    assert list(ChangeEvent.objects.filter(kind="finding").order_by("id").values_list("action", flat=True)) == ["dismissed", "reopened"]
    # dismissed again, with another reason: a second record
    _dismiss(editor_client, classification, reason="Checked again: still a harness.")
    assert FindingDismissal.objects.filter(key=key).count() == 2
    assert [item.dismissal.reason for item in _section("rl_name_not_rl").dismissed if item.finding.key == key] == ["Checked again: still a harness."]


def test_a_dismissal_without_a_reason_is_refused_and_changes_nothing(editor_client: Client) -> None:
    classification = _fresh_finding()
    response = _dismiss(editor_client, classification, reason="   ")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Say why this finding is not a mistake" in html
    assert re.search(rf'<details open>.*?name="key" value="classification-{classification.pk}"', html, re.S)
    assert not FindingDismissal.objects.filter(key=classification_key(classification.pk)).exists()
    assert not ChangeEvent.objects.filter(kind="finding").exists()


def test_dismissing_what_the_report_does_not_find_or_twice_is_refused(editor_client: Client) -> None:
    rlinf = _loaded_dismissal()
    before = FindingDismissal.objects.count()
    response = editor_client.post(reverse("wiki:finding-dismiss"),
                                  {"kind": "rl_name_not_rl", "key": "classification-999999", "reason": "Because."})
    assert response.status_code == 400 and "no longer in the report" in response.content.decode()
    response = _dismiss(editor_client, rlinf)
    assert response.status_code == 400 and "dismissed already" in response.content.decode()
    response = editor_client.post(reverse("wiki:finding-reopen"), {"kind": "no_evidence", "key": classification_key(rlinf.pk)})
    assert response.status_code == 400 and "is not dismissed" in response.content.decode()
    response = editor_client.post(reverse("wiki:finding-dismiss"), {"kind": "not_a_section", "key": "x", "reason": "Because."})
    assert response.status_code == 400
    assert FindingDismissal.objects.count() == before
    assert not ChangeEvent.objects.filter(kind="finding").exists()


@pytest.mark.usefixtures("seed")
def test_readers_see_the_report_read_only_and_cannot_dismiss(client: Client) -> None:
    classification = _fresh_finding()
    html = client.get(reverse(REPORT)).content.decode()
    assert reverse("wiki:finding-dismiss") not in html and reverse("wiki:finding-reopen") not in html
    # dismissed findings are shown as dismissed, with the reason
    rl_names = html.split('id="rl_name_not_rl"', 1)[1].split("</section>", 1)[0]
    assert "Dismissed by an editor" in rl_names and "RLinf" in _table_after(rl_names, "Dismissed by an editor")
    assert "loaded with the wiki" in rl_names
    response = _dismiss(client, classification)
    assert response.status_code == 403 and not FindingDismissal.objects.filter(key=classification_key(classification.pk)).exists()
    client.force_login(make_reader("reader"))
    assert _dismiss(client, classification).status_code == 403
    rlinf = Classification.objects.get(source__slug="rlinf")
    assert client.post(reverse("wiki:finding-reopen"), {"kind": "rl_name_not_rl", "key": classification_key(rlinf.pk)}).status_code == 403
    assert not FindingDismissal.objects.filter(key=classification_key(classification.pk)).exists()
    assert "RLinf" not in {finding.subject for finding in _section("rl_name_not_rl").open}


def test_a_contrast_dismissal_lapses_when_its_evidence_claim_changes() -> None:
    sft, grpo = make_source(short_name="TaskSmith"), make_source(short_name="GripForge")
    one_sided = make_claim("TaskSmith 用筛选后的轨迹做 SFT，没有用环境回报更新 policy。", cites=[sft])
    other = make_claim("ShopWorld 与 DeskWorld 只评测固定模型。", page=one_sided.page)
    contrast = make_contrast(sft, grpo, axis="SFT vs GRPO", claim=one_sided)
    [finding] = [f for f in consistency_report().one_sided_contrast if f.subject == "TaskSmith vs GripForge"]
    FindingDismissal.objects.create(kind=finding.kind, key=finding.key, subject=finding.subject, reason="Two key points.")
    assert "TaskSmith vs GripForge" not in {finding.subject for finding in _section("one_sided_contrast").open}
    contrast.claim = other
    contrast.save()
    assert "TaskSmith vs GripForge" in {finding.subject for finding in _section("one_sided_contrast").open}


@pytest.mark.usefixtures("seed")
def test_the_command_lists_dismissed_findings_apart_with_their_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("check_consistency")
    out = capsys.readouterr().out
    assert "Works named “…RL…” whose mechanism is not RL: 0 (3 dismissed)" in out
    assert "~ dismissed RLinf" in out and "属于 Agentic RL 基础设施" in out
    assert "Contrasts whose evidence claim does not name both sides: 0 (2 dismissed)" in out


def test_the_report_runs_as_many_queries_for_an_editor_whatever_the_number_of_dismissals(editor_client: Client) -> None:
    url = reverse(REPORT)
    editor_client.get(url)
    with CaptureQueriesContext(connection) as small:
        editor_client.get(url)
    for n in range(30):
        classification = make_classification(make_source(slug=f"bulk-{n}-rl", short_name=f"Bulk{n}-RL"), mechanism="harness",
                                             verdict="not_strict", rl_update=False)
        _dismiss(editor_client, classification, reason=f"Reason {n}.")
    editor_client.get(url)
    with CaptureQueriesContext(connection) as large:
        response = editor_client.get(url)
    assert "Reason 29." in response.content.decode()
    assert len(large.captured_queries) == len(small.captured_queries)


def _many_rl_findings(count: int) -> list[Classification]:
    return [make_classification(make_source(slug=f"many-{n}-rl", short_name=f"Many{n:03d}-RL"), mechanism="harness",
                                verdict="not_strict", rl_update=False) for n in range(count)]


def test_a_finding_past_the_first_is_dismissed_from_its_sections_page_and_shown_there(editor_client: Client) -> None:
    from wiki.reports.reviewed import FINDINGS_SHOWN

    classifications = _many_rl_findings(FINDINGS_SHOWN + 20)
    late = classifications[FINDINGS_SHOWN + 5]
    anchor = f"finding-rl_name_not_rl-{classification_key(late.pk)}"
    url = reverse(REPORT)
    assert anchor not in editor_client.get(url).content.decode()
    second = editor_client.get(url, {"section": "rl_name_not_rl", "p": "2"}).content.decode()
    assert f'<tr id="{anchor}">' in second and 'action="/reports/consistency/dismiss/"' in second

    # A refused dismissal is shown again at its finding, on the page listing it.
    refused = _dismiss(editor_client, late, reason="")
    assert refused.status_code == 400
    assert f'<tr id="{anchor}">' in refused.content.decode()
    assert re.search(rf'<tr id="{anchor}">.*?<details open>', refused.content.decode(), re.DOTALL)

    assert _dismiss(editor_client, late)["Location"] == reverse(REPORT) + f"#{anchor}"
    assert FindingDismissal.objects.active().filter(key=classification_key(late.pk)).exists()

    # Once the dismissed are many, a dismissal leads to the page of the dismissed listing it.
    for classification in classifications[:FINDINGS_SHOWN + 5]:
        assert _dismiss(editor_client, classification).status_code == 302
    last = classifications[-1]
    response = _dismiss(editor_client, last)
    last_anchor = f"finding-rl_name_not_rl-{classification_key(last.pk)}"
    assert response["Location"] == reverse(REPORT) + f"?section=rl_name_not_rl&dp=2#{last_anchor}"
    page = editor_client.get(response["Location"]).content.decode()
    assert f'<tr id="{last_anchor}">' in _table_after(page, "Dismissed by an editor")
    # Reopened, it is listed among the open findings again.
    reopened = editor_client.post(reverse("wiki:finding-reopen"), {"kind": "rl_name_not_rl", "key": classification_key(last.pk)})
    assert reopened["Location"] == reverse(REPORT) + f"#{last_anchor}"
