"""The preview beside the edit form shows the text's headings as the page shows them, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STYLE = "(el) => { const s = getComputedStyle(el); return [parseFloat(s.fontSize), s.color]; }"


def test_the_previews_section_headings_are_larger_than_their_subsections_as_on_the_page(page: Any, live_server: Any) -> None:
    make_editor("previewer")
    log_in(page, live_server.url, "previewer")
    page.goto(f"{live_server.url}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")

    page.fill("textarea[name=body]", "## 概述\n\n正文。\n\n### 优势估计\n\n正文。\n")
    page.wait_for_selector("#preview-body h3")

    label_size, label_colour = page.eval_on_selector("#live-preview > h2", STYLE)
    section_size, section_colour = page.eval_on_selector("#preview-body h2", STYLE)
    subsection_size, _ = page.eval_on_selector("#preview-body h3", STYLE)
    assert section_size > subsection_size > label_size
    assert section_colour != label_colour
    page.goto(f"{live_server.url}{reverse('wiki:page-detail', kwargs={'slug': 'agentic-rl'})}")
    on_the_page, _ = page.eval_on_selector(".page-body h2", STYLE)
    assert section_size == on_the_page
