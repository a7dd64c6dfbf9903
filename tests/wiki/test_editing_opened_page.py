"""An edit form acts on the page it was opened on, wherever that page is now: after the page moved and a new page was
created at its former address, the form's live preview, Preview, "Show changes", a section's previews and the
edit-conflict screen all read the moved page, never the newcomer; a page deleted meanwhile says so in each of them and
the text typed is never lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from wiki.models import Claim, Page
from wiki.roles import Account
from wiki.services.deletion import page_delete
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save

pytestmark = pytest.mark.django_db

SKILLFORGE = "SkillForge 用 GRPO 同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。"
NOTES = f"""## 关键要点

- {SKILLFORGE}
- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。
- FACET 用 verifier 筛选的轨迹做 SFT，没有用环境回报更新 agent policy。

## 结语

笔记到此为止。
"""
REWORDED = NOTES.replace("同时更新", "同时地更新")
NEWCOMER = """## 关键要点

- WebArena 只评测固定模型，没有根据回报更新 policy。
"""


@pytest.fixture
def notes() -> Page:
    return page_save(slug="old-notes", title="Reading notes", body=NOTES).revision.page


def _moved_and_replaced(notes: Page, editor: Account) -> Page:
    """Moves ``notes`` to survey-notes and creates another page at its former address, old-notes."""
    page_move(page=notes, slug="survey-notes", user=editor)
    return page_save(slug="old-notes", title="Newcomer", body=NEWCOMER, user=editor, base_revision=0).revision.page


def _sent(form: Any, **typed: str) -> dict[str, str]:
    """An opened edit form's values as the browser sends them back, hidden ones included, with ``typed``."""
    return {**{name: "" if value is None else str(value) for name, value in form.initial.items()}, **typed}


def _live(form: Any, body: str) -> dict[str, str]:
    """What editor.js posts for the live preview of ``form`` (a whole page's or a section's) holding ``body``: the text,
    the address the form was opened at, and the form's page, section and revision."""
    sent = {name: str(form.initial[name]) for name in ("page_id", "section", "base_revision") if form.initial.get(name)}
    return {"body": body, "slug": "old-notes", **sent}


def _claims_of(page: Page) -> set[int]:
    return set(Claim.objects.filter(page=page).values_list("pk", flat=True))


def _reworded_only(report: Any, notes: Page) -> None:
    """``report`` is what saving REWORDED does to ``notes``' claims: SkillForge's reworded, the others kept."""
    assert report.kept == 2
    assert [(change.outcome.value, change.claim_id) for change in report.changes] == [
        ("reworded", Claim.objects.get(page=notes, text=SKILLFORGE).pk)]


def test_the_live_preview_of_a_form_opened_before_the_move_reads_the_moved_page_not_the_newcomer(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    newcomer = _moved_and_replaced(notes, editor)

    live = editor_client.post(reverse("wiki:page-preview"), _live(form, REWORDED))

    assert live.status_code == 200
    assert live.context["page"].pk == notes.pk
    _reworded_only(live.context["claims"], notes)
    assert not _claims_of(newcomer) & {change.claim_id for change in live.context["claims"].changes}


def test_the_live_preview_of_a_section_opened_before_the_move_reads_the_moved_page_s_revision(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/?section=1").context["form"]
    newcomer = _moved_and_replaced(notes, editor)
    section = REWORDED[: REWORDED.index("## 结语")]

    live = editor_client.post(reverse("wiki:page-preview"), _live(form, section))

    assert live.status_code == 200
    _reworded_only(live.context["claims"], notes)
    assert Page.objects.get(pk=newcomer.pk).body == NEWCOMER


def test_preview_of_a_form_opened_before_the_move_reads_the_moved_page(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    newcomer = _moved_and_replaced(notes, editor)

    preview = editor_client.post("/wiki/old-notes/edit/", _sent(form, body=REWORDED, preview="1"))

    assert preview.status_code == 200
    assert preview.context["page"].pk == notes.pk
    _reworded_only(preview.context["claims"], notes)
    html = preview.content.decode()
    assert 'action="/wiki/survey-notes/edit/"' in html and 'data-page="survey-notes"' in html
    assert f'name="page_id" value="{notes.pk}"' in html
    assert notes.revisions.count() == 1 and newcomer.revisions.count() == 1


def test_a_section_s_preview_opened_before_the_move_reads_the_moved_page(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/?section=1").context["form"]
    _moved_and_replaced(notes, editor)
    section = REWORDED[: REWORDED.index("## 结语")]

    preview = editor_client.post("/wiki/old-notes/edit/", _sent(form, body=section, preview="1"))

    assert preview.status_code == 200
    _reworded_only(preview.context["claims"], notes)


@pytest.mark.parametrize("url", ["/wiki/old-notes/edit/", "/wiki/old-notes/edit/?section=1"])
def test_show_changes_of_a_form_opened_before_the_move_diffs_the_moved_page(
    notes: Page, editor: Account, editor_client: Client, url: str
) -> None:
    form = editor_client.get(url).context["form"]
    _moved_and_replaced(notes, editor)
    body = REWORDED if "section" not in url else REWORDED[: REWORDED.index("## 结语")]

    diff = editor_client.post("/wiki/old-notes/edit/", _sent(form, body=body, diff="1"))

    assert diff.status_code == 200
    changes = diff.context["changes"]
    assert changes.base.page_id == notes.pk and changes.base.body == NOTES
    assert changes.values["body"] == REWORDED
    _reworded_only(diff.context["changed_claims"], notes)


def test_the_conflict_screen_of_a_form_opened_before_the_move_is_the_moved_page_s_and_previews_it(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_save(slug="old-notes", title="Reading notes", body=NOTES.replace("笔记到此为止。", "笔记到此结束。"), user=editor,
              base_revision=1)
    newcomer = _moved_and_replaced(Page.objects.get(pk=notes.pk), editor)

    clash = editor_client.post("/wiki/old-notes/edit/", _sent(form, body=REWORDED.replace("笔记到此为止。", "我的结语。"),
                                                              save="1"))

    assert clash.status_code == 409
    assert clash.context["page"].pk == notes.pk and clash.context["current"].page_id == notes.pk
    assert clash.context["form"].initial["page_id"] == notes.pk
    assert 'action="/wiki/survey-notes/edit/"' in clash.content.decode()
    resolved = _sent(clash.context["form"], body=REWORDED.replace("笔记到此为止。", "我的结语。"), preview="1")
    preview = editor_client.post("/wiki/old-notes/edit/", resolved)
    assert preview.status_code == 200 and preview.context["page"].pk == notes.pk
    _reworded_only(preview.context["claims"], notes)
    assert Page.objects.get(pk=newcomer.pk).body == NEWCOMER


@pytest.mark.parametrize("button", ["preview", "diff", "save"])
def test_a_form_opened_before_the_page_moved_and_was_deleted_keeps_the_text_and_says_who_deleted_it(
    notes: Page, editor: Account, editor_client: Client, button: str
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    newcomer = _moved_and_replaced(notes, editor)
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="与另一页重复")

    kept = editor_client.post("/wiki/old-notes/edit/", _sent(form, body="没有丢的一段。", **{button: "1"}),
                              headers={"accept-language": "en"})

    assert kept.status_code == 410
    html = kept.content.decode()
    assert "没有丢的一段。" in html and kept.context["form"].initial["body"] == "没有丢的一段。"
    assert "was deleted by editor" in html and "与另一页重复" in html
    assert Page.all_objects.get(pk=notes.pk).body == NOTES and Page.objects.get(pk=newcomer.pk).body == NEWCOMER


@pytest.mark.parametrize("moved", [False, True])
def test_the_live_preview_of_a_page_deleted_meanwhile_says_so_and_that_saving_keeps_the_text(
    notes: Page, editor: Account, editor_client: Client, moved: bool
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    if moved:
        _moved_and_replaced(notes, editor)
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="与另一页重复")

    live = editor_client.post(reverse("wiki:page-preview"), _live(form, REWORDED), headers={"accept-language": "en"})

    assert live.status_code == 200
    html = live.content.decode()
    assert "“Reading notes” was deleted by editor" in html and "与另一页重复" in html
    assert "your text is still in the form" in html
    # Still a preview of what was typed, with no claims of a page no reader sees.
    assert "同时地更新" in html and live.context["claims"] is None


def test_the_live_preview_of_a_page_of_a_form_sent_without_its_page_reads_the_page_at_the_address(
    notes: Page, editor_client: Client
) -> None:
    live = editor_client.post(reverse("wiki:page-preview"), {"body": REWORDED, "slug": "old-notes"})

    _reworded_only(live.context["claims"], notes)


@pytest.mark.parametrize("url", ["/wiki/old-notes/edit/", "/wiki/old-notes/edit/?section=1"])
def test_a_form_opened_before_the_move_sent_with_an_expired_token_opens_again_on_the_moved_page(
    notes: Page, editor: Account, url: str
) -> None:
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    browser.force_login(editor)
    form = browser.get(url).context["form"]
    _moved_and_replaced(notes, editor)

    expired = browser.post(url, _sent(form, body="过期前写的。", save="1", csrfmiddlewaretoken="x" * 64),
                           headers={"referer": f"http://testserver{url}"})

    assert expired.status_code == 403
    html = expired.content.decode()
    assert "过期前写的。" in html
    again = url.replace("old-notes", "survey-notes")
    assert f'href="{again}">Open the form again' in html
    assert Page.objects.get(pk=notes.pk).body == NOTES


@pytest.mark.parametrize("deleted", [False, True])
def test_the_live_preview_of_a_moved_page_runs_as_many_queries_however_many_claims_it_has(
    editor: Account, editor_client: Client, deleted: bool
) -> None:
    editor_client.post(reverse("wiki:page-preview"), {"body": "x"})  # what a first request reads and later ones find cached
    counts = []
    for points in (2, 12):
        body = "## 关键要点\n\n" + "".join(f"- 第 {n} 条要点，说明 GRPO 在第 {n} 个环境中更新策略。\n" for n in range(points))
        page = page_save(slug=f"notes-{points}", title=f"Notes {points}", body=body).revision.page
        page_move(page=page, slug=f"moved-{points}", user=editor)
        if deleted:
            page_delete(page=Page.objects.get(pk=page.pk), user=editor, reason="重复")
        with CaptureQueriesContext(connection) as queries:
            live = editor_client.post(reverse("wiki:page-preview"), {"body": body + "- 新的一条。\n", "slug": f"notes-{points}",
                                                                     "page_id": str(page.pk)})
        assert live.status_code == 200
        counts.append([query["sql"] for query in queries.captured_queries])
    assert len(counts[0]) == len(counts[1]), counts
