"""Stored arXiv IDs are brought to the form the wiki normalises to, and back."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.factories import make_source
from wiki.models import Source

migration = importlib.import_module("wiki.migrations.0015_arxiv_ids_as_arxiv_writes_them")


def test_old_style_ids_get_their_subject_class_upper_case_and_arxiv_dois_become_arxiv_ids(db: None) -> None:
    old = make_source(title="Knots")
    Source.objects.filter(pk=old.pk).update(arxiv_id="math.gt/0309136")
    by_doi = make_source(title="WebArena", doi="10.48550/arxiv.2307.13854")
    taken = make_source(title="Taken", arxiv_id="2401.00001")
    clash = make_source(title="Clash", doi="10.48550/arxiv.2401.00001")

    migration._forwards(apps, None)

    rows = {s.pk: (s.arxiv_id, s.doi) for s in Source.objects.filter(pk__in=[old.pk, by_doi.pk, taken.pk, clash.pk])}
    assert rows == {old.pk: ("math.GT/0309136", ""), by_doi.pk: ("2307.13854", ""), taken.pk: ("2401.00001", ""),
                    clash.pk: ("", "10.48550/arxiv.2401.00001")}
    migration._backwards(apps, None)
    assert Source.objects.get(pk=old.pk).arxiv_id == "math.gt/0309136"


@pytest.mark.parametrize(("stored", "normal"), [("cs.ai/0601001", "cs.AI/0601001"), ("hep-th/9901001", "hep-th/9901001"),
                                                ("2307.13854", "2307.13854")])
def test_the_migration_writes_ids_as_the_wiki_normalises_them(stored: str, normal: str) -> None:
    from wiki.references.identifiers import normalize_arxiv_id

    assert migration._arxiv_form(stored) == normal == normalize_arxiv_id(stored)
