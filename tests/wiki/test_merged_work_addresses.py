"""A comparison, a contrast or a graph asked for by the address of a work since merged into another answers with the
work it lives on as, in the browser and in the API, as the work's own page does; a work deleted outright stays a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ContrastWiki, SourceFactory, make_editor
from wiki.services.deletion import source_delete
from wiki.services.merges import source_merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def merged(contrast_wiki: ContrastWiki) -> str:
    """A duplicate of GripForge, merged into it: its old slug."""
    duplicate = SourceFactory.create(slug="gripforge-dup", short_name="GripForge (preprint)", year=2025)
    source_merge(merged=duplicate, kept=contrast_wiki.grpo, user=make_editor())
    return duplicate.slug


@pytest.mark.parametrize(("url", "now", "then"), [
    ("/contrast/gripforge-dup/polarharness/", "/contrast/gripforge/polarharness/", 200),
    # the work set against its own duplicate: one work left, which the page asks to add to
    ("/contrast/gripforge-dup/gripforge/?q=x", "/contrast/?q=x&works=gripforge", 200),
    ("/contrast/?works=gripforge-dup,polarharness,tasksmith", "/contrast/?works=gripforge%2Cpolarharness%2Ctasksmith", 200),
    ("/compare/?works=polarharness,gripforge-dup&format=csv", "/compare/?works=polarharness%2Cgripforge&format=csv", 200),
    ("/graph/local/source/gripforge-dup/?depth=2", "/graph/local/source/gripforge/?depth=2", 200),
])
def test_an_old_address_of_a_merged_work_leads_to_the_work_it_lives_on_as(
    client: Client, merged: str, url: str, now: str, then: int
) -> None:
    response = client.get(url)

    assert response.status_code == 301, response.content[:300]
    assert response["Location"] == now
    assert client.get(now).status_code == then


@pytest.mark.parametrize(("url", "now"), [
    ("/api/v1/graph/contrast/?works=gripforge-dup,polarharness", "works=gripforge%2Cpolarharness"),
    ("/api/v1/graph/local/?node=source:gripforge-dup&depth=1", "node=source%3Agripforge"),
])
def test_the_graph_api_redirects_a_merged_work_too(merged: str, url: str, now: str) -> None:
    response = APIClient().get(url)

    assert response.status_code == 301
    assert now in response["Location"]
    assert APIClient().get(response["Location"]).status_code == 200


def test_a_work_deleted_outright_is_still_not_found(client: Client, contrast_wiki: ContrastWiki) -> None:
    source_delete(source=contrast_wiki.unclassified, user=make_editor(), reason="spam")

    assert client.get("/contrast/harness-guide/polarharness/").status_code == 404
    assert client.get("/compare/?works=harness-guide,polarharness").status_code == 404
    assert APIClient().get("/api/v1/graph/contrast/?works=harness-guide,polarharness").status_code == 404
