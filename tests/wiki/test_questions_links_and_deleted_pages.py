"""An open question keeps its links through an edit, and leaves the lists while its page is deleted."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_claim, make_editor, make_page, make_question, make_source
from wiki.models import Claim, OpenQuestion, Page
from wiki.search.index import search_reindex_questions
from wiki.search.query import search
from wiki.services.claims import claim_retire
from wiki.services.deletion import page_delete, page_restore
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_update

pytestmark = pytest.mark.django_db


def _orphan(claim: Claim) -> Claim:
    """Takes the claim's sentence out of its page's text."""
    page = Page.objects.get(pk=claim.page_id)
    body = "\n".join(line for line in page.body.splitlines() if claim.text not in line)
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=body)
    claim.refresh_from_db()
    assert claim.is_orphaned
    return claim


def _checked(content: str, name: str) -> list[int]:
    """The values of the checked boxes named ``name``, as a browser would send them back."""
    return sorted(int(m.group(1)) for m in re.finditer(rf'<input type="checkbox" name="{name}" value="(\d+)"[^>]*\bchecked\b', content))


def _as_browser_sends(editor_client: Client, question: OpenQuestion, **changes: object) -> dict[str, object]:
    content = editor_client.get(reverse("wiki:question-edit", kwargs={"pk": question.pk})).content.decode()
    loaded_at = re.search(r'name="loaded_at" value="([^"]+)"', content)
    assert loaded_at is not None
    data: dict[str, object] = {
        "title": question.title, "text": question.text, "status": question.status, "priority": question.priority,
        "resolution_criteria": question.resolution_criteria, "page": question.page.slug if question.page else "",
        "claims": _checked(content, "claims"), "loaded_at": loaded_at.group(1),
    }
    return {**data, **changes}


def test_changing_a_questions_priority_keeps_its_links_to_orphaned_and_retired_claims(editor_client: Client) -> None:
    page = make_page(slug="links", title="Links", body="## 关键要点\n\n- Kept sentence.\n- Orphaned sentence.\n- Retired sentence.\n")
    kept, orphaned, retired = (Claim.objects.get(page=page, text__startswith=t) for t in ("Kept", "Orphaned", "Retired"))
    question = make_question(title="Which of these hold?", page=page, priority="normal")
    question.claims.set([kept, orphaned, retired])
    _orphan(orphaned)
    claim_retire(claim=_orphan(retired), reason="Said elsewhere.")

    response = editor_client.post(reverse("wiki:question-edit", kwargs={"pk": question.pk}),
                                  _as_browser_sends(editor_client, question, priority="high"))

    assert response.status_code == 302
    question.refresh_from_db()
    assert question.priority == "high"
    assert sorted(question.claims.values_list("pk", flat=True)) == sorted([kept.pk, orphaned.pk, retired.pk])


def test_a_service_call_that_leaves_out_the_links_keeps_them_and_one_that_gives_them_replaces_them() -> None:
    page = make_page(slug="linked", title="Linked", body="## 关键要点\n\n- First sentence.\n- Second sentence.\n")
    first, second = (Claim.objects.get(page=page, text__startswith=t) for t in ("First", "Second"))
    work = make_source(short_name="LinkedWork")
    question = make_question(title="Do both hold?", page=page, priority="normal")
    question.claims.set([first, second])
    question.sources.set([work])

    question_update(question=question, fields={"priority": "high"})
    question_update(question=question, fields={"status": "answered", "answer_claim": second})

    question.refresh_from_db()
    assert (question.priority, question.answer_claim_id) == ("high", second.pk)
    assert sorted(question.claims.values_list("pk", flat=True)) == sorted([first.pk, second.pk])
    assert list(question.sources.all()) == [work]
    question_update(question=question, fields={}, claims=[second], sources=[])
    assert list(question.claims.all()) == [second] and not question.sources.exists()


def test_the_edit_form_marks_linked_claims_that_left_their_page_and_offers_no_other_orphans(editor_client: Client) -> None:
    page = make_page(slug="marks", title="Marks", body="## 关键要点\n\n- Linked orphan.\n- Other orphan.\n")
    linked, other = (Claim.objects.get(page=page, text__startswith=t) for t in ("Linked", "Other"))
    question = make_question(title="Marked?", page=page)
    question.claims.set([linked])
    _orphan(linked)
    _orphan(other)

    content = editor_client.get(reverse("wiki:question-edit", kwargs={"pk": question.pk})).content.decode()

    assert _checked(content, "claims") == [linked.pk]
    assert "Marks: Linked orphan. (orphaned)" in content
    assert f'value="{other.pk}"' not in content



def test_a_claim_choice_is_cut_at_a_word_and_reads_in_the_readers_language(editor_client: Client) -> None:
    text = "Reward Placebo Trial 是 reward misspecification 的另一类 failure，它的 hack rate 提高到 0.87 而 CoT monitorability 只有 0.13"
    page = make_page(slug="choices", title="Choices", body=f"## 关键要点\n\n- {text}。\n")
    claim = Claim.objects.get(page=page)
    _orphan(claim)
    question = make_question(title="Cut?", page=page)
    question.claims.set([claim])

    chinese = editor_client.get(reverse("wiki:question-edit", kwargs={"pk": question.pk}),
                                headers={"accept-language": "zh-CN"}).content.decode()

    assert ("Choices：Reward Placebo Trial 是 reward misspecification 的另一类 failure，它的 hack rate 提高到 0.87 而 CoT…（孤立）"
            in chinese)


def test_a_deleted_pages_questions_leave_the_lists_and_come_back_with_it(client: Client) -> None:
    editor = make_editor()
    page = make_page(slug="doomed-notes", title="Doomed notes")
    question = make_question(title="A question about 榴莲 on the doomed page", page=page)
    elsewhere = make_question(title="A question about 榴莲 elsewhere")
    search_reindex_questions([question.pk, elsewhere.pk])

    def listed() -> dict[str, bool]:
        html_list = client.get(reverse("wiki:question-list")).content.decode()
        home = client.get(reverse("wiki:home")).content.decode()
        api = [q["id"] for q in client.get("/api/v1/questions/").json()["results"]]
        hits = [hit.object_id for group in search("榴莲", kinds=["question"]).groups for hit in group.hits]
        return {
            "list": question.title in html_list, "home": question.title in home, "api": question.pk in api,
            "search": question.pk in hits, "elsewhere": elsewhere.title in html_list and elsewhere.pk in api,
        }

    assert listed() == {"list": True, "home": True, "api": True, "search": True, "elsewhere": True}

    page_delete(page=page, user=editor, reason="Merged into another page.")
    assert listed() == {"list": False, "home": False, "api": False, "search": False, "elsewhere": True}
    gone = client.get(question.get_absolute_url())  # its address says where it went
    assert gone.status_code == 410 and 'href="/wiki/doomed-notes/"' in gone.content.decode()
    assert client.get(f"/api/v1/questions/{question.pk}/").status_code == 404

    page_restore(page=Page.all_objects.get(pk=page.pk), user=editor)
    assert listed() == {"list": True, "home": True, "api": True, "search": True, "elsewhere": True}


def test_filtering_questions_by_a_deleted_pages_slug_says_the_page_was_deleted(client: Client) -> None:
    page = make_page(slug="gone-notes", title="Gone notes")
    make_question(title="Orphaned by deletion", page=page)
    page_delete(page=page, user=make_editor(), reason="Obsolete.")

    html = client.get(reverse("wiki:question-list"), {"page_slug": "gone-notes"})
    api = client.get("/api/v1/questions/", {"page_slug": "gone-notes"})
    never = client.get("/api/v1/questions/", {"page_slug": "never-was"})

    assert html.status_code == 400
    assert "The page “gone-notes” was deleted" in html.content.decode()
    assert api.status_code == 400
    assert api.json()["errors"]["page_slug"] == ["The page “gone-notes” was deleted: its questions are not listed while it is."]
    assert never.status_code == 400
    assert "was deleted" not in never.content.decode()


def test_a_question_of_a_deleted_page_can_still_be_edited_without_losing_its_page(editor_client: Client) -> None:
    page = make_page(slug="kept-page", title="Kept page")
    question = make_question(title="Still mine?", page=page)
    page_delete(page=page, user=make_editor(), reason="For now.")

    response = editor_client.post(reverse("wiki:question-edit", kwargs={"pk": question.pk}),
                                  _as_browser_sends(editor_client, question, priority="low"))

    assert response.status_code == 302
    question.refresh_from_db()
    assert (question.priority, question.page_id) == ("low", page.pk)


def test_a_claim_linked_to_a_question_is_added_through_the_form_when_current(editor_client: Client) -> None:
    claim = make_claim("A current claim.")
    question = make_question(title="Link me")

    editor_client.post(reverse("wiki:question-edit", kwargs={"pk": question.pk}),
                       _as_browser_sends(editor_client, question, page=claim.page.slug, claims=[claim.pk]))

    assert list(question.claims.values_list("pk", flat=True)) == [claim.pk]


def test_the_form_offers_the_claims_of_the_questions_page_and_those_linked_not_every_claim(editor_client: Client) -> None:
    here = make_page(slug="here", title="Here", body="## 关键要点\n\n- First here.\n- Second here.\n")
    elsewhere = make_page(slug="elsewhere", title="Elsewhere", body="## 关键要点\n\n- Linked elsewhere.\n- Not linked.\n")
    first, second = (Claim.objects.get(page=here, text__startswith=t) for t in ("First", "Second"))
    linked, unlinked = (Claim.objects.get(page=elsewhere, text__startswith=t) for t in ("Linked", "Not"))
    question = make_question(title="Which?", page=here)
    question.claims.set([linked])

    edit = editor_client.get(reverse("wiki:question-edit", kwargs={"pk": question.pk})).content.decode()
    new = editor_client.get(reverse("wiki:question-create"), {"page": "elsewhere"}).content.decode()

    assert _offered(edit, "claims") == sorted([first.pk, second.pk, linked.pk])
    assert _checked(edit, "claims") == [linked.pk]
    assert _offered(new, "claims") == sorted([linked.pk, unlinked.pk])
    assert _offered(editor_client.get(reverse("wiki:question-create")).content.decode(), "claims") == []


def test_showing_another_pages_claims_keeps_what_was_typed_and_saves_nothing(editor_client: Client) -> None:
    make_page(slug="here", title="Here", body="## 关键要点\n\n- First here.\n")
    elsewhere = make_page(slug="elsewhere", title="Elsewhere", body="## 关键要点\n\n- Over there.\n")
    there = Claim.objects.get(page=elsewhere)
    before = OpenQuestion.objects.count()

    response = editor_client.post(reverse("wiki:question-create"), {
        "title": "Half typed", "text": "Still typing", "status": "open", "priority": "high", "page": elsewhere.slug,
        "show_claims": "1",
    })

    content = response.content.decode()
    assert response.status_code == 200
    assert OpenQuestion.objects.count() == before
    assert 'value="Half typed"' in content and "Still typing" in content
    assert _offered(content, "claims") == [there.pk]
    assert 'class="errorlist"' not in content

    saved = editor_client.post(reverse("wiki:question-create"), {
        "title": "Half typed", "text": "Still typing", "status": "open", "priority": "high", "page": elsewhere.slug,
        "claims": [there.pk],
    })
    assert saved.status_code == 302
    assert list(OpenQuestion.objects.get(title="Half typed").claims.values_list("pk", flat=True)) == [there.pk]


def test_ticked_claims_stay_offered_when_another_page_is_shown_or_the_form_is_refused(editor_client: Client) -> None:
    make_page(slug="here", title="Here", body="## 关键要点\n\n- First here.\n")
    elsewhere = make_page(slug="elsewhere", title="Elsewhere", body="## 关键要点\n\n- Over there.\n")
    here_claim, there = Claim.objects.get(page__slug="here"), Claim.objects.get(page=elsewhere)
    sent = {"title": "Across pages", "status": "open", "priority": "normal", "claims": [here_claim.pk]}

    shown = editor_client.post(reverse("wiki:question-create"), {**sent, "page": "elsewhere", "show_claims": "1"})
    refused = editor_client.post(reverse("wiki:question-create"), {**sent, "page": "no-such-page"})
    saved = editor_client.post(reverse("wiki:question-create"), {**sent, "page": "elsewhere", "claims": [here_claim.pk, there.pk]})

    assert _offered(shown.content.decode(), "claims") == sorted([here_claim.pk, there.pk])
    assert _checked(shown.content.decode(), "claims") == [here_claim.pk]
    assert refused.status_code == 200 and _checked(refused.content.decode(), "claims") == [here_claim.pk]
    assert saved.status_code == 302
    assert sorted(OpenQuestion.objects.get(title="Across pages").claims.values_list("pk", flat=True)) == sorted([here_claim.pk, there.pk])


def test_a_claim_no_longer_current_is_refused_unless_already_linked(editor_client: Client) -> None:
    page = make_page(slug="here", title="Here", body="## 关键要点\n\n- Kept.\n- Gone soon.\n")
    gone = _orphan(Claim.objects.get(page=page, text__startswith="Gone"))

    response = editor_client.post(reverse("wiki:question-create"), {
        "title": "Orphan?", "status": "open", "priority": "normal", "page": "here", "claims": [gone.pk]})

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not OpenQuestion.objects.filter(title="Orphan?").exists()


def _offered(content: str, name: str) -> list[int]:
    return sorted(int(m.group(1)) for m in re.finditer(rf'<input type="checkbox" name="{name}" value="(\d+)"', content))


@pytest.mark.parametrize("status", ["answered", "open"])
def test_an_answer_on_a_page_deleted_since_is_not_quoted_and_comes_back_with_the_page(client: Client, status: str) -> None:
    editor = make_editor()
    asking = make_page(slug="asking", title="Asking")
    answering = make_page(slug="answering", title="Answering page",
                          body="## 关键要点\n\n- 榴莲的答案就在这一句里（来源：SkillForge）。\n")
    answer = Claim.objects.get(page=answering)
    question = make_question(title="Where is the answer?", page=asking, status="answered", answer_claim=answer)
    if status != "answered":  # answered, then reopened: the former answer is shown folded
        OpenQuestion.objects.filter(pk=question.pk).update(status=status)

    def shown() -> tuple[bool, bool, bool]:
        content = client.get(question.get_absolute_url()).content.decode()
        return "榴莲的答案" in content, "/wiki/answering/" in content, "on a page since deleted" in content

    assert shown() == (True, True, False)
    page_delete(page=answering, user=editor, reason="Obsolete.")
    assert shown() == (False, False, True)
    page_restore(page=Page.all_objects.get(pk=answering.pk), user=editor)
    assert shown() == (True, True, False)
