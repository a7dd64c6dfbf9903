"""A field a write leaves out keeps its value, and the schema gives generated clients no default to send instead."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_page

pytestmark = pytest.mark.django_db

# Fields of an action, not of what it saves: the default is what leaving them out means.
ACTION_FIELDS = {("PageMoveRequest", "reason"), ("PageMoveRequest", "take_over"), ("PageEditRequest", "confirm_blank"),
                 ("PatchedPageEditRequest", "confirm_blank")}


def test_no_write_schema_gives_a_stored_field_a_default(client: Client) -> None:
    schemas = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]

    defaults = {(name, field) for name, schema in schemas.items() if name.endswith("Request")
                for field, spec in schema.get("properties", {}).items() if "default" in spec}

    # a client generated from the schema sends a default whenever its caller leaves the field out
    assert defaults <= ACTION_FIELDS


@pytest.mark.parametrize("method", ["put", "patch"])
def test_a_page_edit_that_leaves_out_the_summary_keeps_it(editor_api: APIClient, method: str) -> None:
    make_page(slug="kept-summary", title="Kept", summary="Notes on ReTool", body="First text.")

    response = getattr(editor_api, method)("/api/v1/pages/kept-summary/",
                                           {"title": "Kept", "body": "Second text.", "base_revision": 1}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["summary"] == "Notes on ReTool" and response.json()["revision"] == 2
