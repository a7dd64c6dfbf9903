"""The watchlist filters its changes as recent changes do (kind, the last days, without the reader's own edits), with
the same form, and can keep only the latest change to each item; in as many queries whatever it holds."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_page, make_question, make_reader
from wiki.models import ChangeEvent, Page
from wiki.roles import Account
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_update
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db


def _reader_client(reader: Account) -> Client:
    client = Client()
    client.force_login(reader)
    return client


def _listed(client: Client, **params: str) -> list[tuple[str, str, str]]:
    response = client.get(reverse("wiki:watchlist"), params)
    assert response.status_code == 200
    return [(c.kind, c.label, c.summary) for c in response.context["changes"]]


def _edit(page: Page, text: str, *, user: Account, comment: str = "") -> None:
    page_save_revision(slug=page.slug, title=page.title, body=text, comment=comment, user=user)


def _aged(summary: str, days: int) -> None:
    ChangeEvent.objects.filter(summary=summary).update(created_at=timezone.now() - timedelta(days=days))


def test_the_watchlist_filters_by_kind_period_and_without_the_reader_s_own_edits() -> None:
    reader, editor = make_reader("watcher"), make_editor("someone")
    page = make_page(title="Watched page", body="Start.")
    question = make_question(title="Watched question?")
    for target in (page, question):
        watch_add(user=reader, target=target)
    _edit(page, "Theirs, old.", user=editor, comment="theirs old")
    _aged("theirs old", 5)
    _edit(page, "Mine.", user=reader, comment="mine")
    _edit(page, "Theirs, new.", user=editor, comment="theirs new")
    question_update(question=question, fields={"priority": "high"}, user=editor)
    client = _reader_client(reader)

    everything = _listed(client)
    assert [summary for _, _, summary in everything][:3] == ["priority Normal → High", "theirs new", "mine"]
    assert _listed(client, kind="question") == [("question", "Watched question?", "priority Normal → High")]
    assert {summary for _, _, summary in _listed(client, kind="page", days="3")} == {"theirs new", "mine", ""}
    assert [summary for _, _, summary in _listed(client, kind="page", days="3", hidemine="1")] == ["theirs new", ""]
    assert "theirs old" in {summary for _, _, summary in _listed(client, days="7", hidemine="1")}
    html = client.get(reverse("wiki:watchlist"), {"kind": "page", "days": "3", "hidemine": "1"}).content.decode()
    assert '<option value="page" selected>' in html and '<option value="3" selected>last 3 days</option>' in html
    assert '<input type="checkbox" name="hidemine" value="1" checked>' in html
    # One account's changes are recent changes' filter: the watchlist is the reader's own.
    assert 'name="user"' not in html and 'name="user"' in client.get(reverse("wiki:changes")).content.decode()


def test_the_watchlist_keeps_only_the_latest_change_to_each_item_among_those_the_other_filters_keep() -> None:
    reader, editor = make_reader("latest-watcher"), make_editor("latest-editor")
    first, second = make_page(title="First page", body="1."), make_page(title="Second page", body="1.")
    question = make_question(title="A question?")
    for target in (first, second, question):
        watch_add(user=reader, target=target)
    _edit(first, "2.", user=editor, comment="first by them")
    _edit(second, "2.", user=editor, comment="second by them")
    question_update(question=question, fields={"priority": "high"}, user=editor)
    _edit(first, "3.", user=reader, comment="first by me")
    client = _reader_client(reader)

    assert _listed(client, latest="1") == [
        ("page", "First page", "first by me"),
        ("question", "A question?", "priority Normal → High"),
        ("page", "Second page", "second by them"),
    ]
    # Without the reader's own edits, the latest of the others.
    assert _listed(client, latest="1", hidemine="1", kind="page") == [
        ("page", "Second page", "second by them"),
        ("page", "First page", "first by them"),
    ]
    assert len(_listed(client)) == 6
    html = client.get(
        reverse("wiki:watchlist"), {"latest": "1"}, headers={"accept-language": "zh-Hans"}
    ).content.decode()
    assert '<input type="checkbox" name="latest" value="1" checked> 每项只列最新一次更改' in html


def test_the_filters_are_kept_from_page_to_page() -> None:
    reader, editor = make_reader("paging-watcher"), make_editor("paging-editor")
    for n in range(60):
        page = make_page(title=f"Page {n}", body="x")
        watch_add(user=reader, target=page)
        _edit(page, "y", user=editor)
    client = _reader_client(reader)

    html = client.get(reverse("wiki:watchlist"), {"kind": "page", "latest": "1"}).content.decode()

    assert "Page 1 of 2" in html and 'href="?kind=page&amp;latest=1&amp;p=2"' in html
    assert (
        len(client.get(reverse("wiki:watchlist"), {"kind": "page", "latest": "1", "p": "2"}).context["changes"]) == 10
    )


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"kind": "bogus"}, "“bogus” is not a kind of change; choose one from the list."),
        ({"days": "365"}, "“365” is not a number of days to show; choose one from the list."),
    ],
)
def test_a_filter_value_not_offered_is_refused_with_its_message(params: dict[str, str], said: str) -> None:
    reader = make_reader("refused-watcher")
    watch_add(user=reader, target=make_page(title="Some page"))
    client = _reader_client(reader)

    refused = client.get(reverse("wiki:watchlist"), params)

    assert refused.status_code == 400
    html = refused.content.decode()
    assert said in html and f'aria-describedby="{next(iter(params))}_error"' in html
    assert "Some page" not in html


def test_filters_that_keep_nothing_say_so_rather_than_that_nothing_changed() -> None:
    reader = make_reader("filtered-watcher")
    watch_add(user=reader, target=make_page(title="Quiet page"))
    client = _reader_client(reader)

    html = client.get(reverse("wiki:watchlist"), {"kind": "question"}).content.decode()

    assert "No change to what you watch matches these filters." in html
    assert "Nothing you watch has changed yet" not in html


def _watched_wiki(reader: Account, editor: Account, pages: int) -> None:
    for n in range(pages):
        page = make_page(title=f"Busy page {n}-{Page.objects.count()}", body="Start.")
        watch_add(user=reader, target=page)
        for m in range(3):
            _edit(page, f"Edit {m}.", user=editor if m % 2 else reader, comment=f"edit {m}")


def test_the_filtered_watchlist_runs_as_many_queries_whatever_it_holds(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    reader, editor = make_reader("counted-watcher"), make_editor("counted-editor")
    client = _reader_client(reader)
    params = {"kind": "page", "days": "7", "hidemine": "1", "latest": "1"}
    _watched_wiki(reader, editor, 2)
    # The first visit gives the account its profile, with the feed's key; the next reads the account anew.
    client.get(reverse("wiki:watchlist"), params)
    client.get(reverse("wiki:watchlist"), params)
    # What is watched (a count), the changes (a count, then the rows); the session and account are cached.
    with django_assert_num_queries(3):
        few = client.get(reverse("wiki:watchlist"), params)
    _watched_wiki(reader, editor, 30)
    client.get(reverse("wiki:watchlist"), params)
    with django_assert_num_queries(3):
        many = client.get(reverse("wiki:watchlist"), params)

    assert len(few.context["changes"]) == 2 and len(many.context["changes"]) == 32
    assert all(c.user_id == editor.pk for c in many.context["changes"])
    assert len(re.findall(r">Busy page ", many.content.decode())) == 32
