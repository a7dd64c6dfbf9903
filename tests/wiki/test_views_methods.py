"""A page to read answers GET and HEAD only: anything else is 405 naming them, and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_wiki
from wiki.models import ChangeEvent

pytestmark = pytest.mark.django_db


def test_pages_to_read_refuse_a_post_with_405_even_to_an_editor(editor_client: Client) -> None:
    wiki = make_wiki()
    classification = wiki.strict.classifications.first()
    assert classification is not None
    addresses = [
        reverse("wiki:home"), reverse("wiki:page-detail", args=[wiki.page.slug]), reverse("wiki:page-list"),
        reverse("wiki:page-history", args=[wiki.page.slug]), reverse("wiki:page-diff", args=[wiki.page.slug]) + "?from=1&to=1",
        reverse("wiki:page-claims", args=[wiki.page.slug]), reverse("wiki:claim-detail", args=[wiki.claims[0].pk]),
        reverse("wiki:source-list"), reverse("wiki:source-detail", args=[wiki.strict.slug]), reverse("wiki:changes"),
        reverse("wiki:consistency-report"), reverse("wiki:classifier-agreement"), reverse("wiki:triage"),
        reverse("wiki:classification-history", args=[classification.pk]), reverse("wiki:search") + "?q=SkillLoop",
        reverse("wiki:graph-map"), reverse("wiki:question-list"), reverse("wiki:glossary-list"),
    ]
    changes = ChangeEvent.objects.count()
    for address in addresses:
        response = editor_client.post(address, {"title": "x"})
        assert response.status_code == 405, (address, response.status_code)
        assert set(response["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}, address
        assert editor_client.get(address).status_code == 200, address
    assert ChangeEvent.objects.count() == changes
