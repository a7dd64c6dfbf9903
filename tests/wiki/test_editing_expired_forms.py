"""A page form posted after the session ended, or with a token that expired meanwhile, loses nothing the editor typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import make_editor, make_page
from wiki.models import Page

pytestmark = pytest.mark.django_db

TYPED = {"title": "Conflict", "summary": "A new summary", "body": "Typed before the session ended IMPORTANT",
         "comment": "session test", "base_revision": "1", "save": "1"}


def _field(html: str, name: str) -> str:
    """The value the form shows for ``name`` (an input's value or a textarea's text)."""
    textarea = re.search(rf'<textarea[^>]*name="{name}"[^>]*>\n?(.*?)</textarea>', html, re.S)
    if textarea:
        return textarea.group(1)
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else ""


def test_an_edit_saved_after_the_session_ended_comes_back_in_the_form(client: Client) -> None:
    page = make_page(slug="conflict", title="Conflict", body="Stored text.")
    response = client.post(reverse("wiki:page-edit", kwargs={"slug": "conflict"}), TYPED)
    assert response.status_code == 403
    html = response.content.decode()
    assert _field(html, "body") == TYPED["body"] and _field(html, "comment") == TYPED["comment"]
    assert _field(html, "summary") == TYPED["summary"] and _field(html, "base_revision") == "1"
    assert "Your session has ended, so nothing was saved" in html
    assert f'href="{reverse("login")}" target="_blank"' in html
    assert f'action="{reverse("wiki:page-edit", kwargs={"slug": "conflict"})}"' in html
    page.refresh_from_db()
    assert page.body == "Stored text." and page.revisions.count() == 1


def test_a_new_page_posted_after_the_session_ended_comes_back_in_the_form(client: Client) -> None:
    typed = {"title": "新页面 New", "slug": "new-one", "body": "正文 kept", "comment": "", "save": "1"}
    response = client.post(reverse("wiki:page-create"), typed)
    assert response.status_code == 403
    html = response.content.decode()
    assert _field(html, "title") == "新页面 New" and _field(html, "slug") == "new-one" and _field(html, "body") == "正文 kept"
    assert not Page.all_objects.filter(slug="new-one").exists()


def test_then_logging_in_elsewhere_and_saving_again_saves_it(client: Client) -> None:
    make_page(slug="conflict", title="Conflict", body="Stored text.")
    client.post(reverse("wiki:page-edit", kwargs={"slug": "conflict"}), TYPED)
    client.force_login(make_editor("returning"))
    response = client.post(reverse("wiki:page-edit", kwargs={"slug": "conflict"}), TYPED)
    assert response.status_code == 302
    assert Page.objects.get(slug="conflict").body == TYPED["body"]


def test_other_editor_forms_still_send_to_log_in_and_say_nothing_was_saved(client: Client) -> None:
    response = client.post(reverse("wiki:question-create"), {"title": "A question typed"}, follow=True)
    assert response.redirect_chain[0][0].startswith(reverse("login"))
    assert "Your session had ended, so nothing was saved" in response.content.decode()


def test_the_live_preview_answers_an_ended_session_with_a_fragment_not_the_login_page(client: Client) -> None:
    response = client.post(reverse("wiki:page-preview"), {"body": "Some text", "slug": "conflict"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Your session has ended" in html
    assert "<html" not in html and "<form" not in html


def test_the_live_preview_shows_a_message_when_its_answer_is_not_a_preview() -> None:
    script = (Path(settings.BASE_DIR) / "static" / "js" / "editor.js").read_text(encoding="utf-8")
    assert "response.redirected" in script and "response.ok" in script
    assert "pane.dataset.sessionEnded" in script and "pane.dataset.previewFailed" in script


def test_the_editor_carries_the_preview_messages_in_the_readers_language() -> None:
    editor = Client(headers={"accept-language": "zh-CN"})
    editor.force_login(make_editor("zh-editor"))
    html = editor.get(reverse("wiki:page-create")).content.decode()
    assert 'data-session-ended="你的登录已失效' in html and 'data-preview-failed="预览未能更新' in html


def test_a_form_sent_with_an_expired_token_gets_the_wikis_page_with_the_text() -> None:
    make_page(slug="conflict", title="Conflict", body="Stored text.")
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "zh-CN"})
    browser.force_login(make_editor("stale"))
    browser.get(reverse("wiki:page-edit", kwargs={"slug": "conflict"}))  # sets the CSRF cookie
    response = browser.post(reverse("wiki:page-edit", kwargs={"slug": "conflict"}),
                            {**TYPED, "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    html = response.content.decode()
    assert "此表单已过期" in html and "后退" in html
    assert '<html lang="zh-Hans">' in html and "DEBUG" not in html
    assert "Typed before the session ended IMPORTANT" in html and "session test" in html
    assert f'href="{reverse("wiki:page-edit", kwargs={"slug": "conflict"})}"' in html
    assert Page.objects.get(slug="conflict").body == "Stored text."


def test_an_expired_preview_gets_a_fragment() -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_editor("stale-preview"))
    browser.get(reverse("wiki:page-create"))
    response = browser.post(reverse("wiki:page-preview"), {"body": "x", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    assert "<html" not in response.content.decode() and "This form has expired" in response.content.decode()


def test_the_language_switch_refuses_an_expired_token_with_the_same_page() -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_editor("switcher"))
    browser.get(reverse("wiki:home"))
    response = browser.post(reverse("wiki:set-language"), {"language": "en", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403 and "This form has expired" in response.content.decode()
