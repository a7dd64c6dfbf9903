"""An edit summary that opens by naming the section edited (``/* Heading */ …``, as a section's edit form prefills it)
reads "→Heading", a link to that section of the page, then the rest; nothing in a summary is read as HTML."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_editor, make_page, make_reader
from wiki import markdown as wiki_markdown
from wiki.change_summaries import comment_for_reader
from wiki.markdown.section_links import heading_anchor
from wiki.models import Page
from wiki.services.pages import page_save_revision
from wiki.services.watches import watch_add
from wiki.text.sections import SectionSummary, section_summary

BODY = "## 定义\n\nText.\n\n## Scope & limits (draft)\n\nMore.\n"
SUMMARY = '/* Scope & limits (draft) */ fixed <script>alert("x")</script> & more'


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("/* 定义 */ 补充说明", SectionSummary(title="定义", rest="补充说明")),
        ("/* Scope */ ", SectionSummary(title="Scope", rest="")),
        ("  /*Scope*/rest", SectionSummary(title="Scope", rest="rest")),
        ("fixed /* Scope */", None),
        ("/* */ empty", None),
        ("plain words", None),
    ],
)
def test_a_summary_names_a_section_only_by_opening_with_it(comment: str, expected: SectionSummary | None) -> None:
    assert section_summary(comment) == expected


@pytest.mark.parametrize(
    "title",
    [
        "定义",
        "Key points",
        "Scope & limits (draft)",
        "**Bold** and `code`",
        "[[Agentic RL|智能体]] 的定义",
        "公式 $a_b$",
        "definitions",
        "C# notes",
        "Tools: browser, shell",
        "2.1 节：公式与“引号”",
        "**2.1** 节",
    ],
)
def test_a_sections_anchor_is_the_id_the_renderer_gives_its_heading(title: str) -> None:
    rendered = wiki_markdown.render(f"## {title}\n\nText.\n", sources={}, existing_pages=frozenset())
    assert heading_anchor(title) == rendered.toc[0]["id"]


def _saved_with_section_summary() -> None:
    page = make_page(slug="notes", title="Notes", body=BODY, user=make_editor("alice"))
    page_save_revision(
        slug="notes",
        title="Notes",
        body=BODY.replace("More.", "More, fixed."),
        comment=SUMMARY,
        user=make_editor("bob"),
        base_revision=1,
    )
    page.refresh_from_db()
    assert [entry["id"] for entry in page.toc] == ["定义", "scope-limits-draft"]


ESCAPED_LINK = (
    '<a class="section-summary" href="/wiki/notes/#scope-limits-draft">→Scope &amp; limits (draft)</a>: '
    "fixed &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"
)


@pytest.mark.django_db
def test_history_shows_the_section_as_a_link_to_it_and_escapes_the_summary(client: Client) -> None:
    _saved_with_section_summary()

    html = client.get(reverse("wiki:page-history", kwargs={"slug": "notes"})).content.decode()

    assert ESCAPED_LINK in html
    assert "<script>alert" not in html


@pytest.mark.django_db
def test_recent_changes_the_watchlist_and_the_diff_show_it_too(client: Client) -> None:
    reader = make_reader("watcher")
    _saved_with_section_summary()
    watch_add(user=reader, target=Page.objects.get(slug="notes"))
    client.force_login(reader)

    for url in (
        reverse("wiki:changes"),
        reverse("wiki:watchlist"),
        reverse("wiki:home"),
        reverse("wiki:page-diff", kwargs={"slug": "notes"}) + "?from=1&to=2",
        reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 2}),
    ):
        html = client.get(url).content.decode()
        assert ESCAPED_LINK in html, url
        assert "<script>alert" not in html, url


@pytest.mark.django_db
def test_a_long_section_summary_in_recent_changes_is_cut_after_the_link(client: Client) -> None:
    make_page(slug="notes", title="Notes", body=BODY)
    page_save_revision(
        slug="notes", title="Notes", body=BODY + "\nEnd.\n", comment="/* 定义 */ " + "词" * 300, base_revision=1
    )

    html = client.get(reverse("wiki:changes")).content.decode()

    cut = re.search(r'<a class="section-summary" href="/wiki/notes/#定义">→定义</a>: (词+)…</td>', html)
    assert cut is not None and len(cut.group(1)) < 140


def test_a_summary_the_wiki_wrote_reads_in_each_language() -> None:
    with translation.override("en"):
        assert comment_for_reader("撤销 bob 的修订版本 3") == "Undo revision 3 by bob"
        assert (
            comment_for_reader("回滚 bob 的编辑（2 次）至 alice 的最后一个修订版本")
            == "Reverted edits by bob (2 edits) to the last revision by alice"
        )
        assert (
            comment_for_reader("回滚 bob 的编辑（1 次）至最后一个导入的修订版本")
            == "Reverted edits by bob (1 edit) to the last imported revision"
        )
    with translation.override("zh-hans"):
        assert comment_for_reader("Undo revision 3 (imported)") == "撤销修订版本 3（导入）"
        assert (
            comment_for_reader("Reverted edits by bob (1 edit) to the last revision by alice")
            == "回滚 bob 的编辑（1 次）至 alice 的最后一个修订版本"
        )
        assert comment_for_reader("Undo revision 3 by bob, and more") == "Undo revision 3 by bob, and more"
