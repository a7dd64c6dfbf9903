"""Two editors editing one claim in two browsers: the second save keeps the citation the first one added."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import two_editors_at
from tests.factories import make_claim, make_source
from wiki.models import Claim

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_second_editor_saving_again_after_a_conflict_keeps_the_citation_the_first_added(page: Any, live_server: Any) -> None:
    base = live_server.url
    cited, added = make_source(short_name="CitedWork"), make_source(short_name="AddedWork")
    claim = make_claim("Tree-GRPO 用环境回报更新策略。", cites=[cited], locator="p.3")
    url = f"{base}{reverse('wiki:claim-edit', kwargs={'pk': claim.pk})}"
    other = two_editors_at(page, base, url)

    page.fill("main form [name=citations-1-source]", added.slug)
    page.fill("main form [name=citations-1-locator]", "§2")
    page.click("main form button[type=submit] >> nth=0")
    # the claim's place on its page, whose anchor the new citation changes
    page.wait_for_url(lambda address: "/edit/" not in address)
    other.select_option("main form [name=status]", "disputed")
    other.click("main form button[type=submit] >> nth=0")
    other.wait_for_selector("text=Someone saved this claim after you opened it")
    assert other.input_value("main form [name=citations-1-source]") == added.slug
    other.click("main form button[type=submit] >> nth=0")
    other.wait_for_url(lambda address: "/edit/" not in address)

    claim = Claim.objects.get(pk=claim.pk)
    assert claim.status == "disputed"
    assert list(claim.citations.order_by("position").values_list("source__short_name", "locator")) == [
        ("CitedWork", "p.3"), ("AddedWork", "§2")]
