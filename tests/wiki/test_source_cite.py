"""Cite a work: its reference in an APA-like and a GB/T 7714-like style, and that one entry as BibTeX, CSL-JSON and
RIS to copy or download, each read back as the work by the wiki's own importer."""

from __future__ import annotations

import html as html_lib
import json
import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_source
from wiki.models import Source, SourceKind
from wiki.references.bibtex import parse_bibtex
from wiki.references.csl import parse_csl_json
from wiki.references.ris import parse_ris
from wiki.references.work_citation import apa, gbt7714, plain
from wiki.services.merges import source_merge

pytestmark = pytest.mark.django_db

DAY = date(2025, 3, 5)


def _url(slug: str) -> str:
    return reverse("wiki:source-cite", kwargs={"slug": slug})


def _pre(page: str, element_id: str) -> str:
    found = re.search(rf'<pre id="{element_id}"[^>]*>(.*?)</pre>', page, re.S)
    assert found is not None, element_id
    return html_lib.unescape(re.sub(r"<[^>]+>", "", found[1]))


def _react() -> Source:
    return make_source(slug="react", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting in Language Models",
                       kind=SourceKind.PREPRINT, authors="Yao, Shunyu; Zhao, Jeffrey; Yu, Dian; Du, Nan; et al.",
                       year=2023, arxiv_id="2210.03629", venue="arXiv", bibtex_key="yao2023react")


def test_a_journal_article_in_both_styles() -> None:
    work = Source(title="Mastering the Game of Go without Human Knowledge", kind=SourceKind.PAPER, entry_type="article",
                  authors="Silver, David; Schrittwieser, Julian; Simonyan, Karen; Antonoglou, Ioannis", year=2017,
                  venue="Nature", doi="10.1038/nature24270",
                  bibliographic={"volume": "550", "number": "7676", "pages": "354–359"})

    parts = apa(work)
    assert plain(parts) == ("Silver, D., Schrittwieser, J., Simonyan, K., & Antonoglou, I. (2017). Mastering the Game of "
                            "Go without Human Knowledge. Nature, 550(7676), 354–359. https://doi.org/10.1038/nature24270")
    assert [part.text for part in parts if part.italic] == ["Nature", "550"]
    assert plain(gbt7714(work, cited=DAY)) == (
        "Silver D, Schrittwieser J, Simonyan K, et al. Mastering the Game of Go without Human Knowledge[J]. Nature, "
        "2017, 550(7676): 354-359. DOI: 10.1038/nature24270.")


def test_a_preprint_a_chinese_thesis_a_paper_in_proceedings_and_a_work_without_authors() -> None:
    react = Source(title="ReAct: Synergizing Reasoning and Acting", kind=SourceKind.PREPRINT, year=2023,
                   authors="Yao, Shunyu; Zhao, Jeffrey; et al.", arxiv_id="2210.03629", venue="arXiv")
    assert plain(apa(react)) == ("Yao, S., Zhao, J., et al. (2023). ReAct: Synergizing Reasoning and Acting "
                                 "(arXiv:2210.03629). arXiv. https://doi.org/10.48550/arXiv.2210.03629")
    assert plain(gbt7714(react, cited=DAY)) == ("Yao S, Zhao J, et al. ReAct: Synergizing Reasoning and Acting[EB/OL]. "
                                                "arXiv, (2023)[2025-03-05]. https://arxiv.org/abs/2210.03629.")
    thesis = Source(title="面向长程任务的智能体强化学习", entry_type="phdthesis", authors="张伟; 李四; 王五; 赵六", year=2024,
                    venue="清华大学", bibliographic={"address": "北京"})
    assert plain(gbt7714(thesis, cited=DAY)) == "张伟, 李四, 王五, 等. 面向长程任务的智能体强化学习[D]. 北京: 清华大学, 2024."
    paper = Source(title="Back to Basics", entry_type="inproceedings", authors="Arash Ahmadian; Ludwig van Beethoven",
                   year=2024, venue="ACL", bibliographic={"pages": "12248--12267"})
    assert plain(apa(paper)) == "Ahmadian, A., & van Beethoven, L. (2024). Back to Basics. In ACL (pp. 12248–12267)."
    assert plain(gbt7714(paper, cited=DAY)) == "Ahmadian A, van Beethoven L. Back to Basics[C]//ACL. 2024: 12248-12267."
    guide = Source(title="The ultimate guide?", kind=SourceKind.BLOG, url="https://example.org/g")
    assert plain(apa(guide)) == "The ultimate guide? (n.d.). https://example.org/g"
    assert plain(gbt7714(guide, cited=DAY)) == "The ultimate guide?[EB/OL]. [2025-03-05]. https://example.org/g."


def test_an_organisation_kept_in_braces_a_particle_and_a_suffix_are_cited_as_the_exports_read_them() -> None:
    work = Source(title="Scaling Agents", entry_type="article", year=2025, venue="Nature",
                  authors="{Google DeepMind}; van der Maaten, Laurens; King, Jr., Martin Luther")

    assert plain(apa(work)).startswith("Google DeepMind, van der Maaten, L., & King, M. L., Jr. (2025).")
    assert plain(gbt7714(work, cited=DAY)).startswith("Google DeepMind, van der Maaten L, King M L Jr. Scaling Agents[J].")


def test_apa_lists_twenty_authors_and_folds_more_with_an_ellipsis() -> None:
    many = Source(title="Big", year=2024, authors="; ".join(f"Author{n}, A." for n in range(1, 41)))

    assert plain(apa(many)).startswith(", ".join(f"Author{n}, A." for n in range(1, 20)) + ", … Author40, A. (2024).")


def test_the_cite_page_shows_every_style_with_a_copy_button_and_downloads(client: Client) -> None:
    work = _react()

    response = client.get(_url(work.slug))

    assert response.status_code == 200
    page = response.content.decode()
    assert _pre(page, "cite-apa").startswith("Yao, S., Zhao, J., Yu, D., Du, N., et al. (2023).")
    assert "<i>ReAct: Synergizing Reasoning and Acting in Language Models</i>" in page
    assert f"[{timezone.localdate().isoformat()}]" in _pre(page, "cite-gbt")
    for element_id in ("cite-apa", "cite-gbt", "cite-bibtex", "cite-csl", "cite-ris"):
        assert f'data-copy="{element_id}"' in page
    assert 'href="?format=bib" download' in page and 'href="?format=ris" download' in page
    # each file holds the one work, read back as it
    [bib] = parse_bibtex(_pre(page, "cite-bibtex"))
    [csl] = parse_csl_json(_pre(page, "cite-csl"))
    [ris] = parse_ris(_pre(page, "cite-ris"))
    for entry in (bib, csl, ris):
        assert entry.draft is not None and entry.errors == []
        assert (entry.label, entry.draft.title, entry.draft.arxiv_id, entry.draft.authors) == (
            "yao2023react", work.title, work.arxiv_id, work.authors)
    detail = client.get(work.get_absolute_url()).content.decode()
    assert f'href="{_url(work.slug)}">Cite this work</a>' in detail


@pytest.mark.parametrize(("fmt", "media_type", "extension"), [
    ("bib", "application/x-bibtex", "bib"),
    ("csl", "application/vnd.citationstyles.csl+json", "json"),
    ("ris", "application/x-research-info-systems", "ris"),
])
def test_one_entry_downloads_in_each_format(client: Client, fmt: str, media_type: str, extension: str) -> None:
    work = _react()

    response = client.get(_url(work.slug) + f"?format={fmt}")

    assert response.status_code == 200
    assert response["Content-Type"] == f"{media_type}; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="yao2023react.{extension}"'
    text = response.content.decode()
    entries = parse_bibtex(text) if fmt == "bib" else parse_ris(text) if fmt == "ris" else parse_csl_json(text)
    assert [entry.label for entry in entries] == ["yao2023react"]
    if fmt == "csl":
        assert json.loads(text)[0]["id"] == "yao2023react"


def test_another_format_is_refused_saying_which_there_are(client: Client) -> None:
    work = _react()

    response = client.get(_url(work.slug) + "?format=xml")

    assert response.status_code == 400
    assert "ask for bib, csl or ris" in response.content.decode()


def test_a_merged_works_cite_page_leads_to_the_kept_works_and_a_deleted_one_is_gone(client: Client) -> None:
    kept = _react()
    merged = make_source(slug="react-copy", short_name="ReAct copy", title="ReAct copy")
    source_merge(merged=merged, kept=kept, user=None)

    response = client.get(_url("react-copy") + "?format=ris")
    assert response.status_code == 301 and response["Location"] == _url("react") + "?format=ris"
    assert client.get(_url("no-such-work")).status_code == 404


def test_the_cite_page_runs_one_query_whatever_the_work(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    small = make_source(slug="small", title="Small")
    big = make_source(slug="big", title="Big", authors="; ".join(f"Author{n}, A." for n in range(200)),
                      abstract="Long. " * 2000, bibliographic={"pages": "1–2", "volume": "3"})
    for work in (small, big):
        with django_assert_num_queries(1):
            assert client.get(_url(work.slug)).status_code == 200


def test_a_work_out_on_arxiv_only_is_cited_as_a_preprint_whatever_its_kind() -> None:
    survey = Source(title="The Landscape of Agentic RL: A Survey", kind=SourceKind.SURVEY, year=2025,
                    authors="Zhang, Guibin", arxiv_id="2509.02547", venue="arXiv")

    assert plain(apa(survey)) == ("Zhang, G. (2025). The Landscape of Agentic RL: A Survey (arXiv:2509.02547). arXiv. "
                                  "https://doi.org/10.48550/arXiv.2509.02547")
    assert apa(survey)[1].italic
    assert plain(gbt7714(survey, cited=DAY)) == ("Zhang G. The Landscape of Agentic RL: A Survey[EB/OL]. arXiv, (2025)"
                                                 "[2025-03-05]. https://arxiv.org/abs/2509.02547.")
