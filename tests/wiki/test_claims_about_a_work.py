"""A work's page lists the claims about it beside those citing it: a claim about a work often cites a survey or
another work only."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ContrastWiki
from wiki.models import Claim

pytestmark = pytest.mark.django_db


def test_a_claim_about_a_work_that_cites_another_is_on_the_works_page(client: Client, contrast_wiki: ContrastWiki) -> None:
    claim = Claim.objects.current().get(text__startswith="GripForge")
    assert not claim.citations.filter(source=contrast_wiki.harness).exists()

    page = client.get("/sources/polarharness/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    listed = client.get("/sources/polarharness/claims/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "引用它或关于它的论断" in page and claim.text in page and "关于这项工作" in page
    assert "没有论断引用这项工作或关于它" not in page
    assert claim.text in listed and "about this work" in listed


def test_a_work_no_claim_speaks_of_says_so(client: Client, contrast_wiki: ContrastWiki) -> None:
    page = client.get(f"/sources/{contrast_wiki.unclassified.slug}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert "没有论断引用这项工作或关于它。" in page
