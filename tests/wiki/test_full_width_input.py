"""What a Chinese input method types full width (digits, letters, slashes, spaces) is read as what it stands for."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_classification, make_source
from wiki.models import Classification
from wiki.models.rules import normalize_page_slug
from wiki.references.bibtex import parse_bibtex

pytestmark = pytest.mark.django_db


def test_a_year_typed_full_width_is_a_year() -> None:
    [entry] = parse_bibtex("@article{a, title = {A Study}, year = {２０２４}}")

    assert entry.errors == [] and entry.draft is not None and entry.draft.year == 2024


def test_the_source_list_filter_reads_full_width_letters_and_any_spacing(client: Client) -> None:
    make_source(slug="skillforge", short_name="SkillForge", title="Agent RL for skills")
    make_source(slug="other", short_name="Other", title="Something else")

    for typed in ("ＳｋｉｌｌＦｏｒｇｅ", "Agent\u3000RL", "Agent  RL"):
        content = client.get(reverse("wiki:source-list"), {"q": typed}).content.decode()
        assert 'href="/sources/skillforge/"' in content and 'href="/sources/other/"' not in content, typed


def test_an_algorithm_typed_full_width_is_stored_as_its_name() -> None:
    classification = make_classification(make_source())
    classification.algorithm = "ＧＲＰＯ／ＰＰＯ"

    classification.full_clean()
    classification.save()

    assert Classification.objects.get(pk=classification.pk).algorithm == "GRPO/PPO"


def test_a_page_slug_typed_full_width_is_read_half_width() -> None:
    assert normalize_page_slug("ＡＢＣ－测试") == "abc-测试"
