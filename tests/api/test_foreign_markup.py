"""A page saved through the API with MediaWiki markup in its text is saved, and the answer names each construct this
wiki reads otherwise, with what to write instead."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.wiki.test_foreign_markup import HABITS

pytestmark = pytest.mark.django_db


def test_the_api_answers_a_save_with_the_foreign_markup_it_holds(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": "Habits", "body": HABITS}, format="json",
                               headers={"accept-language": "en"})

    assert response.status_code == 201, response.json()
    found = response.json()["foreign_markup"]
    assert [(f["kind"], f["line"], f["text"]) for f in found] == [
        ("redirect", 1, "#REDIRECT [[Reward design]]"), ("category", 5, "[[Category:Reward design]]"),
        ("user", 5, "[[User:ed2]]"), ("namespace", 5, "[[File:reward.png]]"), ("signature", 7, "~~~~")]
    assert found[4]["advice"].startswith("Signatures are not expanded here")
