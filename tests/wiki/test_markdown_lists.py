"""Lists as Chinese writing types them: straight under the paragraph that introduces them, and with full-width
markers, read as the lists a reader sees in them."""

from __future__ import annotations

import pytest

from wiki import markdown as wiki_markdown
from wiki.markdown.limits import MAX_LIST_ITEMS, limit_problem


def _html(text: str) -> str:
    return wiki_markdown.render(text, sources={}, existing_pages=frozenset()).html


def test_a_list_straight_under_its_paragraph_is_a_list() -> None:
    html = _html("步骤如下：\n- 安装依赖\n- 运行测试\n\n顺序：\n1. 读取文件\n2. 修改代码")
    assert "<p>步骤如下：</p>\n<ul>\n<li>安装依赖</li>\n<li>运行测试</li>\n</ul>" in html
    assert "<p>顺序：</p>\n<ol>\n<li>读取文件</li>\n<li>修改代码</li>\n</ol>" in html
    assert "- " not in html


def test_a_list_straight_under_a_quoted_paragraph_is_a_list_in_the_quote() -> None:
    html = _html("> 要点：\n> - 甲\n> - 乙")
    assert "<blockquote>\n<p>要点：</p>\n<ul>\n<li>甲</li>\n<li>乙</li>\n</ul>\n</blockquote>" in html


@pytest.mark.parametrize("text", [
    "发表于\n2024. 年底的工作",  # a number other than 1 wrapped onto its own line
    "段落\n---",  # a heading underlined
    "- 甲\n续行\n- 乙",  # a list's own lines
    "```\n说明：\n- 代码里的连字符\n```",
    "<div>\n说明：\n- HTML 里的连字符\n</div>",
    "说明 <!-- 注释\n- 仍在注释里 --> 之后",  # a comment the paragraph opened
    "说明 `代码\n- 仍在代码里` 之后",  # a code span the paragraph opened
])
def test_what_is_not_a_list_under_a_paragraph_stays_as_it_was(text: str) -> None:
    html = _html(text)
    assert "<ol" not in html and html.count("<li>") == (2 if text.startswith("- ") else 0)


def test_the_key_points_under_an_introducing_line_are_claims_each() -> None:
    result = wiki_markdown.render("## 关键要点\n两个例子：\n- 甲是正例。（来源：A）\n- 乙是反例。（来源：B）",
                                  sources={}, existing_pages=frozenset())
    assert [claim.text for claim in result.claims] == ["甲是正例。（来源：A）", "乙是反例。（来源：B）"]


@pytest.mark.parametrize(("typed", "start"), [
    ("１. 第一\n２. 第二", None), ("３. 第三\n４. 第四", "3"), ("３．　第三\n４．　第四", "3"), ("1． 第一\n2． 第二", None),
])
def test_full_width_numbers_number_the_list_as_typed(typed: str, start: str | None) -> None:
    html = _html(typed)
    assert html.startswith(f'<ol start="{start}">' if start else "<ol>\n")
    assert "第一" in html or "第三" in html
    assert "．" not in html and "１" not in html and "３" not in html


@pytest.mark.parametrize("marker", ["－", "＊", "＋", "•"])
def test_full_width_and_pasted_bullets_make_a_list(marker: str) -> None:
    html = _html(f"{marker} 甲\n{marker}\u3000乙\n\n说明：\n{marker} 丙")
    assert html.startswith("<ul>\n<li>甲</li>\n<li>乙</li>\n</ul>")
    assert "<p>说明：</p>\n<ul>\n<li>丙</li>\n</ul>" in html
    assert marker not in html


def test_a_full_width_dash_inside_a_line_stays_text() -> None:
    assert _html("甲－乙\n\n－－ 破折号") == "<p>甲－乙</p>\n<p>－－ 破折号</p>"


def test_full_width_list_items_count_towards_the_pages_list_items() -> None:
    problem = limit_problem("• 甲\n" * (MAX_LIST_ITEMS + 1))
    assert problem is not None and "5000" in problem.replace(",", "")


def test_an_item_reaching_the_text_of_the_item_above_nests_under_it() -> None:
    html = _html("- 甲\n  - 乙\n    - 丙\n  - 丁\n- 戊\n\n1. 读取\n   - 文件\n2. 修改")
    assert html.startswith("<ul>\n<li>甲<ul>\n<li>乙<ul>\n<li>丙</li>\n</ul>\n</li>\n<li>丁</li>\n</ul>\n</li>\n<li>戊</li>\n</ul>")
    assert "<ol>\n<li>读取<ul>\n<li>文件</li>\n</ul>\n</li>\n<li>修改</li>\n</ol>" in html
    assert "- " not in html


def test_four_spaces_still_nest_and_a_paragraph_reaching_an_items_text_stays_in_it() -> None:
    html = _html("- 甲\n    - 乙\n        - 丙\n\n- 丁\n\n  丁的第二段\n\n之后")
    assert "<p>甲</p>\n<ul>\n<li>乙<ul>\n<li>丙</li>" in html
    assert "<p>丁</p>\n<p>丁的第二段</p>\n</li>\n</ul>\n<p>之后</p>" in html
