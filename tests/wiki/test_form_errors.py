"""A form sent back with errors says so first: “Error:” opens the page's title, a summary at the top of the form
(which error-summary.js focuses) lists every error with a link to its field, and fields that share a form-wide
error are marked invalid. Flash messages are a live region around an ordinary list."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_editor, make_page, make_source

pytestmark = pytest.mark.django_db


def _title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found is not None
    return found.group(1)


def _summary(html: str) -> str:
    found = re.search(r'<div class="error-summary" id="error-summary" tabindex="-1" data-error-summary>(.*?)</div>', html, re.S)
    assert found is not None, "no error summary"
    return found.group(1)


def test_a_rejected_edit_opens_on_a_summary_linking_to_the_field(editor_client: Client) -> None:
    page = make_page(slug="notes", title="Notes", body="one")
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})

    html = editor_client.post(url, {"title": "", "body": "two", "base_revision": "1", "save": "1"}, headers={"accept-language": "en"}).content.decode()

    assert _title(html).startswith("Error: ")
    summary = _summary(html)
    assert "There is a problem" in summary
    assert re.search(r'<li><a href="#id_title">Title: [^<]+</a></li>', summary)
    assert 'id="id_title"' in html
    assert '<script src="/static/js/error-summary.js" defer></script>' in html


def test_the_summary_and_the_title_are_in_chinese_for_a_chinese_reader(editor_client: Client) -> None:
    page = make_page(slug="notes", title="Notes", body="one")
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})

    html = editor_client.post(url, {"title": "", "body": "two", "base_revision": "1", "save": "1"}, headers={"accept-language": "zh-CN"}).content.decode()

    assert _title(html).startswith("错误：")
    summary = _summary(html)
    assert "请修正以下问题" in summary
    # The field's name and its error are parted by a full-width colon in Chinese, as everywhere in the interface.
    assert re.search(r'<li><a href="#id_title">标题：[^<:]+</a></li>', summary), summary


def test_a_form_shown_for_the_first_time_has_no_summary_and_a_plain_title(editor_client: Client) -> None:
    page = make_page(slug="notes", title="Notes", body="one")
    html = editor_client.get(reverse("wiki:page-edit", kwargs={"slug": page.slug}), headers={"accept-language": "en"}).content.decode()
    assert not _title(html).startswith("Error")
    assert "data-error-summary" not in html


def test_a_hidden_fields_error_is_said_in_the_summary(editor_client: Client) -> None:
    page = make_page(body="one")
    html = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "two", "base_revision": "abc", "save": "1"},
    ).content.decode()
    assert "hidden “base_revision” value is not valid" in _summary(html)


def test_a_rejected_classification_opens_on_the_summary_of_its_errors(editor_client: Client) -> None:
    source = make_source(slug="lonework", short_name="LoneWork")
    html = editor_client.post(reverse("wiki:classification-create", kwargs={"slug": source.slug}), {}, headers={"accept-language": "en"}).content.decode()
    assert _title(html).startswith("Error: ")
    assert re.search(r'<a href="#id_mechanism(_0)?">', _summary(html))


def test_a_wrong_password_is_announced_and_marks_both_fields(client: Client) -> None:
    make_editor("alice")
    html = client.post(reverse("login"), {"username": "alice", "password": PASSWORD + "x"}, headers={"accept-language": "en"}).content.decode()

    assert _title(html).startswith("Error: ")
    assert "Please enter a correct username and password" in _summary(html)
    for name in ("username", "password"):
        widget = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
        assert widget is not None
        assert 'aria-invalid="true"' in widget.group(0) and 'aria-describedby="error-summary-list"' in widget.group(0)
    assert 'id="error-summary-list"' in html


def test_the_login_form_shown_first_marks_nothing(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()
    assert "aria-invalid" not in html and "data-error-summary" not in html


def test_flash_messages_are_a_list_inside_a_status_region(editor_client: Client) -> None:
    page = make_page(slug="notes", title="Notes", body="one")
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": "Notes", "body": "two", "base_revision": "1", "save": "1"}, follow=True,
    )
    html = response.content.decode()
    assert re.search(r'<div class="messages-region" role="status"><ul class="messages"><li class="message success">', html)
    assert '<ul class="messages" role="status">' not in html


def test_a_text_too_long_is_refused_in_plain_chinese_words(client: Client) -> None:
    chinese = client.get(reverse("wiki:search"), {"q": "长" * 300}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    # not Django's stock "确保该变量包含不超过 200 字符 (目前字符数 300)", with its half-width bracket
    assert "最多 200 个字符，现有 300 个。" in chinese and "该变量" not in chinese


def test_a_value_that_is_not_one_of_the_choices_is_refused_in_chinese_words(client: Client) -> None:
    chinese = client.get(reverse("wiki:source-list"), {"mechanism": "alchemy"}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    # not Django's stock "选择一个有效的选项。 alchemy 不在可用的选项中。", with its stray space after the full stop
    assert "“alchemy”不是可选的值；请从列表中选择。" in chinese and "选择一个有效的选项" not in chinese


@pytest.mark.parametrize(("view", "kwargs", "query"), [
    ("wiki:source-list", {}, {"mechanism": "alchemy"}),
    ("wiki:question-list", {}, {"status": "pondering"}),
    ("wiki:changes", {}, {"days": "forever"}),
    ("wiki:graph-local", {"kind": "page", "key": "filtered"}, {"depth": "9"}),
])
def test_a_list_whose_filter_is_refused_says_so_first_in_its_title(
        client: Client, view: str, kwargs: dict[str, str], query: dict[str, str]) -> None:
    make_page(slug="filtered", title="Filtered")
    url = reverse(view, kwargs=kwargs)

    refused = client.get(url, query)
    shown = client.get(url)

    # as the map and search do: the first thing a screen reader says of the page that came back
    assert refused.status_code == 400 and _title(refused.content.decode()).startswith("Error: ")
    assert shown.status_code == 200 and not _title(shown.content.decode()).startswith("Error")
