"""An editor form posted after the session ended, or with a token that expired meanwhile, loses nothing the editor
typed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import make_claim, make_editor, make_page, make_question, make_reader, make_source
from wiki.models import Claim, GlossaryTerm, OpenQuestion, Page, Source
from wiki.services.glossary import glossary_term_create
from wiki.services.page_moves import page_move

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


def test_an_edit_of_a_page_moved_meanwhile_saved_after_the_session_ended_comes_back_in_the_form(client: Client) -> None:
    page = make_page(slug="conflict", title="Conflict", body="Stored text.")
    page_move(page=page, slug="moved-conflict", user=None)

    response = client.post(reverse("wiki:page-edit", kwargs={"slug": "conflict"}), TYPED)

    assert response.status_code == 403
    html = response.content.decode()
    assert _field(html, "body") == TYPED["body"] and _field(html, "base_revision") == "1"
    assert f'action="{reverse("wiki:page-edit", kwargs={"slug": "moved-conflict"})}"' in html
    page.refresh_from_db()
    assert page.body == "Stored text." and page.revisions.count() == 1


def test_an_edit_of_a_page_the_wiki_has_no_trace_of_saved_after_the_session_ended_comes_back_in_a_new_pages_form(
    client: Client
) -> None:
    response = client.post(reverse("wiki:page-edit", kwargs={"slug": "never-was"}), TYPED)

    assert response.status_code == 403
    html = response.content.decode()
    assert _field(html, "body") == TYPED["body"] and _field(html, "title") == TYPED["title"]
    assert f'action="{reverse("wiki:page-create")}"' in html
    assert not Page.all_objects.exists()


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


def _kept(html: str) -> dict[str, str]:
    """The 403 page's copy of what was sent: each field's label and the text shown under it."""
    return dict(re.findall(r'<label for="kept-\d+">([^<]*)</label>\s*<textarea id="kept-\d+"[^>]*>\n?(.*?)</textarea>', html, re.S))


def _log_in_link(url: str) -> str:
    return f'href="{reverse("login")}?next={quote(url, safe="")}"'


def test_a_glossary_term_posted_after_the_session_ended_is_shown_to_copy_and_nothing_is_saved(client: Client) -> None:
    term = glossary_term_create(fields={"slug": "pg", "name_zh": "策略梯度", "name_en": "policy gradient"}, user=None)
    url = reverse("wiki:glossary-edit", kwargs={"slug": "pg"})
    response = client.post(url, {"csrfmiddlewaretoken": "t" * 64, "loaded_at": term.updated_at.isoformat(),
                                 "name_zh": "策略梯度", "name_en": "Policy gradient (PG)", "aliases_en": "",
                                 "definition_en": "Typed <script>x</script> before the session ended", "mechanism": ""},
                           headers={"accept-language": "en"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Your session had ended, so nothing was saved." in html and _log_in_link(url) in html
    assert _kept(html) == {"Chinese name": "策略梯度", "English name": "Policy gradient (PG)",
                           "Definition (English)": "Typed &lt;script&gt;x&lt;/script&gt; before the session ended"}
    assert "<script>x</script>" not in html and "t" * 64 not in html and term.updated_at.isoformat() not in html
    assert GlossaryTerm.objects.get(pk=term.pk).name_en == "policy gradient"


def test_a_claim_posted_after_the_session_ended_keeps_its_typed_locators_and_nothing_is_saved(client: Client) -> None:
    source = make_source(short_name="Cited")
    claim = make_claim("A claim about agents.", cites=[source], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    response = client.post(url, {"status": "verified", "about": source.slug, "loaded_at": claim.updated_at.isoformat(),
                                 "citations-TOTAL_FORMS": "2", "citations-INITIAL_FORMS": "1", "citations-MIN_NUM_FORMS": "0",
                                 "citations-MAX_NUM_FORMS": "50", "citations-0-source": source.slug,
                                 "citations-0-locator": "§4.2", "citations-0-kind": "cited", "citations-1-source": "",
                                 "citations-1-locator": "", "citations-1-kind": "cited"},
                           headers={"accept-language": "en"})
    assert response.status_code == 403
    html = response.content.decode()
    assert list(_kept(html).items()) == [("Works it is about", source.slug), ("Source", source.slug), ("Locator", "§4.2")]
    assert _log_in_link(url) in html
    assert Claim.objects.get(pk=claim.pk).status == claim.status and claim.citations.get().locator == "p.3"


def test_a_source_posted_after_the_session_ended_is_shown_to_copy_and_nothing_is_saved(client: Client) -> None:
    source = make_source(short_name="Kept Work", title="The stored title", notes="")
    response = client.post(reverse("wiki:source-edit", kwargs={"slug": source.slug}),
                           {"short_name": "Kept Work", "title": "A retyped title", "kind": "paper", "year": "2025",
                            "notes": "Notes typed at length.", "doi": "", "loaded_at": source.updated_at.isoformat()},
                           headers={"accept-language": "en"})
    assert response.status_code == 403
    assert _kept(response.content.decode()) == {"Short name": "Kept Work", "Title": "A retyped title", "Year": "2025",
                                                "Notes": "Notes typed at length."}
    source.refresh_from_db()
    assert (source.title, source.notes) == ("The stored title", "")


def test_a_question_posted_after_the_session_ended_is_shown_to_copy_and_nothing_is_added(client: Client) -> None:
    response = client.post(reverse("wiki:question-create"), {"title": "A question typed", "text": "Its long text.",
                                                              "status": "open", "priority": "high"},
                           headers={"accept-language": "en"})
    assert response.status_code == 403
    assert _kept(response.content.decode()) == {"Title": "A question typed", "Text": "Its long text."}
    question = make_question(title="Stored")
    response = client.post(reverse("wiki:question-edit", kwargs={"pk": question.pk}), {"title": "Retyped"})
    assert response.status_code == 403 and "Retyped" in response.content.decode()
    assert list(OpenQuestion.objects.values_list("title", flat=True)) == ["Stored"]


def test_the_session_ended_page_reads_in_chinese_with_the_forms_labels() -> None:
    response = Client(headers={"accept-language": "zh-CN"}).post(reverse("wiki:glossary-create"),
                                                                  {"slug": "x", "name_zh": "新术语", "name_en": "A new term"})
    assert response.status_code == 403
    html = response.content.decode()
    assert '<html lang="zh-Hans">' in html and "你的登录已失效，因此没有保存任何内容。" in html and "在另一个标签页登录" in html
    assert _kept(html) == {"中文名称": "新术语", "英文名称": "A new term", "地址": "x"}


def test_a_form_with_its_own_page_sends_back_to_the_page_that_sent_it(client: Client) -> None:
    claim = make_claim("An orphan to retire.")
    detail = reverse("wiki:claim-detail", kwargs={"pk": claim.pk})
    response = client.post(reverse("wiki:claim-retire", kwargs={"pk": claim.pk}), {"reason": "Withdrawn.", "retire": ""},
                           headers={"referer": f"http://testserver{detail}?x=1", "accept-language": "en"})
    assert response.status_code == 403 and _log_in_link(f"{detail}?x=1") in response.content.decode()
    assert _kept(response.content.decode()) == {"Reason": "Withdrawn."}
    elsewhere = client.post(reverse("wiki:claim-retire", kwargs={"pk": claim.pk}), {"reason": "Withdrawn."},
                            headers={"referer": "https://evil.example/claims/1/"})
    assert _log_in_link(reverse("wiki:claim-retire", kwargs={"pk": claim.pk})) in elsewhere.content.decode()
    assert Claim.objects.get(pk=claim.pk).retired_at is None


def test_a_form_without_a_form_class_keeps_its_text_under_the_fields_names(client: Client) -> None:
    make_page(slug="reverted", title="Reverted")
    response = client.post(reverse("wiki:page-revert", kwargs={"slug": "reverted", "number": 1}),
                           {"comment": "Back to the first text", "base_revision": "1"}, headers={"accept-language": "en"})
    assert response.status_code == 403 and _kept(response.content.decode()) == {"Edit summary": "Back to the first text"}


def test_a_deletion_reason_posted_after_the_session_ended_is_kept(client: Client) -> None:
    make_page(slug="doomed", title="Doomed")
    response = client.post(reverse("wiki:page-delete", kwargs={"slug": "doomed"}), {"reason": "Spam, twice"},
                           headers={"accept-language": "en"})
    assert response.status_code == 403 and _kept(response.content.decode()) == {"Reason": "Spam, twice"}
    assert Page.objects.filter(slug="doomed").exists()


def test_a_form_with_nothing_typed_says_so_and_links_to_log_in(client: Client) -> None:
    source = make_source(short_name="Queued")
    url = reverse("wiki:triage-accept", kwargs={"slug": source.slug})
    response = client.post(url, {"then": "next-work", "p": "2"}, headers={"accept-language": "en"})
    html = response.content.decode()
    assert response.status_code == 403 and "nothing was saved" in html and _kept(html) == {}
    assert f'{_log_in_link(url)}>Log in</a>' in html
    assert not Source.objects.get(pk=source.pk).classifications.exists()


def test_a_get_is_still_sent_to_log_in_and_a_reader_still_gets_403(client: Client) -> None:
    url = reverse("wiki:glossary-create")
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(make_reader("only-reads"))
    response = client.post(url, {"name_en": "Typed by a reader"})
    assert response.status_code == 403 and "Typed by a reader" not in response.content.decode()


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


def test_any_editor_form_sent_with_an_expired_token_shows_its_text() -> None:
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    browser.force_login(make_editor("stale-glossary"))
    browser.get(reverse("wiki:glossary-create"))  # sets the CSRF cookie
    response = browser.post(reverse("wiki:glossary-create"),
                            {"slug": "new-term", "name_en": "A term typed <b>bold</b>", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This form has expired" in html and "x" * 64 not in html
    assert _kept(html) == {"Address": "new-term", "English name": "A term typed &lt;b&gt;bold&lt;/b&gt;"}
    assert f'href="{reverse("wiki:glossary-create")}">Open the form again' in html
    assert not GlossaryTerm.objects.filter(slug="new-term").exists()


def test_a_form_that_is_not_an_editors_shows_nothing_back_on_an_expired_token() -> None:
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    browser.force_login(make_editor("stale-password"))
    browser.get(reverse("password_change"))
    response = browser.post(reverse("password_change"), {"old_password": "secret words", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403 and "secret words" not in response.content.decode()
