"""Readers are served from the cache, and every write is visible to the next request."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.db import connection
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import parse_http_date
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks, Settings

from tests.factories import make_editor, make_page, make_question, make_reader
from tests.wiki.htmltext import sections_with_class
from wiki.caching import release, versions
from wiki.caching.local import copies
from wiki.caching.release import code_digest
from wiki.caching.responses import accepts_gzip
from wiki.models import Page
from wiki.services.pages import page_save_revision
from wiki.views.listing import IN_PAGE

pytestmark = pytest.mark.django_db


def test_a_second_anonymous_read_runs_no_query(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    page = make_page(title="Cached", body="Once rendered, then served.")
    assert client.get(page.get_absolute_url()).status_code == 200
    with django_assert_num_queries(0):
        response = client.get(page.get_absolute_url())
    assert response.status_code == 200
    assert "Once rendered, then served." in response.content.decode()


def test_a_browser_that_accepts_gzip_gets_the_stored_copy_compressed(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    page = make_page(title="Compressed", body="一段会被压缩的正文。" * 200)
    plain = client.get(page.get_absolute_url())
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]

    with django_assert_num_queries(0):
        packed = client.get(page.get_absolute_url(), headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content and len(packed.content) * 4 < len(plain.content)
    # Each encoding has its own validator, and each answers 304 to its own.
    assert packed["ETag"] != plain["ETag"]
    again = client.get(page.get_absolute_url(), headers={"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]})
    assert again.status_code == 304
    assert client.get(page.get_absolute_url(), headers={"If-None-Match": plain["ETag"]}).status_code == 304
    # gzip refused by weight: the plain copy.
    refused = client.get(page.get_absolute_url(), headers={"Accept-Encoding": "gzip;q=0, *;q=1"})
    assert "Content-Encoding" not in refused and refused.content == plain.content


def test_a_logged_in_reader_is_sent_their_own_copy_uncompressed(client: Client) -> None:
    page = make_page(title="Long for editors", body="正文。" * 600)
    client.force_login(make_editor("reader"))
    response = client.get(page.get_absolute_url(), headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in response and "正文。" in response.content.decode()


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip", True), ("GZIP;q=0.5", True), ("deflate, x-gzip", True), ("*", True), ("br;q=1, *;q=0.1", True),
    ("", False), ("identity", False), ("gzip;q=0", False), ("gzip;q=0.0, *", False), ("br, zstd", False),
    ("gzip;q=nonsense", False),
])
def test_which_accept_encoding_headers_admit_gzip(rf: RequestFactory, header: str, accepted: bool) -> None:
    assert accepts_gzip(rf.get("/", headers={"Accept-Encoding": header})) is accepted


def test_an_edit_through_the_service_shows_at_the_next_read(client: Client) -> None:
    page = make_page(slug="edited", title="Edited", body="Old sentence.")
    assert "Old sentence." in client.get(page.get_absolute_url()).content.decode()
    page_save_revision(slug="edited", title="Edited", body="New sentence.", base_revision=1)
    html = client.get(page.get_absolute_url()).content.decode()
    assert "New sentence." in html and "Old sentence." not in html


def test_an_account_renamed_is_named_anew_on_the_cached_pages_naming_it(client: Client) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    editor = make_editor("before-rename")
    page = make_page(title="Edited by someone renamed")
    page_save_revision(slug=page.slug, title=page.title, body="Edited once more.", user=editor, comment="Reworded")
    assert "before-rename" in client.get(reverse("wiki:home")).content.decode()

    get_user_model().objects.filter(pk=editor.pk).update(username="after-rename")  # as the admin's form writes it
    html = client.get(reverse("wiki:home")).content.decode()
    assert "after-rename" in html and "before-rename" not in html
    # A log-in writes the account too, but sets the last login alone, which no page shows: the content stays cached.
    version = versions.current()
    get_user_model().objects.filter(pk=editor.pk).update(last_login=timezone.now())
    assert versions.current() == version


def test_a_bulk_write_outside_the_services_also_moves_the_version() -> None:
    before = versions.current().number
    Page.objects.filter(slug="nothing-matches").update(title="x")
    assert versions.current().number > before


def test_a_write_after_a_read_in_one_transaction_moves_the_version_again() -> None:
    make_page(title="First")
    first = versions.current().number
    make_page(title="Second")
    assert versions.current().number > first


def test_a_new_question_shows_on_a_cached_page(client: Client) -> None:
    page = make_page(title="Questions here")
    assert "Is it strict?" not in client.get(page.get_absolute_url()).content.decode()
    make_question(title="Is it strict?", page=page)
    assert "Is it strict?" in client.get(page.get_absolute_url()).content.decode()


def test_an_unchanged_page_answers_304_to_its_etag_and_a_write_changes_it(client: Client) -> None:
    page = make_page(slug="validated", title="Validated", body="Text.")
    first = client.get(page.get_absolute_url())
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag.startswith('"') and modified
    assert "Cookie" in first["Vary"]

    again = client.get(page.get_absolute_url(), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get(page.get_absolute_url(), headers={"If-Modified-Since": modified}).status_code == 304

    page_save_revision(slug="validated", title="Validated", body="Changed.", base_revision=1)
    changed = client.get(page.get_absolute_url(), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_page_kept_before_a_clock_change_is_not_served_after_it(client: Client, monkeypatch: pytest.MonkeyPatch,
                                                                   settings: Settings) -> None:
    from datetime import UTC, datetime

    from django.utils import timezone

    page = make_page(title="Across summer time")
    client.cookies[settings.TIME_ZONE_COOKIE_NAME] = "Europe/Berlin"
    # Berlin moves from UTC+1 to UTC+2 at 01:00 UTC on 29 March 2026; no one writes meanwhile.
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 29, 0, 30, tzinfo=UTC))
    winter = client.get(page.get_absolute_url())
    assert "(UTC+1)" in winter.content.decode()
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 29, 1, 30, tzinfo=UTC))
    summer = client.get(page.get_absolute_url())
    assert "(UTC+2)" in summer.content.decode() and "(UTC+1)" not in summer.content.decode()
    assert summer["ETag"] != winter["ETag"]
    assert client.get(page.get_absolute_url(), HTTP_IF_NONE_MATCH=winter["ETag"]).status_code == 200


def test_a_new_release_renders_afresh_what_the_last_one_cached(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    page = make_page(slug="released", title="Released", body="Rendered by one release.")
    url = page.get_absolute_url()
    first = client.get(url)
    with CaptureQueriesContext(connection) as cached:
        assert client.get(url).status_code == 200
    assert not cached.captured_queries
    monkeypatch.setattr(release, "RELEASE", "next-release")
    with CaptureQueriesContext(connection) as rendered:
        again = client.get(url, headers={"If-None-Match": first["ETag"]})
    # The last release's ETag is not this one's: the browser gets the new rendering, read from the database.
    assert again.status_code == 200 and again["ETag"] != first["ETag"] and "next-release" in again["ETag"]
    assert rendered.captured_queries
    # A client that revalidates by date alone is not told the last release's page is current either.
    monkeypatch.setattr(release, "RELEASED_AT", parse_http_date(first["Last-Modified"]) + 10)
    dated = client.get(url, headers={"If-Modified-Since": first["Last-Modified"]})
    assert dated.status_code == 200 and parse_http_date(dated["Last-Modified"]) == release.RELEASED_AT
    assert client.get(url, headers={"If-Modified-Since": dated["Last-Modified"]}).status_code == 304


def test_a_fragment_cached_by_another_release_is_rendered_again(rf: RequestFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    fragment = Template('{% load wiki_cache %}{% wikicache "release-test" %}{{ n }}{% endwikicache %}')
    request = rf.get("/")
    request.user = AnonymousUser()
    assert fragment.render(Context({"request": request, "n": 1})) == "1"
    assert fragment.render(Context({"request": request, "n": 2})) == "1"
    monkeypatch.setattr(release, "RELEASE", "next-release")
    assert fragment.render(Context({"request": request, "n": 2})) == "2"


def test_the_release_digest_follows_what_renders_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text("<p>{{ page }}</p>")
    (tmp_path / "wiki" / "__pycache__").mkdir(parents=True)
    parts = ("templates", "wiki")
    before = code_digest(tmp_path, parts)
    assert code_digest(tmp_path, parts) == before and len(before) == 12
    # Byte code and compiled catalogues come from files already counted.
    (tmp_path / "wiki" / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"\x00")
    (tmp_path / "wiki" / "django.mo").write_bytes(b"\x00")
    (tmp_path / "notes.txt").write_text("outside what renders")
    assert code_digest(tmp_path, parts) == before
    (tmp_path / "templates" / "page.html").write_text("<p>{{ page.title }}</p>")
    changed = code_digest(tmp_path, parts)
    assert changed != before
    (tmp_path / "templates" / "page.html").rename(tmp_path / "templates" / "moved.html")
    assert code_digest(tmp_path, parts) not in (before, changed)


def test_logged_in_readers_get_their_own_chrome_and_the_editor_links(client: Client) -> None:
    page = make_page(title="Shared fragment")
    anonymous = client.get(page.get_absolute_url()).content.decode()
    edit_url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    assert edit_url not in anonymous

    editor = make_editor("cached-editor")
    client.force_login(editor)
    response = client.get(page.get_absolute_url())
    html = response.content.decode()
    assert "cached-editor" in html and edit_url in html
    assert "ETag" not in response

    # Losing the editors group takes the edit link away at once, though no content changed.
    editor.groups.remove(Group.objects.get(name="editors"))
    client.force_login(editor.__class__.objects.get(pk=editor.pk))
    assert edit_url not in client.get(page.get_absolute_url()).content.decode()


def test_an_account_made_superuser_gets_the_editor_links_at_once(client: Client) -> None:
    from django.contrib.auth import get_user_model

    page = make_page(title="Read before and after a promotion")
    reader = make_reader("promoted-reader")
    client.force_login(reader)
    edit_url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    assert edit_url not in client.get(page.get_absolute_url()).content.decode()

    # The admin's "Superuser status" writes the account alone: no group, no permission row, no content changes.
    get_user_model().objects.filter(pk=reader.pk).update(is_superuser=True)
    assert edit_url in client.get(page.get_absolute_url()).content.decode()
    get_user_model().objects.filter(pk=reader.pk).update(is_superuser=False)
    assert edit_url not in client.get(page.get_absolute_url()).content.decode()


def test_editors_share_one_rendering_with_their_own_name_and_csrf_token(client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    from django.test import Client

    page = make_page(title="One copy for the editors", body="Rendered once for everyone who may edit it.")
    first, second = make_editor("first-editor"), make_editor("second-editor")
    client.force_login(first)
    assert "first-editor" in client.get(page.get_absolute_url()).content.decode()

    other = Client(enforce_csrf_checks=True)
    other.force_login(second)
    # Stored by the first editor's read: the second runs no query for the page, only for their user and permissions, and
    # whether they watch it (asked once, then kept: wiki.caching.watches).
    with django_assert_max_num_queries(4) as captured:
        response = other.get(page.get_absolute_url())
    assert not [q for q in captured.captured_queries if "wiki_" in q["sql"]]
    assert len([q for q in captured.captured_queries if "reader_watch" in q["sql"]]) == 1
    html = response.content.decode()
    assert "second-editor" in html and "first-editor" not in html
    assert "wiki-slot" not in html
    assert "private" in response["Cache-Control"] and "ETag" not in response
    # The token in the shared copy's logout form is the second editor's own: logging out with it works.
    token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert other.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" not in other.session


def test_editors_sharing_a_copy_each_get_their_own_watch_button_with_a_token_of_their_own(client: Client) -> None:
    from django.test import Client

    from wiki.services.watches import watch_add

    page = make_page(title="Watched by one of two", body="One copy, two buttons.")
    first, second = make_editor("not-watching"), make_editor("watching")
    watch_add(user=second, target=page)
    client.force_login(first)
    assert "not-watching" in client.get(page.get_absolute_url()).content.decode()

    other = Client(enforce_csrf_checks=True)
    other.force_login(second)
    for reader, watching in ((other, True), (client, False), (other, True)):  # the same stored copy, read again
        html = reader.get(page.get_absolute_url()).content.decode()
        assert "wiki-slot" not in html
        form = html.split('class="inline-form watch-form">')[1].split("</form>")[0]
        assert ('name="watch" value="0"' in form) is watching and ("watching" in form) is watching
    # The button's token is the reader's own, as the header's: unwatching with it works.
    token = form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token == html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    unwatch = other.post(reverse("wiki:watch", kwargs={"kind": "page", "pk": page.pk}), {"csrfmiddlewaretoken": token, "watch": "0"})
    assert unwatch.status_code == 302
    assert 'name="watch" value="1"' in other.get(page.get_absolute_url()).content.decode()


def test_a_shared_copy_is_cut_at_its_slots_once_and_filled_for_each_reader_from_its_pieces(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.test import Client

    from wiki.caching import readers
    from wiki.services.watches import watch_add

    page = make_page(title="Cut once", body="Filled for each reader.")
    first, second = make_editor("cut-once-<first>"), make_editor("cut-once-second")
    watch_add(user=second, target=page)
    client.force_login(first)
    client.get(page.get_absolute_url())  # rendered, stored, and kept in this process cut at its slots
    cuts: list[int] = []
    real_cut = readers.cut

    def counted_cut(content: bytes) -> readers.Slotted:
        cuts.append(len(content))
        return real_cut(content)

    monkeypatch.setattr(readers, "cut", counted_cut)

    other = Client()
    other.force_login(second)
    for reader, name, watching in ((other, "cut-once-second", True), (client, "cut-once-&lt;first&gt;", False),
                                   (other, "cut-once-second", True)):
        html = reader.get(page.get_absolute_url()).content.decode()
        assert name in html and "wiki-slot" not in html
        form = html.split('class="inline-form watch-form">')[1].split("</form>")[0]
        assert ('name="watch" value="0"' in form) is watching
        tokens = {part.split('"')[0] for part in html.split('name="csrfmiddlewaretoken" value="')[1:]}
        assert len(tokens) == 1 and reader.cookies["csrftoken"].value not in tokens  # one masked token, every form
    assert cuts == []


def test_a_logged_in_read_takes_the_account_from_the_cache_until_the_account_changes(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    from django.contrib.auth import get_user_model

    page = make_page(title="Read by an editor")
    editor = make_editor("cached-account")
    client.force_login(editor)
    client.get(page.get_absolute_url())
    # Account, permissions and page all come from the cache.
    with django_assert_num_queries(0):
        assert client.get(page.get_absolute_url()).status_code == 200

    # A write to the account, even one no service makes, is seen at the next request: the session ends.
    get_user_model().objects.filter(pk=editor.pk).update(is_active=False)
    assert "cached-account" not in client.get(page.get_absolute_url()).content.decode()


def test_a_new_password_ends_the_other_sessions_of_the_account(client: Client) -> None:
    from django.test import Client

    page = make_page(title="Sessions")
    editor = make_editor("two-sessions")
    client.force_login(editor)
    assert "two-sessions" in client.get(page.get_absolute_url()).content.decode()
    elsewhere = Client()
    elsewhere.force_login(editor)
    editor.set_password("another horse battery staple")
    editor.save()
    assert "two-sessions" not in client.get(page.get_absolute_url()).content.decode()


def test_a_reader_with_a_message_waiting_gets_a_page_of_their_own(client: Client) -> None:
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage

    page = make_page(title="Message page")
    editor = make_editor("told-editor")
    client.force_login(editor)
    client.get(page.get_absolute_url())
    storage = CookieStorage(client.get(page.get_absolute_url()).wsgi_request)
    storage.add(constants.SUCCESS, "Saved just now.")
    response = client.get("/")  # any response carries the cookie back
    storage.update(response)
    client.cookies.update(response.cookies)
    html = client.get(page.get_absolute_url()).content.decode()
    assert "Saved just now." in html
    assert "Saved just now." not in client.get(page.get_absolute_url()).content.decode()


def test_a_logged_in_readers_page_answered_for_them_alone_is_as_private_as_a_shared_copy(client: Client) -> None:
    from django.utils.cache import has_vary_header

    page = make_page(title="Private either way")
    client.force_login(make_editor("private-reader"))
    shared = client.get(page.get_absolute_url())
    assert shared["Cache-Control"] == "private, max-age=0, must-revalidate"
    # A parameter the view does not read, a text searched for the first time: rendered for this reader, not kept.
    for address in (page.get_absolute_url() + "?utm_source=feed", reverse("wiki:search") + "?q=asked+once"):
        response = client.get(address)
        assert "private-reader" in response.content.decode()
        assert response["Cache-Control"] == shared["Cache-Control"]
        assert has_vary_header(response, "Cookie") and has_vary_header(response, "Accept-Language")
        assert not response.has_header("ETag")


def test_what_links_here_is_bounded_with_a_link_to_every_linking_page(client: Client) -> None:
    target = make_page(slug="hub", title="Hub")
    for n in range(IN_PAGE + 5):
        make_page(slug=f"spoke-{n:02d}", title=f"Spoke {n:02d}", body="Links to [[hub]].")
    [backlinks] = sections_with_class(client.get(target.get_absolute_url()).content.decode(), "backlinks")
    all_url = reverse("wiki:page-backlinks", kwargs={"slug": "hub"})
    assert backlinks.count('href="/wiki/spoke-') == IN_PAGE
    assert all_url in backlinks

    listing = client.get(all_url).content.decode()
    assert listing.count('href="/wiki/spoke-') == IN_PAGE + 5


def test_the_page_view_runs_as_many_queries_whatever_the_number_of_backlinks(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    target = make_page(slug="hub2", title="Hub")
    make_page(slug="one-spoke", title="One spoke", body="Links to [[hub2]].")
    with CaptureQueriesContext(connection) as few:
        client.get(target.get_absolute_url())
    for n in range(3 * IN_PAGE):
        make_page(slug=f"many-{n}", title=f"Many {n}", body="Links to [[hub2]].")
    cache.clear()
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(target.get_absolute_url())


def test_health_reports_the_database_and_the_cache(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_pages_carry_a_content_security_policy_without_inline_script(client: Client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy


def test_with_the_cache_in_the_database_the_version_moves_when_the_write_commits(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> None:
    from django.core.management import call_command
    from django.test import override_settings

    from wiki.caching import version_row

    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}}):
        call_command("createcachetable")
        before = versions.current().number
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            make_page(title="Committed later")
            # No row is locked by the writer: the version every other reader reads moves at the commit, and the
            # writing transaction meanwhile reads one of its own.
            assert version_row.read().content == before
            assert versions.current().number != before
        for callback in callbacks:
            callback()
        after = versions.current().number
        assert after > before and after == version_row.read().content


def test_a_made_up_query_parameter_is_answered_but_never_kept_in_the_cache(client: Client) -> None:
    from unittest import mock

    from django.core.cache import cache

    page = make_page(title="Junk", body="Answered whatever is appended.")
    with mock.patch.object(cache, "set", wraps=cache.set) as stored:
        for n in range(5):
            response = client.get(f"{page.get_absolute_url()}?utm_junk={n}")
            assert response.status_code == 200 and "Answered whatever is appended." in response.content.decode()
        assert not [call for call in stored.call_args_list if call.args[0].startswith("wiki:response:")]
        client.get(f"{page.get_absolute_url()}?depth=2")  # a parameter the view reads is kept as before
        assert len([call for call in stored.call_args_list if call.args[0].startswith("wiki:response:")]) == 1


def _kept_keys(calls: list[Any], kind: str) -> list[str]:
    return [call.args[0] for call in calls if call.args[0].startswith(f"wiki:{kind}:")]


def test_a_parameter_the_view_does_not_read_keeps_neither_the_page_nor_its_fragments(client: Client) -> None:
    from unittest import mock

    from django.core.cache import cache

    page = make_page(title="Paged", body="A page has no pages: ?p= is not read here.")
    with mock.patch.object(cache, "set", wraps=cache.set) as stored:
        for n in range(2, 6):
            assert "A page has no pages" in client.get(f"{page.get_absolute_url()}?p={n}").content.decode()
        assert _kept_keys(stored.call_args_list, "response") == [] and _kept_keys(stored.call_args_list, "fragment") == []
        client.get(page.get_absolute_url())
        assert len(_kept_keys(stored.call_args_list, "response")) == 1 and _kept_keys(stored.call_args_list, "fragment")


def test_a_search_for_a_text_is_kept_once_it_is_asked_again_and_answered_with_validators_before(
        client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    from unittest import mock

    from django.core.cache import cache

    make_page(title="Searched", body="Reinforcement learning for agents.")
    with mock.patch.object(cache, "set", wraps=cache.set) as stored:
        first = client.get(reverse("wiki:search"), {"q": "reinforcement"})
        client.get(reverse("wiki:search"), {"q": "reinforcement", "kind": "page"})
        # Asked once each: answered, kept nowhere.
        assert _kept_keys(stored.call_args_list, "response") == []
        # Asked a second time: kept, and the reader's copy is still current.
        again = client.get(reverse("wiki:search"), {"q": "reinforcement"}, headers={"If-None-Match": first["ETag"]})
        assert len(_kept_keys(stored.call_args_list, "response")) == 1
        client.get(reverse("wiki:search"), {"kind": "page"})  # the form alone is the same for every reader: kept
        assert len(_kept_keys(stored.call_args_list, "response")) == 2
    assert first.status_code == 200 and "Searched" in first.content.decode() and first["Last-Modified"]
    assert again.status_code == 304
    copies.clear()  # read as another worker reads it: from the shared cache
    with django_assert_num_queries(0):
        assert "Searched" in client.get(reverse("wiki:search"), {"q": "reinforcement"}).content.decode()


def test_a_few_hundred_searches_push_no_page_out_of_the_cache(
        client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    # The tests' cache keeps 300 entries, as Django's database cache did by default.
    page = make_page(title="Read by everyone", body="Kept while anyone searches.")
    client.get(page.get_absolute_url())
    for n in range(300):
        assert client.get(reverse("wiki:search"), {"q": f"made up {n}"}).status_code == 200
    copies.clear()  # read as another worker reads it: from the shared cache

    with django_assert_num_queries(0):
        assert "Kept while anyone searches." in client.get(page.get_absolute_url()).content.decode()


@pytest.mark.parametrize("address", [
    "/sources/?mechanism=policy_gradient&verdict=strict&classified=true&kind=paper&year_min=2020&year_max=2026&sort=year&p=1",
    "/sources/?year=2026&cited_on=contrast-wiki&format=bib",
    "/questions/?status=all&priority=high&page_slug=contrast-wiki&assigned=nobody&sort=newest&p=1",
    "/search/?kind=source&mechanism=policy_gradient&verdict=strict",
    "/graph/?mechanism=policy_gradient&verdict=strict",
    "/graph/local/source/gripforge/?depth=2&edges=contrasts",
    "/wiki/contrast-wiki/?depth=2&edges=cites",
    "/wiki/contrast-wiki/?format=md",
    "/sources/gripforge/?depth=2",
    "/sources/gripforge/claims/?p=1",
    "/compare/?works=tasksmith,gripforge&differs=1&format=csv",
    "/contrast/?works=tasksmith,gripforge",
    "/glossary/?p=1",
])
@pytest.mark.usefixtures("contrast_wiki")
def test_what_each_cached_view_reads_is_kept(client: Client, django_assert_num_queries: DjangoAssertNumQueries,
                                             address: str) -> None:
    first = client.get(address)
    assert first.status_code == 200, address

    with django_assert_num_queries(0):
        assert client.get(address).content == first.content


def test_no_text_an_editor_writes_can_hold_a_readers_slot(client: Client, settings: Settings) -> None:
    from wiki.caching.readers import CSRF_SLOT, NAME_SLOT, slot

    typed = "wiki-slot-csrf-token-5c1e9b wiki-slot-reader-name-5c1e9b"
    page = make_page(title="Slots in the text", body=f"[the paper](https://elsewhere.example/?t={typed.replace(' ', '&u=')})")
    client.force_login(make_editor("slot-reader"))

    html = client.get(page.get_absolute_url()).content.decode()

    assert "wiki-slot-csrf-token-5c1e9b&amp;u=wiki-slot-reader-name-5c1e9b" in html
    # the marks are derived from the secret key: no one who does not hold it can type them
    assert typed.split() != [CSRF_SLOT, NAME_SLOT]
    settings.SECRET_KEY = "another secret key, another deployment"
    assert slot("csrf-token") != CSRF_SLOT


def test_a_shared_copy_rendered_under_another_secret_key_is_not_served(rf: RequestFactory, settings: Settings,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A process started after the key was rotated makes other slot marks: it must not be handed a copy whose marks it
    # cannot fill (an editor would see a mark where their name and CSRF token go).
    from wiki.caching import readers

    editor = make_editor()
    request = rf.get("/")
    request.user = editor
    request.session = {}  # type: ignore[assignment]
    before = readers.audience(request)

    settings.SECRET_KEY = "a-rotated-secret-key-of-fifty-characters-or-so-0123456789"
    monkeypatch.setattr(readers, "NAME_SLOT", readers.slot("reader-name"))

    assert before is not None and readers.audience(request) not in (None, before)
