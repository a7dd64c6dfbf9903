"""What the Markdown pipeline gives the page view: citation markers, wiki links, headings and math."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_page
from tests.wiki.htmltext import html_text
from wiki import markdown as wiki_markdown
from wiki.markdown import SourceRef
from wiki.models import Citation, Page, Source
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

CITED_BODY = """## 摘要

严格分类要看更新机制是否真的是 RL。（综合：历史会话中的智能体工程复盘）

## 核心内容

### 定义

可执行 Agent、多步轨迹、可验证奖励与 RL 更新。

### 关键要点

- TASKSMITH 用 verifier 筛选的轨迹做 SFT，没有用环境回报更新 agent policy。（来源：TASKSMITH: Terminal Tasks Distilled from Verified Rollouts，§3.1 / §5）
- GripForge 用 GRPO 同时更新环境动作和 skill calling。（来源：GripForge: Reinforcing Skill Calls with Outcome Rewards，pp.3-4）
- ShopWorld 与 DeskWorld 只评测固定模型。（来源：ShopWorld: A Web Environment for Agents、DeskWorld: Benchmarking Computer-Use Agents）
"""


@pytest.fixture
def cited_page(db: None) -> Page:
    """A page whose claims cite five works, with and without locators, and one synthesis."""
    return make_page(slug="cited-page", title="Cited page", body=CITED_BODY)


def _citations_html(content: str) -> list[str]:
    return re.findall(r'<span class="citation [^"]*"[^>]*>.*?）</span>', content, re.DOTALL)


@pytest.mark.usefixtures("cited_page")
def test_every_citation_marker_links_to_its_source_and_shows_the_locator(client: Client) -> None:
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "cited-page"})).content.decode()
    markers = _citations_html(content)
    cited = Citation.objects.filter(claim__page__slug="cited-page", claim__is_orphaned=False).select_related("source")
    assert cited.count() == 5
    for citation in cited:
        href = reverse("wiki:source-detail", kwargs={"slug": citation.source.slug})
        matching = [m for m in markers if f'href="{href}"' in m]
        assert matching, citation.source.slug
        if citation.locator:
            assert any(f'<span class="locator">{citation.locator}</span>' in m for m in matching)


@pytest.mark.usefixtures("cited_page")
def test_citation_marker_text_reads_as_the_typed_citation(client: Client) -> None:
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "cited-page"})).content.decode()
    text = html_text(content)
    assert "（来源：TASKSMITH: Terminal Tasks Distilled from Verified Rollouts，§3.1 / §5）" in text
    assert "（综合：历史会话中的智能体工程复盘）" in text


def test_a_citation_of_an_unknown_title_is_marked_missing_in_a_preview() -> None:
    result = wiki_markdown.render(
        "- A claim（来源：Nobody Wrote This: A Paper，p.1）。\n- Another（来源：Known: Work，p.2）。",
        sources={"Known: Work": SourceRef(slug="known", short_name="Known")},
        existing_pages=frozenset(),
    )
    assert 'class="cite cite-missing"' in result.html
    assert f'href="{reverse("wiki:source-detail", kwargs={"slug": "known"})}"' in result.html


def test_an_unknown_titles_marker_explains_itself_in_the_readers_language(editor_client: Client) -> None:
    body = {"title": "T", "body": "- A claim（来源：Nobody Wrote This: A Paper，p.1）。\n"}
    url = reverse("wiki:page-preview")

    chinese = editor_client.post(url, body, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    english = editor_client.post(url, body, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert 'class="cite cite-missing" title="wiki 中没有这个标题的来源"' in chinese
    assert 'class="cite cite-missing" title="No source with this title"' in english


@pytest.mark.usefixtures("cited_page")
def test_links_to_missing_pages_are_marked_wanted_and_existing_ones_are_not(client: Client) -> None:
    page_save_revision(slug="links-both", title="Links both", body="See [[cited-page|the main page]] and [[Not Written Yet]].")
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "links-both"})).content.decode()
    existing = re.search(r'<a [^>]*href="/wiki/cited-page/"[^>]*>', content)
    wanted = re.search(r'<a [^>]*href="/wiki/not-written-yet/"[^>]*>', content)
    assert existing and "wanted" not in existing.group(0)
    assert wanted and 'class="wikilink wanted"' in wanted.group(0)


def test_a_link_whose_target_gives_no_address_stays_text(db: None) -> None:
    saved = page_save_revision(slug="odd-links", title="Odd links", body="See [[---]], [[_]] and [[x-1]].")

    html = saved.page.rendered_html
    assert "[[---]]" in html and "[[_]]" in html and 'href="/wiki/x-1/"' in html
    assert list(saved.page.outgoing_links.values_list("target_slug", flat=True)) == ["x-1"]


@pytest.mark.usefixtures("cited_page")
def test_chinese_headings_appear_in_the_table_of_contents_and_link_to_their_section(client: Client) -> None:
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "cited-page"})).content.decode()
    page = Page.objects.get(slug="cited-page")
    titles = [item["title"] for item in page.toc]
    assert titles[:4] == ["摘要", "核心内容", "定义", "关键要点"]
    for item in page.toc:
        assert f'<a href="#{item["id"]}">{item["title"]}</a>' in content
        assert f'id="{item["id"]}"' in content


def test_inline_and_display_formulas_render_as_mathml(client: Client) -> None:
    page_save_revision(slug="formulas", title="Formulas", body="Inline \\(x^2\\) here.\n\n$$\n\\sum_{t=0}^{T} r_t\n$$\n")
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "formulas"})).content.decode()
    assert content.count("<math") == 2
    assert '<div class="math-display" tabindex="0"><math' in content
    assert "<msup>" in content
    assert "\\sum" not in content


@pytest.mark.parametrize(("begin", "end"), [
    ("\\begin{aligned}", "\\end{aligned}"),
    ("\\begin{alignedat}{2}", "\\end{alignedat}"),
    ("\\begin{gathered}", "\\end{gathered}"),
])
def test_a_multi_line_formula_renders_one_row_per_line(client: Client, begin: str, end: str) -> None:
    body = f"$$\n{begin}\nJ(\\theta) &= \\mathbb{{E}}[R] \\\\\n\\nabla J &= 0\n{end}\n$$\n"
    page_save_revision(slug="rows", title="Rows", body=body)
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "rows"})).content.decode()
    formula = content[content.index('<div class="math-display"'):content.index("</math>")]
    assert formula.count("<mtr>") == 2
    assert "&amp;" not in formula and "math-error" not in formula and "aligned" not in formula


def _formula(latex: str) -> str:
    html = wiki_markdown.render(f"$$\n{latex}\n$$\n", sources={}, existing_pages=frozenset()).html
    return html[html.index("<math"):html.index("</math>")]


def test_a_formula_copied_from_a_paper_shows_no_label_or_numbering_commands() -> None:
    formula = _formula("J(\\theta) = \\mathbb{E}[R] \\label{eq:objective} \\nonumber")
    assert "label" not in formula and "objective" not in formula and "nonumber" not in formula
    assert "<mo>=</mo>" in formula


# As a paper's source has them: two labelled equations, an unlabelled one between, one with its own tag.
NUMBERED = r"""The objective \eqref{eq:objective} and its gradient $\eqref{eq:gradient}$; see also $\ref{eq:tagged}$.

$$
J(\theta) = \mathbb{E}[R] \label{eq:objective}
$$

$$
R = \sum_t r_t
$$

$$
\nabla J = \mathbb{E}[\nabla \log \pi \, R] \label{eq:gradient}
$$

$$
x = 1 \tag{A.1} \label{eq:tagged}
$$
"""


def test_an_eqref_shows_the_number_of_the_formula_with_its_label() -> None:
    html = wiki_markdown.render(NUMBERED, sources={}, existing_pages=frozenset()).html
    assert "eqref" not in html and "\\ref" not in html and "eq:" not in html
    prose = html[:html.index("</p>")]
    assert re.findall(r"<mtext>([^<]*)</mtext>", prose) == ["(1)", "(2)", "A.1"]
    assert re.findall(r'<span class="math-number">([^<]*)</span>', html) == ["(1)", "(2)", "(A.1)"]
    assert html.count('class="math-display math-numbered"') == 3 and html.count('class="math-display"') == 1
    assert "<mtext>(A.1)</mtext>" not in html


def test_an_eqref_to_a_label_no_formula_has_shows_the_label() -> None:
    formula = _formula("a = b \\quad \\text{by} \\eqref{eq:elsewhere}")
    assert "<mtext>(eq:elsewhere)</mtext>" in formula and "eqref" not in formula


def test_n_choose_k_is_a_binomial() -> None:
    for latex in ("{n \\choose k}", "\\binom{n}{k}"):
        formula = _formula(latex)
        assert re.search(r"<mo[^>]*>\(</mo><mfrac linethickness=\"0\">.*<mi>n</mi>.*<mi>k</mi>.*</mfrac><mo[^>]*>\)</mo>",
                         formula), formula
        assert "choose" not in formula


def test_a_starred_operator_name_is_one_upright_name_with_its_limit_below() -> None:
    formula = _formula("\\pi^* = \\operatorname*{arg\\,max}_{\\pi} J(\\pi)")
    assert "<munder><mo>arg\u2009max</mo><mrow><mi>π</mi></mrow></munder>" in formula
    assert "<mo>*</mo></munder>" not in formula and "<mi>r</mi>" not in formula


def test_source_created_from_a_citation_is_linked_from_the_marker(client: Client) -> None:
    page_save_revision(slug="new-cite", title="New cite", body="- 一个论断（来源：Fresh Work: Something New，§2）。")
    source = Source.objects.get(title="Fresh Work: Something New")
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "new-cite"})).content.decode()
    assert f'href="{source.get_absolute_url()}"' in content
    assert '<span class="locator">§2</span>' in content


def test_table_of_contents_shows_headings_with_ampersands_and_brackets_escaped_once(client: Client) -> None:
    page_save_revision(slug="toc-text", title="TOC", body="## R & D <规则>\n\n正文\n\n## 方法\n\n## 方法\n")
    page = Page.objects.get(slug="toc-text")
    assert [item["title"] for item in page.toc] == ["R & D <规则>", "方法", "方法"]
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "toc-text"})).content.decode()
    assert ">R &amp; D &lt;规则&gt;</a>" in content
    assert "&amp;amp;" not in content
    ids = [item["id"] for item in page.toc]
    assert len(set(ids)) == 3
