"""Rolling back the latest editor's run of edits: one POST, back to the last revision someone else saved, through the
same service as a revert; refused when the page changed since the button was shown, or no one else saved before."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries, Settings

from tests.factories import make_editor, make_page, make_reader
from wiki.models import ChangeEvent, Page
from wiki.roles import Account
from wiki.services.page_reverts import RollbackRefused, page_rollback
from wiki.services.pages import EditConflict, page_save_revision
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db


def _vandalised() -> tuple[Page, Account, Account]:
    """r1 and r2 by alice, then r3 and r4 by mallory."""
    alice, mallory = make_editor("alice"), make_editor("mallory")
    page = make_page(slug="notes", title="Notes", body="Good text.\n", user=alice)
    page_save_revision(slug="notes", title="Notes", body="Good text, better.\n", user=alice, base_revision=1)
    page_save_revision(slug="notes", title="Notes", body="Spam.\n", user=mallory, base_revision=2)
    page_save_revision(slug="notes", title="Notes", body="More spam.\n", user=mallory, base_revision=3)
    return page, alice, mallory


def _rollback(client: Client, page: Page, base: object) -> str:
    """The page a rollback posted with ``base`` leads to."""
    url = reverse("wiki:page-rollback", kwargs={"slug": page.slug})
    return client.post(url, {"base_revision": base}, follow=True).content.decode()


def test_a_rollback_restores_the_last_revision_by_someone_else_as_a_new_revision(client: Client) -> None:
    page, _, _ = _vandalised()
    watcher = make_reader("watcher")
    watch_add(user=watcher, target=page)
    rollbacker = make_editor("patroller")
    client.force_login(rollbacker)
    assert "More spam." in client.get(page.get_absolute_url()).content.decode()  # cached for the next reader

    html = _rollback(client, page, 4)

    page.refresh_from_db()
    assert page.body == "Good text, better.\n" and page.revisions.count() == 5
    latest = page.revisions.order_by("-number").first()
    assert latest is not None and latest.author == rollbacker
    assert latest.comment == "Reverted edits by mallory (2 edits) to the last revision by alice"
    assert list(page.revisions.order_by("number").values_list("body", flat=True))[2:4] == ["Spam.\n", "More spam.\n"]
    assert "Reverted edits by mallory (2 edits) to the last revision by alice: saved as revision 5." in html
    assert "More spam." not in html and "Good text, better." in html
    event = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.PAGE, object_id=page.pk).order_by("-id").first()
    assert event is not None and event.action == ChangeEvent.Action.REVERTED and event.user == rollbacker
    client.force_login(watcher)
    watchlist = client.get(reverse("wiki:watchlist")).content.decode()
    assert "Reverted edits by mallory (2 edits) to the last revision by alice" in watchlist


def test_a_rollback_reads_in_each_readers_language_and_counts_one_edit_as_one(editor_client: Client) -> None:
    alice, mallory = make_editor("alice"), make_editor("mallory")
    page = make_page(slug="notes", title="Notes", body="Good.\n", user=alice)
    page_save_revision(slug="notes", title="Notes", body="Spam.\n", user=mallory, base_revision=1)

    _rollback(editor_client, page, 2)

    assert (
        page.revisions.order_by("-number").values_list("comment", flat=True)[0]
        == "Reverted edits by mallory (1 edit) to the last revision by alice"
    )
    chinese = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    history = chinese.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert "回滚 mallory 的编辑（1 次）至 alice 的最后一个修订版本" in history
    changes = chinese.get(reverse("wiki:changes")).content.decode()
    assert "回滚 mallory 的编辑（1 次）至 alice 的最后一个修订版本" in changes


def test_a_rollback_to_an_imported_revision_says_so() -> None:
    page = make_page(slug="notes", title="Notes", body="Imported.\n")
    page_save_revision(slug="notes", title="Notes", body="Spam.\n", user=make_editor("mallory"), base_revision=1)

    rolled = page_rollback(page=page, user=make_editor(), base_revision=2)

    assert rolled.revision.body == "Imported.\n"
    assert rolled.revision.comment == "Reverted edits by mallory (1 edit) to the last imported revision"


def test_a_rollback_offered_before_the_page_changed_changes_nothing(editor_client: Client) -> None:
    page, alice, _ = _vandalised()
    page_save_revision(slug="notes", title="Notes", body="Fixed by hand.\n", user=alice, base_revision=4)

    with pytest.raises(EditConflict):
        page_rollback(page=page, user=None, base_revision=4)
    html = _rollback(editor_client, page, 4)

    assert (
        "The page was saved again (revision 5) after the rollback was offered for revision 4; nothing was rolled back."
        in html
    )
    page.refresh_from_db()
    assert page.body == "Fixed by hand.\n" and page.revisions.count() == 5


def test_a_rollback_with_no_revision_by_someone_else_is_refused(editor_client: Client) -> None:
    author = make_editor("solo")
    page = make_page(slug="solo", title="Solo", body="One.\n", user=author)
    page_save_revision(slug="solo", title="Solo", body="Two.\n", user=author, base_revision=1)

    with pytest.raises(RollbackRefused):
        page_rollback(page=page, user=None, base_revision=2)
    html = _rollback(editor_client, page, 2)

    assert (
        "Every revision of this page was saved by solo: there is no revision by someone else to roll back to." in html
    )
    assert page.revisions.count() == 2
    history = editor_client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert reverse("wiki:page-rollback", kwargs={"slug": page.slug}) not in history


def test_a_rollback_of_an_import_is_refused(editor_client: Client) -> None:
    page = make_page(slug="imported", title="Imported", body="One.\n", user=make_editor("alice"))
    page_save_revision(slug="imported", title="Imported", body="Two.\n", base_revision=1)

    html = _rollback(editor_client, page, 2)

    assert "The latest revision was imported, not saved by an editor" in html
    assert page.revisions.count() == 2


def test_a_rollback_without_its_revision_or_by_a_reader_or_by_get_changes_nothing(client: Client) -> None:
    page, _, _ = _vandalised()
    url = reverse("wiki:page-rollback", kwargs={"slug": page.slug})

    assert client.post(url, {"base_revision": 4}).status_code == 403  # no session: nothing saved, said so
    client.force_login(make_reader("reader"))
    assert client.post(url, {"base_revision": 4}).status_code == 403
    client.force_login(make_editor())
    assert client.get(url).status_code == 405
    response = client.post(url, {}, follow=True)
    assert "does not say which revision it was offered for" in response.content.decode()
    assert page.revisions.count() == 4


def test_the_rollback_needs_its_csrf_token() -> None:
    page, _, _ = _vandalised()
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_editor())

    response = client.post(reverse("wiki:page-rollback", kwargs={"slug": page.slug}), {"base_revision": 4})

    assert response.status_code == 403 and page.revisions.count() == 4


def test_history_and_the_diff_of_the_current_revision_offer_the_rollback_to_editors(client: Client) -> None:
    page, _, _ = _vandalised()
    rollback = reverse("wiki:page-rollback", kwargs={"slug": page.slug})
    history = reverse("wiki:page-history", kwargs={"slug": page.slug})
    diff = reverse("wiki:page-diff", kwargs={"slug": page.slug})

    assert rollback not in client.get(history).content.decode()
    client.force_login(make_editor())
    html = client.get(history).content.decode()
    form = re.search(rf'<form method="post" action="{rollback}"[^>]*id="rollback-form">(.*?)</form>', html, re.S)
    assert (
        form is not None
        and 'name="base_revision" value="4"' in form.group(1)
        and "csrfmiddlewaretoken" in form.group(1)
    )
    assert re.search(r'<button type="submit"[^>]*form="rollback-form"[^>]*>Roll back 2 edits by mallory</button>', html)
    current = client.get(f"{diff}?from=3&to=4").content.decode()
    assert rollback in current and 'name="base_revision" value="4"' in current
    assert rollback not in client.get(f"{diff}?from=2&to=3").content.decode()


def test_history_and_diff_run_a_fixed_number_of_queries_for_editors(
    editor: Account, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    authors = [make_editor(f"author-{n}") for n in range(3)]
    short, long = make_page(slug="short", body="0", user=authors[0]), make_page(slug="long", body="0", user=authors[0])
    for page, edits in ((short, 3), (long, 45)):
        for n in range(2, edits + 1):
            page_save_revision(
                slug=page.slug,
                title=page.title,
                body=str(n),
                base_revision=n - 1,
                user=authors[1] if n > edits - 2 else authors[2 * (n % 2)],
            )
    client = Client()
    client.force_login(editor)
    client.get(reverse("wiki:page-history", kwargs={"slug": short.slug}))  # the account, then read from the cache
    for page, latest in ((short, 3), (long, 45)):
        # the editor's permissions (two), the page, its revisions and their count, its former addresses, the rollback's
        # revision
        with django_assert_num_queries(7):
            html = client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
        assert "Roll back 2 edits by author-1" in html
        # the page with its latest number, the two revisions, the claims they changed, the permissions, the rollback's
        # revision
        with django_assert_num_queries(6):
            html = client.get(
                reverse("wiki:page-diff", kwargs={"slug": page.slug}) + f"?from={latest - 1}&to={latest}"
            ).content.decode()
        assert "Roll back 2 edits by author-1" in html


def test_a_rollback_to_a_revision_over_todays_limits_says_why_and_rolls_back_nothing(
    client: Client, settings: Settings
) -> None:
    page, alice, mallory = _vandalised()
    page_save_revision(slug="notes", title="Notes", body="Good text.\n" * 150, user=alice, base_revision=4)
    page_save_revision(slug="notes", title="Notes", body="Spam.\n", user=mallory, base_revision=5)
    settings.WIKI_MAX_BODY_CHARS = 1000
    client.force_login(alice)

    html = _rollback(client, page, 6)

    assert "Revision 5 cannot be saved again as it is" in html and "the limit is 1,000" in html
    assert page.revisions.count() == 6 and Page.objects.get(pk=page.pk).body == "Spam.\n"
