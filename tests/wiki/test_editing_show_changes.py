"""The page form's "Show changes": the diff of the unsaved edit against the revision it started from, the form kept as
typed, nothing saved; for a section, the whole page's text with the section in it."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page
from wiki.models import Page, Revision
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

SECTIONED = """Lead paragraph.

## Definition

A definition.

## Key points

- 策略梯度更新
- second point

## End

The end.
"""


def _edit_url(page: Page) -> str:
    return reverse("wiki:page-edit", kwargs={"slug": page.slug})


def _field(html: str, name: str) -> str:
    textarea = re.search(rf'<textarea[^>]*name="{name}"[^>]*>\n?(.*?)</textarea>', html, re.S)
    if textarea:
        return html_lib.unescape(textarea.group(1))
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html
    )
    return html_lib.unescape(found.group(1)) if found else ""


def _changes(html: str) -> str:
    """The "Your changes" section of the form's page; "" when there is none."""
    found = re.search(r'<section class="edit-changes".*?</section>', html, re.S)
    return found.group(0) if found else ""


def test_the_edit_form_offers_show_changes_and_the_new_page_form_does_not(editor_client: Client) -> None:
    page = make_page(body=SECTIONED)

    whole = editor_client.get(_edit_url(page)).content.decode()
    section = editor_client.get(_edit_url(page) + "?section=2").content.decode()
    new = editor_client.get(reverse("wiki:page-create")).content.decode()

    button = '<button type="submit" name="diff" value="1" class="secondary" accesskey="v">Show changes</button>'
    assert button in whole and button in section
    assert 'name="diff"' not in new
    assert (
        '<button type="submit" name="diff" value="1" class="secondary" accesskey="v">显示更改</button>'
        in editor_client.get(_edit_url(page), headers={"accept-language": "zh-Hans"}).content.decode()
    )


def test_show_changes_diffs_the_typed_text_against_its_revision_per_character_and_saves_nothing(
    editor_client: Client,
) -> None:
    page = make_page(title="Policy", summary="Old summary.", body="策略梯度更新\nSecond line.\n")

    response = editor_client.post(
        _edit_url(page),
        {
            "title": "Policy updates",
            "summary": "Old summary.",
            "body": "策略蒸馏更新\nSecond line.\nA third line.\n",
            "comment": "word choice",
            "base_revision": 1,
            "diff": "1",
        },
    )

    assert response.status_code == 200
    html = response.content.decode()
    changes = _changes(html)
    assert "<del>梯度</del>" in changes and "<ins>蒸馏</ins>" in changes
    assert "<ins>A third line.</ins>" in changes
    assert 'Title: <del lang="en">Policy</del> → <ins lang="en">Policy updates</ins>' in changes
    assert "Summary: " not in changes
    assert (
        "Revision 1 (" in changes and '<span class="grew">+2</span> / <span class="shrank">−1</span> lines.' in changes
    )
    # The form holds what was typed, and the revision the edit started from.
    assert _field(html, "title") == "Policy updates"
    assert _field(html, "body") == "策略蒸馏更新\nSecond line.\nA third line.\n"
    assert _field(html, "comment") == "word choice"
    assert _field(html, "base_revision") == "1"
    assert 'id="page-form" novalidate data-unsaved' in html
    page.refresh_from_db()
    assert (page.title, page.body, page.revisions.count()) == ("Policy", "策略梯度更新\nSecond line.\n", 1)


def test_show_changes_keeps_the_base_revision_so_that_the_save_after_it_is_still_merged(editor_client: Client) -> None:
    page = make_page(body="First line.\nMiddle line.\nLast line.\n")
    page_save_revision(
        slug=page.slug, title=page.title, body="First line, theirs.\nMiddle line.\nLast line.\n", base_revision=1
    )
    typed = {
        "title": page.title,
        "summary": "",
        "body": "First line.\nMiddle line.\nLast line, mine.\n",
        "comment": "",
        "base_revision": 1,
    }

    shown = editor_client.post(_edit_url(page), {**typed, "diff": "1"}).content.decode()

    # Against revision 1, where the edit started: their change is no part of it.
    changes = _changes(shown)
    assert "Revision 1 (" in changes and "theirs" not in changes and "<ins>, mine</ins>" in changes
    assert _field(shown, "base_revision") == "1"
    saved = editor_client.post(_edit_url(page), {**typed, "save": "1"})
    assert saved.status_code == 302
    assert Page.objects.get(pk=page.pk).body == "First line, theirs.\nMiddle line.\nLast line, mine.\n"


def test_show_changes_of_a_section_diffs_the_whole_page_numbered_by_its_lines(editor_client: Client) -> None:
    page = make_page(body=SECTIONED)

    response = editor_client.post(
        _edit_url(page),
        {
            "body": "## Key points\n\n- 策略蒸馏更新\n- second point\n\n",
            "comment": "/* Key points */ ",
            "base_revision": 1,
            "section": 2,
            "diff": "1",
        },
    )

    assert response.status_code == 200
    html = response.content.decode()
    changes = _changes(html)
    # Line 9 of the page, not line 3 of the section.
    assert re.search(r'<td class="num">9</td><td class="old" lang="zh-Hans">- 策略<del>梯度</del>更新</td>', changes)
    assert "The diff is of the whole page" in changes
    assert "Title: " not in changes
    assert _field(html, "section") == "2" and _field(html, "base_revision") == "1"
    assert _field(html, "body") == "## Key points\n\n- 策略蒸馏更新\n- second point\n\n"
    assert Page.objects.get(pk=page.pk).body == SECTIONED and Revision.objects.filter(page=page).count() == 1


def test_show_changes_of_an_unchanged_form_says_nothing_changed(editor_client: Client) -> None:
    page = make_page(title="Same", body="Same text.\n")

    english = editor_client.post(
        _edit_url(page),
        {"title": "Same", "summary": page.summary, "body": "Same text.\n", "base_revision": 1, "diff": "1"},
    ).content.decode()
    chinese = editor_client.post(
        _edit_url(page),
        {"title": "Same", "summary": page.summary, "body": "Same text.\n", "base_revision": 1, "diff": "1"},
        headers={"accept-language": "zh-Hans"},
    ).content.decode()

    assert "Nothing changed yet: what the form holds is revision 1 (" in _changes(english)
    assert '<table class="diff">' not in _changes(english) and "data-unsaved" not in english
    assert "还没有改动：表单中的内容与已保存的修订版本 1（" in _changes(chinese)


def test_show_changes_from_a_revision_the_page_lacks_is_an_error_and_saves_nothing(editor_client: Client) -> None:
    page = make_page(body=SECTIONED)

    whole = editor_client.post(
        _edit_url(page), {"title": page.title, "body": "Other.", "base_revision": 7, "diff": "1"}
    )
    section = editor_client.post(_edit_url(page), {"body": "## New\n", "base_revision": 1, "section": 9, "diff": "1"})

    assert whole.status_code == 200 and section.status_code == 200
    assert "This page has no revision 7." in whole.content.decode() and not _changes(whole.content.decode())
    assert "Revision 1 of this page has no section 9." in section.content.decode()
    assert Page.objects.get(pk=page.pk).body == SECTIONED and page.revisions.count() == 1


def test_show_changes_runs_as_many_queries_whatever_the_page_s_history(editor_client: Client) -> None:
    short = make_page(body="One line.\n")
    long = make_page(body="\n".join(f"Line {n}." for n in range(400)))
    for n in range(30):
        page_save_revision(slug=long.slug, title=long.title, body=long.body + f"\nMore {n}.", base_revision=n + 1)

    def count(page: Page, base: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = editor_client.post(
                _edit_url(page), {"title": page.title, "body": "Changed.\n", "base_revision": base, "diff": "1"}
            )
        assert response.status_code == 200 and _changes(response.content.decode())
        return len(queries.captured_queries)

    count(short, 1)  # the editor's account, read once, then kept
    assert count(short, 1) == count(long, 31) == count(long, 2)


def test_show_changes_says_what_the_edit_does_to_the_claims_as_preview_does(editor_client: Client) -> None:
    body = "## 关键要点\n\n- SkillForge 用 GRPO 更新策略。\n- StarHarness 只进化外部 harness。\n"
    page = make_page(title="Claims shown", body=body)

    response = editor_client.post(
        _edit_url(page),
        {"title": page.title, "summary": "", "base_revision": 1, "diff": "1",
         "body": body.replace("只进化外部 harness", "只进化外部 harness，不更新参数") + "- Recuris 也是 harness。\n"},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    changes = _changes(response.content.decode())
    report = changes.split('<section class="claim-changes"', 1)[1].split("</section>", 1)[0]
    assert "1 new" in report and "1 reworded" in report, report
    assert 'data-outcome="new"' in report and 'data-outcome="reworded"' in report
    assert page.claims.count() == 2  # nothing saved
