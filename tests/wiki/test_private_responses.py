"""A page that varies with the reader's cookie says so to caches on the way: no shared cache keeps one reader's
page, their name and CSRF token in it, for another."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_editor, make_page

pytestmark = pytest.mark.django_db


def _addresses(slug: str) -> list[str]:
    return [
        reverse("wiki:page-history", kwargs={"slug": slug}),
        reverse("wiki:page-info", kwargs={"slug": slug}),
        reverse("wiki:page-edit", kwargs={"slug": slug}),
        reverse("wiki:changes"),
        reverse("wiki:watchlist"),
    ]


def test_a_logged_in_readers_pages_that_are_not_cached_are_theirs_alone(client: Client) -> None:
    page = make_page(title="Seen by one")
    client.force_login(make_editor("only-reader"))
    for address in _addresses(page.slug):
        response = client.get(address)
        assert response.status_code == 200, address
        assert "only-reader" in response.content.decode(), address
        directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
        assert {"private", "max-age=0", "must-revalidate"} <= directives, address


def test_what_says_how_it_is_cached_keeps_its_own_word(client: Client) -> None:
    page = make_page(title="Shared alike")
    anonymous = client.get(page.get_absolute_url())
    assert anonymous["Cache-Control"] == "public, max-age=0, must-revalidate"
    client.force_login(make_editor("shared-reader"))
    assert client.get(page.get_absolute_url())["Cache-Control"] == "private, max-age=0, must-revalidate"


def test_an_api_read_without_cookies_is_left_as_everyone_reads_it(client: Client) -> None:
    make_page(title="Read alike")
    anonymous = client.get(reverse("api:page-list"))
    assert "private" not in anonymous.get("Cache-Control", "")
    client.force_login(make_editor("api-reader"))
    directives = {d.strip() for d in client.get(reverse("api:page-list")).get("Cache-Control", "").split(",")}
    assert {"private", "max-age=0", "must-revalidate"} <= directives
