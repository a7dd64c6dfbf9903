"""A reader's watchlist: the watch button on pages, works and questions, the changes to what they watch, editing
the list, the feed, and what edits, deletions and merges do to it."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.crypto import salted_hmac
from pytest_django import DjangoAssertNumQueries

from tests.factories import (
    ClassificationFactory,
    make_contrast,
    make_editor,
    make_page,
    make_question,
    make_reader,
    make_source,
)
from wiki.models import ChangeEvent, ReaderProfile, Watch
from wiki.services.claims import claim_set_status
from wiki.services.deletion import page_delete
from wiki.services.merges import source_merge, source_merge_undo
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_update
from wiki.services.sources import source_update
from wiki.services.watches import watch_add, watchlist_feed_token

pytestmark = pytest.mark.django_db

_BUTTON = re.compile(r'<form method="post" action="(?P<action>[^"]+)" class="inline-form watch-form">.*?name="watch" value="(?P<value>[01])"', re.S)


def _button(html: str) -> tuple[str, str] | None:
    """The watch button's address and what it asks for ("1": watch, "0": unwatch), or None when there is none."""
    found = _BUTTON.search(html)
    return (found["action"], found["value"]) if found else None


def _logged_in(username: str, *, editor: bool = False) -> Client:
    client = Client()
    user = make_editor(username) if editor else make_reader(username)
    client.force_login(user)
    client.session_user = user  # type: ignore[attr-defined]
    return client


def test_a_reader_watches_and_unwatches_a_page_with_its_button_without_javascript() -> None:
    page = make_page(title="Watched page")
    reader = _logged_in("follower")
    button = _button(reader.get(page.get_absolute_url()).content.decode())
    assert button == (reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), "1")

    response = reader.post(button[0], {"watch": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == page.get_absolute_url() + "#watch-button"
    assert "is on your watchlist" in response.content.decode()
    assert Watch.objects.filter(user__username="follower", page=page).exists()
    assert _button(reader.get(page.get_absolute_url()).content.decode())[1] == "0"  # type: ignore[index]

    reader.post(button[0], {"watch": "0"})
    assert not Watch.objects.filter(page=page).exists()
    assert _button(reader.get(page.get_absolute_url()).content.decode())[1] == "1"  # type: ignore[index]


def test_a_page_opened_by_an_address_it_was_moved_from_is_watched_with_its_button() -> None:
    page = page_move(page=make_page(slug="old-notes", title="Old notes"), slug="new-notes", user=None)
    reader = _logged_in("mover-follower")
    opened = reader.get(reverse("wiki:page-detail", kwargs={"slug": "old-notes"}), follow=True)
    button = _button(opened.content.decode())
    assert opened.redirect_chain[-1][0] == f"{page.get_absolute_url()}?redirectedfrom=old-notes" and button is not None

    response = reader.post(button[0], {"watch": "1"}, follow=True)

    assert response.redirect_chain[-1][0] == page.get_absolute_url() + "#watch-button"
    assert Watch.objects.filter(user__username="mover-follower", page=page).exists()


def test_a_watch_comes_back_to_the_button_that_was_pressed() -> None:
    """The address the toggle returns to names the button (the browser scrolls to it and focuses it), and the button,
    now Unwatch, has that id: a keyboard reader goes on from where they were, not from the top of the page."""
    page = make_page(title="Long page")
    reader = _logged_in("keyboard-reader")
    response = reader.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"watch": "1"})
    address, fragment = response["Location"].split("#")
    assert address == page.get_absolute_url()
    html = reader.get(address).content.decode()
    button = re.search(rf'<button [^>]*id="{fragment}"[^>]*>(.*?)</button>', html, re.S)
    assert button is not None and "Unwatch" in button[1] and 'class="inline-form watch-form"' in html
    assert reader.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}),
                       {"watch": "0"})["Location"] == response["Location"]


def test_the_watch_form_needs_its_csrf_token() -> None:
    page = make_page(title="Guarded")
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_reader("guarded"))
    assert client.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"watch": "1"}).status_code == 403
    html = client.get(page.get_absolute_url()).content.decode()
    token = html.split('class="inline-form watch-form"><input type="hidden" name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    client.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"watch": "1", "csrfmiddlewaretoken": token})
    assert Watch.objects.filter(page=page).exists()


def test_readers_share_one_cached_copy_each_with_their_own_watch_button(django_assert_num_queries: DjangoAssertNumQueries) -> None:
    page = make_page(title="Shared and watched")
    watcher, other = _logged_in("watcher"), _logged_in("other-reader")
    watch_add(user=watcher.session_user, target=page)  # type: ignore[attr-defined]
    assert _button(watcher.get(page.get_absolute_url()).content.decode())[1] == "0"  # type: ignore[index]
    # the second reader is served the copy the first one's read stored, with their own button in it
    assert _button(other.get(page.get_absolute_url()).content.decode())[1] == "1"  # type: ignore[index]
    with django_assert_num_queries(0):
        html = watcher.get(page.get_absolute_url()).content.decode()
    assert _button(html)[1] == "0" and "wiki-slot" not in html  # type: ignore[index]


def test_a_page_rendered_for_one_reader_has_their_watch_button_and_token_in_its_cached_fragment() -> None:
    page = make_page(title="Rendered for one")
    watcher = Client(enforce_csrf_checks=True)
    watcher.force_login(user := make_reader("lone-watcher"))
    watcher.get(page.get_absolute_url())  # the page's fragment is cached, with the button's slot in it
    watch_add(user=user, target=page)
    # an address the view does not read is answered for this reader alone, from the same fragment
    html = watcher.get(page.get_absolute_url() + "?utm_source=feed").content.decode()
    action, value = _button(html)  # type: ignore[misc]
    assert value == "0" and "wiki-slot" not in html and "lone-watcher" in html
    token = html.split('class="inline-form watch-form"><input type="hidden" name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert watcher.post(action, {"watch": "0", "csrfmiddlewaretoken": token}).status_code == 302
    assert not Watch.objects.filter(page=page).exists()


def test_anonymous_readers_get_no_watch_button_and_the_watchlist_asks_them_to_log_in(client: Client) -> None:
    page = make_page(title="Read anonymously")
    _logged_in("first-reader").get(page.get_absolute_url())
    html = client.get(page.get_absolute_url()).content.decode()
    assert _button(html) is None and "wiki-slot" not in html
    assert reverse("wiki:watchlist") not in html
    response = client.get(reverse("wiki:watchlist"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_works_and_questions_have_a_watch_button_too() -> None:
    work = make_source(short_name="WatchedWork")
    question = make_question(title="Watched question?")
    reader = _logged_in("curious")
    for target, kind in ((work, "source"), (question, "question")):
        button = _button(reader.get(target.get_absolute_url()).content.decode())
        assert button == (reverse("wiki:watch", kwargs={"kind": kind, "pk": target.pk}), "1")
        assert reader.post(button[0], {"watch": "1"})["Location"] == target.get_absolute_url() + "#watch-button"
        assert _button(reader.get(target.get_absolute_url()).content.decode())[1] == "0"  # type: ignore[index]
    assert Watch.objects.filter(source=work).count() == Watch.objects.filter(question=question).count() == 1


def test_the_header_links_the_watchlist_for_logged_in_readers(client: Client) -> None:
    reader = _logged_in("header-reader")
    assert f'href="{reverse("wiki:watchlist")}"' in reader.get("/").content.decode()
    assert f'href="{reverse("wiki:watchlist")}"' not in client.get("/").content.decode()


def test_editing_or_creating_a_page_watches_it_for_its_editor_unless_the_preference_is_off() -> None:
    editor = make_editor("auto-watcher")
    page = make_page(title="Created by the editor", user=editor)
    assert Watch.objects.filter(user=editor, page=page).exists()
    other = make_page(title="Edited later")
    page_save_revision(slug=other.slug, title=other.title, body="Changed.", user=editor)
    assert Watch.objects.filter(user=editor, page=other).exists()

    client = Client()
    client.force_login(editor)
    form = client.get(reverse("wiki:preferences")).content.decode()
    assert 'name="watch_edits"' in form and "checked" in form.split('name="watch_edits"')[1].split(">")[0]
    client.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "UTC"})
    assert ReaderProfile.objects.get(user=editor).watch_edits is False
    editor.refresh_from_db()
    third = make_page(title="Not watched", user=ReaderProfile.objects.get(user=editor).user)
    assert not Watch.objects.filter(user=editor, page=third).exists()


def test_the_preference_is_offered_to_logged_in_readers_only(client: Client) -> None:
    assert 'name="watch_edits"' not in client.get(reverse("wiki:preferences")).content.decode()


def test_the_watchlist_lists_the_changes_to_what_the_reader_watches_newest_first() -> None:
    editor = make_editor("busy-editor")
    reader = make_reader("watching-reader")
    page = make_page(title="Followed page", body="## 关键要点\n\n- A claim to follow.\n")
    ignored = make_page(title="Ignored page")
    work, partner, duplicate = make_source(short_name="FollowedWork"), make_source(short_name="Partner"), make_source(short_name="Dup")
    question = make_question(title="Followed question?")
    for target in (page, work, question):
        watch_add(user=reader, target=target)

    page_save_revision(slug=page.slug, title=page.title, body=page.body + "\nMore.\n", comment="page edit", user=editor)
    page_save_revision(slug=ignored.slug, title=ignored.title, body="Unwatched edit.", comment="ignored edit", user=editor)
    claim_set_status(claim=page.claims.current().get(), status="disputed", user=editor)
    source_update(source=work, fields={"notes": "Read again."}, user=editor, summary="work edit")
    ClassificationFactory.create(source=work)
    make_contrast(work, partner)
    source_merge(merged=duplicate, kept=work, user=editor)
    question_update(question=question, fields={"priority": "high"}, user=editor)

    client = Client()
    client.force_login(reader)
    response = client.get(reverse("wiki:watchlist"))
    listed = list(response.context["changes"])
    kinds = [(c.kind, c.action) for c in listed]
    assert kinds == [("question", "edited"), ("source", "merged"), ("contrast", "created"), ("classification", "created"),
                     ("source", "edited"), ("claim", "edited"), ("page", "edited"), ("page", "created")]
    html = response.content.decode()
    assert "ignored edit" not in html and "page edit" in html
    assert "Ignored page" not in html


def test_the_watchlist_runs_as_many_queries_however_many_items_are_watched_and_changed(
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    reader = make_reader("counting-reader")
    client = Client()
    client.force_login(reader)
    first = make_page(title="Only one")
    watch_add(user=reader, target=first)
    # The first visit gives the account its profile, with the feed's key; the next reads the account anew.
    client.get(reverse("wiki:watchlist"))
    client.get(reverse("wiki:watchlist"))
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("wiki:watchlist")).status_code == 200
    count = len(few.captured_queries)

    editor = make_editor("many-edits")
    for n in range(12):
        page = make_page(title=f"Watched {n}", body="## 关键要点\n\n- A claim.\n")
        work = make_source(short_name=f"Work{n}")
        watch_add(user=reader, target=page)
        watch_add(user=reader, target=work)
        watch_add(user=reader, target=make_question(title=f"Q{n}?"))
        page_save_revision(slug=page.slug, title=page.title, body="Edited.", user=editor)
        source_update(source=work, fields={"notes": f"n{n}"}, user=editor)
    client.get(reverse("wiki:watchlist"))
    with django_assert_num_queries(count):
        response = client.get(reverse("wiki:watchlist"))
    assert len(response.context["changes"]) > 20


def test_the_watchlist_is_paginated() -> None:
    from wiki.views.watchlist import WATCHLIST_PAGE_SIZE

    reader = make_reader("paging-reader")
    page = make_page(title="Edited often")
    watch_add(user=reader, target=page)
    for n in range(WATCHLIST_PAGE_SIZE):
        page_save_revision(slug=page.slug, title=page.title, body=f"Text {n}.")
    client = Client()
    client.force_login(reader)
    assert len(client.get(reverse("wiki:watchlist")).context["changes"]) == WATCHLIST_PAGE_SIZE
    assert len(client.get(reverse("wiki:watchlist"), {"p": 2}).context["changes"]) == 1


def test_the_watchlist_editor_lists_what_is_watched_and_takes_ticked_items_off() -> None:
    reader, someone = make_reader("tidy-reader"), make_reader("someone-else")
    page, work, question = make_page(title="Tidy page"), make_source(short_name="TidyWork"), make_question(title="Tidy?")
    for target in (page, work, question):
        watch_add(user=reader, target=target)
    theirs = Watch.objects.create(user=someone, page=page)
    client = Client()
    client.force_login(reader)
    html = client.get(reverse("wiki:watchlist-edit")).content.decode()
    assert "Tidy page" in html and "TidyWork" in html and "Tidy?" in html
    mine = Watch.objects.get(user=reader, page=page)
    client.post(reverse("wiki:watchlist-edit"), {"remove": [mine.pk, theirs.pk]})
    assert set(Watch.objects.filter(user=reader).values_list("source_id", "question_id")) == {(work.pk, None), (None, question.pk)}
    assert Watch.objects.filter(pk=theirs.pk).exists()
    # the page's button says so at once
    assert _button(client.get(page.get_absolute_url()).content.decode())[1] == "1"  # type: ignore[index]


def test_a_deleted_page_stays_watched_and_its_deletion_is_listed() -> None:
    reader, staff = make_reader("loyal-reader"), make_editor("deleting-editor")
    page = make_page(title="To be deleted")
    watch_add(user=reader, target=page)
    page_delete(page=page, user=staff, reason="duplicate")
    client = Client()
    client.force_login(reader)
    assert next(iter(client.get(reverse("wiki:watchlist")).context["changes"])).action == "deleted"
    assert "(deleted)" in client.get(reverse("wiki:watchlist-edit")).content.decode()


def test_a_merged_works_watchers_watch_the_kept_work_and_an_undo_gives_them_back() -> None:
    only_merged, both = make_reader("merged-watcher"), make_reader("both-watcher")
    merged, kept = make_source(short_name="MergedAway"), make_source(short_name="KeptWork")
    watch_add(user=only_merged, target=merged)
    watch_add(user=both, target=merged)
    watch_add(user=both, target=kept)
    client = Client()
    client.force_login(only_merged)
    assert _button(client.get(kept.get_absolute_url()).content.decode())[1] == "1"  # type: ignore[index]

    merge = source_merge(merged=merged, kept=kept, user=make_editor("merging-editor"))
    assert set(Watch.objects.filter(source=kept).values_list("user__username", flat=True)) == {"merged-watcher", "both-watcher"}
    assert not Watch.objects.filter(source=merged).exists()
    assert _button(client.get(kept.get_absolute_url()).content.decode())[1] == "0"  # type: ignore[index]
    assert [(c.kind, c.action) for c in client.get(reverse("wiki:watchlist")).context["changes"]] == [("source", "merged")]

    source_merge_undo(merge=merge, user=None)
    assert set(Watch.objects.filter(source=merged).values_list("user__username", flat=True)) == {"merged-watcher", "both-watcher"}
    assert set(Watch.objects.filter(source=kept).values_list("user__username", flat=True)) == {"both-watcher"}


def test_the_watchlist_feed_is_read_at_a_secret_address_that_can_be_replaced(client: Client) -> None:
    reader = make_reader("feed-reader")
    page = make_page(title="Fed page")
    watch_add(user=reader, target=page)
    page_save_revision(slug=page.slug, title=page.title, body="Fed edit.", comment="for the feed")
    make_page(title="Not fed")
    url = reverse("wiki:watchlist-feed", kwargs={"user_id": reader.pk, "token": watchlist_feed_token(user=reader)})
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    assert "private" in response["Cache-Control"]
    feed = response.content.decode()
    assert "Fed page" in feed and "for the feed" in feed and "Not fed" not in feed
    assert client.get(reverse("wiki:watchlist-feed", kwargs={"user_id": reader.pk, "token": "0" * 32})).status_code == 404

    owner = Client()
    owner.force_login(reader)
    assert url in owner.get(reverse("wiki:watchlist")).content.decode()
    owner.post(reverse("wiki:watchlist-edit"), {"reset_feed": "1"})
    assert client.get(url).status_code == 404
    reader.refresh_from_db()
    assert client.get(reverse("wiki:watchlist-feed", kwargs={
        "user_id": reader.pk, "token": ReaderProfile.objects.get(user=reader).feed_token})).status_code == 200


def test_no_feed_address_follows_from_the_account_and_the_server_key_alone(client: Client) -> None:
    reader = make_reader("keyless-reader")
    watch_add(user=reader, target=make_page(title="Private interest"))
    # What anyone holding the server's key computes for a profile without a key of its own, or for no profile.
    guessed = salted_hmac("wiki.watchlist.feed", f"{reader.pk}:", algorithm="sha256").hexdigest()[:32]
    assert client.get(reverse("wiki:watchlist-feed", kwargs={"user_id": reader.pk, "token": guessed})).status_code == 404

    owner = Client()
    owner.force_login(reader)
    shown = re.search(r"/watchlist/feed/\d+/([0-9a-f]{32})/", owner.get(reverse("wiki:watchlist")).content.decode())
    assert shown is not None and shown.group(1) != guessed
    assert client.get(reverse("wiki:watchlist-feed", kwargs={"user_id": reader.pk, "token": shown.group(1)})).status_code == 200
    assert shown.group(0) in owner.get(reverse("wiki:watchlist-edit")).content.decode()


def test_every_reader_profile_has_a_random_feed_key_of_its_own() -> None:
    made = [ReaderProfile.objects.create(user=make_reader(f"keyed-{n}")) for n in range(3)]
    keys = [profile.feed_key for profile in ReaderProfile.objects.filter(pk__in=[p.pk for p in made])]
    assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in keys) and len(set(keys)) == 3


def test_the_migration_gives_every_profile_without_a_feed_key_one() -> None:
    migration = importlib.import_module("wiki.migrations.0044_watchlist_feed_keys")
    keyless = [ReaderProfile.objects.create(user=make_reader(f"old-profile-{n}")) for n in range(3)]
    kept = ReaderProfile.objects.create(user=make_reader("kept-key"))
    ReaderProfile.objects.filter(pk__in=[p.pk for p in keyless]).update(feed_key="")

    migration.fill(apps, None)

    keys = dict(ReaderProfile.objects.filter(pk__in=[p.pk for p in keyless]).values_list("pk", "feed_key"))
    assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in keys.values()) and len(set(keys.values())) == 3
    assert ReaderProfile.objects.get(pk=kept.pk).feed_key == kept.feed_key


def test_watching_something_that_is_not_there_is_404_and_a_bad_request_400() -> None:
    reader = _logged_in("mistaken-reader")
    assert reader.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": 999999}), {"watch": "1"}).status_code == 404
    assert reader.post(reverse("wiki:watch", kwargs={"kind": "claim", "pk": 1}), {"watch": "1"}).status_code == 404
    page = make_page(title="Asked badly")
    assert reader.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"watch": "yes"}).status_code == 400
    assert ChangeEvent.objects.filter(kind="page", object_id=page.pk).count() == 1
