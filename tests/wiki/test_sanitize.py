"""Whatever an editor types, no script, event handler or javascript: URL reaches the page a reader sees."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.wiki.htmltext import html_text
from wiki.roles import Account
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

HOSTILE_BODY = """## 攻击 Attack

Before the script <script>alert(1)</script> after the script.

An image <img src=x onerror=alert(1)> sits here.

<p onclick="alert(1)">A clickable paragraph 可点击的段落</p>

A [link that runs code](javascript:alert(1)) and a [safe link](https://example.org/ok).

- bullet with <a href="javascript:alert(2)" onmouseover="alert(3)">hostile anchor</a> inside
"""


def _scripts_other_than_ours(content: str) -> list[str]:
    """Script tags that are not the site's own static scripts (the graph's zoom script is on every page with a graph)."""
    return re.findall(r'<script(?![^>]*src="/static/js/[\w-]+\.js")[^>]*>', content)


@pytest.fixture
def hostile_page(editor):  # type: ignore[no-untyped-def]
    return page_save_revision(slug="hostile", title="Hostile <b>title</b>", body=HOSTILE_BODY, user=editor).page


class _Markup(HTMLParser):
    """Every element of a page with its attributes: what a browser runs, as opposed to text it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {name: value or "" for name, value in attrs}))


def _markup(content: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Markup()
    parser.feed(content)
    return parser.elements


def test_scripts_handlers_and_javascript_urls_never_reach_the_page(client, hostile_page) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": hostile_page.slug}))
    assert response.status_code == 200
    content = response.content.decode().lower()
    assert _scripts_other_than_ours(content) == []
    elements = _markup(content)
    assert [tag for tag, _ in elements if tag == "img"] == []
    assert [(tag, name) for tag, attrs in elements for name in attrs if name.startswith("on")] == []
    assert [value for _, attrs in elements for name, value in attrs.items()
            if name in {"href", "src", "action"} and value.strip().startswith("javascript:")] == []
    # What is not kept as markup is shown as the characters typed, never run.
    text = html_text(response.content.decode())
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(1)>" in text


def test_text_around_removed_markup_stays(client, hostile_page) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": hostile_page.slug}))
    content = response.content.decode()
    text = html_text(content)
    for kept in ("Before the script", "after the script.", "An image", "sits here.", "A clickable paragraph 可点击的段落",
                 "link that runs code", "hostile anchor", "攻击 Attack"):
        assert kept in text
    assert 'href="https://example.org/ok"' in content
    assert "Hostile &lt;b&gt;title&lt;/b&gt;" in content


HOSTILE_FORMULAS = r"""## 公式 Formulas

$$
\text{<img/src/onerror=alert(1)>} + x_1
$$

Inline \(\text{</math><script>alert(2)</script>}\) and a linked \(\href{javascript:alert(3)}{y}\) formula.
"""


def test_formulas_cannot_carry_markup_or_links(client: Client, editor: Account) -> None:
    page = page_save_revision(slug="hostile-math", title="Hostile math", body=HOSTILE_FORMULAS, user=editor).page
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": page.slug}))
    content = response.content.decode().lower()
    assert "<img" not in content
    assert _scripts_other_than_ours(content) == []
    assert "onerror" not in content
    assert "javascript:" not in content
    assert "href=\"javascript" not in content
    assert "<math" in content and "<msub><mi>x</mi><mn>1</mn></msub>" in content


def test_page_text_cannot_take_the_ids_the_layout_relies_on(client: Client, editor: Account) -> None:
    body = '## Local graph\n\nText <span id="main">here</span> and <span id="own-anchor">there</span>.\n'
    page = page_save_revision(slug="id-clash", title="Id clash", body=body, user=editor).page
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": page.slug})).content.decode()
    assert content.count('id="main"') == 1
    assert content.count('id="local-graph"') == 1
    assert '<h2 id="section-local-graph">Local graph</h2>' in content
    assert '<a href="#section-local-graph">Local graph</a>' in content
    assert 'id="own-anchor"' in content


def test_page_text_cannot_take_the_ids_of_the_contents_and_the_cited_works(client: Client, editor: Account) -> None:
    body = ('## Contents list\n\nSee <span id="cited-works">the works</span> and <span id="preview-status">this</span>.\n\n'
            '## Cited works heading\n\nText.\n\n## Component analysis\n\nMore.\n')
    page = page_save_revision(slug="contents-clash", title="Contents clash", body=body, user=editor).page
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": page.slug})).content.decode()

    assert content.count('id="contents-list"') == 1 and '<ol class="toc-list" id="contents-list">' in content
    assert content.count('id="cited-works"') == 1 and content.count('id="cited-works-heading"') == 1
    assert 'id="preview-status"' not in content
    assert '<h2 id="section-contents-list">Contents list</h2>' in content
    assert '<a href="#section-contents-list">Contents list</a>' in content
    assert '<h2 id="section-component-analysis">Component analysis</h2>' in content


ROOT = Path(__file__).resolve().parents[2]
_ID = re.compile(r"""\bid=(?:"([^"]*)"|'([^']*)')""")
_TEMPLATE_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")


def _template_values() -> dict[str, list[str]]:
    """What each piece of template code an id is built from can be: every value it takes, or samples of its kind. A
    new way of making an id fails the test below until it is added here, and reserved."""
    from wiki.filters import QUESTION_PAGE_OPTIONS_ID
    from wiki.filters.changes import ChangeFilter, WatchlistFilter
    from wiki.models import SearchDocument
    from wiki.references.citation_files import BLOCKS
    from wiki.references.draft import BIBLIOGRAPHIC_FIELDS
    from wiki.reports.consistency import FINDING_KINDS
    from wiki.services.merge_fields import TAKEN_FIELDS

    templates = "".join(path.read_text(encoding="utf-8") for path in ROOT.joinpath("templates").rglob("*.*"))
    findings = [f"finding-{kind}-{key}" for kind, _ in FINDING_KINDS for key in ("classification-12", "contrast-5-claim-40")]
    return {
        "{{ field.auto_id }}": ["id_body", "id_works", "id_q"],
        # a merge's choice of value, field by field: the kept work's (0) or the merged work's (1)
        "{{ radio.id_for_label }}": [f"id_take_{name}_{n}" for name in (*TAKEN_FIELDS, *BIBLIOGRAPHIC_FIELDS) for n in (0, 1)],
        "{{ side }}": ["old", "new"],
        "{{ form_id }}": re.findall(r'form_id="([^"]+)"', templates),
        "{{ field.name }}": sorted({*ChangeFilter.base_filters, *WatchlistFilter.base_filters}),
        "{{ svg_id }}": re.findall(r'svg_id="([^"]+)"', templates),
        "{{ list_id }}": re.findall(r'list_id="([^"]+)"', templates),
        "{{ page_options.id }}": [QUESTION_PAGE_OPTIONS_ID],
        "{{ group.kind }}": list(SearchDocument.Kind.values),
        "{{ section.key }}": [kind for kind, _ in FINDING_KINDS],
        "{{ finding.anchor }}": findings,
        "{{ item.finding.anchor }}": findings,
        "{{ source.slug }}": ["tree-grpo", "contents-list"],
        "{{ c.component.slug }}": ["tree-grpo", "main"],
        "{% if c.component %}{{ c.component.slug }}{% else %}work{% endif %}": ["tree-grpo", "work"],
        "{{ c.pk }}": ["7"],
        "{{ w.pk }}": ["12"],
        "{{ forloop.counter }}": ["1", "10"],
        "{{ file.anchor }}": [block.anchor for block in BLOCKS.values()],
        "{{ day.grouper|date:'Y-m-d' }}": ["2026-12-06"],
    }


def _ids_of(template: str, values: dict[str, list[str]]) -> list[str]:
    ids: list[str] = []
    for raw in (double or single for double, single in _ID.findall(template)):
        made = [raw]
        for code in sorted(values, key=len, reverse=True):  # the longest first: one may hold another
            made = [id_.replace(code, value) for id_ in made for value in values[code]] if code in raw else made
        unknown = [code for id_ in made for code in _TEMPLATE_CODE.findall(id_) or re.findall(r"\{.*", id_)]
        assert unknown == [], f"an id made from {unknown[0]}: say in _template_values what it can be"
        ids += made
    return ids


def test_every_id_the_layout_gives_is_one_page_text_cannot_take() -> None:
    from wiki.markdown.sanitize import is_layout_id

    values = _template_values()
    # The browsable API's pages (REST framework's, whose pager and filters templates/rest_framework/ translates) show
    # no page text: their ids are theirs.
    given = {(path.name, id_) for path in ROOT.joinpath("templates").rglob("*.html")
             if path.relative_to(ROOT / "templates").parts[0] != "rest_framework"
             for id_ in _ids_of(path.read_text(encoding="utf-8"), values)}
    scripts = "".join(path.read_text(encoding="utf-8") for path in ROOT.joinpath("static", "js").glob("*.js"))
    given |= {("static/js", id_) for id_ in re.findall(r'getElementById\("([^"]+)"\)', scripts)}
    # The ids the scripts make: each assignment, and what it makes.
    made = {'list.id = (input.id || "picker-" + index) + "-options";': ["id_works-options", "picker-0-options"],
            'list.id = input.id + "-options";': ["site-search-q-options"]}
    assert set(re.findall(r"[\w.]+\.id = [^;]*;", scripts)) == set(made)
    given |= {("static/js", id_) for ids in made.values() for id_ in ids}
    # The graph's pictures (wiki/graph/svg.py): a frame, its title, each line's title.
    given |= {("wiki/graph/svg.py", f"{svg_id}-{frame}{part}") for svg_id in values["{{ svg_id }}"]
              for frame in ("wide", "narrow") for part in ("", "-title", "-edge-0")}

    assert len(given) > 100
    assert sorted((where, id_) for where, id_ in given if id_ and not is_layout_id(id_)) == []


def test_page_text_cannot_dress_itself_as_the_sites_messages_and_links(client: Client, editor: Account) -> None:
    body = ('<div class="message error">Your session has ended: log in at evil.example</div>\n\n'
            'Text <span class="visually-hidden" lang="en">hidden?</span> and '
            '<a class=\'wikilink wanted\' href="/wiki/x/" title="t">a link</a>, '
            '<abbr CLASS=x title="Proximal Policy Optimization">PPO</abbr>; [[Missing page]] stays wanted.\n')
    page = page_save_revision(slug="dressed-up", title="Dressed up", body=body, user=editor).page
    main = client.get(reverse("wiki:page-detail", kwargs={"slug": page.slug})).content.decode()
    main = main[main.index("<main"):main.index("</main>")]

    assert "<div>Your session has ended" in main and "message error" not in main
    assert '<span lang="en">hidden?</span>' in main
    assert '<a href="/wiki/x/" title="t" rel="noopener noreferrer">a link</a>' in main
    assert '<abbr title="Proximal Policy Optimization">PPO</abbr>' in main
    assert main.count('class="wikilink wanted"') == 1
