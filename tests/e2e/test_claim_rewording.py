"""An editor rewords a key point in a real browser: the preview says "reworded", and the claim keeps what hangs on it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Claim, Contrast, OpenQuestion, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OLD = "环境回报本身不等于严格 Agentic RL"
NEW = "环境回报本身并不等于严格 Agentic RL"


def test_editor_rewords_a_key_point_and_the_claim_keeps_status_questions_and_contrasts(
    page: Any, live_server: Any, seed: None
) -> None:
    base = live_server.url
    claim = Claim.objects.get(page__slug="agentic-rl", is_orphaned=False, text__contains=OLD)
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    questions = set(OpenQuestion.objects.filter(claims=claim).values_list("pk", flat=True))
    contrasts = set(Contrast.objects.filter(claim=claim).values_list("pk", flat=True))
    assert questions and contrasts
    make_editor("rewording")
    log_in(page, base, "rewording")

    page.goto(f"{base}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")
    body = page.input_value("textarea[name=body]")
    page.fill("textarea[name=body]", body.replace(OLD, NEW))
    # The live preview says what the save would do to the claim, with the added character marked.
    change = page.locator(f"#preview-body li[data-outcome=reworded][data-claim='{claim.pk}']")
    change.wait_for()
    assert "reworded" in change.inner_text()
    assert change.locator("ins", has_text="并").count() == 1
    assert page.locator("#preview-body li[data-outcome=orphaned]").count() == 0

    page.click("button[name=save]")
    page.wait_for_url(re.compile(r"/wiki/agentic-rl/$"))
    assert page.locator(f".messages li[data-outcome=reworded][data-claim='{claim.pk}']").count() == 1

    page.goto(f"{base}{reverse('wiki:claim-detail', kwargs={'pk': claim.pk})}")
    assert page.locator("[data-claim-status]").get_attribute("data-claim-status") == "verified"
    for pk in questions:
        assert page.locator(f"[data-question='{pk}']").count() == 1
    for pk in contrasts:
        assert page.locator(f"[data-contrast='{pk}']").count() == 1
    assert page.locator("tr[data-kind=reworded]").count() == 1
    assert NEW in page.locator("blockquote").inner_text()
    assert Page.objects.get(slug="agentic-rl").claims.filter(is_orphaned=True).count() == 0
