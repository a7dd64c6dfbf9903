"""Page slugs saved with capitals before slugs were lower-cased get the lower-cased slug, or the first free one."""

from __future__ import annotations

import importlib

from django.apps import apps

from tests.factories import make_page
from wiki.models import Page

migration = importlib.import_module("wiki.migrations.0014_lowercase_existing_page_slugs")


def test_capitalised_slugs_are_lower_cased_and_a_taken_one_gets_the_next_free_number(db: None) -> None:
    upper = make_page(slug="upper-form", title="Upper")
    taken = make_page(slug="abc", title="abc")
    clash = make_page(slug="abc-x", title="ABC")
    taken_2 = make_page(slug="abc-2", title="abc 2")
    Page.objects.filter(pk=upper.pk).update(slug="UPPER-Form")
    Page.objects.filter(pk=clash.pk).update(slug="ABC")

    migration._lowercase(apps, None)

    slugs = dict(Page.all_objects.values_list("pk", "slug"))
    assert slugs == {upper.pk: "upper-form", taken.pk: "abc", clash.pk: "abc-3", taken_2.pk: "abc-2"}
