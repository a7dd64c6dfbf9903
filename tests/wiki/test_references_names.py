"""Authors in and out: an organisation braced in BibTeX stays one, and CSL-JSON names persons by their parts."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.factories import make_source
from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import csl_item, parse_csl_json
from wiki.references.names import csl_name, name_from_csl
from wiki.services.source_import import sources_import

# Better BibTeX's test library (retorquere/zotero-better-bibtex, test/fixtures/export): a single-field creator
# braced, particles and a suffix as Zotero's creators hold them.
BBT_SINGLE_FIELD = r"""@book{Kolawa2007,
  author = {Kolawa, Adam and Huizinga, Dorota and {Wiley InterScience (Online service)}},
  date = {2007},
  isbn = {9780470165164},
  location = {Hoboken, {NJ}, {USA}},
  publisher = {{IEEE} Computer Society Press},
  shorttitle = {Automated Defect Prevention},
  title = {Automated Defect Prevention : Best Practices in Software Management},
  url = {http://site.ebrary.com/lib/alltitles/docDetail.action?docID=10296302},
  urldate = {2015-01-09}
}
"""
BBT_PARTICLES = r"""@book{fixedkey,
  author = {von Humboldt, Alexander and Gooding, Jr., Cuba and de {La Fontaine}, Jean and {U.S. Bureau of the Census}},
  date = {1963},
  publisher = {Routledge \& Kegan Paul},
  title = {Norm and Action. A Logical Enquiry}
}
"""
CORPORATE = r"""@techreport{who2023,
  author = {{World Health Organization} and Smith, John and {Google DeepMind}},
  title = {Global Report on Agents},
  institution = {WHO},
  year = {2023}
}
"""


def _draft_authors(bibtex: str) -> str:
    [entry] = parse_bibtex(bibtex)
    assert entry.errors == [] and entry.draft is not None
    return entry.draft.authors


def test_a_braced_organisation_stays_one_and_is_written_back_braced() -> None:
    authors = _draft_authors(CORPORATE)
    # the wiki knows the WHO for a body by its name; Google DeepMind it could take for a person, so it keeps the braces
    assert authors == "World Health Organization; Smith, John; {Google DeepMind}"

    source = Source(slug="who", title="Global Report on Agents", authors=authors, entry_type="techreport")
    assert "author = {{World Health Organization} and Smith, John and {Google DeepMind}}" in dump_bibtex([source])
    assert csl_item(source)["author"] == [{"literal": "World Health Organization"}, {"family": "Smith", "given": "John"},
                                          {"literal": "Google DeepMind"}]


def test_better_bibtex_single_field_creators_and_particles_read_as_zotero_holds_them() -> None:
    assert _draft_authors(BBT_SINGLE_FIELD) == "Kolawa, Adam; Huizinga, Dorota; Wiley InterScience (Online service)"
    authors = _draft_authors(BBT_PARTICLES)
    # a body's name the wiki reads whole by itself ("of") needs no braces to be kept so
    assert authors == "von Humboldt, Alexander; Gooding, Jr., Cuba; de La Fontaine, Jean; U.S. Bureau of the Census"

    source = Source(slug="norm", title="Norm and Action", authors=authors)
    assert csl_item(source)["author"] == [
        {"family": "Humboldt", "given": "Alexander", "non-dropping-particle": "von"},
        {"family": "Gooding", "given": "Cuba", "suffix": "Jr."},
        {"family": "La Fontaine", "given": "Jean", "non-dropping-particle": "de"},
        {"literal": "U.S. Bureau of the Census"},
    ]
    assert ("author = {von Humboldt, Alexander and Gooding, Jr., Cuba and de La Fontaine, Jean and "
            "{U.S. Bureau of the Census}}") in dump_bibtex([source])


@pytest.mark.parametrize(("name", "csl"), [
    ("Sutton, Richard S.", {"family": "Sutton", "given": "Richard S."}),
    ("Frank F. Xu", {"family": "Xu", "given": "Frank F."}),
    ("Ludwig van Beethoven", {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"}),
    ("van der Maaten, Laurens", {"family": "Maaten", "given": "Laurens", "non-dropping-particle": "van der"}),
    ("Paco de la Fuente", {"family": "Fuente", "given": "Paco", "non-dropping-particle": "de la"}),
    # a particle after the given names drops, as citeproc-js parses Zotero's "Ludwig van" given name
    ("Beethoven, Ludwig van", {"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"}),
    ("Bennett, Jr., Frank G.", {"family": "Bennett", "given": "Frank G.", "suffix": "Jr."}),
    ("Martin Luther King, Jr.", {"family": "King", "given": "Martin Luther", "suffix": "Jr."}),
    ("Jean d'Alembert", {"family": "d'Alembert", "given": "Jean"}),
    ("Άγρας, Τέλλος", {"family": "Άγρας", "given": "Τέλλος"}),
    ("张伟", {"literal": "张伟"}),
    ("DeepSeek-AI", {"literal": "DeepSeek-AI"}),
    ("Qwen Team of Alibaba", {"literal": "Qwen Team of Alibaba"}),
    ("{Barnes, Noble}", {"literal": "Barnes, Noble"}),
])
def test_csl_json_names_a_person_by_the_parts_bibtex_splits_and_anything_else_literally(name: str,
                                                                                       csl: dict[str, str]) -> None:
    assert csl_name(name) == csl


@pytest.mark.parametrize(("csl", "name"), [
    ({"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"}, "van Beethoven, Ludwig"),
    ({"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"}, "Beethoven, Ludwig van"),
    ({"family": "King", "given": "Martin Luther", "suffix": "Jr.", "comma-suffix": True}, "King, Jr., Martin Luther"),
    ({"family": "张", "given": "伟"}, "张伟"),
    ({"literal": "World Health Organization"}, "World Health Organization"),
    ({"literal": "Google DeepMind"}, "{Google DeepMind}"),
    ({"literal": "OpenAI"}, "OpenAI"),
    ({"family": "Google DeepMind"}, "{Google DeepMind}"),
    ({"literal": "others"}, "et al."),
])
def test_csl_json_names_are_read_from_their_parts_or_literal(csl: dict[str, object], name: str) -> None:
    assert name_from_csl(csl) == name


def test_authors_go_out_and_come_back_the_same_people_through_csl_json_and_bibtex() -> None:
    authors = ("{Google DeepMind}; World Health Organization; van der Maaten, Laurens; Beethoven, Ludwig van; "
               "King, Jr., Martin Luther; Sutton, Richard S.; 张伟; et al.")
    source = Source(slug="people", title="People", authors=authors)
    [from_csl] = parse_csl_json(json.dumps([csl_item(source)]))
    [from_bibtex] = parse_bibtex(dump_bibtex([source]))
    assert from_csl.draft is not None and from_bibtex.draft is not None
    assert from_csl.draft.authors == from_bibtex.draft.authors == authors


def test_a_typed_name_with_a_suffix_is_turned_round_for_bibtex() -> None:
    source = Source(slug="king", title="Why We Can't Wait", authors="Martin Luther King, Jr.; Frank F. Xu")
    # as typed, BibTeX would take "Jr." for the given name of a Mr Martin Luther King
    assert "author = {King, Jr., Martin Luther and Frank F. Xu}" in dump_bibtex([source])


def test_the_works_page_shows_an_organisation_without_its_braces(db: None, client: Client) -> None:
    report = sources_import(text=CORPORATE)
    work = Source.objects.get(pk=report.results[0].source.pk)  # type: ignore[union-attr]

    html = client.get(work.get_absolute_url(), headers={"accept-language": "en"}).content.decode()

    text = re.sub(r"<[^>]+>", "", html)
    assert "World Health Organization; Smith, John; Google DeepMind" in text and "{Google DeepMind}" not in html


def test_a_work_by_an_organisation_braced_since_is_the_same_work(db: None) -> None:
    # imported before organisations kept their braces, then again from the reference manager
    make_source(title="verl: Volcano Engine Reinforcement Learning for LLMs", authors="ByteDance Seed", year=2024)
    report = sources_import(text="@software{verl2024, title = {verl: Volcano Engine Reinforcement Learning for LLMs}, "
                                 "author = {{ByteDance Seed}}, year = {2024}}")
    assert report.counts == {"created": 0, "duplicate": 1, "refused": 0}
