"""A page as Markdown with its citations, and the works it cites as references at the end."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ContrastWiki, make_page, make_source
from wiki.models import Page
from wiki.references.bibtex import parse_bibtex
from wiki.references.markdown_export import REFERENCES_MARKER
from wiki.services.deletion import page_delete
from wiki.services.page_import import page_import, parse_page_file


def test_the_seed_page_as_markdown_keeps_its_text_and_lists_its_references(client: Client, seed: None) -> None:
    page = Page.objects.get(slug="agentic-rl")
    response = client.get(reverse("wiki:page-export-markdown", kwargs={"slug": page.slug}))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == 'inline; filename="agentic-rl.md"'
    text = response.content.decode()
    assert text.startswith(f"---\ntitle: Agentic RL\nslug: agentic-rl\nsummary: {page.summary}\n---\n\n")
    assert page.body.rstrip("\n") in text  # the citations as written
    _, references = text.split("\n## 参考文献\n", 1) if "参考文献" in text else text.split("\n## References\n", 1)
    lines = [line for line in references.splitlines() if line]
    assert len(lines) == 17
    assert lines[0].startswith("1. [agentic-esopt] ")
    assert any(line.startswith("2. [facet] ") and "§3.1 / §5" in line for line in lines)
    # the keys are those of the BibTeX export of the same works
    bib = client.get(reverse("wiki:source-list") + "?cited_on=agentic-rl&format=bib").content.decode()
    assert {line.split("] ")[0].split("[", 1)[1] for line in lines} == {entry.label for entry in parse_bibtex(bib)}


def test_format_md_on_the_page_address_gives_the_same_file(client: Client, contrast_wiki: ContrastWiki) -> None:
    slug = contrast_wiki.page.slug
    by_path = client.get(reverse("wiki:page-export-markdown", kwargs={"slug": slug})).content
    by_query = client.get(reverse("wiki:page-detail", kwargs={"slug": slug}) + "?format=md").content
    assert b"GripForge" in by_path
    assert by_query == by_path


def test_a_reference_carries_authors_year_title_venue_identifiers_and_locators(client: Client, db: None) -> None:
    work = make_source(slug="react", short_name="ReAct", title="ReAct: Synergizing *Reasoning*", authors="Yao, Shunyu; et al.",
                       year=2023, venue="ICLR", arxiv_id="2210.03629", doi="10.1000/react", url="https://react-lm.github.io",
                       bibtex_key="yao2023react")
    page = make_page(slug="notes", title="Notes", body=f"- a（来源：{work.title}，§3）\n- b（来源：{work.title}，p.7）\n")
    text = client.get(reverse("wiki:page-export-markdown", kwargs={"slug": page.slug}),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert text.endswith(
        "## References\n\n1. [yao2023react] Yao, Shunyu; et al. (2023). *ReAct: Synergizing \\*Reasoning\\**. ICLR. "
        "arXiv:2210.03629 · doi:10.1000/react · <https://react-lm.github.io> — cited at: §3; p.7\n")
    # read back by the page importer: the same page
    parsed = parse_page_file((text.split("\n---\n\n## References", 1)[0] + "\n").encode(), filename="x.md")
    assert (parsed.slug, parsed.title, parsed.body.strip()) == ("notes", "Notes", page.body.strip())


def test_a_page_without_citations_has_no_references_and_a_missing_page_is_404(client: Client, db: None) -> None:
    page = make_page(slug="plain", body="Just text.")
    text = client.get(reverse("wiki:page-export-markdown", kwargs={"slug": page.slug})).content.decode()
    assert text.endswith("Just text.\n") and "References" not in text
    assert client.get(reverse("wiki:page-export-markdown", kwargs={"slug": "no-such-page"})).status_code == 404


def test_the_export_takes_as_many_queries_for_forty_works_as_for_two(client: Client, db: None) -> None:
    def queries(works: int) -> int:
        body = "\n".join(f"- claim {k}（来源：Exported Work {k} of {works}，p.{k}）" for k in range(works))
        page = make_page(slug=f"export-{works}", body=body)
        url = reverse("wiki:page-export-markdown", kwargs={"slug": page.slug})
        client.get(url)
        Page.objects.filter(pk=page.pk).update(summary="moved")  # a write: nothing served from the cache
        with CaptureQueriesContext(connection) as captured:
            text = client.get(url).content.decode()
        assert text.count("\n" + str(works) + ". [") == 1
        assert any("wiki_citation" in q["sql"] for q in captured.captured_queries)
        return len(captured)

    assert queries(2) == queries(40)


def _export(client: Client, slug: str) -> bytes:
    response = client.get(reverse("wiki:page-export-markdown", kwargs={"slug": slug}))
    assert response.status_code == 200
    return response.content


def test_importing_an_unchanged_export_changes_nothing_however_often(client: Client, seed: None) -> None:
    for slug in ("agentic-rl", "agentic-rl-survey-notes"):
        page = Page.objects.get(slug=slug)
        revisions = page.revisions.count()
        for _ in range(2):
            text = _export(client, slug)
            assert (REFERENCES_MARKER in text.decode()) == (slug == "agentic-rl")  # the notes cite nothing
            report = page_import(page_file=parse_page_file(text, filename=f"{slug}.md"))
            assert report.unchanged
        assert page.revisions.count() == revisions
        assert (Page.objects.get(pk=page.pk).body, Page.objects.get(pk=page.pk).rendered_html) == (page.body, page.rendered_html)


def test_an_edited_export_keeping_the_marker_imports_its_text_without_the_references(client: Client, db: None) -> None:
    work = make_source(slug="marker-work", title="Marker Work: A Title")
    page = make_page(slug="marker-page", title="Marker Page", body=f"- A claim（来源：{work.title}，§2）\n")
    text = _export(client, page.slug).decode().replace("- A claim", "- An edited claim")
    assert "\n## References\n" in text or "\n## 参考文献\n" in text
    report = page_import(page_file=parse_page_file(text.encode(), filename="marker-page.md"))
    assert not report.unchanged and report.citations == 1
    # A marker whose comment was reworded still ends the text.
    reworded = text.replace("made from the page's citations", "ignore below")
    assert page_import(page_file=parse_page_file(reworded.encode(), filename="marker-page.md")).unchanged
    assert Page.objects.get(pk=page.pk).body == f"- An edited claim（来源：{work.title}，§2）\n"


@pytest.mark.parametrize(("title", "summary"), [
    ("'Reward' is 'enough'", "第一行\n第二行  两个空格"),
    ('"Quoted title"', "  leading and trailing spaces  "),
    ("Agentic AI 03: Survey Notes #1", 'a "quote", a \\backslash\\, a # hash: and a colon:'),
    ("# Not a heading", "\ttab\r\nCRLF and U+2028\u2028here"),
    ("强化学习笔记：“引号”", "- not a list\n---\nnot a fence"),
    ("2024", "true"),
])
def test_front_matter_gives_back_the_title_and_summary_as_saved(client: Client, db: None, title: str, summary: str) -> None:
    page = make_page(slug="强化学习笔记", title=title, summary=summary, body="Text.\n")
    text = _export(client, page.slug)
    parsed = parse_page_file(text, filename="x.md")
    assert (parsed.title, parsed.summary, parsed.slug) == (title, summary, page.slug)
    assert page_import(page_file=parsed).unchanged


@pytest.mark.parametrize(("line", "value"), [
    ('title: "Agentic AI 03: Agentic RL Survey Reading Notes"', "Agentic AI 03: Agentic RL Survey Reading Notes"),
    ("title: 'It''s here'", "It's here"),
    ("title: 'Reward' is 'enough'", "Reward' is 'enough"),  # as earlier versions wrote it: one pair of quotes taken off
    ('title: "C:\\path"', "C:\\path"),  # not YAML: read as typed
    ('title: "Line\\nbreak" # a comment', "Line\nbreak"),
    ("title: Bare: with a colon", "Bare: with a colon"),
])
def test_front_matter_written_by_hand_or_by_earlier_versions_still_reads(line: str, value: str) -> None:
    assert parse_page_file(f"---\n{line}\nslug: hand\n---\nText.\n".encode(), filename="x.md").title == value


def test_blank_lines_around_the_text_make_no_revision(client: Client, db: None) -> None:
    page = make_page(slug="blank-ends", body="\n\n    indented code\nno final line feed")
    text = _export(client, page.slug)
    parsed = parse_page_file(text, filename="x.md")
    assert parsed.body == "    indented code\nno final line feed\n"
    assert page_import(page_file=parsed).unchanged


def test_a_deleted_page_exports_nothing_and_answers_410(client: Client, db: None) -> None:
    page = make_page(slug="temp-page", body="Text.")
    page_delete(page=page, user=None, reason="test")
    for url in (reverse("wiki:page-export-markdown", kwargs={"slug": page.slug}),
                reverse("wiki:page-detail", kwargs={"slug": page.slug}) + "?format=md"):
        response = client.get(url)
        assert response.status_code == 410
        assert response["Content-Type"].startswith("text/html")
