"""The open-questions queue, its filters, and one question's page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import SmallWiki, make_claim, make_indexed_question, make_page, make_question, make_source
from tests.queries import query_names
from tests.wiki.htmltext import html_text
from wiki.caching import versions
from wiki.models import Claim, OpenQuestion, Page, QuestionStatus
from wiki.services.deletion import page_delete, page_restore
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def _listed_ids(content: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<td><a href="/questions/(\d+)/">', content)]


def test_the_queue_is_sorted_by_priority_then_age(client: Client) -> None:
    OpenQuestion.objects.all().delete()
    now = timezone.now()
    old_low = make_question(title="old low", priority="low")
    new_high = make_question(title="new high", priority="high")
    old_high = make_question(title="old high", priority="high")
    normal = make_question(title="normal", priority="normal")
    for question, age in ((old_low, 10), (new_high, 1), (old_high, 5), (normal, 3)):
        OpenQuestion.objects.filter(pk=question.pk).update(created_at=now - timedelta(days=age))
    content = client.get(reverse("wiki:question-list")).content.decode()
    assert _listed_ids(content) == [old_high.pk, new_high.pk, normal.pk, old_low.pk]


def test_the_queue_shows_the_unresolved_questions_unless_any_status_is_chosen(client: Client) -> None:
    OpenQuestion.objects.all().delete()
    claim = Claim.objects.create(page=make_page(title="Answers"), text="An answer.", key="answer", anchor="claim-answer")
    answered = make_question(title="answered high", priority="high", status=QuestionStatus.ANSWERED, answer_claim=claim)
    low = make_question(title="open low", priority="low")
    dropped = make_question(title="dropped high", priority="high", status=QuestionStatus.DROPPED)
    high = make_question(title="investigating high", priority="high", status=QuestionStatus.INVESTIGATING)
    url = reverse("wiki:question-list")

    default = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    unresolved = client.get(url, {"status": "unresolved", "priority": "low"}).content.decode()
    every = client.get(url, {"status": "all"}).content.decode()

    assert _listed_ids(default) == [high.pk, low.pk]
    assert '<option value="unresolved" selected>Unresolved (open or investigating)</option>' in default.replace(
        '<option value="unresolved">', '<option value="unresolved" selected>')
    assert _listed_ids(unresolved) == [low.pk]
    # answered and dropped questions come after the others whatever their priority
    assert _listed_ids(every) == [high.pk, low.pk, answered.pk, dropped.pk]


def test_the_queue_filters_by_status_and_page(client: Client) -> None:
    page = make_page(title="Filter page")
    open_here = make_question(title="open here", page=page)
    dropped_here = make_question(title="dropped here", page=page, status=QuestionStatus.DROPPED)
    open_elsewhere = make_question(title="open elsewhere")
    by_status = _listed_ids(client.get(reverse("wiki:question-list"), {"status": "dropped"}).content.decode())
    assert dropped_here.pk in by_status and open_here.pk not in by_status
    both = _listed_ids(client.get(reverse("wiki:question-list"), {"status": "open", "page_slug": page.slug}).content.decode())
    assert both == [open_here.pk]
    assert open_elsewhere.pk not in both


def test_the_page_filter_takes_the_pages_title_as_a_wiki_link_would(client: Client) -> None:
    page = make_page(slug="credit-assignment-信用分配", title="Credit Assignment 信用分配")
    here = make_question(title="asked here", page=page)
    make_question(title="asked elsewhere")

    for typed in ("Credit Assignment 信用分配", "credit assignment 信用分配", page.slug):
        response = client.get(reverse("wiki:question-list"), {"page_slug": typed})
        assert _listed_ids(response.content.decode()) == [here.pk], typed
    # the API's filter is the same field
    assert [q["id"] for q in client.get("/api/v1/questions/", {"page_slug": "Credit Assignment 信用分配"}).json()["results"]] == [here.pk]
    titled = make_page(slug="survey-notes", title="Agentic AI 03: Survey Notes")
    noted = make_question(title="asked on the notes", page=titled)
    assert _listed_ids(client.get(reverse("wiki:question-list"), {"page_slug": "agentic ai 03: survey notes"}).content.decode()) == [noted.pk]
    refused = client.get(reverse("wiki:question-list"), {"page_slug": "Credit"})
    assert refused.status_code == 400 and "There is no page “Credit”." in refused.content.decode()
    make_page(slug="survey-notes-2", title="Agentic AI 03: Survey Notes")
    twice = client.get(reverse("wiki:question-list"), {"page_slug": "Agentic AI 03: Survey Notes"})
    assert twice.status_code == 400 and "More than one page is titled “Agentic AI 03: Survey Notes”" in twice.content.decode()


def test_bad_queue_filters_show_errors_next_to_the_field(client: Client) -> None:
    response = client.get(reverse("wiki:question-list"), {"status": "someday", "page_slug": "no-such-page"})
    assert response.status_code == 400
    content = response.content.decode()
    for field, message in (("status", "Select a valid choice"), ("page_slug", "There is no page “no-such-page”.")):
        errors = re.search(rf'<div id="id_{field}_error" role="alert"><ul class="errorlist">(.*?)</ul>', content, re.DOTALL)
        assert errors and message in errors.group(1)
    assert _listed_ids(content) == []


@pytest.mark.parametrize(("params", "opened"), [
    ({}, False), ({"status": ""}, False), ({"status": "answered"}, True), ({"sort": "oldest"}, True),
])
def test_the_queue_filters_open_on_a_phone_when_one_is_set(client: Client, params: dict[str, str], opened: bool) -> None:
    """The unresolved questions shown when no status is chosen are no choice of the reader's: the filters stay folded."""
    content = client.get(reverse("wiki:question-list"), params).content.decode()
    assert ('<details class="filter-panel" open>' in content) == opened
    assert '<details class="filter-panel"' in content


def test_question_page_shows_text_resolution_claims_sources_and_answer(client: Client, small_wiki: SmallWiki) -> None:
    text = html_text(client.get(small_wiki.question.get_absolute_url()).content.decode())
    assert "SkillLoop 的结果尚需多 seed 验证。" in text
    assert "Runs with five seeds." in text
    assert "SkillLoop 用 GRPO 依据环境回报更新 agent policy。" in text
    assert "SkillLoop: Reinforcing Agents with Verified Skills" in text
    assert "No claim answers it yet." in text


def test_an_answered_question_links_to_its_answering_claim(client: Client) -> None:
    page = make_page(slug="answers", body="## 关键要点\n\n- LBYL 是 CUA safety 的前置检查。\n")
    claim = Claim.objects.get(page=page, text__contains="LBYL 是 CUA safety")
    source = make_source(short_name="Answer Source")
    question = make_question(title="answered", status=QuestionStatus.ANSWERED, answer_claim=claim)
    question.sources.add(source)
    content = client.get(question.get_absolute_url()).content.decode()
    assert f'href="/wiki/answers/#{claim.anchor}"' in content
    assert "LBYL 是 CUA safety" in html_text(content.split('id="answer-heading"')[1])
    assert f'href="{source.get_absolute_url()}"' in content


def test_an_answer_resting_on_an_unverified_claim_says_so_until_it_is_verified(client: Client) -> None:
    page = make_page(slug="answers", body="## 关键要点\n\n- LBYL 是 CUA safety 的前置检查。\n")
    claim = Claim.objects.get(page=page, text__contains="LBYL 是 CUA safety")
    question = make_question(title="answered", status=QuestionStatus.ANSWERED, answer_claim=claim)

    unverified = client.get(question.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()
    claim.status = "verified"
    claim.save(update_fields=["status"])
    verified = client.get(question.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()

    assert "回答它的论断尚未核实：状态为“待核实”。" in unverified.replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert "尚未核实" not in verified


def test_an_unknown_question_is_a_404(client: Client) -> None:
    assert client.get(reverse("wiki:question-detail", kwargs={"pk": 999999})).status_code == 404


def test_the_question_forms_help_reads_in_the_readers_language(editor_client: Client) -> None:
    url = reverse("wiki:question-create")
    assert "状态为“已回答”时必填。" in editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "Required when the status is “answered”." in editor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_new_question_form_sent_twice_adds_one_question(editor_client: Client) -> None:
    page = make_page(title="Asked twice page")
    form = {"title": "Sent twice", "text": "same?", "page": page.slug, "status": "open", "priority": "normal"}

    first = editor_client.post(reverse("wiki:question-create"), form)
    again = editor_client.post(reverse("wiki:question-create"), form, follow=True)

    question = OpenQuestion.objects.get(title="Sent twice")
    assert first.status_code == 302 and first["Location"] == question.get_absolute_url()
    assert again.redirect_chain == [(question.get_absolute_url(), 302)]
    assert "This question is in the queue already; nothing was added." in again.content.decode()


def test_renaming_a_question_to_ask_what_another_asks_is_refused_keeping_what_was_typed(editor_client: Client) -> None:
    page = make_page(title="Renamed questions page")
    first = make_question(title="Asked first", text="same?", page=page)
    second = make_question(title="Asked second", text="same?", page=page)
    form = {"title": "Asked first", "text": "same?", "page": page.slug, "status": "open", "priority": "normal",
            "resolution_criteria": "A rerun settles it."}

    response = editor_client.post(reverse("wiki:question-edit", kwargs={"pk": second.pk}), form, HTTP_ACCEPT_LANGUAGE="en")

    html = response.content.decode()
    assert response.status_code == 409
    assert f"Another unresolved question in the queue asks this already: #{first.pk} “Asked first”." in html
    assert 'value="Asked first"' in html and "A rerun settles it." in html
    second.refresh_from_db()
    assert (second.title, second.resolution_criteria) == ("Asked second", "")


def test_the_page_filter_is_a_typed_slug_offering_the_pages_with_most_questions(client: Client) -> None:
    busy = make_page(slug="busy-page", title="Busy page")
    quiet = make_page(slug="quiet-page", title="Quiet page")
    settled = make_page(slug="settled-page", title="Settled page")
    for _ in range(3):
        make_question(page=busy)
    make_question(page=quiet)
    make_question(page=settled, status=QuestionStatus.DROPPED)
    content = client.get(reverse("wiki:question-list")).content.decode()
    assert re.search(r'<input type="text" name="page_slug"[^>]*list="page-slug-options"', content)
    assert '<select name="page_slug"' not in content
    datalist = content.split('<datalist id="page-slug-options">', 1)[1].split("</datalist>", 1)[0]
    offered = re.findall(r'<option value="([^"]+)"', datalist)
    assert offered.index("busy-page") < offered.index("quiet-page")
    assert "settled-page" not in offered
    listed = _listed_ids(client.get(reverse("wiki:question-list"), {"page_slug": "settled-page", "status": "all"}).content.decode())
    assert listed == [OpenQuestion.objects.get(page=settled).pk]


def test_the_queue_costs_the_same_whatever_the_number_of_pages_and_questions(client: Client) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wiki.views.listing import PER_PAGE
    from wiki.views.questions import PAGE_OPTIONS

    def measured() -> tuple[int, int, str]:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("wiki:question-list"))
        assert response.status_code == 200
        return len(queries.captured_queries), len(response.content), response.content.decode()

    def pages_with_questions(first: int, count: int) -> None:
        for n in range(first, first + count):
            make_question(title=f"About page {n:04d}", page=make_page(slug=f"asked-{n:04d}", title=f"Asked {n:04d}"))

    pages_with_questions(0, 1)
    small_queries, _, _ = measured()
    pages_with_questions(1, max(PER_PAGE, PAGE_OPTIONS) + 10)
    over_queries, over_size, _ = measured()
    pages_with_questions(1000, 100)
    large_queries, large_size, content = measured()
    assert small_queries == over_queries == large_queries
    assert abs(large_size - over_size) < 500  # the same rows shown; only the counts changed
    datalist = content.split('<datalist id="page-slug-options">', 1)[1].split("</datalist>", 1)[0]
    assert datalist.count("<option") == PAGE_OPTIONS


def test_a_page_typed_with_a_control_character_is_refused_and_nothing_is_saved(editor_client: Client) -> None:
    # PostgreSQL refuses NUL in any text it is sent: the form must not ask it.
    created = editor_client.post(reverse("wiki:question-create"),
                                 {"title": "Where?", "status": "open", "priority": "normal", "page": "notes\x00"})
    filtered = editor_client.get(reverse("wiki:question-list"), {"page_slug": "notes\x00"})

    assert created.status_code == 200 and "No page has the slug or title" in created.content.decode()
    assert not OpenQuestion.objects.filter(title="Where?").exists()
    assert filtered.status_code == 400


def test_an_answer_whose_claim_left_the_page_says_so_and_the_claim_names_the_question(small_wiki: SmallWiki) -> None:
    page, answer = small_wiki.page, small_wiki.answered.answer_claim
    assert answer is not None
    latest = page.revisions.order_by("-number").first()
    assert latest is not None
    sentence = next(line for line in latest.body.splitlines() if "HarnessKit 只演化" in line)
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=latest.body.replace(sentence + "\n", ""),
                       base_revision=latest.number)
    client = Client()

    question = client.get(small_wiki.answered.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    claim_url = reverse("wiki:claim-detail", args=[answer.pk])
    claim = client.get(claim_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert Claim.objects.get(pk=answer.pk).is_orphaned
    assert (f"The claim that answers it is no longer in its page's text: <a href=\"{claim_url}\">"
            "re-attach it to a sentence</a>, or choose another answer.") in question
    assert "is not verified" not in question
    assert re.search(rf'<li data-answers="{small_wiki.answered.pk}">Answers the question: <a href="[^"]+">'
                     rf'{small_wiki.answered.title}</a>', claim)


def _answer_taken_out(small_wiki: SmallWiki, *, merged: bool) -> Claim:
    """The answered question's claim taken out of its page's text: the SkillLoop sentence, which it is made to rest on
    first, merged into the HarnessKit one after it, or the HarnessKit sentence removed. Returns the claim still in the
    text (HarnessKit's, or SkillLoop's)."""
    page = small_wiki.page
    latest = page.revisions.order_by("-number").first()
    assert latest is not None
    skillloop, harnesskit = (Claim.objects.get(page=page, is_orphaned=False, text__startswith=name)
                             for name in ("SkillLoop", "HarnessKit"))
    answer, kept = (skillloop, harnesskit) if merged else (harnesskit, skillloop)
    OpenQuestion.objects.filter(pk=small_wiki.answered.pk).update(answer_claim=answer)
    lines = latest.body.splitlines()
    at = next(n for n, line in enumerate(lines) if "HarnessKit 只演化" in line)
    if merged:
        lines[at - 1:at + 1] = [
            f"- SkillLoop 用 GRPO 依据环境回报更新 agent policy，而 HarnessKit 只演化外部 harness，不更新模型参数。"
            f"（来源：{small_wiki.strict.title}，§3.1；{small_wiki.harness.title}，p.4）"]
    else:
        del lines[at]
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body="\n".join(lines) + "\n",
                       base_revision=latest.number)
    assert Claim.objects.get(pk=answer.pk).is_orphaned
    assert Claim.objects.get(pk=kept.pk).is_orphaned is False
    return kept


@pytest.mark.parametrize(("language", "said"), [
    ("zh-Hans", "回答它的论断已不在所在页面的正文中：它的句子已合并到<a href=\"{url}\">论断 #{id}</a>；请选择该论断或另选一条作为回答。"),
    ("en", "The claim that answers it is no longer in its page's text: its sentence was merged into "
           "<a href=\"{url}\">claim #{id}</a>; choose that claim or another as the answer."),
])
def test_an_answer_merged_into_another_claim_names_and_links_that_claim(small_wiki: SmallWiki, language: str, said: str) -> None:
    kept = _answer_taken_out(small_wiki, merged=True)
    html = Client().get(small_wiki.answered.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert said.format(url=reverse("wiki:claim-detail", args=[kept.pk]), id=kept.pk) in html
    assert "re-attach it to a sentence" not in html and "重新关联" not in html


@pytest.mark.parametrize("merged", [True, False])
def test_an_answer_taken_out_of_the_text_costs_one_query_for_how(small_wiki: SmallWiki, merged: bool) -> None:
    answered = small_wiki.answered.get_absolute_url()
    Client().get(answered)  # warm caches that are filled once per process, not per request
    versions.bump()
    with CaptureQueriesContext(connection) as in_the_text:
        Client().get(answered)
    _answer_taken_out(small_wiki, merged=merged)
    versions.bump()
    with CaptureQueriesContext(connection) as taken_out:
        html = Client().get(answered, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The entry that took it out, with the claim it was merged into joined: one query, merged or removed.
    assert query_names(taken_out) == [*query_names(in_the_text), "SELECT wiki_claimrevision"]
    assert ("its sentence was merged into" in html) is merged


def test_a_question_of_a_deleted_page_says_so_at_its_address_and_comes_back_with_the_page(client: Client) -> None:
    page = make_page(slug="doomed", title="注定删除的页面")
    question = make_question(title="被删页面上的问题", page=page)
    page_delete(page=page, user=None, reason="Spam")

    gone = client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert gone.status_code == 410
    text = html_text(gone.content.decode())
    assert "这个问题属于页面注定删除的页面，该页面已于" in text and "删除；页面恢复后它会一同回来。" in text
    assert f'href="{reverse("wiki:page-detail", args=["doomed"])}"' in gone.content.decode()
    assert client.get(reverse("wiki:question-detail", args=[question.pk + 1000])).status_code == 404
    page_restore(page=Page.all_objects.get(pk=page.pk), user=None)
    assert client.get(question.get_absolute_url()).status_code == 200


def test_the_preview_warns_that_a_claim_taken_out_of_the_text_answers_a_question(
        small_wiki: SmallWiki, editor_client: Client) -> None:
    page, answered = small_wiki.page, small_wiki.answered
    latest = page.revisions.order_by("-number").first()
    assert latest is not None and answered.answer_claim is not None
    sentence = next(line for line in latest.body.splitlines() if "HarnessKit 只演化" in line)

    preview = editor_client.post(reverse("wiki:page-edit", args=[page.slug]), {
        "title": page.title, "summary": page.summary, "body": latest.body.replace(sentence + "\n", ""), "comment": "",
        "base_revision": latest.number, "preview": "1"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert re.search(rf'<p class="notice" role="note" data-answers="{answered.pk}">Claim #{answered.answer_claim.pk} answers '
                     rf'the question <a href="{answered.get_absolute_url()}">{answered.title}</a>: once it leaves the text', preview)
    assert Claim.objects.get(pk=answered.answer_claim.pk).is_orphaned is False


def test_a_reopened_question_shows_its_former_answer_as_such(small_wiki: SmallWiki) -> None:
    from wiki.services.questions import question_update

    question, answer, editor = small_wiki.question, small_wiki.claims[1], small_wiki.editor
    question_update(question=question, fields={"status": QuestionStatus.ANSWERED, "answer_claim": answer},
                    claims=list(question.claims.all()), user=editor)
    answered = Client().get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    question_update(question=question, fields={"status": QuestionStatus.OPEN}, claims=list(question.claims.all()), user=editor)
    client = Client()

    reopened = client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = html_text(client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())

    answered_section = answered.split('id="answer-heading"')[1].split("</section>")[0]
    assert "evidence-claim" in answered_section and "No claim answers it yet." not in answered_section
    section = reopened.split('id="answer-heading"')[1].split("</section>")[0]
    assert "No claim answers it yet." in section
    former = re.search(r'<details class="former-answer muted">\s*<summary>(.*?)</summary>(.*?)</details>', section, re.DOTALL)
    assert former is not None
    day = timezone.localtime(timezone.now()).strftime("%Y-%m-%d")
    assert html_text(former.group(1)) == f"Answered before, on {day}, by {editor.username}"
    assert answer.text in html_text(former.group(2))
    assert section.count("evidence-claim") == 1  # only inside the details
    assert f"曾于 {day} 由 {editor.username} 回答" in chinese


def test_a_question_answered_from_the_start_then_reopened_still_shows_the_former_answer(client: Client) -> None:
    page = make_page(slug="answers", body="## 关键要点\n\n- LBYL 是 CUA safety 的前置检查。\n")
    claim = Claim.objects.get(page=page, text__contains="LBYL 是 CUA safety")
    question = make_question(title="reopened", status=QuestionStatus.INVESTIGATING, answer_claim=claim)

    section = client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode().split(
        'id="answer-heading"')[1].split("</section>")[0]

    assert "<summary>Answered before</summary>" in section and "LBYL 是 CUA safety" in section
    assert "is not verified" not in section


def test_a_related_claim_taken_out_of_its_page_is_marked_orphaned_with_a_link_to_reattach_it(small_wiki: SmallWiki) -> None:
    page, question = small_wiki.page, small_wiki.question
    related = question.claims.get()
    latest = page.revisions.order_by("-number").first()
    assert latest is not None
    sentence = next(line for line in latest.body.splitlines() if related.text[:12] in line)
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=latest.body.replace(sentence + "\n", ""),
                       base_revision=latest.number)
    client = Client()

    content = client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = client.get(question.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()

    assert Claim.objects.get(pk=related.pk).is_orphaned
    item = content.split('id="claims-heading"')[1].split("</ul>")[0]
    claim_url = reverse("wiki:claim-detail", args=[related.pk])
    assert '<li class="claim-orphaned">' in item
    assert f'<strong><a href="{claim_url}">orphaned: re-attach or retire</a></strong>' in item
    assert f"#{related.anchor}" not in item  # no link to a place the page no longer has
    assert "孤立" in html_text(chinese.split('id="claims-heading"')[1].split("</ul>")[0])


def _autofocused(content: str) -> list[str]:
    return re.findall(r"<(?:input|select|textarea)[^>]*\bautofocus\b[^>]*>", content)


def test_the_question_form_shown_again_focuses_its_first_claim_only(editor_client: Client, small_wiki: SmallWiki) -> None:
    url = reverse("wiki:question-create")
    sent = {"title": "Focus", "status": "open", "priority": "normal", "show_claims": "1"}

    new = editor_client.get(url, {"page": small_wiki.page.slug}).content.decode()
    shown = editor_client.post(url, {**sent, "page": small_wiki.page.slug}).content.decode()
    no_claims = editor_client.post(url, {**sent, "page": make_page(title="No claims here", body="Plain text").slug}).content.decode()
    refused = editor_client.post(url, {"title": "", "status": "answered", "priority": "normal",
                                       "page": small_wiki.page.slug}).content.decode()
    edited = editor_client.post(reverse("wiki:question-edit", args=[small_wiki.question.pk]),
                                {**sent, "page": small_wiki.page.slug}).content.decode()

    assert shown.count('name="claims"') > 1
    first = re.search(r'<input type="checkbox" name="claims"[^>]*>', shown)
    assert first is not None and _autofocused(shown) == [first.group(0)]
    assert len(_autofocused(edited)) == 1 and 'name="claims"' in _autofocused(edited)[0]
    assert len(_autofocused(no_claims)) == 1 and 'name="page"' in _autofocused(no_claims)[0]
    # opened, or refused (the error summary takes the focus): no field claims it
    assert _autofocused(new) == [] and _autofocused(refused) == []


def test_the_contrast_form_shown_again_focuses_one_field(editor_client: Client, small_wiki: SmallWiki) -> None:
    shown = editor_client.post(reverse("wiki:contrast-create"), {
        "left": small_wiki.strict.slug, "right": small_wiki.harness.slug, "axis": "", "show_choices": "1"}).content.decode()

    assert len(_autofocused(shown)) == 1 and 'name="left_component"' in _autofocused(shown)[0]


@pytest.mark.django_db
def test_a_page_with_more_questions_than_it_shows_links_to_its_own_in_the_queue(client: Client) -> None:
    from wiki.views.listing import IN_PAGE

    page, other = make_page(slug="busy", title="Busy page"), make_page(slug="quiet", title="Quiet page")
    for n in range(IN_PAGE + 1):
        make_question(page=page, title=f"Busy question {n}")
    make_question(page=other, title="Quiet question")

    html = client.get(page.get_absolute_url()).content.decode()
    [link] = re.findall(r'<a href="([^"]*)">All of this page', html)
    queue = html_text(client.get(link.replace("&amp;", "&")).content.decode())

    assert link == reverse("wiki:question-list") + "?page_slug=busy"
    assert "Busy question 0" in queue and "Quiet question" not in queue
    assert "The whole queue" not in html


def test_a_question_is_answered_by_a_related_claim_on_another_page(editor_client: Client) -> None:
    notes = make_page(slug="survey-notes", title="Survey notes", body="Reading notes, without key points.")
    answer = make_claim("Tree rollouts share prefixes to assign credit per step.", cites=[make_source(short_name="Treeline")])
    question = make_indexed_question(title="How is credit assigned?", page=notes, status="open", priority="normal",
                                     claims=[answer])
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})

    form = editor_client.get(url).context["form"]
    sent = editor_client.post(url, {"title": question.title, "page": notes.slug, "status": "answered", "priority": "normal",
                                    "claims": [answer.pk], "answer_claim": answer.pk})

    assert answer in form.fields["answer_claim"].queryset
    assert sent.status_code == 302
    question.refresh_from_db()
    assert (question.status, question.answer_claim, question.page) == ("answered", answer, notes)
