"""The preview beside the edit form shows the text's headings as the page shows them, and what saving does to the
claims of the page the form was opened on, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.models import Claim
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTES = """## 关键要点

- SkillForge 用 GRPO 同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。
- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。
"""

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


def test_the_live_preview_of_a_form_opened_before_the_page_moved_reads_the_moved_page(page: Any, live_server: Any) -> None:
    editor = make_editor("previewer")
    notes = page_save(slug="old-notes", title="Reading notes", body=NOTES).revision.page
    log_in(page, live_server.url, "previewer")
    page.goto(f"{live_server.url}{reverse('wiki:page-edit', kwargs={'slug': 'old-notes'})}")
    page_move(page=notes, slug="survey-notes", user=editor)
    page_save(slug="old-notes", title="Newcomer", body="## 关键要点\n\n- WebArena 只评测固定模型。\n", user=editor,
              base_revision=0)

    page.fill("textarea[name=body]", NOTES.replace("同时更新", "同时地更新"))
    page.wait_for_selector("#preview-body [data-outcome]")

    reworded = Claim.objects.get(page=notes, text__startswith="SkillForge").pk
    assert page.query_selector(f'#preview-body [data-outcome="reworded"][data-claim="{reworded}"]') is not None
    assert page.query_selector('#preview-body [data-outcome="new"], #preview-body [data-outcome="orphaned"]') is None
