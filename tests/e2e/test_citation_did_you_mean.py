"""In the browser: a cited title one letter off an existing work gets "did you mean …" as the editor types,
and becomes a work only when the editor says so."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Citation, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REACT = "ReAct: Synergizing Reasoning and Acting in Language Models"
TYPO = "ReAct: Synergizing Reasoning and Acting in Language Model"


def test_did_you_mean_while_typing_then_confirmed_as_a_new_work(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    Source.objects.create(slug="react", short_name="ReAct", title=REACT)
    make_editor("citer")
    log_in(page, base, "citer")

    page.goto(f"{base}{reverse('wiki:page-create')}")
    page.fill("input[name=title]", "ReAct notes")
    page.fill("textarea[name=body]", f"## 关键要点\n\n- ReAct 交替推理与行动。（来源：{TYPO}，§3）\n")
    # The live preview asks, with a link to the work.
    page.wait_for_selector("#preview-body a.did-you-mean[href='/sources/react/']")
    box = page.locator(f"#preview-body input[name=new_works][value='{TYPO}']")
    box.check()
    # Typing on refreshes the preview; the choice stays.
    page.type("textarea[name=body]", "\n更多。")
    page.wait_for_selector("#preview-body li.citation-new input[name=new_works]:checked")
    page.click("button[name=save]")
    page.wait_for_url(re.compile(r"/wiki/react-notes/$"))
    created = Source.objects.get(title=TYPO)
    assert page.locator(f"a.created-work[href='{created.get_absolute_url()}']").count() == 1
    assert Citation.objects.filter(claim__page__slug="react-notes", source=created, locator="§3").exists()
    # The page's sources, built from its citations, link the new work.
    assert page.locator(f"section.cited-works li[data-source='{created.slug}'] a[href='{created.get_absolute_url()}']").count() == 1
