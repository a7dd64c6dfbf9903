"""Blanking a page: an edit that leaves a page with text without any (nothing but whitespace) is asked about first,
as a wiki asks, and saved when the editor saves again; nothing is saved until then, and the text typed stays."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from wiki.models import Page
from wiki.services.pages import PageBlanking, page_save

pytestmark = pytest.mark.django_db

WARNING = "This edit leaves the page without any text: nothing was saved. Save again to blank the page all the same"


def _sent(form: Any, **typed: str) -> dict[str, str]:
    """A form's values as the browser sends them back, hidden ones included, with ``typed``; ticked boxes only."""
    values = {name: form[name].value() for name in form.fields}
    sent = {name: "" if value is None else str(value) for name, value in values.items() if value is not False}
    return {**sent, **typed, "save": "1"}


@pytest.fixture
def notes() -> Page:
    return page_save(slug="notes", title="Notes", body="## 定义\n\n笔记。\n").revision.page


def test_saving_a_page_blanked_asks_first_and_saving_again_blanks_it(notes: Page, editor_client: Client) -> None:
    opened = editor_client.get("/wiki/notes/edit/").context["form"]

    asked = editor_client.post("/wiki/notes/edit/", _sent(opened, body=" \n\t\n"))

    assert asked.status_code == 400
    assert WARNING in asked.content.decode()
    assert asked.context["form"]["body"].value() == " \n\t\n"
    assert Page.objects.get(pk=notes.pk).revisions.count() == 1
    chinese = editor_client.post("/wiki/notes/edit/", _sent(opened, body=""), headers={"accept-language": "zh-CN"})
    assert "此编辑会让本页没有任何文字：什么都没有保存。" in chinese.content.decode()
    saved = editor_client.post("/wiki/notes/edit/", _sent(asked.context["form"]))
    assert saved.status_code == 302
    page = Page.objects.get(pk=notes.pk)
    assert page.body.strip() == "" and page.revisions.count() == 2


def test_a_section_edit_that_would_empty_the_page_asks_first(notes: Page, editor_client: Client) -> None:
    opened = editor_client.get("/wiki/notes/edit/?section=1").context["form"]

    asked = editor_client.post("/wiki/notes/edit/", _sent(opened, body=""))

    assert asked.status_code == 400 and WARNING in asked.content.decode()
    assert Page.objects.get(pk=notes.pk).body == "## 定义\n\n笔记。\n"
    saved = editor_client.post("/wiki/notes/edit/", _sent(asked.context["form"]))
    assert saved.status_code == 302 and Page.objects.get(pk=notes.pk).body.strip() == ""


def test_a_form_that_asked_and_then_got_text_back_saves_the_text(notes: Page, editor_client: Client) -> None:
    asked = editor_client.post("/wiki/notes/edit/", _sent(editor_client.get("/wiki/notes/edit/").context["form"], body=""))

    saved = editor_client.post("/wiki/notes/edit/", _sent(asked.context["form"], body="新的笔记。"))

    assert saved.status_code == 302 and Page.objects.get(pk=notes.pk).body == "新的笔记。"


def test_a_page_without_text_is_edited_or_created_without_asking(editor_client: Client) -> None:
    page_save(slug="empty", title="Empty", body="", blanking_confirmed=False)
    saved = page_save(slug="empty", title="Still empty", body="  ", base_revision=1, blanking_confirmed=False)
    assert saved.revision.number == 2
    page_save(slug="empty", title="Filled", body="文字。", base_revision=2)
    with pytest.raises(PageBlanking):
        page_save(slug="empty", title="Filled", body="\n", base_revision=3, blanking_confirmed=False)
    assert Page.objects.get(slug="empty").body == "文字。"
