"""A page's deletion, move and restore forms act on the page they were opened on, as its edit form and its history's
actions do: never on a page created meanwhile at the address the form was opened at. Deleted where it is now when
it moved since (what staff confirmed is that page's deletion), asked again when a move form's page moved since (moving
it on unseen would undo that move), and nothing done, saying so, when it is gone."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_staff
from tests.wiki.htmltext import posted_form
from wiki.models import Page
from wiki.roles import Account
from wiki.services.deletion import page_delete, page_restore
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def notes() -> Page:
    """A, at old-notes."""
    return page_save(slug="old-notes", title="Reading notes", body="A 的正文。\n", user=make_editor("alice")).revision.page


def _newcomer(title: str = "Newcomer") -> Page:
    """B: created at old-notes once A moved."""
    return page_save(slug="old-notes", title=title, body="B 的正文。\n", user=make_editor("bob"), base_revision=0).revision.page


def _said(response: object) -> str:
    return unescape(response.content.decode())  # type: ignore[attr-defined]


def _live(*pages: Page) -> list[bool]:
    return [not Page.all_objects.get(pk=page.pk).is_deleted for page in pages]


def _delete_form(client: Client) -> tuple[str, dict[str, str]]:
    url, values = posted_form(client.get("/wiki/old-notes/delete/").content.decode(), action="/delete/")
    assert url == "/wiki/old-notes/delete/" and values.keys() == {"csrfmiddlewaretoken", "page_id"}
    return url, {**values, "reason": "重复的页面"}


def test_a_deletion_confirmed_before_the_page_moved_deletes_it_not_the_page_created_at_its_former_address(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    url, values = _delete_form(staff_client)
    page_move(page=notes, slug="survey-notes", user=staff)
    newcomer = _newcomer()

    deleted = staff_client.post(url, values, follow=True)

    assert deleted.redirect_chain[-1][0] == "/deleted/"
    assert _live(notes, newcomer) == [False, True]
    assert Page.all_objects.get(pk=notes.pk).deleted_reason == "重复的页面"
    assert "“Reading notes” moved from /wiki/old-notes/ to /wiki/survey-notes/ after this form was opened: it was " \
           "deleted at its new address." in _said(deleted)


def test_a_deletion_confirmed_before_the_page_moved_deletes_it_at_its_new_address_in_chinese_too(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    url, values = _delete_form(staff_client)
    page_move(page=notes, slug="survey-notes", user=staff)

    deleted = staff_client.post(url, values, follow=True, headers={"accept-language": "zh-CN"})

    assert _live(notes) == [False]
    assert "“Reading notes”在此表单打开之后从 /wiki/old-notes/ 移到了 /wiki/survey-notes/：已在它的新地址删除。" in _said(deleted)


def test_a_deletion_of_a_page_deleted_since_the_form_was_opened_changes_nothing_and_says_so(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    url, values = _delete_form(staff_client)
    page_move(page=notes, slug="survey-notes", user=staff)
    newcomer = _newcomer()
    page_delete(page=Page.objects.get(pk=notes.pk), user=make_staff("other"), reason="另一个理由")

    refused = staff_client.post(url, values, follow=True)

    assert refused.redirect_chain[0][0] == "/wiki/survey-notes/"
    assert _live(notes, newcomer) == [False, True]
    assert Page.all_objects.get(pk=notes.pk).deleted_reason == "另一个理由"
    assert "“Reading notes” was deleted by someone else after this form was opened: nothing was changed." in _said(refused)


def test_a_deletion_of_a_page_no_longer_in_the_wiki_changes_nothing_and_says_so(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    url, values = _delete_form(staff_client)
    page_move(page=notes, slug="survey-notes", user=staff)
    newcomer = _newcomer()
    Page.all_objects.filter(pk=notes.pk).delete()

    refused = staff_client.post(url, values, follow=True)

    assert _live(newcomer) == [True]
    assert "The page this form was opened on no longer exists: nothing was deleted." in _said(refused)


def test_a_deletion_without_a_reason_of_a_moved_page_asks_again_at_its_new_address(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    url, values = _delete_form(staff_client)
    page_move(page=notes, slug="survey-notes", user=staff)
    newcomer = _newcomer()

    asked = staff_client.post(url, {**values, "reason": ""})

    assert asked.status_code == 400 and _live(notes, newcomer) == [True, True]
    again, shown = posted_form(asked.content.decode(), action="/delete/")
    assert again == "/wiki/survey-notes/delete/" and shown["page_id"] == str(notes.pk)
    assert "Delete “Reading notes”?" in _said(asked)


def test_the_deletion_form_of_a_former_address_leads_to_the_page_where_it_is_now(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    page_move(page=notes, slug="survey-notes", user=staff)

    asked = staff_client.get("/wiki/old-notes/delete/")

    assert asked.status_code == 302 and asked["Location"] == "/wiki/survey-notes/delete/"


def test_a_deletion_form_naming_no_page_deletes_the_page_at_its_address(notes: Page, staff_client: Client) -> None:
    """A form rendered before forms named their page: the page it is posted to, as before."""
    deleted = staff_client.post("/wiki/old-notes/delete/", {"reason": "重复"})

    assert deleted.status_code == 302 and _live(notes) == [False]


def test_deleting_by_the_page_s_id_makes_as_many_queries_as_by_its_address(
    notes: Page, staff_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url, values = _delete_form(staff_client)
    with django_assert_num_queries(DELETE_QUERIES):
        assert staff_client.post(url, values).status_code == 302


DELETE_QUERIES = 30


def _move_form(client: Client) -> tuple[str, dict[str, str]]:
    url, values = posted_form(client.get("/wiki/old-notes/move/").content.decode(), action="/move/")
    assert url == "/wiki/old-notes/move/" and values.keys() >= {"csrfmiddlewaretoken", "page_id", "opened"}
    return url, values


@pytest.mark.parametrize("title", ["Newcomer", "Reading notes"])
def test_a_move_opened_before_the_page_moved_moves_nothing_and_asks_again_at_its_new_address(
    notes: Page, editor: Account, editor_client: Client, title: str
) -> None:
    """Never the page created at its former address, even with the title the form was opened with; nor the page
    itself unasked, which would undo the move made since unseen."""
    url, values = _move_form(editor_client)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer(title)

    asked = editor_client.post(url, {**values, "slug": "reading-notes", "title": "", "reason": ""})

    assert asked.status_code == 409
    assert [Page.objects.get(pk=page.pk).slug for page in (notes, newcomer)] == ["survey-notes", "old-notes"]
    assert "Someone moved this page after you opened this form; nothing was moved." in _said(asked)
    assert "The page is at /wiki/survey-notes/." in _said(asked)
    again, shown = posted_form(asked.content.decode(), action="/move/")
    assert again == "/wiki/survey-notes/move/" and shown["page_id"] == str(notes.pk)
    moved = editor_client.post(again, {**shown, "slug": "reading-notes", "title": "", "reason": ""})
    assert moved.status_code == 302 and moved["Location"] == "/wiki/reading-notes/"
    assert [Page.objects.get(pk=page.pk).slug for page in (notes, newcomer)] == ["reading-notes", "old-notes"]


def test_a_move_of_a_page_no_longer_in_the_wiki_moves_nothing_and_says_so(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _move_form(editor_client)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer("Reading notes")
    Page.all_objects.filter(pk=notes.pk).delete()

    refused = editor_client.post(url, {**values, "slug": "reading-notes"}, follow=True)

    assert Page.objects.get(pk=newcomer.pk).slug == "old-notes"
    assert "The page this form was opened on no longer exists: nothing was moved." in _said(refused)


def test_a_move_of_a_page_deleted_since_the_form_was_opened_moves_nothing(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _move_form(editor_client)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer("Reading notes")
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")

    refused = editor_client.post(url, {**values, "slug": "reading-notes"}, follow=True)

    assert refused.redirect_chain[0][0] == "/wiki/survey-notes/"
    assert Page.objects.get(pk=newcomer.pk).slug == "old-notes"
    assert Page.all_objects.get(pk=notes.pk).slug == "survey-notes"
    assert "“Reading notes” was deleted after this form was opened: nothing was moved." in _said(refused)


def test_the_move_form_of_a_former_address_leads_to_the_page_where_it_is_now(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    page_move(page=notes, slug="survey-notes", user=editor)

    asked = editor_client.get("/wiki/old-notes/move/")

    assert asked.status_code == 302 and asked["Location"] == "/wiki/survey-notes/move/"


def test_moving_by_the_page_s_id_makes_as_many_queries_as_by_its_address(
    notes: Page, editor_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url, values = _move_form(editor_client)
    with django_assert_num_queries(MOVE_QUERIES):
        assert editor_client.post(url, {**values, "slug": "reading-notes"}).status_code == 302


MOVE_QUERIES = 34


@pytest.mark.parametrize("shown_on", ["/deleted/", "/wiki/old-notes/"])
def test_a_restore_offered_before_the_page_came_back_restores_nothing_else(
    notes: Page, staff: Account, staff_client: Client, shown_on: str
) -> None:
    """A was deleted at old-notes; someone restored it and moved it, and a page created at old-notes was deleted:
    the form offered for A does not restore that page."""
    page_delete(page=notes, user=staff, reason="重复")
    url, values = posted_form(staff_client.get(shown_on).content.decode(), action="/restore/")
    assert url == "/wiki/old-notes/restore/" and values["page_id"] == str(notes.pk)
    page_restore(page=notes, user=staff)
    page_move(page=Page.objects.get(pk=notes.pk), slug="survey-notes", user=staff)
    newcomer = _newcomer()
    page_delete(page=newcomer, user=staff, reason="测试页面")

    refused = staff_client.post(url, values, follow=True)

    assert refused.redirect_chain[0][0] == "/wiki/survey-notes/"
    assert _live(notes, newcomer) == [True, False]
    assert "“Reading notes” was restored by someone else after this form was opened: nothing was changed." in _said(refused)


def test_a_restore_offered_before_the_page_moved_restores_it_at_its_new_address(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    page_delete(page=notes, user=staff, reason="重复")
    url, values = posted_form(staff_client.get("/deleted/").content.decode(), action="/restore/")
    page_restore(page=notes, user=staff)
    page_move(page=Page.objects.get(pk=notes.pk), slug="survey-notes", user=staff)
    newcomer = _newcomer()
    page_delete(page=newcomer, user=staff, reason="测试页面")
    page_delete(page=Page.objects.get(pk=notes.pk), user=staff, reason="又重复")

    restored = staff_client.post(url, values, follow=True)

    assert restored.redirect_chain[-1][0] == "/wiki/survey-notes/"
    assert _live(notes, newcomer) == [True, False]
    assert "“Reading notes” moved from /wiki/old-notes/ to /wiki/survey-notes/ after this form was opened: it was " \
           "restored at its new address." in _said(restored)


def test_a_restore_of_a_page_no_longer_in_the_wiki_restores_nothing_and_says_so(
    notes: Page, staff: Account, staff_client: Client
) -> None:
    page_delete(page=notes, user=staff, reason="重复")
    url, values = posted_form(staff_client.get("/deleted/").content.decode(), action="/restore/")
    Page.all_objects.filter(pk=notes.pk).delete()
    newcomer = _newcomer()
    page_delete(page=newcomer, user=staff, reason="测试页面")

    refused = staff_client.post(url, values, follow=True)

    assert _live(newcomer) == [False]
    assert "The page this form was opened on no longer exists: nothing was restored." in _said(refused)


def test_restoring_by_the_page_s_id_makes_as_many_queries_as_by_its_address(
    notes: Page, staff: Account, staff_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    page_delete(page=notes, user=staff, reason="重复")
    url, values = posted_form(staff_client.get("/deleted/").content.decode(), action="/restore/")
    with django_assert_num_queries(RESTORE_QUERIES):
        assert staff_client.post(url, values).status_code == 302


RESTORE_QUERIES = 31


@pytest.mark.parametrize("form", ["delete", "move"])
def test_a_form_sent_with_an_expired_token_opens_again_for_the_page_it_was_opened_on(
    notes: Page, staff: Account, form: str
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    url, values = posted_form(client.get(f"/wiki/old-notes/{form}/").content.decode(), action=f"/{form}/")
    page_move(page=notes, slug="survey-notes", user=staff)
    _newcomer()

    expired = client.post(url, {**values, "csrfmiddlewaretoken": "x" * 64, "reason": "重复的页面"},
                          headers={"referer": f"http://testserver{url}"})

    assert expired.status_code == 403
    assert f'href="/wiki/survey-notes/{form}/"' in expired.content.decode()
