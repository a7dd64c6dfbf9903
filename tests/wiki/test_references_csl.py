"""CSL-JSON as hand-written and hostile files give it: every item read or refused with its reason, never a 500."""

from __future__ import annotations

import pytest

from wiki.models import Source
from wiki.references.csl import parse_csl_json
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
