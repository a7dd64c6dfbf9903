"""Chinese sets no space after a full-width mark nor before a full-width bracket; English keeps its spaces."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_wiki
from tests.wiki.htmltext import html_text
from wiki.text.spaces import prose

# A space after a full-width mark (not one that sets a separator such as · or — apart), or between a character and a
# full-width opening bracket.
_STRAY_SPACE = re.compile(r"[。，；：！？）] (?![·—–→/|])|\S （")
# Where a line of text ends in the layout: a space the tag-stripped text has there is no space on screen.
_BLOCK_EDGE = re.compile(r"<(?:script|style)\b.*?</(?:script|style)>|</?(?:p|div|li|ul|ol|dl|dt|dd|h[1-6]|table|tr|td|th|caption|"
                         r"section|nav|header|footer|main|aside|article|figure|figcaption|details|summary|form|fieldset|"
                         r"legend|label|button|select|option|textarea|blockquote|pre|br|hr|svg|title|desc|g)\b[^>]*>", re.S)


def _stray_spaces(markup: str) -> list[str]:
    """The text around each stray space within one line of ``markup``'s text."""
    found = []
    for part in _BLOCK_EDGE.split(markup):
        text = html_text(part)
        found += [text[max(m.start() - 12, 0):m.end() + 12] for m in _STRAY_SPACE.finditer(text)]
    return found


def test_prose_joins_lines_and_drops_the_space_a_full_width_mark_leaves() -> None:
    assert prose("地图。 工作围绕机制分组。\n    绘制了 3 个节点；\n  <span class=\"more\">另有</span>") == (
        '地图。工作围绕机制分组。绘制了 3 个节点；<span class="more">另有</span>'
    )
    # A mark closed inside a tag: the space after the tag goes too.
    assert prose("<span>地图。</span>\n  绘制了") == "<span>地图。</span>绘制了"


def test_prose_keeps_the_spaces_english_sentences_need() -> None:
    assert prose("Map of works.\n    Works are grouped; <span>4 nodes</span>  drawn.") == (
        "Map of works. Works are grouped; <span>4 nodes</span> drawn."
    )


@pytest.mark.django_db
def test_chinese_screens_set_no_space_around_full_width_marks(client: Client) -> None:
    wiki = make_wiki()
    screens = {
        "source": reverse("wiki:source-detail", args=[wiki.strict.slug]),
        "unknown facts": reverse("wiki:source-detail", args=[wiki.harness.slug]),
        "map": reverse("wiki:graph-map"),
        "local graph": reverse("wiki:graph-local", args=["page", wiki.page.slug]),
        "sources": reverse("wiki:source-list"),
        "search": reverse("wiki:search") + "?q=SkillLoop",
        "home": reverse("wiki:home"),
    }
    for name, url in screens.items():
        assert _stray_spaces(client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()) == [], (name, _stray_spaces(client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()))
    source = html_text(client.get(screens["source"], HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    assert "判定标准事实（严格 Agentic RL 需要四条全部成立）" in source
    assert re.search(r"显示。语言、时区和配色", source)
    home = html_text(client.get(screens["home"], HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    assert re.search(r"[^ ]（\+\d+ 个字符）", home)
    caption = html_text(client.get(screens["map"], HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    assert re.search(r"相连。绘制了 \d+ 个节点。标签已缩短", caption)


@pytest.mark.django_db
def test_english_screens_keep_a_space_between_sentences_and_before_brackets(client: Client) -> None:
    wiki = make_wiki()
    source = html_text(client.get(reverse("wiki:source-detail", args=[wiki.strict.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Rubric facts (strict Agentic RL needs all four)" in source
    assert re.search(r"\(UTC\+8\)\. Language, time zone and colours", source)
    caption = html_text(client.get(reverse("wiki:graph-map"), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert re.search(r"between them\. \d+ nodes drawn\. Labels are shortened", caption)
    home = html_text(client.get(reverse("wiki:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert re.search(r"\w \(\+\d+ characters\)", home)
    results = html_text(client.get(reverse("wiki:search") + "?q=SkillLoop", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert re.search(r"Sources \(\d+\)", results)


# A half-width colon or bracket right after a Chinese character, where Chinese writes ： and （.
_HALF_WIDTH_MARK = re.compile(r"[\u4e00-\u9fff][:(] ?")


@pytest.mark.django_db
def test_chinese_screens_write_labels_and_counts_with_full_width_marks(client: Client, editor_client: Client) -> None:
    wiki = make_wiki()
    screens = {
        "changes": reverse("wiki:changes"),
        "contrast": reverse("wiki:contrast", args=[wiki.strict.slug, wiki.harness.slug]),
        "consistency": reverse("wiki:consistency-report"),
    }
    for name, url in screens.items():
        text = html_text(editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
        # (the syntax of a component, 工作:组件, is typed so)
        assert _HALF_WIDTH_MARK.findall(text.replace("工作:组件", "")) == [], name


@pytest.mark.django_db
def test_a_pages_tools_and_a_claims_page_set_chinese_marks_in_chinese(client: Client) -> None:
    wiki = make_wiki()
    screens = {
        "page information": reverse("wiki:page-info", args=[wiki.page.slug]),
        "cite": reverse("wiki:page-cite", args=[wiki.page.slug]),
        "claim": reverse("wiki:claim-detail", args=[wiki.claims[0].pk]),
    }
    pages = {name: client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode() for name, url in screens.items()}

    for name, markup in pages.items():
        assert _stray_spaces(markup) == [], name
    # "0（指向尚未撰写的页面…）", not "0 （…": no page is wanted.
    assert re.search(r"\d<span class=\"muted\">（指向尚未撰写的页面", pages["page information"])
    claim = html_text(pages["claim"])
    assert "SkillLoop，§3.1（来源）" in claim
    english = html_text(client.get(screens["claim"], HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "SkillLoop, §3.1 (cited)" in english


# A space between two Chinese characters, which Chinese never sets (the syntax 工作:组件 is set apart as typed).
_SPACE_BETWEEN_HAN = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")


@pytest.mark.django_db
def test_unknown_works_are_named_in_chinese_punctuation_with_no_space_between_chinese_characters(client: Client) -> None:
    make_wiki()
    html = client.get(reverse("wiki:contrast", args=["no-such-work", "another"]), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    main = html[html.index("<main"):html.index("</main>")]
    text = html_text(main)

    assert "请在工作列表中核对 slug" in text and "名为“no-such-work”、“another”的工作" in text
    within_lines = [html_text(part).replace(" 工作:组件", "") for part in _BLOCK_EDGE.split(main)]
    assert [found for line in within_lines for found in _SPACE_BETWEEN_HAN.findall(line)] == []
