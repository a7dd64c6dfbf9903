"""The same work written as bibliographies write it (a subtitle after a dash, LaTeX, accents or ``&`` given otherwise,
an arXiv ID with its version, a DOI as an address) is found in the wiki, whether it comes in by hand, in a file or
through the API; distinct works that look alike (``Reflexion`` and ``Reflexion 2``, two papers named ``ARES``, a
workshop paper years before its conference version) are kept apart.

The entries are written as public repositories' ``.bib`` files and arXiv's listings write them."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client

from tests.factories import make_source
from tests.wiki.web_imports import web_import
from wiki.forms.sources import SourceForm
from wiki.models import Source
from wiki.references.identifiers import normalize_doi, normalize_title
from wiki.references.matching import main_title
from wiki.services.source_import import sources_import
from wiki.services.sources import source_find_duplicate, source_identifiers

pytestmark = pytest.mark.django_db

AIOPTIMIZER = "A reinforcement learning-based software performance optimisation prototype for cost minimisation"
TOOLFORMER = "Language Models Can Teach Themselves to Use Tools"
ARES_RAG = "ARES: An Automated Evaluation Framework for Retrieval-Augmented Generation Systems"
ARES_MM = ("ARES: Alternating Reinforcement Learning and Supervised Fine-Tuning for Enhanced Multi-Modal Chain-of-Thought "
           "Reasoning Through Diverse AI Feedback")
REFLEXION = "Reflexion: Language Agents with Verbal Reinforcement Learning"
SHINN = "Shinn, Noah and Cassano, Federico and Gopinath, Ashwin and Narasimhan, Karthik and Yao, Shunyu"
# A DOI of the SICI form, as doi.org addresses percent-encode it.
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0"
SICI_URL = "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0"


def _bib(title: str, *, key: str = "entry", author: str = "", year: int | None = 2023, more: str = "") -> str:
    fields = [f"  title = {{{title}}}"]
    if author:
        fields.append(f"  author = {{{author}}}")
    if year:
        fields.append(f"  year = {{{year}}}")
    if more:
        fields.append(f"  {more}")
    return f"@inproceedings{{{key},\n" + ",\n".join(fields) + "\n}\n"


def _outcomes(text: str) -> list[tuple[str, Source | None]]:
    return [(result.status, result.source) for result in sources_import(text=text).results]


# A subtitle after a dash, as arXiv lists a title (" -- "), BibTeX writes an em dash ("---"), a summary or a Chinese
# title writes one (" - ", "——"), or a colon of either width.
SUBTITLED = [
    f"AIOptimizer -- {AIOPTIMIZER}",
    f"AIOptimizer --- {AIOPTIMIZER}",
    f"AIOptimizer — {AIOPTIMIZER}",
    f"AIOptimizer - {AIOPTIMIZER}",
    f"AIOptimizer – {AIOPTIMIZER}",
    "AIOptimizer ——基于强化学习的软件性能优化原型",
    "AIOptimizer：基于强化学习的软件性能优化原型",
    f"{{AIOptimizer}}: {AIOPTIMIZER}",
]


@pytest.mark.parametrize("title", SUBTITLED)
def test_a_work_cited_by_its_name_is_the_entry_whose_subtitle_follows_a_dash(title: str) -> None:
    cited = make_source(title="AIOptimizer")  # as a page's citation creates it: a title alone
    assert _outcomes(_bib(title, more="eprint = {2307.07846}, archivePrefix = {arXiv}")) == [("duplicate", cited)]
    assert Source.objects.count() == 1


def test_a_work_cited_by_its_name_is_found_when_added_by_hand_with_a_dashed_subtitle() -> None:
    cited = make_source(title="Toolformer")
    found = source_find_duplicate(title=f"Toolformer — {TOOLFORMER}", year=2023, authors="Schick, Timo")
    assert found is not None and found.work == cited

    form = SourceForm(data={"short_name": "Toolformer (Meta)", "title": f"Toolformer - {TOOLFORMER}", "kind": "paper",
                            "year": 2023})
    assert not form.is_valid()
    assert form.errors.as_data()["__all__"][0].code == "duplicate" and form.duplicate == cited


def test_a_hyphen_or_a_dash_within_words_parts_no_subtitle() -> None:
    make_source(title="Self")
    make_source(title="Kullback")
    text = (_bib("Self-Refine: Iterative Refinement with Self-Feedback", key="madaan2023self")
            + _bib("Kullback–Leibler Control for Language Agents", key="kl2023"))
    assert [status for status, _ in _outcomes(text)] == ["created", "created"]
    assert main_title("Self-Refine") == main_title("Kullback–Leibler Control") == main_title("2020–2021 Agents") == ""


@pytest.mark.parametrize(("kept", "entry"), [
    # accents: as LaTeX, as letters, left out
    ("Apprentissage par renforcement pour agents logiciels : une évaluation",
     r"Apprentissage par renforcement pour agents logiciels : une {\'e}valuation"),
    ("Apprentissage par renforcement pour agents logiciels : une évaluation",
     "Apprentissage par renforcement pour agents logiciels: une evaluation"),
    ("Über Werkzeuge und Agenten", r"{\"U}ber Werkzeuge und Agenten"),
    ("Über Werkzeuge und Agenten", "Uber Werkzeuge und Agenten"),
    # an ampersand, escaped or spelt out
    ("Tree-GRPO: Tree Search for LLM Agent & Reinforcement Learning",
     r"{Tree-GRPO}: Tree Search for {LLM} Agent \& Reinforcement Learning"),
    ("Tree-GRPO: Tree Search for LLM Agent & Reinforcement Learning",
     "Tree-GRPO: Tree Search for LLM Agent and Reinforcement Learning"),
    # case, braces and a final full stop, as Google Scholar and DBLP write them
    ("ReAct: Synergizing Reasoning and Acting in Language Models",
     "{ReAct}: Synergizing reasoning and acting in language models."),
])
def test_the_same_title_written_otherwise_is_the_same_work(kept: str, entry: str) -> None:
    work = make_source(title=kept, year=2023, authors="Yao, Shunyu")
    assert _outcomes(_bib(entry, author="Shunyu Yao")) == [("duplicate", work)]


def test_a_title_typed_with_latex_or_without_accents_is_found_when_added_by_hand() -> None:
    work = make_source(title="Über Werkzeuge & Agenten", year=2023)
    for typed in (r"{\"U}ber Werkzeuge \& Agenten", "Uber Werkzeuge and Agenten.", "über werkzeuge & agenten"):
        found = source_find_duplicate(title=typed, year=2023)
        assert found is not None and found.work == work, typed


@pytest.mark.parametrize("more", [
    "eprint = {2303.11366v4}, archivePrefix = {arXiv}",
    "url = {https://arxiv.org/abs/2303.11366v4}",
    "url = {http://arxiv.org/pdf/2303.11366v2.pdf}",
    "journal = {arXiv preprint arXiv:2303.11366}",
])
def test_an_arxiv_id_with_its_version_or_in_an_address_is_the_work_of_that_id(more: str) -> None:
    work = make_source(title=REFLEXION, arxiv_id="2303.11366", year=2023)
    assert _outcomes(_bib("Reflexion", more=more, year=None)) == [("duplicate", work)]


@pytest.mark.parametrize("more", [
    "doi = {https://doi.org/10.1162/TACL_A_00713}",
    "doi = {http://dx.doi.org/10.1162/tacl\\_a\\_00713}",
    "url = {https://doi.org/10.1162/tacl_a_00713}",
    "doi = {doi:10.1162/tacl_a_00713}",
])
def test_a_doi_written_as_an_address_is_the_work_of_that_doi(more: str) -> None:
    work = make_source(title="When Can LLMs Actually Correct Their Own Mistakes?", doi="10.1162/tacl_a_00713")
    assert _outcomes(_bib("Kamoi et al. 2024", more=more, year=2024)) == [("duplicate", work)]


def test_a_doi_address_percent_encoding_the_doi_is_the_work_of_that_doi() -> None:
    assert normalize_doi(SICI_URL) == normalize_doi(SICI) == SICI.lower()
    work = make_source(title="A Journal Paper", doi=SICI.lower())
    assert _outcomes(_bib("A Journal Paper, as Crossref links it", more=f"doi = {{{SICI_URL}}}")) == [("duplicate", work)]
    assert _outcomes(_bib("The Same, by Its Address", key="b", more=f"url = {{{SICI_URL}}}")) == [("duplicate", work)]
    arxiv_id, doi = source_identifiers(arxiv_id="", doi="", url=SICI_URL)
    found = source_find_duplicate(arxiv_id=arxiv_id, doi=doi, title="Typed by hand")
    assert found is not None and found.work == work


def test_a_name_with_a_number_is_another_work() -> None:
    cited = make_source(title="Reflexion")
    full = make_source(title=REFLEXION, year=2023, authors="Shinn, Noah")
    text = (_bib("Reflexion 2 -- Agents That Reflect Twice", key="two", author="Shinn, Noah")
            + _bib("Reflexion 2", key="bare", author="Shinn, Noah"))
    outcomes = _outcomes(text)
    assert [status for status, _ in outcomes] == ["created", "created"]
    assert {cited, full}.isdisjoint(source for _, source in outcomes)
    assert source_find_duplicate(title="Reflexion 2", year=2023, authors="Shinn, Noah") is not None  # the one created
    assert source_find_duplicate(title="Reflexion 3", year=2023, authors="Shinn, Noah") is None


def test_two_papers_sharing_a_name_before_the_colon_are_two_works() -> None:
    rag = make_source(title=ARES_RAG, year=2023, authors="Saad-Falcon, Jon")
    (outcome,) = _outcomes(_bib(ARES_MM, author="Byun, Ju-Seung and Dodd, Jiarui", year=2024))
    assert outcome[0] == "created" and outcome[1] != rag
    (outcome,) = _outcomes(_bib(ARES_MM.replace("ARES:", "ARES --"), key="again", author="Byun, Ju-Seung", year=2024))
    assert outcome[0] == "duplicate" and outcome[1] != rag


def test_a_work_cited_by_a_name_two_papers_share_is_one_of_them_not_both() -> None:
    cited = make_source(title="ARES")
    text = (_bib(ARES_RAG, key="saadfalcon2023ares", author="Saad-Falcon, Jon")
            + _bib(ARES_MM, key="byun2024ares", author="Byun, Ju-Seung", year=2024))
    (first, found), (second, created) = _outcomes(text)
    assert (first, found) == ("duplicate", cited)
    assert second == "created" and created is not None and created != cited
    assert Source.objects.count() == 2
    # the same entry twice in the file is one work still
    assert [status for status, _ in _outcomes(text + _bib(ARES_RAG, key="again", author="Saad-Falcon, Jon"))] == [
        "duplicate", "duplicate", "duplicate"]


def test_a_version_a_year_apart_is_the_same_work_and_two_years_apart_another() -> None:
    """The rule: the same title by the same first author a year apart is one work in two versions (a preprint or a
    workshop paper and its conference version), offered to the editor as such; further apart, or with another DOI,
    two works (a workshop paper followed years later by a journal paper of the same title)."""
    work = make_source(title=REFLEXION, year=2023, authors="Shinn, Noah")
    (outcome,) = sources_import(text=_bib(REFLEXION, key="workshop", author=SHINN, year=2022)).results
    assert (outcome.status, outcome.source) == ("duplicate", work)
    found = source_find_duplicate(title=REFLEXION, year=2022, authors="Noah Shinn")
    assert found is not None and found.work == work and found.is_version
    assert _outcomes(_bib(REFLEXION, key="journal", author=SHINN, year=2025))[0][0] == "created"
    doi_work = make_source(title="Agent Workflow Memory", year=2024, doi="10.1000/workshop.1")
    assert _outcomes(_bib("Agent Workflow Memory", key="awm", year=2024, more="doi = {10.1000/conference.2}"))[0][0] == "created"
    assert Source.objects.filter(title="Agent Workflow Memory").exclude(pk=doi_work.pk).count() == 1


def test_the_web_import_finds_accents_and_dashes_and_keeps_distinct_works_apart(editor_client: Client) -> None:
    cited = make_source(title="AIOptimizer")
    accented = make_source(title="Über Werkzeuge und Agenten", year=2023)
    rag = make_source(title=ARES_RAG, year=2023, authors="Saad-Falcon, Jon")
    text = (_bib(f"AIOptimizer ——{AIOPTIMIZER}", key="aiopt") + _bib("Uber Werkzeuge und Agenten", key="uber")
            + _bib(ARES_MM, key="byun2024ares", author="Byun, Ju-Seung", year=2024))
    response = web_import(editor_client, {"entry": text})
    report = response.context["report"]
    assert report.counts["duplicate"] == 2 and report.counts["created"] == 1
    assert [(r.status, r.source) for r in report.results[:2]] == [("duplicate", cited), ("duplicate", accented)]
    assert report.results[2].source not in (cited, accented, rag)


migration = importlib.import_module("wiki.migrations.0056_titles_matched_without_accents")


def test_the_migration_reads_stored_titles_with_accents_ampersands_and_latex_anew() -> None:
    accented = make_source(title="Über Werkzeuge & Agenten", year=2023)
    latex = make_source(title=r"Apprentissage par renforcement : une {\'e}valuation", year=2023)
    plain = make_source(title="Tool Learning", year=2024)
    # As the wiki stored them before accents, ampersands and LaTeX were read through.
    Source.objects.filter(pk=accented.pk).update(normalized_title="über werkzeuge agenten")
    Source.objects.filter(pk=latex.pk).update(normalized_title="apprentissage par renforcement une e valuation")

    with connection.schema_editor() as schema_editor:
        migration.forward(apps, schema_editor)
    assert Source.objects.get(pk=accented.pk).normalized_title == normalize_title(accented.title) == "uber werkzeuge and agenten"
    assert Source.objects.get(pk=latex.pk).normalized_title == "apprentissage par renforcement une evaluation"
    assert Source.objects.get(pk=plain.pk).normalized_title == "tool learning"
    assert _outcomes(_bib("Uber Werkzeuge and Agenten")) == [("duplicate", accented)]

    with connection.schema_editor() as schema_editor:
        migration.backward(apps, schema_editor)
    assert Source.objects.get(pk=accented.pk).normalized_title == "über werkzeuge agenten"
