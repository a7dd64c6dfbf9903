"""Undoing one older edit of a page: its change taken out of the text as it is now, every later edit kept, reviewed in
the edit form and saved as any edit is; refused, with nothing changed, when later edits changed the same lines."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_page, make_reader
from wiki.models import Page
from wiki.services.page_reverts import UndoConflict, UndoImpossible, page_undo_prepare
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

LINES = "first line\nsecond line\nthird line\nfourth line\nfifth line\n"


def _page_with_history() -> Page:
    """r1 the lines; r2 (by "mallory") changes the second; r3 (by "alice") the fifth."""
    mallory, alice = make_editor("mallory"), make_editor("alice")
    page = make_page(slug="notes", title="Notes", body=LINES, user=alice)
    page_save_revision(
        slug="notes",
        title="Notes",
        body=LINES.replace("second line", "second line, vandalised"),
        user=mallory,
        comment="improve",
        base_revision=1,
    )
    page_save_revision(
        slug="notes",
        title="Notes",
        body=LINES.replace("second line", "second line, vandalised").replace("fifth line", "fifth line, expanded"),
        user=alice,
        base_revision=2,
    )
    return page


def _undo_url(page: Page, number: object) -> str:
    return reverse("wiki:page-edit", kwargs={"slug": page.slug}) + f"?undo={number}"


def test_undoing_an_older_edit_takes_out_its_change_and_keeps_the_later_ones() -> None:
    page = _page_with_history()

    undo = page_undo_prepare(page=page, number=2)

    assert undo.values["body"] == LINES.replace("fifth line", "fifth line, expanded")
    assert undo.values["title"] == "Notes"
    assert undo.current.number == 3 and not undo.changes_nothing
    assert undo.comment().english() == "Undo revision 2 by mallory"


def test_the_undo_form_is_prefilled_for_review_and_saves_nothing_by_itself(editor_client: Client) -> None:
    page = _page_with_history()

    response = editor_client.get(_undo_url(page, 2))

    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["body"] == LINES.replace("fifth line", "fifth line, expanded")
    assert form.initial["comment"] == "Undo revision 2 by mallory"
    # saved from the current revision: a save made meanwhile is merged with it or is an edit conflict
    assert form.initial["base_revision"] == 3
    html = response.content.decode()
    assert "Undoing revision 2 by mallory" in html
    # the diff against the current text: the vandalised words are what goes
    assert re.search(r'<td class="old"[^>]*>second line<del>, vandalised</del></td>', html)
    assert page.revisions.count() == 3


def test_an_undo_is_saved_through_the_edit_form_with_its_summary_read_in_each_language(editor_client: Client) -> None:
    page = _page_with_history()
    with translation.override("zh-hans"):
        chinese_summary = page_undo_prepare(page=page, number=2).comment().text()
    assert chinese_summary == "撤销 mallory 的修订版本 2"

    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {
            "title": "Notes",
            "summary": "",
            "body": LINES.replace("fifth line", "fifth line, expanded"),
            "comment": chinese_summary,
            "base_revision": 3,
            "save": "1",
        },
    )

    assert response.status_code == 302
    latest = page.revisions.order_by("-number").first()
    assert latest is not None and latest.number == 4
    assert latest.body == LINES.replace("fifth line", "fifth line, expanded")
    assert latest.comment == "Undo revision 2 by mallory"
    history = reverse("wiki:page-history", kwargs={"slug": page.slug})
    assert "Undo revision 2 by mallory" in editor_client.get(history).content.decode()
    chinese = Client(headers={"accept-language": "zh-CN,zh;q=0.9"}).get(history).content.decode()
    assert "撤销 mallory 的修订版本 2" in chinese


def test_an_undo_saved_after_someone_else_saved_goes_through_the_edit_conflict_check(editor_client: Client) -> None:
    page = _page_with_history()
    undone = editor_client.get(_undo_url(page, 2)).context["form"].initial
    page_save_revision(
        slug="notes",
        title="Notes",
        body=page.revisions.get(number=3).body.replace("fourth line", "fourth line, theirs"),
        base_revision=3,
    )

    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {**{name: undone[name] for name in ("title", "summary", "body", "comment")}, "base_revision": 3, "save": "1"},
    )

    # saved merged with revision 4: their line kept, the vandalism gone
    assert response.status_code == 302
    page.refresh_from_db()
    assert "fourth line, theirs" in page.body and "vandalised" not in page.body
    assert page.revisions.count() == 5, list(page.revisions.values_list("number", "comment"))


def test_an_undo_clashing_with_later_edits_changes_nothing_and_says_so(editor_client: Client) -> None:
    page = _page_with_history()
    page_save_revision(
        slug="notes",
        title="Notes",
        body=page.revisions.get(number=3).body.replace(
            "second line, vandalised", "second line, vandalised and then reworded"
        ),
        base_revision=3,
    )
    body_before = Page.objects.get(pk=page.pk).body

    with pytest.raises(UndoConflict):
        page_undo_prepare(page=page, number=2)
    response = editor_client.get(_undo_url(page, 2))

    assert response.status_code == 409
    html = response.content.decode()
    assert (
        "Revision 2 cannot be undone: edits saved after it, up to revision 4, changed the same lines. Nothing was changed."
        in html
    )
    # the manual ways left: the change to read, the edit form, a revert to the revision before it
    assert reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1}) in html
    assert f"{reverse('wiki:page-diff', kwargs={'slug': page.slug})}?from=1&amp;to=2" in html
    assert "form" not in response.context
    assert page.revisions.count() == 4 and Page.objects.get(pk=page.pk).body == body_before


def test_an_undo_takes_back_a_title_the_revision_changed_unless_it_changed_since() -> None:
    page = make_page(slug="renamed", title="Old name", body=LINES)
    page_save_revision(slug="renamed", title="New name", body=LINES.replace("first", "1st"), base_revision=1)
    page_save_revision(
        slug="renamed", title="New name", body=LINES.replace("first", "1st").replace("fifth", "5th"), base_revision=2
    )

    assert page_undo_prepare(page=page, number=2).values["title"] == "Old name"

    page_save_revision(
        slug="renamed", title="Newer name", body=LINES.replace("first", "1st").replace("fifth", "5th"), base_revision=3
    )
    undo = page_undo_prepare(page=page, number=2)
    assert undo.values["title"] == "Newer name"
    assert undo.values["body"] == LINES.replace("fifth", "5th")
    # a revision that left the title alone leaves it alone
    assert page_undo_prepare(page=page, number=3).values["title"] == "Newer name"


def test_an_undo_of_a_change_no_longer_in_the_page_says_there_is_nothing_to_undo(editor_client: Client) -> None:
    page = make_page(slug="twice", title="Twice", body=LINES)
    page_save_revision(slug="twice", title="Twice", body=LINES + "spam\n", base_revision=1)
    page_save_revision(slug="twice", title="Twice", body=LINES, base_revision=2)

    response = editor_client.get(_undo_url(page, 2), follow=True)

    assert response.redirect_chain[-1][0] == reverse("wiki:page-history", kwargs={"slug": page.slug})
    assert "Revision 2&#x27;s change is no longer in the page: there is nothing to undo." in response.content.decode()
    assert page.revisions.count() == 3


@pytest.mark.parametrize("number", ["1", "9", "x", "12345678901"])
def test_an_undo_of_no_change_is_an_error_page_not_the_whole_form(editor_client: Client, number: str) -> None:
    page = _page_with_history()
    if number in ("1", "9"):
        with pytest.raises(UndoImpossible):
            page_undo_prepare(page=page, number=int(number))

    response = editor_client.get(_undo_url(page, number))

    assert response.status_code == 404
    assert "has no change to undo" in response.content.decode() and "form" not in response.context


def test_undo_is_for_editors_only(client: Client) -> None:
    page = _page_with_history()
    url = _undo_url(page, 2)

    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    client.force_login(make_reader("reader"))
    assert client.get(url).status_code == 403
    history = client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert "?undo=" not in history
    client.force_login(make_editor())
    assert client.get(url).context["undo"].revision.number == 2


def test_history_offers_undo_on_every_revision_but_the_first_and_the_diff_of_one_edit_too(
    editor_client: Client,
) -> None:
    page = _page_with_history()

    history = editor_client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    diff = reverse("wiki:page-diff", kwargs={"slug": page.slug})
    one_edit = editor_client.get(f"{diff}?from=1&to=2").content.decode()
    two_edits = editor_client.get(f"{diff}?from=1&to=3").content.decode()

    assert sorted(re.findall(r"\?undo=(\d+)", history)) == ["2", "3"]
    assert re.findall(r"\?undo=(\d+)", one_edit) == ["2"]
    assert "?undo=" not in two_edits


def test_the_undo_form_runs_a_fixed_number_of_queries(
    editor: object, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    short, long = make_page(slug="short", body=LINES), make_page(slug="long", body=LINES)
    for page, edits in ((short, 3), (long, 40)):
        body = LINES
        for n in range(2, edits + 1):
            body = body.replace("first line", "1st line") if n == 2 else body + f"line {n}\n"
            page_save_revision(slug=page.slug, title=page.title, body=body, base_revision=n - 1)
    client = Client()
    client.force_login(editor)  # type: ignore[arg-type]
    client.get(_undo_url(short, 2))  # the account, then read from the cache
    # the editor's permissions (their own, their groups'), the page, the revision undone with the one before it, the
    # current one
    for page in (short, long):
        with django_assert_num_queries(5):
            assert client.get(_undo_url(page, 2)).status_code == 200
