"""A work exported and imported back unchanged is found as itself with nothing to take: what the export writes in a
work's stead where it has nothing (its address as its citation key, an entry type its kind calls for) is no change
of the work."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from tests.factories import make_source
from wiki.models import Source
from wiki.references.bibtex import ParsedEntry, parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import dump_csl_json, parse_csl_json
from wiki.references.ris import parse_ris
from wiki.references.ris_export import dump_ris
from wiki.services.source_import import sources_import


@pytest.mark.parametrize("dump", [dump_bibtex, dump_csl_json, dump_ris])
def test_seed_works_exported_and_imported_back_offer_nothing_to_take(seed: None, dump: Callable[[Iterable[Source]], str]) -> None:
    works = list(Source.objects.for_export())
    assert any(not work.bibtex_key and not work.entry_type for work in works)
    report = sources_import(text=dump(works))
    assert report.counts["duplicate"] == len(works)
    assert {result.label: [(u.name, u.current, u.offered) for u in result.updates]
            for result in report.results if result.updates} == {}


def test_a_key_and_entry_type_of_the_files_own_are_still_offered(db: None) -> None:
    make_source(slug="tree-search", title="Tree Search for Agents", year=2025, authors="Ji, Yu", kind="paper", venue="ICLR")
    (result,) = sources_import(text="@inproceedings{ji2025tree, title={Tree Search for Agents}, author={Ji, Yu}, "
                                    "year={2025}, booktitle={ICLR}}").results
    assert [(u.name, u.current, u.offered) for u in result.updates] == [
        ("entry_type", "", "inproceedings"), ("bibtex_key", "", "ji2025tree")]
    (again,) = sources_import(text="@article{tree-search, title={Tree Search for Agents}, author={Ji, Yu}, "
                                   "year={2025}, journal={ICLR}}").results
    assert again.status == "duplicate" and again.updates == []


@pytest.mark.parametrize(("dump", "parse"), [(dump_bibtex, parse_bibtex), (dump_csl_json, parse_csl_json),
                                             (dump_ris, parse_ris)])
def test_biblatex_issue_stays_an_issue_through_every_format(db: None, dump: Callable[[Iterable[Source]], str],
                                                             parse: Callable[[str], list[ParsedEntry]]) -> None:
    sources_import(text="@article{alone, title={Agents in Spring}, author={Li, Na}, year={2024}, journal={AI Letters}, "
                        "issue={Spring}}\n"
                        "@article{both, title={Agents in Autumn}, author={Li, Na}, year={2024}, journal={AI Letters}, "
                        "number={3}, issue={Special Issue on Agents}}\n")
    works = list(Source.objects.order_by("title"))
    entries = parse(dump(works))
    assert [(e.draft.extra_fields.get("issue"), e.draft.bibliographic.get("number")) for e in entries if e.draft] == [
        ("Special Issue on Agents", "3"), ("Spring", None)]
    report = sources_import(text=dump(works))
    assert [result.updates for result in report.results] == [[], []]


@pytest.mark.parametrize(("dump", "parse"), [(dump_bibtex, parse_bibtex), (dump_csl_json, parse_csl_json),
                                             (dump_ris, parse_ris)])
def test_a_number_that_is_the_issue_too_stays_both_through_every_format(
        db: None, dump: Callable[[Iterable[Source]], str], parse: Callable[[str], list[ParsedEntry]]) -> None:
    sources_import(text="@article{three, title={Agents in Three}, author={Li, Na}, year={2024}, journal={AI Letters}, "
                        "number={3}, issue={3}}\n"
                        "@article{spring, title={Agents in Spring}, author={Li, Na}, year={2024}, journal={AI Letters}, "
                        "issue={Spring}}\n")
    works = list(Source.objects.order_by("title"))
    entries = parse(dump(works))
    assert [(e.draft.extra_fields.get("issue"), e.draft.bibliographic.get("number")) for e in entries if e.draft] == [
        ("Spring", None), ("3", "3")]
    report = sources_import(text=dump(works))
    assert [(result.status, result.updates) for result in report.results] == [("duplicate", []), ("duplicate", [])]


@pytest.mark.parametrize("dump", [dump_bibtex, dump_csl_json, dump_ris])
def test_biblatex_fields_written_under_other_names_come_back_offering_nothing(
        db: None, dump: Callable[[Iterable[Source]], str]) -> None:
    sources_import(text="@book{located, title={Located Book on Agents}, author={Li, Na}, year={2020}, location={Berlin}, "
                        "publisher={Springer}, langid={german}}\n"
                        "@report{tr7, title={A Report on Agents}, author={Wu, Ke}, year={2021}, institution={MIT}, "
                        "number={TR-7}}\n"
                        "@article{hyphen, title={Page Hyphen Paper}, author={He, Yu}, year={2019}, journal={J. Agents}, "
                        "pages={71-80}}\n")
    works = list(Source.objects.for_export())
    report = sources_import(text=dump(works))
    assert [(result.label, result.status, result.updates) for result in report.results] == [
        (work.bibtex_key, "duplicate", []) for work in works]
