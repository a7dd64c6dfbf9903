"""An API edit that leaves a page without text is refused (400 ``blanking``) unless it says ``confirm_blank``."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from wiki.models import Page
from wiki.services.pages import page_save

pytestmark = pytest.mark.django_db


def test_an_api_edit_blanking_a_page_is_refused_unless_confirmed(editor_api: APIClient) -> None:
    page_save(slug="notes", title="Notes", body="笔记。")

    refused = editor_api.patch("/api/v1/pages/notes/", {"body": "  \n", "base_revision": 1}, format="json")

    assert refused.status_code == 400
    assert refused.json()["codes"] == {"confirm_blank": ["blanking"]}
    assert Page.objects.get(slug="notes").body == "笔记。"
    confirmed = editor_api.patch("/api/v1/pages/notes/", {"body": "  \n", "base_revision": 1, "confirm_blank": True},
                                 format="json")
    assert confirmed.status_code == 200 and confirmed.json()["revision"] == 2
    assert Page.objects.get(slug="notes").body == "  \n"
