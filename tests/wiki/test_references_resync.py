"""Keeping the wiki in step with a reference manager: a record found again by its citation key, the fields a file
gives otherwise offered field by field (the web report's ticks, the command line's --update), never taken unasked."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_source
from tests.wiki.web_imports import web_import
from wiki.models import ChangeEvent, Source
from wiki.services.source_import import ImportResult, sources_import

# A Better BibTeX record of a Chinese article, as first exported, then with its title and year corrected in Zotero.
ZHANGKUN = """@article{zhangkun1994,
  author     = {张昆 and 冯立群 and 余昌钰 and others},
  title      = {机器人柔性手腕的球面齿轮设计研究},
  journal    = {清华大学学报: 自然科学版},
  volume     = {34},
  number     = {2},
  year       = {1994},
}
"""
ZHANGKUN_CORRECTED = """@article{zhangkun1994,
  author     = {张昆 and 冯立群 and 余昌钰 and others},
  title      = {机器人柔性手腕的球面齿轮设计与研究},
  journal    = {清华大学学报: 自然科学版},
  volume     = {34},
  number     = {2},
  pages      = {1--7},
  year       = {1995},
}
"""
# The survey as Google Scholar gives the preprint, then as its publisher gives the article.
PREPRINT = """@article{wang2023survey,
  title={A Survey on Large Language Model based Autonomous Agents},
  author={Wang, Lei and Ma, Chen and Feng, Xueyang},
  journal={arXiv preprint arXiv:2308.11432},
  year={2023},
  url={https://arxiv.org/abs/2308.11432}
}
"""
PUBLISHED = """@article{wang2023survey,
  title={A Survey on Large Language Model based Autonomous Agents},
  author={Wang, Lei and Ma, Chen and Feng, Xueyang},
  journal={Frontiers of Computer Science},
  volume={18}, number={6}, pages={186345},
  year={2024},
  doi={10.1007/s11704-024-40231-1},
  abstract={Autonomous agents have long been a research focus.}
}
"""


def _one(text: str) -> ImportResult:
    [result] = sources_import(text=text).results
    return result


def _offered(result: ImportResult) -> dict[str, tuple[str, str]]:
    return {update.name: (update.current, update.offered) for update in result.updates}


def test_a_record_whose_title_and_year_were_corrected_is_found_by_its_key(db: None) -> None:
    work = _one(ZHANGKUN).source
    result = _one(ZHANGKUN_CORRECTED)
    assert (result.status, result.source, result.message) == ("duplicate", work, "same key zhangkun1994")
    assert Source.objects.count() == 1
    assert _offered(result) == {"title": ("机器人柔性手腕的球面齿轮设计研究", "机器人柔性手腕的球面齿轮设计与研究"),
                                "year": ("1994", "1995"), "pages": ("", "1–7")}


def test_a_key_another_file_gives_another_work_is_no_match(db: None) -> None:
    make_source(short_name="Deep Nets", title="Deep Nets for Agents", authors="Smith, John", year=2020,
                bibtex_key="smith2020")
    result = _one("@article{smith2020, title={Protein Folding at Scale}, author={Jones, Mary}, year={2020}}")
    assert result.status == "created"
    assert result.source is not None and result.source.bibtex_key == "smith2020-2"


def test_a_key_repeated_within_the_file_names_no_record_and_the_reimport_says_the_same(db: None) -> None:
    text = ("@book(Rich:83,\n\tauthor = {Elaine Rich},\n\tyear = {1983},\n\ttitle = {Artificial Intelligence}\n)\n"
            "@inproceedings(Rich:83,\n\tauthor = {Elaine Rich},\n\tyear = {1983},\n"
            "\ttitle = \"Default reasoning as likelihood reasoning\"\n)\n")
    assert [r.status for r in sources_import(text=text).results] == ["created", "refused"]
    assert [r.status for r in sources_import(text=text).results] == ["duplicate", "refused"]


def test_reimporting_an_unchanged_file_offers_nothing(db: None) -> None:
    # kept otherwise than written: the month as its number, the URL percent-encoded, the authors apart by semicolons
    text = PUBLISHED.replace("year={2024},", "year={2024}, month=feb, url={https://example.org/研究},")
    _one(text)
    assert _one(text).updates == []


def test_the_published_versions_fields_are_offered_for_the_preprint(db: None) -> None:
    _one(PREPRINT)
    result = _one(PUBLISHED)
    assert result.status == "duplicate"
    offered = _offered(result)
    assert offered == {"year": ("2023", "2024"), "venue": ("arXiv", "Frontiers of Computer Science"),
                       "doi": ("", "10.1007/s11704-024-40231-1"),
                       "abstract": ("", "Autonomous agents have long been a research focus."),
                       "journal": ("arXiv preprint arXiv:2308.11432", "Frontiers of Computer Science"),
                       "volume": ("", "18"), "number": ("", "6"), "pages": ("", "186345")}
    assert [u.name for u in result.updates if u.fills] == ["doi", "abstract", "volume", "number", "pages"]
    work = Source.objects.get()
    assert (work.doi, work.venue, work.year) == ("", "arXiv", 2023)  # nothing taken unasked


def test_the_web_report_offers_each_field_and_takes_only_those_ticked(editor_client: Client) -> None:
    _one(PREPRINT)
    response = web_import(editor_client, {"entry": PUBLISHED})
    page = response.content.decode()
    work = Source.objects.get()
    assert f'action="{reverse("wiki:source-take-updates", args=[work.slug])}"' in page
    ticked = re.findall(r'<input type="checkbox" name="field" value="(\w+)"[^>]*?( checked)?>', page)
    assert ticked == [("year", ""), ("venue", ""), ("doi", " checked"), ("abstract", " checked"), ("journal", ""),
                      ("volume", " checked"), ("number", " checked"), ("pages", " checked")]
    loaded_at = re.search(r'name="loaded_at" value="([^"]+)"', page)
    assert loaded_at is not None
    response = editor_client.post(reverse("wiki:source-take-updates", args=[work.slug]), {
        "field": ["doi", "pages", "year"], "value-doi": "10.1007/s11704-024-40231-1", "value-pages": "186345",
        "value-year": "2024", "value-venue": "Frontiers of Computer Science", "loaded_at": loaded_at.group(1)})
    assert response.status_code == 302
    work.refresh_from_db()
    assert (work.doi, work.year, work.bibliographic.get("pages"), work.venue) == (
        "10.1007/s11704-024-40231-1", 2024, "186345", "arXiv")
    event = ChangeEvent.objects.filter(action="edited", object_id=work.pk).get()
    assert event.summary == "took Year, DOI, Pages from an imported reference"


def test_fields_are_not_taken_into_a_work_changed_since_the_import(editor_client: Client) -> None:
    work = _one(PREPRINT).source
    assert work is not None
    stale = work.updated_at.isoformat()
    Source.objects.filter(pk=work.pk).update(venue="ICLR")  # an editor's change since
    Source.objects.filter(pk=work.pk).update(updated_at=work.updated_at.replace(year=work.updated_at.year + 1))
    editor_client.post(reverse("wiki:source-take-updates", args=[work.slug]),
                       {"field": ["venue"], "value-venue": "arXiv", "loaded_at": stale})
    work.refresh_from_db()
    assert work.venue == "ICLR"


def _cli(path: Path, *options: str) -> str:
    out = StringIO()
    call_command("import_references", str(path), *options, stdout=out)
    return out.getvalue()


def test_the_command_line_reports_the_fields_offered_and_takes_them_when_asked(db: None, tmp_path: Path) -> None:
    _one(PREPRINT)
    path = tmp_path / "published.bib"
    path.write_text(PUBLISHED, encoding="utf-8")
    said = _cli(path)
    assert "  DOI: the file gives “10.1007/s11704-024-40231-1” (the wiki has empty)" in said
    assert "  Year: the file gives “2024” (the wiki has “2023”)" in said
    assert Source.objects.get().doi == ""
    said = _cli(path, "--update")
    assert "  updated: DOI, Abstract, Volume, Number, Pages" in said
    work = Source.objects.get()
    assert (work.doi, work.year, work.venue, work.bibliographic["pages"]) == ("10.1007/s11704-024-40231-1", 2023, "arXiv",
                                                                            "186345")
    _cli(path, "--update=all")
    work.refresh_from_db()
    assert (work.year, work.venue) == (2024, "Frontiers of Computer Science")


def test_the_command_line_says_which_identifier_another_version_lacks_and_adds_it_when_asked(
        db: None, tmp_path: Path) -> None:
    # DPO as an arXiv preprint, then as its NeurIPS version with a DOI, in one file.
    path = tmp_path / "dpo.bib"
    path.write_text("""@misc{rafailov2023direct,
  title={Direct Preference Optimization: Your Language Model is Secretly a Reward Model},
  author={Rafailov, Rafael and Sharma, Archit and Mitchell, Eric},
  year={2023}, eprint={2305.18290}, archivePrefix={arXiv}
}
@article{rafailov2023dpo,
  title={Direct preference optimization: Your language model is secretly a reward model},
  author={Rafailov, Rafael and Sharma, Archit and Mitchell, Eric},
  journal={Advances in Neural Information Processing Systems}, volume={36}, year={2023},
  doi={10.52202/075280-2338}
}
""", encoding="utf-8")
    said = _cli(path, "--dry-run")
    assert "; another version of it, which lacks DOI 10.52202/075280-2338" in said
    _cli(path, "--add-missing-identifiers")
    assert Source.objects.get().doi == "10.52202/075280-2338"


def test_a_first_author_of_the_same_family_name_but_another_given_name_is_another_author(db: None) -> None:
    survey = "@article{{{key}, title={{A Survey on Large Language Model Based Autonomous Agents}}, author={{{author}}}, year={{{year}}}}}"
    first = _one(survey.format(key="a", author="Wang, Lei and Ma, Chen", year=2023))
    assert _one(survey.format(key="b", author="Wang, L. and Ma, C.", year=2024)).message == (
        "same title and first author, a year apart (2023 and 2024)")
    other = _one(survey.format(key="c", author="Wang, Xiaomeng and Zhou, Haoping", year=2024))
    assert other.status == "created"
    assert other.possible == first.source
    assert other.possible_reason == "the same title, by “Wang, Xiaomeng” and “Wang, Lei”"


def test_the_api_report_gives_the_fields_offered_warnings_and_a_possible_duplicate(editor_client: Client) -> None:
    _one(PREPRINT)
    body = PUBLISHED + "@misc{short, title={Short DOI}, doi={j.desal.2005.02.017}, year={2005}}\n"
    response = editor_client.post("/api/v1/sources/import/", data=body, content_type="application/x-bibtex")
    data = response.json()
    assert {"field": "doi", "current": "", "offered": "10.1007/s11704-024-40231-1"} in data["duplicate"][0]["updates"]
    assert data["created"][0]["warnings"] == ["DOI “j.desal.2005.02.017” is not a DOI: it is left out"]
    assert data["created"][0]["possible_duplicate"] is None


def test_finding_records_by_key_and_offering_their_fields_takes_as_many_queries_for_many_as_for_two(db: None) -> None:
    def file(n: int, offset: int, *, corrected: bool = False) -> str:
        return "".join(f"@article{{k{offset + i}, title={{Paper {offset + i}{': Revised' if corrected else ''}}}, "
                       f"author={{Roe, Jane}}, year={{{2025 if corrected else 2024}}}{', pages={1--9}' if corrected else ''}}}\n"
                       for i in range(n))

    sources_import(text=file(2, 0))
    sources_import(text=file(40, 100))
    with CaptureQueriesContext(connection) as two:
        found_two = sources_import(text=file(2, 0, corrected=True)).results
    with CaptureQueriesContext(connection) as many:
        found_many = sources_import(text=file(40, 100, corrected=True)).results
    assert {(r.status, len(r.updates)) for r in found_two + found_many} == {("duplicate", 3)}
    assert len(many.captured_queries) == len(two.captured_queries)


# Names as a planning group's shared .bib writes them, given name first, with an editor and a particle.
GIVEN_FIRST = r"""@incollection{sturtevant2008,
  author = {Nathan R. Sturtevant and Ludwig van Beethoven and {Google DeepMind}},
  editor = {H. Jaap van den Herik and Xinhe Xu},
  title = {An Analysis of UCT in Multi-player Games},
  booktitle = {Computers and Games},
  year = {2008}
}
"""


def test_a_csl_json_export_of_names_written_given_name_first_offers_nothing_again(db: None) -> None:
    from wiki.references.csl import dump_csl_json

    _one(GIVEN_FIRST)
    exported = dump_csl_json(Source.objects.for_export())
    assert '"family": "Sturtevant"' in exported
    assert _one(exported).updates == []


def test_the_same_names_written_family_name_first_are_no_update_and_other_names_are() -> None:
    from wiki.references.updates import _same

    assert _same("authors", "Sturtevant, Nathan R.; van Beethoven, Ludwig", "Nathan R. Sturtevant; Ludwig van Beethoven")
    assert _same("extra_fields.editor", "van den Herik, H. Jaap", "H. Jaap van den Herik")
    assert not _same("authors", "Sturtevant, Nathan", "Nathan R. Sturtevant")
    assert not _same("authors", "Sturtevant, Nathan R.", "Nathan R. Sturtevant; Ludwig van Beethoven")
    assert not _same("extra_fields.keywords", "Sturtevant, Nathan R.", "Nathan R. Sturtevant")


def test_a_record_found_again_by_its_key_in_traditional_characters_is_the_same_work(db: None) -> None:
    # the same record, exported again from a library kept in Traditional characters
    simplified = "@article{dingwenxiang2000shuzi, author={丁文详}, title={数字革命与竞争国际化}, journal={中国青年报}, year={2000}}"
    work = _one(simplified).source
    result = _one(simplified.translate(str.maketrans("详数与竞争国际报", "詳數與競爭國際報")))
    assert (result.status, result.source) == ("duplicate", work)
    assert Source.objects.count() == 1
    assert _offered(result)["title"] == ("数字革命与竞争国际化", "數字革命與競爭國際化")
