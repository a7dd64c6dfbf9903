"""A result's snippet shows the text a reader sees on the page: no Markdown, footnote markers or wiki-link brackets,
the matched words highlighted, everything else escaped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_page
from wiki.search.plain import plain_text
from wiki.search.query import search

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("markdown", "seen"), [
    ("脚注示例[^1]，**加粗**与 *斜体*。\n\n[^1]: 脚注内容。", "脚注示例，加粗与 斜体。\n脚注内容。"),
    ("See [[credit-assignment|credit]], [[GRPO]] and [the paper](https://arxiv.org/abs/2307.13854).", "See credit, GRPO and the paper."),
    ("## Results ##\n\n> - 1. __Bold__ ~~struck~~ `code` ![a chart](chart.png)", "Results\nBold struck code a chart"),
    ("| model | score |\n|---|:--:|\n| GRPO | 0.8 |", "model score\nGRPO 0.8"),
    ("Reward $r_t$ and\n\n$$\\sum_t r_t$$\n\n```python\nx = 1\n```", "Reward r_t and\n\\sum_t r_t\nx = 1"),
    ("a <sup>2</sup> &amp; <T> 泛型, snake_case, 2 * 3, \\*literal\\* \\[x\\] <!-- hidden -->", "a 2 & <T> 泛型, snake_case, 2 * 3, *literal* [x]"),
    ("See <https://example.org>.\n\n[ref]: https://example.org\n\n---\n\n[TOC]", "See https://example.org."),
    ("奖励信号（来源：WebArena: A Realistic Web Environment，p.3）。", "奖励信号（来源：WebArena: A Realistic Web Environment，p.3）。"),
])
def test_markdown_reads_as_the_page_shows_it(markdown: str, seen: str) -> None:
    assert plain_text(markdown) == seen


def test_a_snippet_shows_plain_text_with_the_match_highlighted_and_escaped(client: Client) -> None:
    make_page(slug="footnotes", title="Footnotes", body=(
        "脚注示例[^1]：**山竹**见 [[credit-assignment|信用分配]] <script>alert(1)</script>。\n\n[^1]: 山竹的脚注。"
    ))

    [hit] = [hit for group in search("山竹", kinds=["page"]).groups for hit in group.hits]

    assert hit.snippet_html == "脚注示例：<mark>山竹</mark>见 信用分配 &lt;script&gt;alert(1)&lt;/script&gt;。"
    html = client.get(reverse("wiki:search"), {"q": "山竹", "kind": "page"}).content.decode()
    assert "脚注示例：<mark>山竹</mark>见 信用分配 &lt;script&gt;" in html
    assert "[^1]" not in html and "**" not in html and "[[" not in html


def test_a_short_word_is_highlighted_where_it_was_found_not_inside_longer_words() -> None:
    make_page(slug="trace-notes", title="Trace notes", body=(
        "Terminal task synthesis keeps the generator honest.\n\n"
        "FlashREINFORCE uses one rollout or two per prompt."
    ))

    [hit] = [hit for group in search("or", kinds=["page"]).groups for hit in group.hits]

    assert hit.snippet_html == "FlashREINFORCE uses one rollout <mark>or</mark> two per prompt."


def test_a_longer_word_is_highlighted_at_the_start_of_the_words_it_found() -> None:
    make_page(slug="skill-notes", title="Skill notes", body="SkillForge reskills agents; a skill bank grows.")

    [hit] = [hit for group in search("skill", kinds=["page"]).groups for hit in group.hits]

    assert hit.snippet_html == "<mark>Skill</mark>Forge reskills agents; a <mark>skill</mark> bank grows."
