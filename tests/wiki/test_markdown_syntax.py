"""Markdown an editor commonly types: footnotes, struck-out text, $…$ formulas (and prices that are not), links to a
page's section, HTML shown as typed; and no interface words baked into the stored HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_page
from tests.wiki.htmltext import html_text
from wiki import markdown as wiki_markdown
from wiki.forms.pages import PageForm
from wiki.markdown.section_links import heading_anchor
from wiki.models import Page, WikiLink
from wiki.services.glossary import glossary_term_create


def _html(text: str, *, pages: frozenset[str] = frozenset()) -> str:
    return wiki_markdown.render(text, sources={}, existing_pages=pages).html


# Footnotes, struck-out text, formulas


def test_a_footnote_links_to_its_note_and_back() -> None:
    html = _html("脚注[^1]\n\n[^1]: 注释")
    assert '<sup id="fnref:1"><a class="footnote-ref" href="#fn:1"' in html
    assert '<li id="fn:1">' in html and "注释" in html and 'href="#fnref:1"' in html
    assert 'href="注释"' not in html


def test_double_tildes_strike_out_and_a_single_one_stays_text() -> None:
    assert "<del>删除</del> 1~2 步" in _html("~~删除~~ 1~2 步")


def test_dollar_formulas_render_as_math() -> None:
    html = _html(r"行内公式 $J(\theta)=\mathbb{E}[R]$ 和 $x$。")
    assert html.count("<math") == 2 and "<mi>θ</mi>" in html and "$" not in html


@pytest.mark.parametrize("prices", [
    "It costs $5 and $10.", "From $5-$10 a month.", "US$5/US$6", "$5, $6, and $7", "价格为$5，另一个为$10",
    "Shell: `echo $HOME/$USER`", "```\necho $HOME/$USER\n```",
])
def test_dollar_amounts_and_code_are_not_formulas(prices: str) -> None:
    assert "<math" not in _html(prices)


def test_a_formula_in_an_attribute_or_an_indented_code_block_stays_as_typed() -> None:
    html = _html('Text <a href="https://ok.example" title="\\(x\\)">t</a> and <span title="$y$">s</span>.\n\n'
                 "    code $a$ and \\(b\\)\n\nAfter $c$.")
    assert '<a href="https://ok.example" title="\\(x\\)" rel="noopener noreferrer">t</a>' in html
    assert '<span title="$y$">s</span>' in html
    assert "<pre><code>code $a$ and \\(b\\)\n</code></pre>" in html
    # outside code and tags, formulas still render
    assert html.count("<math") == 1 and "<mi>c</mi>" in html


def test_a_heading_with_a_formula_has_the_same_id_on_every_render() -> None:
    first, second = (wiki_markdown.render("## Loss \\(x^2\\) here\n\nText.", sources={}, existing_pages=frozenset())
                     for _ in range(2))
    assert '<h2 id="loss-x2-here">' in first.html and first.html == second.html
    assert first.toc == [{"level": 2, "id": "loss-x2-here", "title": "Loss x^2 here"}]


def test_an_escaped_dollar_is_a_plain_dollar() -> None:
    html = _html(r"Between \$x and \$y.")
    assert "<math" not in html and "Between $x and $y." in html_text(html)


# Links to a section


def test_a_link_to_a_section_leads_to_its_heading_and_counts_as_a_link_to_the_page() -> None:
    result = wiki_markdown.render("见 [[Agentic RL#定义]] 和 [[#摘要|上文]]。", sources={}, existing_pages=frozenset({"agentic-rl"}))
    assert '<a class="wikilink" href="/wiki/agentic-rl/#定义"' in result.html
    assert '<a class="wikilink" href="#摘要"' in result.html
    assert [(link.target_slug, link.target_title) for link in result.links] == [("agentic-rl", "Agentic RL")]
    assert wiki_markdown.find_link_targets("[[Agentic RL#定义]]") == {"agentic-rl"}


def test_a_link_to_a_section_of_a_glossary_term_leads_to_the_term_labelled_with_its_name() -> None:
    body = "[[组相对策略优化#优势估计]] [[組相對策略優化#优势估计]] [[组相对策略优化#优势估计|优势]] [[Agentic RL#定义]] [[未写#一节]]"
    result = wiki_markdown.render(body, sources={}, existing_pages=frozenset({"agentic-rl"}), terms={"组相对策略优化": "grpo"})
    assert re.findall(r"<a [^>]*>([^<]*)</a>", result.html) == [
        "组相对策略优化", "組相對策略優化", "优势", "Agentic RL#定义", "未写#一节"]
    assert result.html.count('class="wikilink term" href="/glossary/grpo/"') == 3
    assert [link.label for link in result.links if link.target_slug == "组相对策略优化"] == ["组相对策略优化"]


def test_a_point_between_digits_stays_apart_in_a_headings_id_and_in_the_links_to_it() -> None:
    body = "## 2.1 节：公式与“引号”\n\n## 21 节\n\n## v1.5 与 e.g. 用法\n\n见 [[#2.1 节：公式与“引号”]] 与 [[奖励塑形的陷阱#2.1 节：公式与“引号”]]。"
    result = wiki_markdown.render(body, sources={}, existing_pages=frozenset({"奖励塑形的陷阱"}))
    assert [entry["id"] for entry in result.toc] == ["2-1-节公式与引号", "21-节", "v1-5-与-eg-用法"]
    assert '<a class="wikilink" href="#2-1-节公式与引号"' in result.html
    assert 'href="/wiki/%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2%E7%9A%84%E9%99%B7%E9%98%B1/#2-1-节公式与引号"' in result.html


def test_a_heading_of_punctuation_alone_keeps_it_as_its_id_for_links_and_edit_summaries_to_find() -> None:
    body = "## ？！\n\n## ……\n\n## ？！\n\n## 🎉\n\n## \"<&>\"\n\n见 [[#？！]]、[[Agentic RL#……]]。"
    result = wiki_markdown.render(body, sources={}, existing_pages=frozenset({"agentic-rl"}))
    assert [entry["id"] for entry in result.toc] == ["？！", "……", "？！_1", "🎉", "_1"]
    assert '<a class="wikilink" href="#？！"' in result.html
    assert '<a class="wikilink" href="/wiki/agentic-rl/#……"' in result.html
    # an edit summary's /* …… */ leads to the heading as the page renders it
    assert [heading_anchor(title) for title in ("？！", "……", "🎉")] == ["？！", "……", "🎉"]


@pytest.mark.django_db
def test_a_saved_link_to_a_section_is_a_backlink_not_a_wanted_page() -> None:
    make_page(slug="agentic-rl", title="Agentic RL", body="## 定义\n\n正文。")
    make_page(slug="linker", title="Linker", body="见 [[Agentic RL#定义]]。")
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to("agentic-rl")] == ["linker"]
    assert list(WikiLink.objects.wanted()) == []
    target = Page.objects.get(slug="agentic-rl")
    assert 'id="定义"' in target.rendered_html


def test_the_body_help_says_what_is_supported() -> None:
    help_text = str(PageForm().fields["body"].help_text)
    for told in ("[^1]", "~~", "$…$", r"\(…\)", "$$…$$", "[[Target#heading]]", "shown as typed"):
        assert told in help_text, told


# HTML shown as typed


@pytest.mark.parametrize(("typed", "shown"), [
    ("使用 <T> 泛型", "使用 <T> 泛型"),
    ("if a<b and c>d", "if a<b and c>d"),
    ("Before <script>alert(1)</script> after", "Before <script>alert(1)</script> after"),
    ('<p onclick="alert(1)">A para</p>', '<p onclick="alert(1)">A para</p>'),
    ("[[<script>alert(1)</script>]]", "<script>alert(1)</script>"),
])
def test_html_the_wiki_does_not_keep_is_shown_as_typed(typed: str, shown: str) -> None:
    html = _html(typed)
    assert shown in html_text(html)
    assert _elements(html) <= {("p", ()), ("a", ("class", "href", "rel", "title"))}


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[tuple[str, tuple[str, ...]]] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.add((tag, tuple(sorted(name for name, _ in attrs))))


def _elements(html: str) -> set[tuple[str, tuple[str, ...]]]:
    """The elements in ``html`` with their attributes' names: what a browser would run or style, not the text."""
    parser = _Elements()
    parser.feed(html)
    return parser.found


def test_allowed_tags_stay_markup() -> None:
    html = _html('x <b>bold</b> <kbd>K</kbd> H<sub>2</sub>O <span title="t">s</span>\n\n<div>\na < b\n</div>')
    assert "<b>bold</b>" in html and "<kbd>K</kbd>" in html and "<sub>2</sub>" in html and '<span title="t">s</span>' in html
    assert "a &lt; b" in html


# The interface's words, in the reader's language when shown


def test_the_stored_html_holds_no_interface_words() -> None:
    html = _html("[[不存在的页面]] 与 \\(\\frac{1}{\\) 和脚注[^1]\n\n[^1]: 注释")
    assert "page does not exist yet" not in html and "could not be rendered" not in html and "Jump back" not in html
    assert 'class="wikilink wanted"' in html and 'class="math-error"' in html


@pytest.mark.django_db
def test_a_wanted_link_and_a_broken_formula_explain_themselves_in_the_readers_language() -> None:
    make_page(slug="测试页面-test", title="测试页面 Test", body="[[不存在的页面]] 与 \\(\\frac{1}{\\) 和脚注[^1]\n\n[^1]: 注释")
    url = reverse("wiki:page-detail", kwargs={"slug": "测试页面-test"})
    chinese = Client(headers={"accept-language": "zh-CN"}).get(url).content.decode()
    assert 'title="不存在的页面（页面尚不存在）"' in chinese and 'title="此公式无法渲染"' in chinese
    assert 'title="返回正文"' in chinese and "page does not exist yet" not in chinese
    # said in words too, for keyboard, touch and screen reader users, whom a title never reaches
    assert re.search(r'<a class="wikilink wanted"[^>]*>不存在的页面<span class="visually-hidden">（页面尚不存在）</span></a>', chinese)
    assert '\\frac{1}{</code><span class="visually-hidden">（此公式无法渲染）</span>' in chinese
    assert 'title="返回正文" aria-label="返回正文"' in chinese
    english = Client(headers={"accept-language": "en"}).get(url).content.decode()
    assert 'title="不存在的页面 (page does not exist yet)"' in english
    assert 'title="This formula could not be rendered"' in english


def test_an_older_rendering_with_english_words_reads_in_the_readers_language() -> None:
    stored = ('<a class="wikilink wanted" href="/wiki/x/" title="X (page does not exist yet)">X</a>'
              '<code class="math-error" title="This formula could not be rendered">\\frac</code>')
    with translation.override("zh-hans"):
        shown = wiki_markdown.for_reader(stored)
    assert 'title="X（页面尚不存在）"' in shown and 'title="此公式无法渲染"' in shown


def test_a_block_tag_never_closed_shows_as_typed_and_the_rest_of_the_page_stays_markdown() -> None:
    text = "## 关键要点\n\n<details>\n<summary>更多</summary>\n\n- 第一条论断。\n\n## 其他\n\n- **第二条**。\n"
    result = wiki_markdown.render(text, sources={}, existing_pages=frozenset())

    assert "&lt;details&gt;" in result.html and "<details>" not in result.html
    assert '<h2 id="其他">其他</h2>' in result.html and "<strong>第二条</strong>" in result.html
    assert [claim.text for claim in result.claims] == ["第一条论断。"]
    # closed, nested or written inside code, a tag is left as it is
    closed = _html("<details>\n<summary>更多</summary>\n\n<div><div>x</div></div>\n\n</details>\n\n- after")
    assert closed.count("<details>") == 1 and "<li>after</li>" in closed
    assert "&amp;lt;details" not in _html("```\n<details>\n```\n\ntext") and "&lt;details&gt;" in _html("```\n<details>\n```")


def test_a_claim_reads_inline_html_and_formulas_as_the_reader_sees_them() -> None:
    text = ("## 关键要点 <b>一</b>\n\n"
            "- 论断 <i>斜体</i> &amp; $x^2$ 与 <script>x</script> <!-- 注 --> H<sub>2</sub>O（来源：SkillForge，p.3）\n")

    first = wiki_markdown.render(text, sources={}, existing_pages=frozenset())
    again = wiki_markdown.render("段落 <b>加粗</b>\n\n" + text, sources={}, existing_pages=frozenset())

    [claim] = first.claims
    assert claim.text == "论断 斜体 & $x^2$ 与 <script>x</script> H2O（来源：SkillForge，p.3）"
    assert claim.section == "关键要点 一"
    # what stands elsewhere on the page, and a formula's placeholder, never change a claim's identity
    assert [c.key for c in again.claims] == [claim.key]


def test_footnotes_are_no_key_points_and_their_marks_are_no_words_of_a_claim() -> None:
    text = ("## 关键要点\n\n- SkillForge 用 GRPO 更新策略[^1]（来源：SkillForge，§3）。\n\n"
            "[^1]: 这是一个脚注，含 English words。\n\n"
            "[^2]: 脚注里的引用（来源：StarHarness，p.2）。\n\n"
            "正文引用第二个脚注[^2]。\n")

    result = wiki_markdown.render(text, sources={}, existing_pages=frozenset())

    assert [(claim.section, claim.text) for claim in result.claims] == [
        ("关键要点", "SkillForge 用 GRPO 更新策略（来源：SkillForge，§3）。"),
        ("", "脚注里的引用（来源：StarHarness，p.2）。"),
    ]
    assert 'class="footnote"' in result.html and 'href="#fn:1"' in result.html


@pytest.mark.django_db
def test_the_migration_renders_again_the_pages_whose_heading_ids_and_section_links_change() -> None:
    import importlib

    from django.apps import apps
    from django.db import connection

    migration = importlib.import_module("wiki.migrations.0045_links_and_headings_read_anew")
    make_page(slug="traps", title="Traps", body="## 2.1 节：公式\n\n正文。\n\n2.2 节\n------\n\n更多。")
    make_page(slug="linker", title="Linker", body="见 [[Traps#2.1 节：公式]]。")
    make_page(slug="plain", title="Plain", body="## 定义\n\n版本 2.1 的说明。")
    glossary_term_create(fields={"slug": "grpo", "name_zh": "组相对策略优化", "name_en": "GRPO"})
    make_page(slug="term-linker", title="Term linker", body="见 [[组相对策略优化#优势估计]]。")
    Page.objects.filter(slug="term-linker").update(rendered_html="<p>组相对策略优化#优势估计</p>")
    # As the wiki rendered them before: the point dropped from the ids.
    for slug in ("traps", "linker"):
        page = Page.objects.get(slug=slug)
        Page.objects.filter(pk=page.pk).update(rendered_html=page.rendered_html.replace("2-1-", "21-").replace("2-2-", "22-"),
                                               toc=[{**entry, "id": str(entry["id"]).replace("-", "", 1)} for entry in page.toc])
    plain = Page.objects.get(slug="plain")
    Page.objects.filter(pk=plain.pk).update(rendered_html="<p>as it was</p>")

    with connection.schema_editor() as schema_editor:
        migration.forward(apps, schema_editor)

    traps = Page.objects.get(slug="traps")
    assert 'id="2-1-节公式"' in traps.rendered_html and 'id="2-2-节"' in traps.rendered_html
    assert [entry["id"] for entry in traps.toc] == ["2-1-节公式", "2-2-节"]
    assert 'href="/wiki/traps/#2-1-节公式"' in Page.objects.get(slug="linker").rendered_html
    assert Page.objects.get(slug="plain").rendered_html == "<p>as it was</p>"  # no heading or section link to change
    assert '<a class="wikilink term" href="/glossary/grpo/" rel="noopener noreferrer">组相对策略优化</a>' in \
        Page.objects.get(slug="term-linker").rendered_html
