"""CSL-JSON as hand-written and hostile files give it: every item read or refused with its reason, never a 500."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from wiki.models import Source
from wiki.references.csl import parse_csl_json
from wiki.references.errors import ReferencesRefused
from wiki.services.source_import import ImportStatus, sources_import


@pytest.mark.parametrize("year", ["1e400", "-1e400", "Infinity", "-Infinity"])
def test_an_issued_year_too_large_for_an_integer_refuses_its_item(db: None, year: str) -> None:
    text = f'[{{"id": "a", "title": "Endless", "issued": {{"date-parts": [[{year}]]}}}}, {{"id": "b", "title": "Fine"}}]'

    report = sources_import(text=text)

    refused, created = report.of(ImportStatus.REFUSED), report.of(ImportStatus.CREATED)
    assert [r.label for r in refused] == ["a"] and "is not a year" in refused[0].message
    assert [r.label for r in created] == ["b"]
    assert not Source.objects.filter(title="Endless").exists()


def test_a_nan_year_is_refused_as_not_a_year() -> None:
    entries = parse_csl_json('[{"id": "n", "title": "T", "issued": {"date-parts": [[NaN]]}}]')

    assert entries[0].errors == ["issued date “nan” is not a year"]


def test_a_repeated_id_is_refused_as_a_repeated_bibtex_key_is(db: None) -> None:
    text = '[\n{"id": "a", "title": "First Work"},\n{"id": "a", "title": "Another Work"},\n{"id": "b", "title": "Third"}\n]'

    report = sources_import(text=text)

    [refused] = report.of(ImportStatus.REFUSED)
    assert (refused.label, refused.line, refused.message) == ("a", 3, "the key a on line 3 is already that of another work, the entry on line 2")
    assert sorted(Source.objects.values_list("title", flat=True)) == ["First Work", "Third"]


def test_a_repeated_id_of_the_same_work_is_a_duplicate_of_the_first(db: None) -> None:
    report = sources_import(text='[{"id": "a", "title": "Same Work"}, {"id": "a", "title": "Same Work"}]')

    assert report.counts == {"created": 1, "duplicate": 1, "refused": 0}


@pytest.mark.parametrize(("field", "value"), [("DOI", ["10.1000/a", "10.1000/b"]), ("URL", ["https://example.org"]),
                                              ("title", {"en": "T"})])
def test_a_string_variable_given_as_a_list_or_object_is_refused_naming_it(db: None, field: str, value: object) -> None:
    item = {"id": "x", "title": "Listed", field: value}

    [result] = sources_import(text=json.dumps([item])).results

    written = json.dumps(value, ensure_ascii=False)
    assert (result.status, result.message) == ("refused", f"{field} is {written}, not one string as CSL-JSON gives it")
    assert not Source.objects.exists()


@pytest.mark.parametrize(("text", "english", "chinese"), [
    ('[{"id": "a", "title": "A"}\n {"id": "b"}]', "Not JSON (line 2, column 2): a comma is missing",
     "不是 JSON（第 2 行，第 2 列）：缺少逗号"),
    ('[{"id": "a",}]', "Not JSON (line 1, column 13): a name in double quotes is expected (a comma too many before it?)",
     "不是 JSON（第 1 行，第 13 列）：这里应是双引号括起的名称（前面多了一个逗号？）"),
])
def test_text_that_is_not_json_is_refused_saying_where_and_what_in_the_readers_language(
        text: str, english: str, chinese: str) -> None:
    for language, said in (("en", english), ("zh-hans", chinese)):
        with translation.override(language), pytest.raises(ReferencesRefused) as refused:
            parse_csl_json(text)
        assert str(refused.value) == said and refused.value.code == "not_json"


def test_a_chinese_name_in_csl_json_is_family_name_then_given_name_without_a_comma() -> None:
    item = {"id": "k", "type": "article-journal", "title": "T",
            "author": [{"family": "张", "given": "伟"}, {"family": "Zhang", "given": "Wei"}]}

    [entry] = parse_csl_json(json.dumps([item]))

    assert entry.draft is not None and entry.draft.authors == "张伟; Zhang, Wei"
