"""The recent-changes list refuses a kind of change it does not know without saying the wiki has none."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_indexed_question

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "empty"), [("en", "No changes yet."), ("zh-Hans", "还没有更改。")])
def test_an_unknown_kind_of_change_is_refused_without_the_empty_list_sentence(client: Client, language: str, empty: str) -> None:
    make_indexed_question(title="A change there is")

    refused = client.get(reverse("wiki:changes"), {"kind": "bogus"}, HTTP_ACCEPT_LANGUAGE=language)
    empty_kind = client.get(reverse("wiki:changes"), {"kind": "finding"}, HTTP_ACCEPT_LANGUAGE=language)

    assert refused.status_code == 400
    content = refused.content.decode()
    assert "bogus" in content and 'aria-invalid="true"' in content
    assert empty not in content
    assert empty in empty_kind.content.decode()
