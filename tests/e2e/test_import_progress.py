"""While a reference file imports, the page says in the reader's language how many entries are on their way."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BIB = "\n".join(f"@misc{{w{n}, title={{Work {n}}}, year=2025}}" for n in range(3))


def _importing(page: Any, live_server: Any, locale: str, text: str) -> Any:
    """The progress line of an import of ``text`` sent by an editor reading in ``locale``; the server's answer is held
    back (204: the browser stays on the page), so the progress can be read."""
    make_editor("importer")
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    log_in(tab, live_server.url, "importer")
    url = reverse("wiki:source-create")
    tab.goto(f"{live_server.url}{url}")
    tab.route(re.compile(re.escape(url) + "$"), lambda route: route.fulfill(status=204)
              if route.request.method == "POST" else route.continue_())
    tab.fill("[data-import-text]", text)
    tab.click("button[name=import]")
    label = tab.locator("[data-import-progress-text]")
    label.wait_for(state="visible")
    return label


def test_the_import_progress_is_told_in_chinese(page: Any, live_server: Any, seed: None) -> None:
    label = _importing(page, live_server, "zh-CN", BIB)
    label.page.locator("[data-import-progress-text]", has_text="已读取").wait_for()
    assert re.fullmatch(r"正在导入 3 条…已读取约 \d 条", label.inner_text())


MANY = "\n".join(f"@misc{{m{n}, title={{Work {n}}}, year=2025}}" for n in range(1200))


@pytest.mark.parametrize(("locale", "told"), [("en-GB", "Importing 1,200 entries…"), ("zh-CN", "正在导入 1200 条…")])
def test_the_number_of_entries_is_written_as_the_readers_language_writes_it(
        page: Any, live_server: Any, seed: None, locale: str, told: str) -> None:
    assert _importing(page, live_server, locale, MANY).inner_text() == told
