"""A page as Markdown with its citations, and the works it cites as references at the end."""

from __future__ import annotations

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ContrastWiki, make_page, make_source
from wiki.models import Page
from wiki.references.bibtex import parse_bibtex
from wiki.services.page_import import parse_page_file


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
