"""Reading what reference managers write as they write it: biblatex's subtitles, a minor field mended or left out with a
warning rather than the entry refused, works of any real year, files of any size on the command line, and an entry left
unclosed said to be so."""

from __future__ import annotations

import json
import logging
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_source
from wiki.models import Source
from wiki.references import formats
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import parse_references
from wiki.services.source_import import ImportResult, sources_import


def _one(text: str) -> ImportResult:
    [result] = sources_import(text=text).results
    return result


def _created(text: str) -> tuple[Source, list[str]]:
    result = _one(text)
    assert result.status == "created", result.message
    assert result.source is not None
    return result.source, result.warnings


# biblatex's subtitle

def test_a_biblatex_subtitle_is_part_of_the_title_as_biber_and_zotero_read_it(db: None) -> None:
    work, warnings = _created("""@inproceedings{sutton2000policyx,
  title     = {Policy Gradient Methods},
  subtitle  = {For Reinforcement Learning with Function Approximation},
  titleaddon = {Extended version},
  author    = {Sutton, Richard S. and McAllester, David},
  date      = {2000},
}""")
    assert (work.title, work.short_name) == (
        "Policy Gradient Methods: For Reinforcement Learning with Function Approximation", "Policy Gradient Methods")
    # the addition is no part of the title: kept among the work's other fields, and written back as it came
    assert warnings == [] and Source.objects.get(pk=work.pk).extra_fields == {"titleaddon": "Extended version"}


def test_a_chinese_subtitle_follows_a_full_width_colon_and_finds_the_work_with_that_title(db: None) -> None:
    work = make_source(short_name="红楼梦", title="红楼梦：脂砚斋全评本")
    result = _one("@book{gbt7714.7.2.3:6, title = {红楼梦}, subtitle = {脂砚斋全评本}, langid = {chinese}}")
    assert (result.status, result.source) == ("duplicate", work)
    quake, _ = _created("@book{jiang1981, title = {地壳运动假说}, subtitle = {从大陆漂移到板块构造}, author = {江城}, date = {1981}}")
    assert quake.title == "地壳运动假说：从大陆漂移到板块构造"


# A minor field does not refuse its entry

def test_a_short_doi_is_a_doi_kept_as_written(db: None, editor_client: Client) -> None:
    item = {"DOI": "10/fqd6hj", "URL": "https://doi.org/10.1177/0193723504268729", "author": [
        {"family": "Brittain", "given": "Ian"}], "citation-key": "brittain2004", "id": "brittain2004",
        "container-title": "Journal of Sport and Social Issues", "issued": {"date-parts": [["2004"]]},
        "title": "Perceptions of disability and their impact upon involvement in sport", "type": "article-journal"}
    work, warnings = _created(json.dumps([item]))
    assert (work.doi, warnings) == ("10/fqd6hj", [])
    # pasted alone, as any DOI: the work that has it
    response = editor_client.post(reverse("wiki:source-create"), {"entry": "https://doi.org/10/FQD6HJ", "import": "1"})
    assert "This source exists already (same DOI 10/fqd6hj)" in response.content.decode()


def test_a_doi_without_its_prefix_is_left_out_with_a_warning(db: None) -> None:
    work, warnings = _created("""@Article{Haimour_2005,
  Title                    = {Equilibrium adsorption of hydrogen sulfide onto {CuO} and {ZnO}},
  Author                   = {Haimour, No'man and El-Bishtawi, Ribhi and Ail-Wahbi, Abdulrakib},
  Journal                  = {Desalination},
  Year                     = {2005},
  Doi                      = {j.desal.2005.02.017},
}""")
    assert work.doi == ""
    assert warnings == ["DOI “j.desal.2005.02.017” is not a DOI: it is left out"]


def test_control_characters_copied_from_a_pdf_are_taken_out_of_an_abstract(db: None) -> None:
    work, warnings = _created("@Article{Huang_2004,\n  Title = {Preparation of large-scale cupric oxide nanowires by "
                              "thermal evaporation method},\n  Year = {2004},\n  Abstract = {Large-scale cupric oxide "
                              "(CuO) nanowires have been synthesized\nat the temperatures from 300\x01C to 900\x01C.}\n}")
    assert work.abstract.endswith("at the temperatures from 300C to 900C.")
    assert warnings == ["control characters taken out of the abstract"]


def test_of_two_urls_in_one_field_the_first_is_kept_with_a_warning(db: None) -> None:
    work, warnings = _created("""@article{Misa1988,
  date = {1988},
  title = {How Machines Make History, and How Historians (and Others) Help Them to Do So},
  url = {http://www.jstor.org/stable/689938 http://www.jstor.org/stable/10.2307/689938},
}""")
    assert work.url == "http://www.jstor.org/stable/689938"
    assert warnings == ["the URL field holds 2 addresses: “http://www.jstor.org/stable/689938” is kept, "
                        "“http://www.jstor.org/stable/10.2307/689938” left out"]


def test_a_ris_url_on_a_host_with_an_underscore_is_a_url_and_a_refused_one_is_named(db: None) -> None:
    ris = "TY  - JOUR\nTI  - Title of reference\nUR  - http://example_url.com\nPY  - 2014\nER  - \n"
    work, _ = _created(ris)
    assert work.url == "http://example_url.com"
    refused = _one(ris.replace("http://example_url.com", "http://exa_mple..com").replace("Title of", "Other"))
    assert refused.status == "refused"
    assert refused.message == "URL: “http://exa_mple..com” is not a web address (http://, https://, ftp://…) the wiki can link to."


def test_a_ris_record_with_only_a_short_title_takes_it_as_its_title(db: None) -> None:
    work, warnings = _created("TY  - Journal Article\nAU  - Dobrokhotova, Yu E.\nPY  - 2009\n"
                              "ST  - Состояние рецепторного аппарата эндометрия\nER  -\n")
    assert work.title == "Состояние рецепторного аппарата эндометрия"
    assert warnings == ["no title (TI): its short title (ST) “Состояние рецепторного аппарата эндометрия” is taken as "
                        "the title"]


def test_the_web_report_shows_the_warnings(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:source-create"), {
        "entry": "@article{x, title={A Title}, year={2005}, doi={j.desal.2005.02.017}}", "import": "1"})
    assert "<li>Warning: DOI “j.desal.2005.02.017” is not a DOI: it is left out</li>" in response.content.decode()


# Years

def test_a_work_of_the_nineteenth_century_is_imported(db: None) -> None:
    work, _ = _created("""@article{maxwell_governors_1867,
  title = {On {{Governors}}},
  author = {Maxwell, J. Clerk},
  date = {1867},
  journaltitle = {Proceedings of the Royal Society of London},
  urldate = {2025-03-08},
}""")
    assert work.year == 1867


def test_a_year_no_work_can_have_is_refused_in_the_wikis_words(db: None) -> None:
    with translation.override("en"):
        result = _one('[{"id": "x", "title": "Domesday Book", "issued": {"date-parts": [[1086]]}}]')
    assert result.message == "Year: 1086 is earlier than the works the wiki keeps: give a year from 1400 on."
    with translation.override("zh-hans"):
        result = _one('[{"id": "x", "title": "Domesday Book", "issued": {"date-parts": [[1086]]}}]')
    assert result.message == "年份：1086 早于本 wiki 收录的工作：请给出 1400 年及以后的年份。"


# Size

def test_too_many_entries_are_refused_before_any_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(text: str) -> list[object]:
        raise AssertionError("read")

    monkeypatch.setattr(formats, "parse_bibtex", never)
    with pytest.raises(ReferencesRefused) as refused:
        parse_references("".join(f"@misc{{k{i}, title={{T {i}}}}}\n" for i in range(2_001)))
    assert refused.value.code == "too_many_entries"


def test_the_command_line_imports_more_entries_than_an_upload_holds_in_batches(
        db: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("wiki.services.source_import.MAX_IMPORT_ENTRIES", 3)
    monkeypatch.setattr("wiki.references.formats.MAX_IMPORT_ENTRIES", 3)
    path = tmp_path / "library.bib"
    path.write_text("@misc{k1, title={Study One}}\n@misc{k2, title={Study Two}}\n@misc{k3, title={Study Three}}\n"
                    "@misc{k4, title={Study Four}}\n@misc{k5, title={Survey: Agents}}\n@misc{k1b, title={Study One}}\n"
                    "@misc{k7, title={Survey: Other Things}}\n", encoding="utf-8")
    out = StringIO()
    call_command("import_references", str(path), stdout=out)
    said = out.getvalue()
    assert "BibTeX: 7 entries, 6 created, 1 already in the wiki (0 with fields to update), 0 refused" in said
    # an entry of a later batch repeating one of an earlier batch is still said to repeat it
    assert "line 6: k1b: already in the wiki as Study One (repeats the entry on line 1 (same title))" in said
    # a name an entry of an earlier batch took is another work's
    assert set(Source.objects.filter(title__startswith="Survey").values_list("short_name", flat=True)) == {
        "Survey", "Survey: Other Things"}


# An entry left unclosed

UNCLOSED = """@misc{bengioSuperintelligentAgentsPose2025,
  title = {Superintelligent {{Agents Pose Catastrophic Risks}}: {{Can Scientist AI Offer}} a {{Safer Path}}?},
  author = {Bengio, Yoshua and Cohen, Michael},
  year = {2025},
  urldate = {2025-08-04},

@misc{bentonSabotageEvaluationsFrontier2024,
  title = {Sabotage {{Evaluations}} for {{Frontier Models}}},
  year = {2024},
}
"""


def test_an_entry_left_unclosed_is_said_to_be_so_with_the_line_where_the_next_begins(db: None) -> None:
    results = sources_import(text=UNCLOSED).results
    assert [(r.line, r.status) for r in results] == [(1, "refused"), (7, "created")]
    assert results[0].message == ("this entry is not closed before line 7, where the next entry (@misc) starts: its "
                                  "closing } is missing, or a { or \" inside it is not closed")


def test_the_command_line_leaves_the_parsers_own_warnings_off_standard_error(
        db: None, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "unclosed.bib"
    path.write_text(UNCLOSED, encoding="utf-8")
    err = StringIO()
    with caplog.at_level(logging.INFO, logger="wiki"):
        call_command("import_references", str(path), stdout=StringIO(), stderr=err)
    assert err.getvalue() == ""
    assert [record.name for record in caplog.records if record.name.startswith("bibtexparser")] == []
