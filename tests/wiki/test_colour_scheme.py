"""Light or dark colours: the device's own setting unless the reader chooses one, kept on that device alone."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import make_editor, make_page

pytestmark = pytest.mark.django_db

COOKIE = settings.COLOUR_SCHEME_COOKIE_NAME


def _html_tag(client: Client, url: str = "/") -> str:
    match = re.search(r"<html[^>]*>", client.get(url).content.decode())
    assert match
    return match.group(0)


def _scheme_meta(client: Client, url: str = "/") -> str:
    match = re.search(r'<meta name="color-scheme" content="([^"]*)">', client.get(url).content.decode())
    assert match
    return match.group(1)


def test_without_a_choice_the_page_follows_the_device() -> None:
    reader = Client()
    assert "data-colour-scheme" not in _html_tag(reader)
    assert _scheme_meta(reader) == "light dark"


def test_a_reader_chooses_dark_and_only_their_device_reads_dark_pages() -> None:
    make_page(slug="read-at-night", title="Read at night", body="Text.")
    page = reverse("wiki:page-detail", kwargs={"slug": "read-at-night"})
    night, day = Client(), Client()
    light_etag = day.get(page)["ETag"]

    response = night.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "UTC", "colour_scheme": "dark"})

    assert response.status_code == 302 and response.cookies[COOKIE].value == "dark"
    assert 'data-colour-scheme="dark"' in _html_tag(night, page) and _scheme_meta(night, page) == "dark"
    assert night.get(page)["ETag"] != light_etag
    # the cached copy the other reader is served is still the one that follows the device
    assert "data-colour-scheme" not in _html_tag(day, page) and day.get(page)["ETag"] == light_etag
    assert re.search(r'<option value="dark"[^>]*selected', night.get(reverse("wiki:preferences")).content.decode())


def test_choosing_the_devices_setting_again_forgets_the_choice() -> None:
    reader = Client()
    reader.cookies[COOKIE] = "light"
    assert 'data-colour-scheme="light"' in _html_tag(reader)

    response = reader.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "UTC", "colour_scheme": ""})

    assert response.cookies[COOKIE].value == "" and response.cookies[COOKIE]["max-age"] == 0
    assert "data-colour-scheme" not in _html_tag(reader)


def test_an_unknown_scheme_is_refused_by_the_form_and_ignored_in_a_cookie() -> None:
    reader = Client()
    refused = reader.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "UTC", "colour_scheme": "purple"})
    assert refused.status_code == 200 and COOKIE not in refused.cookies
    assert "Select a valid choice. purple is not one of the available choices." in refused.content.decode()

    reader.cookies[COOKIE] = '"><script>alert(1)</script>'
    assert "data-colour-scheme" not in _html_tag(reader) and _scheme_meta(reader) == "light dark"


def test_a_logged_in_reader_reads_their_device_scheme_on_the_shared_copy() -> None:
    editor = make_editor("night-editor")
    client = Client()
    client.force_login(editor)
    client.cookies[COOKIE] = "dark"
    assert 'data-colour-scheme="dark"' in _html_tag(client)
    other = Client()
    other.force_login(make_editor("day-editor"))
    assert "data-colour-scheme" not in _html_tag(other)
