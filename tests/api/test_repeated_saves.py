"""A save sent again (a retry after a timeout) or one that changes nothing: answered `unchanged`, nothing written."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_page, make_source
from wiki.models import ChangeEvent, Source

pytestmark = pytest.mark.django_db


def test_a_page_edit_sent_again_is_unchanged_not_a_conflict(editor_api: APIClient) -> None:
    page = make_page(slug="retried", body="Some text.")
    edit = {"summary": "retry test summary", "base_revision": 1}

    first = editor_api.patch("/api/v1/pages/retried/", edit, format="json")
    again = editor_api.patch("/api/v1/pages/retried/", edit, format="json")

    assert first.status_code == 200 and first.json()["unchanged"] is False
    assert again.status_code == 200, again.json()
    assert again.json()["unchanged"] is True and again.json()["revision"] == 2
    assert page.revisions.count() == 2
    other = editor_api.patch("/api/v1/pages/retried/", {"summary": "another summary", "base_revision": 1}, format="json")
    assert other.status_code == 409 and other.json()["code"] == "edit_conflict"


def test_a_source_edit_that_changes_nothing_writes_nothing(editor_api: APIClient) -> None:
    source = make_source(short_name="Still", doi="10.1234/still")
    before = Source.objects.get(pk=source.pk).updated_at
    events = ChangeEvent.objects.count()
    etag = editor_api.get(f"/api/v1/sources/{source.slug}/")["ETag"]

    response = editor_api.patch(f"/api/v1/sources/{source.slug}/", {"doi": "https://doi.org/10.1234/STILL"},
                                format="json", HTTP_IF_MATCH=etag)

    assert response.status_code == 200 and response.json()["unchanged"] is True
    assert response["ETag"] == etag
    assert Source.objects.get(pk=source.pk).updated_at == before and ChangeEvent.objects.count() == events
