"""A form sent back with errors puts keyboard focus on the summary of its errors, whose links lead to the fields."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import PASSWORD, make_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rejected_edit_focuses_the_summary_and_its_link_focuses_the_field(page: Any, live_server: Any, seed: None) -> None:
    from playwright.sync_api import expect

    make_editor("writer")
    log_in(page, live_server.url, "writer")
    page.goto(f"{live_server.url}{reverse('wiki:page-edit', kwargs={'slug': 'agentic-rl'})}")
    page.fill("#id_title", "")
    with page.expect_navigation():
        page.locator("button[name=save]").click()

    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    assert page.title().startswith(("Error: ", "错误："))
    summary.locator("a[href='#id_title']").click()
    expect(page.locator("#id_title")).to_be_focused()


def test_a_wrong_password_focuses_the_summary_not_the_username(page: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    make_editor("alice")
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD + "x")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    expect(page.locator("[data-error-summary]")).to_be_focused()
    expect(page.locator("#id_username")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_password")).to_have_attribute("aria-invalid", "true")
