"""The consistency report in an editor's browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_findings_dismiss_control_reads_on_one_line_in_chinese(page: Any, live_server: Any, seed: None) -> None:
    """"驳回…" beside a long finding kept one character to a line ("▶ 驳" over "回…") in its narrow column."""
    make_editor("reviewer")
    tab = page.context.browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN").new_page()
    log_in(tab, live_server.url, "reviewer")
    tab.goto(live_server.url + reverse("wiki:consistency-report"))
    summaries = tab.locator("table.findings summary")
    assert summaries.count() > 0
    line = float(summaries.first.evaluate("(s) => parseFloat(getComputedStyle(s).lineHeight)"))
    heights = summaries.evaluate_all("(all) => all.map(s => s.getBoundingClientRect().height)")
    assert all(height < 1.5 * line for height in heights), (line, heights)
