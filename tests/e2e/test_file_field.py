"""A file field speaks the wiki's language, not the browser's: its button and the name of the file chosen."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_reference_file_field_says_in_chinese_what_to_do_and_which_file_was_chosen(
        page: Any, live_server: Any, seed: None) -> None:
    make_editor("importer")
    # a reader whose browser speaks English and who reads the wiki in Chinese
    context = page.context.browser.new_context(viewport={"width": 390, "height": 900}, locale="en-US")
    context.add_cookies([{"name": "wiki_language", "value": "zh-hans", "url": live_server.url}])
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    log_in(tab, live_server.url, "importer")
    tab.goto(f"{live_server.url}{reverse('wiki:source-create')}")
    field = tab.locator("[data-file-pick]")

    assert field.inner_text().split() == ["选择文件…", "未选择文件"]
    box = tab.locator("input[type=file]").bounding_box()
    assert box is not None and box["width"] <= 1  # the browser's own button is out of sight
    assert tab.get_by_label("或上传文件").count() == 1  # the input keeps its label

    tab.locator("input[type=file]").set_input_files(
        files=[{"name": "works.bib", "mimeType": "text/plain", "buffer": b"@misc{w1, title={Work One}, year=2025}"}])
    assert field.inner_text().split() == ["选择文件…", "works.bib"]

    tab.click("button[name=import]")
    tab.wait_for_load_state()
    assert "Work One" in tab.locator("main").inner_text()  # the unseen input still sends its file


def test_without_scripts_the_browsers_own_file_input_is_shown_alone(page: Any, live_server: Any, seed: None) -> None:
    make_editor("importer")
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    log_in(tab, live_server.url, "importer")
    tab.goto(f"{live_server.url}{reverse('wiki:source-create')}")

    assert tab.locator("input[type=file]").is_visible()
    assert not tab.locator("[data-file-pick] label").is_visible()  # no second button that the script would work
    assert not tab.locator("[data-file-name]").is_visible()
