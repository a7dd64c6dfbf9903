"""An editor's whole journey in a real browser, and readers kept away from every edit form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor, make_reader
from wiki.models import Claim, Classification, OpenQuestion, Page, Source
from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLE = "WebPilot: Reinforcement Learning for Browser Agents"
BIBTEX = f"""@article{{webpilot2025,
  title = {{{TITLE}}},
  author = {{Lin, Mei and Park, Joon}},
  year = {{2025}},
  eprint = {{2507.01234v2}},
  archivePrefix = {{arXiv}},
  abstract = {{We train a browser agent with PPO: the agent interacts with live websites over multi-step trajectories,
  the reward is verifiable task success, and the policy parameters are updated from the outcome.}}
}}"""


def test_editor_imports_classifies_cites_and_resolves(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    make_editor("journey")
    log_in(page, base, "journey")

    # Import a source from BibTeX.
    page.goto(f"{base}{reverse('wiki:source-create')}")
    page.fill("textarea[name=entry]", BIBTEX)
    page.click("button[name=import]")
    # First what the import will do, nothing written; then the import, once confirmed.
    page.wait_for_selector("text=Import preview")
    assert page.locator("td.result-created").count() == 1 and not Source.objects.filter(arxiv_id="2507.01234").exists()
    page.click("button[name=confirm]")
    page.wait_for_selector("text=Import results")
    assert page.locator("td.result-created").count() == 1
    source = Source.objects.get(arxiv_id="2507.01234")
    assert source.title == TITLE

    # Accept the classifier's suggestion: one click fills the rubric, then save.
    page.click("text=Classify")
    page.wait_for_selector("[data-accept-suggestion]")
    page.click("[data-accept-suggestion]")
    mechanism = page.input_value("select[name=mechanism]")
    verdict = page.input_value("select[name=verdict]")
    assert mechanism and verdict
    assert page.locator("[data-rubric-verdict]").get_attribute("data-verdict") == verdict
    page.click("button[name=save]")
    page.wait_for_url(re.compile(re.escape(source.get_absolute_url()) + "$"))
    classification = Classification.objects.get(source=source)
    assert (classification.mechanism, classification.verdict, classification.set_by) == (mechanism, verdict, "classifier")

    # Edit a page to cite it, and see the citation on the page.
    page.goto(f"{base}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")
    body = page.input_value("textarea[name=body]")
    sentence = "WebPilot 用 PPO 在真实网站上更新浏览器 agent 的策略"
    page.fill("textarea[name=body]", body.rstrip("\n") + f"\n\n{sentence}。（来源：{TITLE}，§3.1）\n")
    # The preview follows the typing (server-rendered, fetched by static/js/editor.js).
    page.wait_for_selector(f"#preview-body a.cite[href='{source.get_absolute_url()}']")
    page.fill("input[name=comment]", "cite WebPilot")
    page.click("button[name=save]")
    page.wait_for_url(re.compile(r"/wiki/agentic-rl/$"))
    citation = page.locator(f"a.cite[href='{source.get_absolute_url()}']")
    assert citation.count() == 1
    assert page.locator("span.locator", has_text="§3.1").count() >= 1
    claim = Page.objects.get(slug="agentic-rl").claims.current().get(text__startswith="WebPilot")

    # Resolve an open question with that claim.
    question = OpenQuestion.objects.unresolved().order_by("pk").first()
    assert question is not None
    page.goto(f"{base}{reverse('wiki:question-edit', kwargs={'pk': question.pk})}")
    page.select_option("select[name=status]", "answered")
    page.select_option("select[name=answer_claim]", str(claim.pk))
    page.click("form.edit-form .form-actions button[type=submit]")
    page.wait_for_url(re.compile(re.escape(question.get_absolute_url()) + "$"))
    question.refresh_from_db()
    assert (question.status, question.answer_claim_id) == ("answered", claim.pk)


def _edit_paths() -> list[str]:
    source = Source.objects.order_by("pk").first()
    classification = Classification.objects.order_by("pk").first()
    question = OpenQuestion.objects.order_by("pk").first()
    claim = Page.objects.get(slug="agentic-rl").claims.order_by("pk").first()
    assert source and classification and question and claim
    return [
        reverse("wiki:page-create"),
        reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
        reverse("wiki:source-create"),
        reverse("wiki:source-edit", kwargs={"slug": source.slug}),
        reverse("wiki:classification-create", kwargs={"slug": source.slug}),
        reverse("wiki:classification-edit", kwargs={"pk": classification.pk}),
        reverse("wiki:claim-edit", kwargs={"pk": claim.pk}),
        reverse("wiki:contrast-create"),
        reverse("wiki:question-create"),
        reverse("wiki:question-edit", kwargs={"pk": question.pk}),
    ]


def test_anonymous_reader_is_sent_to_log_in_from_every_edit_form(page: Any, live_server: Any, seed: None) -> None:
    for path in _edit_paths():
        page.goto(f"{live_server.url}{path}")
        assert reverse("login") in page.url, path
        assert page.locator("input[name=password]").count() == 1
        assert page.locator("textarea[name=body]").count() == 0


def test_logged_in_reader_gets_403_from_every_edit_form(page: Any, live_server: Any, seed: None) -> None:
    make_reader("plainreader")
    log_in(page, live_server.url, "plainreader")
    for path in _edit_paths():
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 403, path
    assert page.locator("form.edit-form").count() == 0


def test_two_editors_saving_the_same_page_together_lose_nothing(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    make_editor("first")
    make_editor("second")
    target = Page.objects.get(slug="agentic-rl")
    lines = target.body.split("\n")
    first_body = "\n".join([lines[0] + " FIRST-EDIT", *lines[1:]])
    second_body = "\n".join([*lines[:-1], lines[-1] + " SECOND-EDIT"])
    # The second editor is on a phone without JavaScript: the merge and the conflict screen must work there too.
    other = page.context.browser.new_context(viewport={"width": 390, "height": 800}, java_script_enabled=False)
    phone = other.new_page()
    log_in(page, base, "first")
    log_in(phone, base, "second")
    edit_url = f"{base}{reverse('wiki:page-edit', kwargs={'slug': target.slug})}"
    for tab, body, comment in ((page, first_body, "first change"), (phone, second_body, "second change")):
        tab.goto(edit_url)
        tab.fill("textarea[name=body]", body)
        tab.fill("input[name=comment]", comment)
    phone.fill("textarea[name=summary]", "A summary typed by the second editor")
    page.click("button[name=save]")
    phone.click("button[name=save]")
    page.wait_for_load_state()
    phone.wait_for_load_state()

    # Edits to different places merge cleanly: the second is saved at once, merged with the first, and says so.
    assert "Edit conflict" not in phone.title()
    assert "your edit was merged with it" in (phone.locator(".messages").text_content() or "")
    target.refresh_from_db()
    assert "FIRST-EDIT" in target.body and "SECOND-EDIT" in target.body
    assert target.summary == "A summary typed by the second editor"
    assert [r.comment for r in target.revisions.order_by("number")][1:] == ["first change", "second change"]

    # Edits to the same line clash: nothing is saved, and the conflict screen holds both to resolve.
    for tab, word in ((page, "FIRST-AGAIN"), (phone, "SECOND-AGAIN")):
        tab.goto(edit_url)
        tab.fill("textarea[name=body]", target.body.replace("FIRST-EDIT", word))
        tab.fill("input[name=comment]", word.lower())
    page.click("button[name=save]")
    page.wait_for_load_state()
    phone.click("button[name=save]")
    phone.wait_for_load_state()
    assert "Edit conflict" in phone.title()
    assert phone.input_value("input[name=comment]") == "second-again"
    merged = phone.input_value("textarea[name=body]")
    assert "FIRST-AGAIN" in merged and "SECOND-AGAIN" in merged and "<<<<<<<" in merged
    assert "SECOND-AGAIN" in (phone.locator("details").nth(1).text_content() or "")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    target.refresh_from_db()
    phone.fill("textarea[name=body]", target.body.replace("FIRST-AGAIN", "FIRST-AGAIN SECOND-AGAIN"))
    phone.click("button[name=save]")
    phone.wait_for_load_state()
    target.refresh_from_db()
    assert "FIRST-AGAIN SECOND-AGAIN" in target.body and "SECOND-EDIT" in target.body
    assert [r.comment for r in target.revisions.order_by("number")][3:] == ["first-again", "second-again"]
    other.close()


def test_an_editor_edits_one_section_from_the_link_beside_its_heading(page: Any, live_server: Any, seed: None) -> None:
    base = live_server.url
    make_editor("sectioner")
    target = Page.objects.get(slug="agentic-rl")
    page.goto(f"{base}{target.get_absolute_url()}")
    assert page.locator(".section-edit").count() == 0  # anonymous readers get none
    log_in(page, base, "sectioner")
    page.goto(f"{base}{target.get_absolute_url()}")
    assert page.locator(".section-edit").count() == len(target.toc)

    page.get_by_role("link", name="Edit section “定义”").click()
    page.wait_for_load_state()
    text = page.input_value("textarea[name=body]")
    assert text.startswith("### 定义\n") and "### 关键要点" not in text
    assert page.input_value("input[name=comment]") == "/* 定义 */ "
    page.fill("textarea[name=body]", text.rstrip("\n") + "\n\n补充一句定义。\n")
    # The live preview shows the section; what it does to the claims is read from the whole page: none is orphaned.
    page.wait_for_selector("#preview-body >> text=补充一句定义。")
    assert page.locator("#preview-body [data-outcome=orphaned]").count() == 0
    assert "关键要点" not in (page.locator("#preview-body .prose").text_content() or "")
    page.click("button[name=save]")
    page.wait_for_load_state()

    assert page.url.endswith(f"{target.get_absolute_url()}#定义") or page.url.endswith("#%E5%AE%9A%E4%B9%89")
    target.refresh_from_db()
    assert "补充一句定义。\n\n### 关键要点" in target.body
    assert target.revisions.order_by("-number").first().comment == "/* 定义 */"  # type: ignore[union-attr]


def test_history_diff_and_changes_fit_a_phone_screen(page: Any, live_server: Any, seed: None) -> None:
    make_editor("phone")
    log_in(page, live_server.url, "phone")
    page.set_viewport_size({"width": 390, "height": 800})
    target = Page.objects.get(slug="agentic-rl")
    page.goto(f"{live_server.url}{reverse('wiki:page-edit', kwargs={'slug': target.slug})}")
    page.fill("textarea[name=body]", target.body + "\n\n新的一段。")
    page.fill("input[name=comment]", "a longer edit summary that takes room in the history table")
    page.click("button[name=save]")
    page.wait_for_load_state()
    for path in (
        reverse("wiki:page-history", kwargs={"slug": target.slug}),
        reverse("wiki:page-diff", kwargs={"slug": target.slug}) + "?from=1&to=2",
        reverse("wiki:changes"),
    ):
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path


# The right edge of the rightmost cell of the page's tables.
RIGHTMOST_CELL = "() => Math.max(0, ...[...document.querySelectorAll('main td')].map(td => td.getBoundingClientRect().right))"
# The cells of the page's tables squeezed to one character a line: as many lines of text as characters (column
# heads shown as labels in each row instead, in a head shrunk to a pixel, are left out).
CELLS_ONE_CHARACTER_A_LINE = """() => [...document.querySelectorAll('main td, main thead th')].filter(td => {
  if (td.closest('thead') && td.closest('thead').getBoundingClientRect().width <= 1) return false;
  const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
  const tops = [];
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const rect of range.getClientRects()) if (rect.width > 0) tops.push(rect.top);
  }
  tops.sort((a, b) => a - b);
  const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 4).length;
  const characters = td.textContent.replace(/\\s/g, '').length;
  return characters > 1 && lines >= characters;
}).map(td => td.textContent.trim())"""


def _fits_a_phone(page: Any, where: object) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, where
    assert page.evaluate(RIGHTMOST_CELL) <= 390, where
    assert page.evaluate(CELLS_ONE_CHARACTER_A_LINE) == [], where


def test_every_column_of_the_editors_tables_and_preferences_is_on_a_phone_screen(page: Any, live_server: Any, seed: None) -> None:
    editor = make_editor("pocket")
    target = Page.objects.get(slug="agentic-rl")
    page_save_revision(slug=target.slug, title=target.title, body=target.body.replace("Agentic RL", "Agentic-RL", 1),
                       summary=target.summary, comment="a longer edit summary that takes room in the history table",
                       user=editor)
    claim = Claim.objects.filter(page=target, revisions__kind="reworded").get()
    log_in(page, live_server.url, "pocket")
    page.set_viewport_size({"width": 390, "height": 800})
    # The second import finds the work already in the wiki: a longer result, with the reason; the other entry is refused.
    for language in ("en", "zh-CN"):
        page.context.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{live_server.url}{reverse('wiki:source-create')}")
        page.fill("textarea[name=entry]", BIBTEX + "\n@article{untitled-entry,\n  author = {Nobody}\n}\n")
        page.click("button[name=import]")
        page.wait_for_selector("table.import-results")
        _fits_a_phone(page, (language, "import preview"))
        page.click("button[name=confirm]")
        page.wait_for_selector("p.import-record")
        _fits_a_phone(page, (language, "import results"))
        for path in (
            reverse("wiki:page-history", kwargs={"slug": target.slug}),
            reverse("wiki:changes"),
            reverse("wiki:claim-detail", kwargs={"pk": claim.pk}),
            reverse("wiki:preferences"),
        ):
            page.goto(f"{live_server.url}{path}")
            _fits_a_phone(page, (language, path))
