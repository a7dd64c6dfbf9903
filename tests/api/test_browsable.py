"""The API's pages in a browser: DRF's browsable renderer within the site's Content Security Policy."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_a_list_reads_in_a_browser_with_a_breadcrumb_of_real_steps_and_no_inline_style(api: APIClient) -> None:
    response = api.get("/api/v1/pages/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    crumbs = re.search(r'<ul class="breadcrumb">(.*?)</ul>', html, re.DOTALL)
    assert crumbs is not None
    steps = re.findall(r'href="([^"]+)"', crumbs.group(1))
    assert steps == ["/api/v1/", "/api/v1/pages/"] and "Not Found" not in crumbs.group(1)
    assert "<style" not in html
    assert "style-src 'self'" in response["Content-Security-Policy"]
    # Any other address under the API is still the API's 404.
    missing = api.get("/api/v1/no-such-list/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_redoc_asks_no_other_site_for_fonts(api: APIClient) -> None:
    response = api.get("/api/redoc/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 200
    html = response.content.decode()
    assert "googleapis" not in html and "gstatic" not in html
    # Redoc starts from the wiki's own script (no inline one), which reads the reader's colour scheme.
    assert '<div id="redoc-container" data-spec-url="/api/schema/?lang=zh-hans"></div>' in html
    assert '<script src="/static/js/redoc-scheme.js"></script>' in html and "<script>" not in html and "<style" not in html
    api.cookies[settings.COLOUR_SCHEME_COOKIE_NAME] = "dark"
    fixed = api.get("/api/redoc/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert '<div id="redoc-container" data-spec-url="/api/schema/?lang=zh-hans" data-colour-scheme="dark"></div>' in fixed


def test_a_browser_asking_for_favicon_ico_gets_the_wikis_icon(api: APIClient) -> None:
    response = api.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
