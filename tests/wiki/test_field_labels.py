"""A work's field has one name wherever the wiki names it: its form and its page, recent changes, a merge, a reference
file's fields offered for a work already in the wiki, and an import's errors."""

from __future__ import annotations

import pytest
from django.db.models import Field
from django.utils import translation
from django.utils.text import capfirst

from wiki.field_labels import field_label_of
from wiki.models import Source
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, SENTENCE_LABELS
from wiki.references.updates import UPDATED_FIELDS, FieldUpdate
from wiki.services.merge_fields import FieldChoice


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_field_a_file_offers_is_named_as_the_works_form_and_a_merge_name_it(language: str) -> None:
    with translation.override(language):
        for name in UPDATED_FIELDS:
            field = Source._meta.get_field(name)
            assert isinstance(field, Field)
            label = str(field.verbose_name)
            assert (FieldUpdate(name, "", "x").label, FieldChoice(name, "", "x").label) == (label, label), name
        for name, detail in BIBLIOGRAPHIC_FIELDS.items():  # as the work's page shows its details
            assert FieldUpdate(name, "", "x").label == field_label_of(name) == capfirst(str(detail)), name


def test_year_doi_and_entry_type_read_the_same_in_an_offer_and_in_recent_changes() -> None:
    with translation.override("zh-hans"):
        assert [FieldUpdate(name, "", "x").label for name in ("year", "doi", "entry_type", "venue")] == [
            "年份",
            "DOI",
            "条目类型",
            "发表处",
        ]
    with translation.override("en"):
        assert [FieldUpdate(name, "", "x").label for name in ("year", "doi", "entry_type", "venue")] == [
            "Year",
            "DOI",
            "Entry type",
            "Venue",
        ]


def test_a_sentence_names_a_field_with_its_labels_words() -> None:
    with translation.override("zh-hans"):
        assert {name: str(label) for name, label in SENTENCE_LABELS.items()} == {
            name: field_label_of(name) for name in SENTENCE_LABELS
        }
