"""The API's pages in a browser: DRF's browsable renderer within the site's Content Security Policy."""

from __future__ import annotations

import re
from typing import Any

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


def _crumbs(html: str) -> list[str]:
    crumbs = re.search(r'<ul class="breadcrumb">(.*?)</ul>', html, re.DOTALL)
    assert crumbs is not None
    return [name.strip() for name in re.findall(r"<a [^>]*>([^<]*)</a>", crumbs.group(1))]


READ_IN: dict[str, dict[str, Any]] = {
    "zh-hans": {
        "name": "列出来源及其分类", "crumbs": ["API 入口", "列出来源及其分类"],
        "export": "将来源导出为 BibTeX、CSL-JSON 或 RIS", "description": "<p>被引用的工作，按 slug，每项附有它的组件和分类。",
        "pager": ['aria-label="下一页">下一页 &raquo;</a>', "&laquo; 上一页</a>"],
        "numbers": 'aria-label="下一页"', "filters": ['aria-label="关闭"', '<h4 class="modal-title">筛选</h4>'],
        "names": ["API 入口", "搜索本 wiki", "以所输入内容开头的名称"],
    },
    "en": {
        "name": "List sources with their classifications", "crumbs": ["API root", "List sources with their classifications"],
        "export": "Export sources as BibTeX, CSL-JSON or RIS",
        "description": "<p>Cited works by slug, each with its components and classifications.",
        "pager": ['aria-label="Next page">Next &raquo;</a>', "&laquo; Previous</a>"],
        "numbers": 'aria-label="Next page"', "filters": ['aria-label="Close"', '<h4 class="modal-title">Filters</h4>'],
        "names": ["API root", "Search the wiki", "Names starting with what was typed"],
    },
}


@pytest.mark.parametrize("language", READ_IN)
@pytest.mark.parametrize("by_cookie", [True, False])
def test_a_browsable_page_reads_in_the_readers_language(api: APIClient, language: str, by_cookie: bool) -> None:
    """Its name (the operation's summary, in the title, the heading, the breadcrumbs and the extra actions), its
    description (the schema's), the buttons' tooltips, the pager and the filters' dialog."""
    from tests.factories import make_source

    make_source(short_name="Alpha")
    make_source(short_name="Beta")
    headers: dict[str, Any] = {"HTTP_ACCEPT": "text/html"}
    if by_cookie:
        api.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    else:
        headers["HTTP_ACCEPT_LANGUAGE"] = "zh-CN" if language == "zh-hans" else "en"
    expected = READ_IN[language]

    html = api.get("/api/v1/sources/", {"page_size": 1}, **headers).content.decode()
    by_number = api.get("/api/v1/sources/", {"page_size": 1, "page": 1}, **headers).content.decode()
    names = api.get("/api/v1/search/names/", {"q": "Al"}, **headers).content.decode()

    assert f"<title>{expected['name']} · Agentic RL Wiki API</title>" in html
    assert f"<h1>{expected['name']}</h1>" in html and _crumbs(html) == expected["crumbs"]
    assert f'/api/v1/sources/export/">{expected["export"]}</a>' in html
    description = re.search(r'<div class="pull-left">(.*?)</div>', html, re.DOTALL)
    assert description is not None and description.group(1).strip().startswith(expected["description"])
    assert all(part in html for part in expected["pager"]) and expected["numbers"] in by_number
    assert all(part in html for part in expected["filters"])
    assert _crumbs(names) == expected["names"]
    if language != "en":
        assert 'title="向“列出来源及其分类”发送 GET 请求"' in html and 'title="选择 GET 请求的格式"' in html
        for english in ("Source List", "Wiki Api Root", "Search Names", "Cited works", "Previous", "Next", "Close",
                        "Filters", "Field filters", "Submit", "Django REST framework", "Make a GET request", "resource",
                        "Specify a format", "Extra Actions"):
            assert english not in html + by_number + names


def test_a_browsable_pages_forms_and_dialog_read_in_chinese(editor_api: APIClient, contrast_wiki: Any) -> None:
    """The raw body's form, its tabs, the write buttons' tooltips and the deletion's dialog: REST framework writes
    them in English, unmarked for translation."""
    from wiki.models import Contrast

    contrast = Contrast.objects.first()
    assert contrast is not None
    html = editor_api.get(f"/api/v1/contrasts/{contrast.pk}/", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert "<h1>一个对比</h1>" in html and "<p>在某个维度上相互对比的两项工作（或组件），以及说明这一对比的论断。</p>" in html
    for chinese in ('title="向“一个对比”发送 DELETE 请求"', 'title="向“一个对比”发送 PUT 请求"', 'title="向“一个对比”发送 PATCH 请求"',
                    'title="向“一个对比”发送 OPTIONS 请求"', "确定要删除吗？", ">取消</button>", ">删除</button>", "媒体类型", "内容"):
        assert chinese in html
    for english in ("Make a", "resource", "Are you sure", "Cancel", ">Delete<", "Media type", "Content:", "Two works"):
        assert english not in html


def test_options_names_and_describes_an_address_as_before_in_every_language(api: APIClient) -> None:
    """The names the browsable pages show are theirs alone: OPTIONS answers the same JSON in Chinese and English."""
    answers = [api.options("/api/v1/sources/", HTTP_ACCEPT_LANGUAGE=language).json() for language in ("zh-CN", "en")]
    assert answers[0] == answers[1]
    assert answers[0]["name"] == "Source List" and answers[0]["description"].startswith("Cited works by slug")


def test_every_operation_is_named_and_described_in_chinese(api: APIClient) -> None:
    """A browsable page is named by its operation's summary: one left untranslated would name it in English."""
    paths = api.get("/api/schema/", {"format": "json", "lang": "zh-hans"}).json()["paths"]
    operations = {(method, path): operation for path, of_path in paths.items()
                  for method, operation in of_path.items() if isinstance(operation, dict) and "responses" in operation}
    assert operations and not {key: operation["summary"] for key, operation in operations.items()
                               if not re.search("[\u4e00-\u9fff]", operation.get("summary", ""))}
    # every operation is described, and the description is the Chinese one
    assert not {key: operation.get("description") for key, operation in operations.items()
                if not re.search("[\u4e00-\u9fff]", operation.get("description", ""))}
    english = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    assert english["/api/v1/contrasts/"]["get"]["description"].startswith("Two works (or components)")
