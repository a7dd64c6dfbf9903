"""Failed log-ins are counted per username from an address, per address and per username from anywhere, in the shared
cache, and refused past the limit."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import Settings

from tests.factories import PASSWORD
from wiki.accounts import throttling
from wiki.roles import Account

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_hashing(settings):  # type: ignore[no-untyped-def]
    """Every attempt checks a password: with a fast hasher these tests make dozens in a few seconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_reader(username: str) -> Account:
    return Account.objects.create_user(username, password=PASSWORD)


def _log_in(username: str, password: str, *, address: str = "203.0.113.7", forwarded_for: str | None = None) -> tuple[int, str]:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    response = Client(REMOTE_ADDR=address, headers=headers).post(reverse("login"), {"username": username, "password": password})
    return response.status_code, response.content.decode()


def test_five_wrong_passwords_refuse_the_right_one_with_a_time_to_try_again() -> None:
    make_reader("victim")
    for _ in range(5):
        assert _log_in("victim", "wrong guess")[0] == 200
    status, html = _log_in("victim", PASSWORD)
    assert status == 429
    assert "Too many failed attempts to log in. Try again after " in html


def test_failures_from_one_address_never_keep_the_owner_out_from_another() -> None:
    make_reader("editor-in-view")
    for _ in range(20):
        _log_in("editor-in-view", "wrong guess")

    assert _log_in("editor-in-view", PASSWORD)[0] == 429
    assert _log_in("editor-in-view", PASSWORD, address="198.51.100.9")[0] == 302


def test_guessing_spread_over_many_addresses_refuses_the_username_everywhere(settings: Settings) -> None:
    settings.WIKI_LOGIN_FAILURES_PER_USERNAME_ANYWHERE = 12
    make_reader("much-wanted")
    for n in range(12):
        assert _log_in("much-wanted", "wrong guess", address=f"203.0.113.{n // 4 + 10}")[0] == 200

    assert _log_in("much-wanted", PASSWORD, address="198.51.100.9")[0] == 429
    assert _log_in("someone-else", "wrong guess", address="198.51.100.9")[0] == 200


def test_a_refusal_reads_the_same_whether_the_username_exists_or_not() -> None:
    make_reader("existing")
    for name in ("existing", "nobody-by-this-name"):
        for _ in range(5):
            _log_in(name, "wrong guess")
    refused = {name: _log_in(name, "wrong guess") for name in ("existing", "nobody-by-this-name")}
    # The same words and status; the time to try again is each username's own (their failures were seconds apart).
    summaries = {name: (status, re.sub(r"\d\d:\d\d", "HH:MM", re.search(r'<ul class="error-summary-list".*?</ul>', html, re.S).group(0)))  # type: ignore[union-attr]
                 for name, (status, html) in refused.items()}
    assert summaries["existing"] == summaries["nobody-by-this-name"]
    assert summaries["existing"][0] == 429


def test_usernames_differing_in_case_share_their_count() -> None:
    make_reader("casey")
    for name in ("Casey", "CASEY", "casey", "cAsey", "casey "):
        _log_in(name, "wrong guess")
    assert _log_in("casey", PASSWORD)[0] == 429


def test_a_success_clears_the_usernames_count() -> None:
    make_reader("forgetful")
    for _ in range(4):
        _log_in("forgetful", "wrong guess")
    assert _log_in("forgetful", PASSWORD)[0] == 302
    for _ in range(4):
        _log_in("forgetful", "wrong guess")
    assert _log_in("forgetful", PASSWORD)[0] == 302


def test_one_address_trying_many_usernames_is_refused_for_every_username() -> None:
    make_reader("bystander")
    for n in range(20):
        _log_in(f"guess{n}", "wrong guess")
    assert _log_in("bystander", PASSWORD)[0] == 429
    assert _log_in("bystander", PASSWORD, address="198.51.100.9")[0] == 302


def test_a_client_writing_a_new_x_forwarded_for_each_time_is_still_counted_by_its_address() -> None:
    make_reader("bystander")
    # No trusted proxy (the default): the header is the client's own word, and the address is REMOTE_ADDR.
    for n in range(20):
        _log_in(f"guess{n}", "wrong guess", forwarded_for=f"192.0.2.{n}")
    assert _log_in("bystander", PASSWORD, forwarded_for="192.0.2.99")[0] == 429
    assert _log_in("bystander", PASSWORD, address="198.51.100.9")[0] == 302


def test_behind_one_trusted_proxy_the_address_it_wrote_last_in_x_forwarded_for_is_counted(settings: Settings) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_reader("bystander")
    proxy = "10.0.0.2"
    # What the client wrote before the proxy's entry changes every time; the proxy's entry does not.
    for n in range(20):
        _log_in(f"guess{n}", "wrong guess", address=proxy, forwarded_for=f"192.0.2.{n}, 203.0.113.7")
    assert _log_in("bystander", PASSWORD, address=proxy, forwarded_for="192.0.2.99, 203.0.113.7")[0] == 429
    # Another client through the same proxy is another address.
    assert _log_in("bystander", PASSWORD, address=proxy, forwarded_for="198.51.100.9")[0] == 302


@override_settings(WIKI_LOGIN_FAILURE_WINDOW=1)
def test_the_refusal_ends_when_the_window_has_passed() -> None:
    make_reader("patient")
    for _ in range(5):
        _log_in("patient", "wrong guess")
    assert _log_in("patient", PASSWORD)[0] == 429
    time.sleep(1.2)
    assert _log_in("patient", PASSWORD)[0] == 302


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}})
def test_the_database_cache_of_make_run_counts_and_keeps_the_window() -> None:
    from django.core.management import call_command
    from django.db import connection

    call_command("createcachetable", verbosity=0)  # the tests' database was migrated with the cache in memory
    assert [throttling._count("wiki:test-count", 900) for _ in range(3)] == [1, 2, 3]
    backend = caches["default"]
    key = backend.make_and_validate_key("wiki:test-count")
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXTRACT(EPOCH FROM expires) FROM django_cache WHERE cache_key = %s", [key])
        expires = float(cursor.fetchone()[0])
    # The database cache's incr puts its 300 s default back; the count keeps the whole window.
    assert expires - time.time() > 800
    make_reader("dbcached")
    for _ in range(5):
        _log_in("dbcached", "wrong guess")
    assert _log_in("dbcached", PASSWORD)[0] == 429


def test_the_admin_login_counts_and_refuses_alike() -> None:
    staff = make_reader("staffer")
    staff.is_staff = True
    staff.save()
    for _ in range(5):
        _log_in("staffer", "wrong guess")
    response = Client(REMOTE_ADDR="203.0.113.7").post(reverse("admin:login"), {"username": "staffer", "password": PASSWORD})
    assert response.status_code == 200 and "Too many failed attempts to log in." in response.content.decode()
