"""Minor edits through the API: a revision and a watchlist entry say whether they are minor, a field the schema
declares read-only, and a page's write cannot set it."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_page
from wiki.services.pages import page_save_revision
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db


def test_a_page_s_revisions_say_which_are_minor(api: APIClient) -> None:
    page = make_page(slug="typos", body="Teh text.")
    page_save_revision(slug=page.slug, title=page.title, body="The text.", minor=True)
    page_save_revision(slug=page.slug, title=page.title, body="The text, rewritten.")

    listing = api.get("/api/v1/pages/typos/revisions/").json()["results"]
    one = api.get("/api/v1/pages/typos/revisions/2/").json()

    assert [(r["number"], r["minor"]) for r in listing] == [(3, False), (2, True), (1, False)]
    assert one["minor"] is True and one["body"] == "The text."


def test_a_watchlist_entry_says_whether_it_is_minor(reader_api: APIClient) -> None:
    reader = reader_api.handler._force_user  # type: ignore[attr-defined]
    page = make_page(title="Watched")
    watch_add(user=reader, target=page)
    page_save_revision(slug=page.slug, title=page.title, body="Small fix.", minor=True)

    rows = reader_api.get("/api/v1/watchlist/").json()["results"]

    assert [(r["action"], r["minor"]) for r in rows] == [("edited", True), ("created", False)]


def test_the_schema_declares_minor_read_only_and_a_write_cannot_set_it(client: Client, editor_api: APIClient) -> None:
    schemas = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]
    for name in ("Revision", "RevisionDetail"):
        assert schemas[name]["properties"]["minor"]["type"] == "boolean", name
        assert schemas[name]["properties"]["minor"]["readOnly"] is True, name
    assert schemas["Change"]["properties"]["minor"]["type"] == "boolean"
    page = make_page(slug="written", body="Text.")

    refused = editor_api.put(
        "/api/v1/pages/written/",
        {"title": page.title, "body": "Text!", "base_revision": 1, "minor": True},
        format="json",
    )

    assert refused.status_code == 400 and refused.json()["errors"]["minor"][0] == (
        "Unknown field: this request has no field of that name."
    )
    assert page.revisions.count() == 1
