"""A reference file's fields the wiki has no column for are kept, shown, edited and written back; a reference
manager's record of its own copy (file paths, timestamps) is left out, said so."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bibtexparser.entrypoint import parse_string
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_source
from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import csl_item, parse_csl_json
from wiki.references.extra_fields import is_local
from wiki.references.latex import latex_to_text
from wiki.references.ris import parse_ris
from wiki.references.ris_export import dump_ris
from wiki.roles import Account
from wiki.services.source_import import sources_import

# Zotero's own BibTeX export of an arXiv preprint (a public library's, abstract cut), and Better BibTeX's biblatex
# test library (retorquere/zotero-better-bibtex, test/fixtures/export): keywords, access dates, places, an editor.
ZOTERO = r"""@misc{lu_ai_2024,
	title = {The {AI} {Scientist}: {Towards} {Fully} {Automated} {Open}-{Ended} {Scientific} {Discovery}},
	shorttitle = {The {AI} {Scientist}},
	url = {http://arxiv.org/abs/2408.06292},
	abstract = {Given a broad research direction and a simple initial codebase, The AI Scientist performs ideation.},
	language = {en},
	urldate = {2024-09-04},
	publisher = {arXiv},
	author = {Lu, Chris and Lu, Cong and Lange, Robert Tjarko and Foerster, Jakob and Clune, Jeff and Ha, David},
	month = aug,
	year = {2024},
	note = {arXiv:2408.06292 [cs]},
	keywords = {Computer Science - Artificial Intelligence, Computer Science - Computation and Language},
	file = {arXiv Fulltext PDF:/Users/prof.biu/Zotero/storage/PNTDRNV5/Lu et al. - 2024.pdf:application/pdf},
}
"""
BETTER_BIBLATEX = r"""@book{Kolawa2007,
  author = {Kolawa, Adam and Huizinga, Dorota and {Wiley InterScience (Online service)}},
  editor = {{IEEE Computer Society} and van der Berg, Anna},
  date = {2007-03-12},
  isbn = {9780470165164},
  keywords = {Computer programs -- Correctness.,Computer programs -- Testing -- Data processing.},
  langid = {english},
  location = {Hoboken, {NJ}, {USA}},
  pagetotal = {xviii+214},
  publisher = {{IEEE} Computer Society Press},
  shorttitle = {Automated Defect Prevention},
  timestamp = {2015-02-24 12:14:36 +0100},
  title = {Automated Defect Prevention : Best Practices in Software Management},
  titleaddon = {A Handbook},
  url = {http://site.ebrary.com/lib/alltitles/docDetail.action?docID=10296302},
  urldate = {2015-01-09}
}
"""
# JabRef keeps its own marks in the entry: who owns it, when it was made, its groups, the PDF on this computer.
JABREF = r"""@techreport{nist2020,
  author      = {{National Institute of Standards and Technology}},
  title       = {Security and Privacy Controls},
  institution = {NIST},
  year        = {2020},
  type        = {Special Publication},
  number      = {800-53 Rev. 5},
  howpublished = {Federal report series},
  owner       = {anna},
  creationdate = {2021-03-01T10:00:00},
  groups      = {security},
  file        = {:C\:/Users/anna/Documents/nist.pdf:PDF},
  localfile   = {/home/anna/papers/nist.pdf},
  mendeley-tags = {controls},
}
"""


def _entry(bibtex: str) -> Any:
    [entry] = parse_bibtex(bibtex)
    assert entry.errors == [] and entry.draft is not None
    return entry


def _fields(bibtex: str) -> dict[str, str]:
    """Every field of the file's one entry by its lower-case name, decoded, as a reader of the file sees them."""
    [entry] = parse_string(bibtex).entries
    return {field.key.lower(): latex_to_text(str(field.value)) for field in entry.fields}


@pytest.mark.parametrize("bibtex", [ZOTERO, BETTER_BIBLATEX, JABREF])
def test_an_import_then_export_loses_no_bibliographic_field(db: None, bibtex: str) -> None:
    report = sources_import(text=bibtex)
    assert report.counts["created"] == 1, report.results
    work = Source.objects.get(pk=report.results[0].source.pk)  # type: ignore[union-attr]

    before, after = _fields(bibtex), _fields(dump_bibtex([work]))

    # the note that is only the arXiv ID says what eprint says; biblatex's location is kept by its name, and a date is
    # written back beside the year it gives
    written_otherwise = {"note": "eprint", "date": "year"}
    for name, value in before.items():
        if is_local(name, value):
            assert name not in after, name
        elif name in after:
            assert after[name].replace("{", "").replace("}", "") == value.replace("{", "").replace("}", ""), name
        else:
            assert written_otherwise.get(name) in after, name


def test_fields_the_wiki_has_no_place_for_are_kept_by_their_names(db: None) -> None:
    entry = _entry(BETTER_BIBLATEX)
    assert entry.draft.extra_fields == {
        "editor": "IEEE Computer Society; van der Berg, Anna",
        "date": "2007-03-12",
        "keywords": "Computer programs – Correctness.,Computer programs – Testing – Data processing.",
        "langid": "english", "location": "Hoboken, NJ, USA", "pagetotal": "xviii+214", "titleaddon": "A Handbook",
        "urldate": "2015-01-09",
    }
    assert entry.warnings == ["timestamp left out: the reference manager's record of its own copy (where its files "
                              "lie, when it was added), not the work's"]


def test_a_reference_managers_own_fields_and_paths_are_left_out_and_said_so() -> None:
    entry = _entry(JABREF)
    assert entry.draft.extra_fields == {"type": "Special Publication", "howpublished": "Federal report series"}
    assert entry.warnings == ["owner, creationdate, groups, file, localfile, mendeley-tags left out: the reference "
                              "manager's record of its own copy (where its files lie, when it was added), not the work's"]
    # a path in a field of another name is no more the work's
    path = _entry("@misc{p, title = {P}, attachment = {/Users/anna/papers/p.pdf}, forum = {/r/MachineLearning}}")
    assert path.draft.extra_fields == {"forum": "/r/MachineLearning"}
    assert path.warnings == ["attachment “/Users/anna/papers/p.pdf” is left out: a path on one computer, not the work's"]


def test_a_field_too_long_or_using_an_undefined_macro_is_left_out_and_the_entry_kept() -> None:
    entry = _entry("@misc{k, title = {T}, keywords = {" + "x" * 3001 + "}, language = english}")
    assert entry.draft.extra_fields == {}
    assert entry.warnings == ["language is left out: it uses “english”, which no @string defines",
                              "keywords is left out: it is longer than 3,000 characters (it has 3,001)"]


def test_a_date_is_written_back_only_while_it_agrees_with_the_year(db: None) -> None:
    work = make_source(title="Automated Defect Prevention", year=2007, extra_fields={"date": "2007-03-12"})
    assert "date = {2007-03-12}" in dump_bibtex([work])
    work.year = 2008  # corrected since: the date the file gave is no longer the work's
    assert "date =" not in dump_bibtex([work]) and "year = {2008}" in dump_bibtex([work])


def test_csl_json_writes_the_fields_it_has_a_variable_for_and_reads_them_back() -> None:
    draft = _entry(BETTER_BIBLATEX).draft
    source = Source(slug="kolawa", year=2007, **{k: v for k, v in draft.as_fields().items() if k != "year"})
    item = csl_item(source)
    assert item["keyword"] == "Computer programs – Correctness.,Computer programs – Testing – Data processing."
    assert (item["language"], item["number-of-pages"], item["publisher-place"]) == ("english", "xviii+214",
                                                                                    "Hoboken, NJ, USA")
    assert item["accessed"] == {"date-parts": [[2015, 1, 9]]}
    assert item["editor"] == [{"literal": "IEEE Computer Society"},
                              {"family": "Berg", "given": "Anna", "non-dropping-particle": "van der"}]

    [back] = parse_csl_json(json.dumps([item]))
    assert back.draft is not None
    # the place is read as the work's bibliographic detail; the rest as the same other fields
    assert back.draft.bibliographic["address"] == "Hoboken, NJ, USA"
    assert back.draft.extra_fields == {"keywords": item["keyword"], "language": "english", "urldate": "2015-01-09",
                                       "pagetotal": "xviii+214", "editor": "IEEE Computer Society; van der Berg, Anna"}


def test_zoteros_csl_json_keeps_its_keywords_language_and_access_date() -> None:
    zotero = [{"id": "http://zotero.org/users/1/items/ABC", "type": "article", "title": "The AI Scientist",
               "author": [{"family": "Lu", "given": "Chris"}], "language": "en", "keyword": "Computer Science - AI",
               "accessed": {"date-parts": [["2024", 9, 4]]}, "source": "arXiv.org", "number": "arXiv:2408.06292",
               "publisher": "arXiv", "issued": {"date-parts": [[2024, 8, 12]]}}]
    [entry] = parse_csl_json(json.dumps(zotero))
    assert entry.draft is not None
    assert entry.draft.extra_fields == {"keywords": "Computer Science - AI", "language": "en", "urldate": "2024-09-04"}


def test_ris_keeps_its_keywords_and_language() -> None:
    [entry] = parse_ris("TY  - JOUR\nTI  - Mastering the Game of Go\nKW  - Go\nKW  - Monte Carlo tree search\n"
                        "LA  - en\nER  - \n")
    assert entry.draft is not None
    assert entry.draft.extra_fields == {"keywords": "Go, Monte Carlo tree search", "language": "en"}


def test_ris_writes_its_keywords_and_language_back(db: None) -> None:
    work = make_source(slug="alphago", title="Mastering the Game of Go",
                       extra_fields={"keywords": "Go, Monte Carlo tree search", "language": "en", "urldate": "2024-09-04"})

    text = dump_ris([work])

    assert "KW  - Go\nKW  - Monte Carlo tree search\n" in text and "LA  - en\n" in text
    [entry] = parse_ris(text)
    assert entry.draft is not None
    assert entry.draft.extra_fields == {"keywords": "Go, Monte Carlo tree search", "language": "en"}


def test_the_works_page_shows_its_other_fields(client: Client, db: None) -> None:
    work = make_source(slug="kolawa", title="Automated Defect Prevention",
                       extra_fields={"keywords": "testing <script>alert(1)</script>", "editor": "{IEEE Computer Society}"})

    html = client.get(work.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()

    assert "<h2>其他字段</h2>" in html and "<dt><code>keywords</code></dt>" in html
    assert "testing &lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert ">IEEE Computer Society</dd>" in html


def _as_a_browser_sends(client: Client, url: str, **changes: str) -> dict[str, Any]:
    form = client.get(url).context["form"]
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    return {**data, **changes}


def test_an_editor_edits_the_other_fields_a_line_each(editor_client: Client, db: None) -> None:
    work = make_source(slug="kolawa", title="Automated Defect Prevention", extra_fields={"keywords": "testing"})
    url = reverse("wiki:source-edit", kwargs={"slug": work.slug})
    assert "keywords = testing" in editor_client.get(url).content.decode()

    response = editor_client.post(url, _as_a_browser_sends(editor_client, url,
                                                            extra_fields="Keywords = testing, QA\n\nlangid =  english \n"))

    assert response.status_code == 302
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "testing, QA", "langid": "english"}
    assert "keywords = {testing, QA}" in dump_bibtex([work]) and "langid = {english}" in dump_bibtex([work])


@pytest.mark.parametrize(("typed", "message"), [
    ("keywords testing", "Line 1 is no field: write it as name = value."),
    ("keywords = a\nkeywords = b", "Line 2 gives “keywords” again."),
    ("pages = 1--2", "“pages” is kept in the work's own fields or bibliographic details, not among its other fields."),
    ("key words = a", "“key words” is no field name"),
])
def test_a_wrong_other_field_is_an_error_on_its_field_and_changes_nothing(editor_client: Client, db: None, typed: str,
                                                                         message: str) -> None:
    work = make_source(slug="kolawa", title="Automated Defect Prevention", extra_fields={"keywords": "testing"})
    url = reverse("wiki:source-edit", kwargs={"slug": work.slug})

    response = editor_client.post(url, _as_a_browser_sends(editor_client, url, extra_fields=typed),
                                  headers={"accept-language": "en"})

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) == {"extra_fields"} and message in errors["extra_fields"][0]
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "testing"}


def test_the_api_reads_and_writes_the_other_fields(editor: Account, db: None) -> None:
    work = make_source(slug="kolawa", title="Automated Defect Prevention", extra_fields={"keywords": "testing"})
    api = APIClient()
    api.force_authenticate(editor)
    url = f"/api/v1/sources/{work.slug}/"
    assert api.get(url).json()["extra_fields"] == {"keywords": "testing"}

    refused = api.patch(url, {"extra_fields": {"title": "x", "urldate": "2024-01-01"}}, format="json",
                        **if_match(api, url))
    assert refused.status_code == 400 and "extra_fields" in refused.json()["errors"]
    work.refresh_from_db()
    assert work.extra_fields == {"keywords": "testing"}

    saved = api.patch(url, {"extra_fields": {"URLdate": " 2024-01-01 ", "keywords": ""}}, format="json",
                      **if_match(api, url))
    assert saved.status_code == 200, saved.json()
    assert saved.json()["extra_fields"] == {"urldate": "2024-01-01"}


@pytest.mark.parametrize("url", ["/sources/?format=bib", "/sources/?format=csl", "/api/v1/sources/export/?format=bib",
                                 "/api/v1/sources/export/?format=csl"])
def test_exports_of_works_with_other_fields_run_as_many_queries_for_twenty_times_the_works(client: Client, db: None,
                                                                                          url: str) -> None:
    def count() -> int:
        Source.objects.filter(pk=Source.objects.first().pk).update(notes="touched")  # type: ignore[union-attr]
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
            assert response.status_code == 200
        return len(captured)

    def add(n: int, start: int) -> None:
        for i in range(start, start + n):
            make_source(title=f"Work {i}", authors="{Google DeepMind}; van der Berg, Anna", year=2024,
                        arxiv_id=f"2401.{i:05d}", extra_fields={"keywords": "agents", "primaryclass": "cs.LG"})

    add(3, 0)
    client.get(url)
    small = count()
    add(57, 3)
    assert count() == small
