"""Contrasts through the service: one per pair of works, whichever way round."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import make_source
from wiki.models import Contrast
from wiki.services.contrasts import contrast_create


def test_the_same_pair_the_other_way_round_is_refused_and_nothing_added(db: None) -> None:
    left, right = make_source(), make_source()
    contrast_create(left=left, right=right, axis="SFT vs GRPO")
    with pytest.raises(ValidationError) as refused:
        contrast_create(left=right, right=left, axis="GRPO vs SFT")
    assert refused.value.code == "exists"
    assert Contrast.objects.filter(left__in=[left, right]).count() == 1
