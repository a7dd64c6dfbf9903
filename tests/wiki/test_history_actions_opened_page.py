"""The actions of a page's history (reverting to a revision, rolling back an editor's edits, undoing one) act on the
page they were opened on, as its edit form does: moved since, at its new address; never on a page created meanwhile
at its former one; deleted since, on nothing, saying so."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor
from tests.wiki.htmltext import posted_form
from wiki.models import Page
from wiki.roles import Account
from wiki.services.deletion import page_delete
from wiki.services.page_moves import page_move
from wiki.services.page_reverts import page_rollback
from wiki.services.pages import PageDeleted, page_revert, page_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def notes() -> Page:
    """A: r1 and r2 by alice, r3 by mallory, at old-notes."""
    alice, mallory = make_editor("alice"), make_editor("mallory")
    page = page_save(slug="old-notes", title="Reading notes", body="A 的第一版。\n", user=alice).revision.page
    page_save(slug="old-notes", title="Reading notes", body="A 的第二版。\n", user=alice, base_revision=1)
    page_save(slug="old-notes", title="Reading notes", body="A 被破坏了。\n", user=mallory, base_revision=2)
    return page


def _newcomer() -> Page:
    """B: created at old-notes once A moved, with as many revisions as A (r1 and r2 by bob, r3 by carol), so that a
    form's base_revision alone does not tell the two apart."""
    bob, carol = make_editor("bob"), make_editor("carol")
    page = page_save(slug="old-notes", title="Newcomer", body="B 的第一版。\n", user=bob, base_revision=0).revision.page
    page_save(slug="old-notes", title="Newcomer", body="B 的第二版。\n", user=bob, base_revision=1)
    page_save(slug="old-notes", title="Newcomer", body="B 的第三版。\n", user=carol, base_revision=2)
    return page


def _revert_form(client: Client, number: int) -> tuple[str, dict[str, str]]:
    """The revert form for revision ``number`` as an editor opened it on A's history."""
    url = f"/wiki/old-notes/revert/{number}/"
    html = client.get(url).content.decode()
    _, values = posted_form(html.replace('<form method="post" class="edit-form"', f'<form method="post" action="{url}"'),
                      action=url)
    assert values.keys() == {"csrfmiddlewaretoken", "base_revision", "page_id"}
    return url, {**values, "comment": ""}


def _bodies(*pages: Page) -> list[str]:
    return [Page.all_objects.get(pk=page.pk).body for page in pages]


def test_a_revert_opened_before_the_page_moved_reverts_it_not_the_page_created_at_its_former_address(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _revert_form(editor_client, 1)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()

    reverted = editor_client.post(url, values, follow=True)

    assert reverted.redirect_chain[-1][0] == "/wiki/survey-notes/"
    assert _bodies(notes, newcomer) == ["A 的第一版。\n", "B 的第三版。\n"]
    assert newcomer.revisions.count() == 3 and notes.revisions.count() == 4
    html = reverted.content.decode()
    assert "“Reading notes” moved from /wiki/old-notes/ to /wiki/survey-notes/ after this form was opened: it was " \
           "reverted at its new address." in unescape(html)


def test_a_revert_opened_before_the_page_moved_reverts_it_at_its_new_address_when_no_page_took_the_former_one(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _revert_form(editor_client, 2)
    page_move(page=notes, slug="survey-notes", user=editor)

    reverted = editor_client.post(url, values)

    assert reverted.status_code == 302 and reverted["Location"] == "/wiki/survey-notes/"
    assert _bodies(notes) == ["A 的第二版。\n"]


def test_the_revert_form_of_a_former_address_leads_to_the_page_where_it_is_now(notes: Page, editor: Account,
                                                                                editor_client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=editor)

    asked = editor_client.get("/wiki/old-notes/revert/1/")

    assert asked.status_code == 302 and asked["Location"] == "/wiki/survey-notes/revert/1/"


def test_a_revert_of_a_page_deleted_since_it_was_opened_reverts_nothing_and_says_so(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _revert_form(editor_client, 1)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")

    refused = editor_client.post(url, values, follow=True)

    assert _bodies(notes, newcomer) == ["A 被破坏了。\n", "B 的第三版。\n"]
    assert notes.revisions.count() == 3 and newcomer.revisions.count() == 3
    assert refused.redirect_chain[0][0] == "/wiki/survey-notes/"
    assert "“Reading notes” was deleted after this form was opened: nothing was reverted." in unescape(
        refused.content.decode())


def test_a_revert_of_a_page_no_longer_in_the_wiki_reverts_nothing_and_says_so(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _revert_form(editor_client, 1)
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()
    Page.all_objects.filter(pk=notes.pk).delete()

    refused = editor_client.post(url, values, follow=True, headers={"accept-language": "zh-CN"})

    assert _bodies(newcomer) == ["B 的第三版。\n"] and newcomer.revisions.count() == 3
    assert "打开此表单时所针对的页面已不存在：没有回退任何内容。" in refused.content.decode()


def _rollback_form(client: Client, address: str) -> tuple[str, dict[str, str]]:
    return posted_form(client.get(address).content.decode(), action="/rollback/")


@pytest.mark.parametrize("shown_on", ["/wiki/old-notes/history/", "/wiki/old-notes/diff/?from=2&to=3"])
def test_a_rollback_offered_before_the_page_moved_rolls_it_back_not_the_page_created_at_its_former_address(
    notes: Page, editor: Account, editor_client: Client, shown_on: str
) -> None:
    url, values = _rollback_form(editor_client, shown_on)
    assert url == "/wiki/old-notes/rollback/" and values["base_revision"] == "3"
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()

    rolled = editor_client.post(url, values, follow=True)

    assert rolled.redirect_chain[-1][0] == "/wiki/survey-notes/"
    assert _bodies(notes, newcomer) == ["A 的第二版。\n", "B 的第三版。\n"]
    assert newcomer.revisions.count() == 3
    latest = notes.revisions.order_by("-number").first()
    assert latest is not None and latest.comment == "Reverted edits by mallory (1 edit) to the last revision by alice"
    assert "“Reading notes” moved from /wiki/old-notes/ to /wiki/survey-notes/ after the rollback was offered: it " \
           "was rolled back at its new address." in unescape(rolled.content.decode())


def test_a_rollback_of_a_page_deleted_since_it_was_offered_rolls_back_nothing_and_says_so(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _rollback_form(editor_client, "/wiki/old-notes/history/")
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")

    refused = editor_client.post(url, values, follow=True, headers={"accept-language": "zh-CN"})

    assert _bodies(notes, newcomer) == ["A 被破坏了。\n", "B 的第三版。\n"]
    assert notes.revisions.count() == 3 and newcomer.revisions.count() == 3
    assert refused.redirect_chain[0][0] == "/wiki/survey-notes/"
    assert "“Reading notes”在提供回滚之后被删除了：没有回滚任何内容。" in refused.content.decode()


def test_a_rollback_of_a_page_no_longer_in_the_wiki_rolls_back_nothing_and_says_so(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    url, values = _rollback_form(editor_client, "/wiki/old-notes/history/")
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()
    Page.all_objects.filter(pk=notes.pk).delete()

    refused = editor_client.post(url, values, follow=True)

    assert _bodies(newcomer) == ["B 的第三版。\n"] and newcomer.revisions.count() == 3
    assert "The page the rollback was offered for no longer exists: nothing was rolled back." in unescape(
        refused.content.decode())


@pytest.mark.parametrize("action", ["revert", "rollback"])
def test_a_form_naming_no_page_acts_on_the_page_at_its_address_or_the_one_moved_from_there(
    notes: Page, editor: Account, editor_client: Client, action: str
) -> None:
    """A form rendered before forms named their page: the page it is posted to, as before, or with no page there
    the page moved from there (the revision it was opened at says it was opened on a page)."""
    url = "/wiki/old-notes/revert/1/" if action == "revert" else "/wiki/old-notes/rollback/"
    page_move(page=notes, slug="survey-notes", user=editor)

    done = editor_client.post(url, {"base_revision": "3", "comment": ""})

    assert done.status_code == 302 and done["Location"] == "/wiki/survey-notes/"
    assert _bodies(notes) == ["A 的第一版。\n" if action == "revert" else "A 的第二版。\n"]


def test_an_undo_opened_from_the_history_before_the_page_moved_is_saved_to_it(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    history = editor_client.get("/wiki/old-notes/history/").content.decode()
    undo = unescape(re.search(r'href="([^"]*\?undo=3)"', history)[1])  # type: ignore[index]
    form = editor_client.get(undo).context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()

    saved = editor_client.post(undo, {**{k: "" if v is None else str(v) for k, v in form.initial.items()}, "save": "1"})

    assert saved.status_code == 302 and saved["Location"] == "/wiki/survey-notes/"
    assert _bodies(notes, newcomer) == ["A 的第二版。\n", "B 的第三版。\n"]


def test_the_revert_service_reverts_the_page_it_is_given_wherever_it_is_now(notes: Page, editor: Account) -> None:
    read = Page.objects.get(pk=notes.pk)  # read at old-notes, moved after
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer()

    revision = page_revert(page=read, number=1, user=editor, base_revision=3)

    assert revision.page_id == notes.pk and revision.number == 4
    assert _bodies(notes, newcomer) == ["A 的第一版。\n", "B 的第三版。\n"]


def test_the_revert_and_rollback_services_refuse_a_page_deleted_since_it_was_read(notes: Page, editor: Account) -> None:
    read = Page.objects.get(pk=notes.pk)
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")

    with pytest.raises(PageDeleted):
        page_revert(page=read, number=1, user=editor, base_revision=3)
    with pytest.raises(PageDeleted):
        page_rollback(page=read, user=editor, base_revision=3)
    assert notes.revisions.count() == 3


def test_reverting_and_rolling_back_by_the_page_s_id_make_as_many_queries_as_before(
    notes: Page, editor_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url, values = _revert_form(editor_client, 1)
    with django_assert_num_queries(REVERT_QUERIES):
        assert editor_client.post(url, values).status_code == 302
    url, values = _rollback_form(editor_client, reverse("wiki:page-history", kwargs={"slug": "old-notes"}))
    with django_assert_num_queries(ROLLBACK_QUERIES):
        assert editor_client.post(url, values).status_code == 302


REVERT_QUERIES = 51
ROLLBACK_QUERIES = 51
