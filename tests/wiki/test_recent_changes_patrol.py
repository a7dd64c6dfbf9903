"""Recent changes as editors patrol them: each row links its diff or revision and its history, the list is limited to
the last days and can leave out the reader's own edits, rows stand under the day they were made on in the reader's
time zone, an edit without a summary says so, and a question's triage says what changed from what."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_claim, make_editor, make_indexed_question, make_source
from wiki.models import ChangeEvent, Page
from wiki.roles import Account
from wiki.services.classifications import classification_save
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_update

pytestmark = pytest.mark.django_db


def _changes(client: Client, language: str = "en", **params: str) -> str:
    response = client.get(reverse("wiki:changes"), params, headers={"accept-language": language})
    assert response.status_code == 200
    return response.content.decode()


def _row(html: str, label: str) -> str:
    """The first row naming ``label``."""
    rows: list[str] = re.findall(r"<tr>.*?</tr>", html, re.S)
    return next(row for row in rows if f">{label}</a>" in row)


def test_a_page_edit_links_its_diff_and_history_and_a_new_page_its_revision(client: Client) -> None:
    page_save_revision(slug="patrolled", title="Patrolled", body="First.", comment="start")
    page_save_revision(slug="patrolled", title="Patrolled", body="First. Second.", comment="more")
    page_save_revision(slug="patrolled", title="Patrolled", body="First. Second. Third.", comment="again")
    page_save_revision(slug="other", title="Other", body="Other text.")

    html = _changes(client)

    rows = [row for row in re.findall(r"<tr>.*?</tr>", html, re.S) if ">Patrolled</a>" in row]
    history = 'href="/wiki/patrolled/history/"'
    assert 'href="/wiki/patrolled/diff/?from=2&amp;to=3">diff</a>' in rows[0] and history in rows[0]
    assert 'href="/wiki/patrolled/diff/?from=1&amp;to=2">diff</a>' in rows[1] and history in rows[1]
    assert 'href="/wiki/patrolled/revisions/1/">revision</a>' in rows[2] and "diff" not in rows[2]
    assert 'href="/wiki/other/revisions/1/"' in _row(html, "Other")
    chinese = _changes(client, "zh-Hans")
    assert ">差异</a> | <a href=\"/wiki/patrolled/history/\">历史</a>" in chinese


def test_a_deleted_page_s_changes_link_no_history(client: Client) -> None:
    page_save_revision(slug="gone", title="Gone", body="Text.")
    Page.objects.filter(slug="gone").update(deleted_at=timezone.now())

    assert "change-links" not in _row(_changes(client), "Gone")


def test_claim_and_classification_changes_link_their_history(client: Client) -> None:
    claim = make_claim("SkillForge 用 GRPO 更新策略。", status="verified")
    source = make_source(short_name="Linked")
    classification = classification_save(source=source, fields={"mechanism": "harness", "verdict": "not_strict"})

    html = _changes(client, kind="claim") + _changes(client, kind="classification")

    assert f'href="/claims/{claim.pk}/#history-heading">history</a>' in html
    assert f'href="/classifications/{classification.pk}/history/">history</a>' in html


def _patrolled_wiki(editors: list[Account], pages: int) -> None:
    """Each of ``pages`` pages created then edited, and a claim and a classification changed, by each editor in turn."""
    for n in range(pages):
        author = editors[n % len(editors)]
        page_save_revision(slug=f"page-{n}", title=f"Page {n}", body="Text.", user=author)
        page_save_revision(slug=f"page-{n}", title=f"Page {n}", body="Text, edited.", user=author)
        make_claim(f"Claim {n} says something.", status="verified", user=author)
        classification_save(source=make_source(), fields={"mechanism": "harness", "verdict": "not_strict"}, user=author)


def test_the_links_cost_no_query_per_row(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    ChangeEvent.objects.all().delete()
    editors = [make_editor() for _ in range(3)]
    _patrolled_wiki(editors, 2)
    with django_assert_num_queries(2):
        few = client.get(reverse("wiki:changes"))
    _patrolled_wiki(editors, 15)
    with django_assert_num_queries(2):
        many = client.get(reverse("wiki:changes"))

    assert len(many.context["changes"]) == 50
    assert many.content.decode().count(">history</a>") > few.content.decode().count(">history</a>") > 4
    client.force_login(editors[0])
    with django_assert_num_queries(5):  # the account and its permissions (the menu), then as before
        client.get(reverse("wiki:changes"), {"hidemine": "1", "days": "7"})


def _event(label: str, *, user: Account | None = None, at: datetime | None = None, kind: str = "question") -> ChangeEvent:
    event = ChangeEvent.objects.create(kind=kind, action="edited", object_id=1, label=label, url="/", user=user,
                                       summary="said")
    if at is not None:
        ChangeEvent.objects.filter(pk=event.pk).update(created_at=at)
    return event


def test_the_last_days_and_the_reader_s_own_edits_filter_with_the_user_and_kind(client: Client) -> None:
    me, other = make_editor("me"), make_editor("other")
    now = timezone.now()
    _event("Mine today", user=me)
    _event("Theirs today", user=other)
    _event("Theirs two days ago", user=other, at=now - timedelta(days=2))
    _event("Theirs a week ago", user=other, at=now - timedelta(days=6))
    _event("Their page today", user=other, kind="page")
    client.force_login(me)

    def labels(**params: str) -> set[str]:
        return {c.label for c in client.get(reverse("wiki:changes"), params).context["changes"]}

    assert labels(days="1") == {"Mine today", "Theirs today", "Their page today"}
    assert labels(days="3", hidemine="1") == {"Theirs today", "Theirs two days ago", "Their page today"}
    assert labels(days="7", hidemine="1", kind="question", user="other") == {
        "Theirs today", "Theirs two days ago", "Theirs a week ago"}
    assert labels(hidemine="1", user="me") == set()
    html = _changes(client, days="3", hidemine="1", kind="question")
    assert '<option value="3" selected>last 3 days</option>' in html
    assert '<input type="checkbox" name="hidemine" value="1" checked>' in html
    assert '<option value="question" selected>' in html
    # Someone not logged in has no edits to hide: the choice is not offered, and asking for it hides nothing.
    client.logout()
    assert "hidemine" not in _changes(client)
    assert "Mine today" in labels(hidemine="1")


def test_pages_of_changes_keep_the_days_and_hide_mine(client: Client) -> None:
    me, other = make_editor("me"), make_editor("other")
    ChangeEvent.objects.bulk_create(
        ChangeEvent(kind="question", action="edited", object_id=n, label=f"Q{n}", url="/", user=other) for n in range(60))
    client.force_login(me)

    html = _changes(client, days="7", hidemine="1")

    assert 'href="?days=7&amp;hidemine=1&amp;p=2"' in html


@pytest.mark.parametrize("days", ["2", "x", "-1", "365"])
def test_a_number_of_days_not_offered_is_refused(client: Client, days: str) -> None:
    refused = client.get(reverse("wiki:changes"), {"days": days}, headers={"accept-language": "zh-Hans"})

    assert refused.status_code == 400
    content = refused.content.decode()
    assert f"“{days}”不是可选的天数" in content and 'aria-describedby="days_error"' in content


def test_rows_stand_under_the_day_they_were_made_on_in_the_reader_s_zone_and_language(client: Client) -> None:
    # 23:30 in London on 1 March is 07:30 on 2 March in Shanghai.
    _event("Late in London", at=datetime(2025, 3, 1, 23, 30, tzinfo=UTC))
    _event("Earlier that day", at=datetime(2025, 3, 1, 9, 0, tzinfo=UTC))

    shanghai = _changes(client)
    client.cookies[settings.TIME_ZONE_COOKIE_NAME] = "Europe/London"
    london, chinese = _changes(client), _changes(client, "zh-Hans")

    def days(html: str) -> list[tuple[str, str]]:
        return re.findall(r'<h2 id="day-[\d-]+"><time datetime="([\d-]+)">(.*?)</time></h2>', html)

    assert days(shanghai) == [("2025-03-02", "Sunday, March 2, 2025"), ("2025-03-01", "Saturday, March 1, 2025")]
    assert days(london) == [("2025-03-01", "Saturday, March 1, 2025")]
    assert days(chinese) == [("2025-03-01", "2025年3月1日 星期六")]
    section = london.split('<h2 id="day-2025-03-01">', 1)[1]
    assert section.index("Late in London") < section.index("Earlier that day")
    assert 'aria-labelledby="day-2025-03-01"' in london and '<th scope="col" class="nowrap">Time</th>' in section


def test_an_edit_without_a_summary_says_so(client: Client) -> None:
    page_save_revision(slug="silent", title="Silent", body="Text.")

    assert '<span class="muted">no summary</span>' in _row(_changes(client), "Silent")
    assert '<span class="muted">无摘要</span>' in _row(_changes(client, "zh-Hans"), "Silent")


def test_a_question_s_triage_says_what_changed_from_what(client: Client) -> None:
    first, second = make_editor("editor1"), make_editor("editor2")
    claim = make_claim("Rewards leak through the judge.")
    question = make_indexed_question(title="Does the reward leak?", priority="high", assignee=first, page=claim.page)
    question_update(question=question, fields={"status": "answered", "answer_claim": claim})
    question_update(question=question, fields={"status": "open", "assignee": second})
    question_update(question=question, fields={"priority": "low", "assignee": None})
    question_update(question=question, fields={"assignee": first})

    summaries = list(ChangeEvent.objects.filter(kind="question").order_by("-created_at", "-id")
                     .values_list("summary", flat=True))
    assert summaries == [
        "assigned to editor1",
        "priority High → Low; no longer assigned to editor2",
        "status Answered → Open; assigned to editor2 instead of editor1",
        "answered",
        "priority High",
    ]
    chinese = _changes(client, "zh-Hans")
    assert "状态 已回答 → 待处理；改为指派给 editor2（原为 editor1）" in chinese
    assert "优先级 高 → 低；不再指派给 editor2" in chinese
