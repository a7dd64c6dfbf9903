from __future__ import annotations

import pytest

from classifier.taxonomy import Mechanism
from wiki.devtools.generate import wiki_generate
from wiki.models import Citation, Claim, Classification, Contrast, OpenQuestion, Page, Source, WikiLink

pytestmark = pytest.mark.django_db


def test_generate_writes_the_requested_works_pages_and_claims() -> None:
    result = wiki_generate(works=40, claims=120, pages=12, seed=3)

    assert Source.objects.filter(pk__in=result.source_ids).count() == 40
    assert Page.objects.filter(pk__in=result.page_ids).count() == 12
    assert Claim.objects.filter(pk__in=result.claim_ids, page_id__in=result.page_ids).count() == 120
    assert len(result.claim_ids) == 120


def test_generated_claims_cite_generated_works_with_the_wikis_syntax() -> None:
    result = wiki_generate(works=30, claims=60, pages=6, seed=4)

    page = Page.objects.get(pk=result.page_ids[0])
    assert "（来源：" in page.body and "[[" in page.body
    assert 'class="claim"' in page.rendered_html and 'class="cite"' in page.rendered_html
    cited = set(Citation.objects.filter(claim_id__in=result.claim_ids).values_list("source_id", flat=True))
    assert cited and cited <= set(result.source_ids)
    assert Claim.about.through.objects.filter(claim_id__in=result.claim_ids).exists()
    assert WikiLink.objects.filter(source_page_id__in=result.page_ids).exists()


def test_generated_classifications_cover_mechanisms_and_components() -> None:
    result = wiki_generate(works=400, claims=400, pages=40, seed=5)

    classified = Classification.objects.filter(source_id__in=result.source_ids)
    assert set(classified.values_list("mechanism", flat=True)) == {m.value for m in Mechanism}
    assert classified.filter(component__isnull=False).count() == len(result.component_ids) > 0
    assert classified.filter(source__components__isnull=False, component__isnull=True).count() == 0
    assert set(classified.values_list("verdict", flat=True)) >= {"strict", "not_strict", "adjacent"}


def test_generated_contrasts_rest_on_a_claim_citing_both_sides() -> None:
    result = wiki_generate(works=30, claims=100, pages=10, seed=6)

    contrasts = Contrast.objects.filter(pk__in=result.contrast_ids)
    assert contrasts.exists()
    for contrast in contrasts:
        assert contrast.claim is not None
        cited = set(contrast.claim.citations.values_list("source_id", flat=True))
        assert {contrast.left_id, contrast.right_id} <= cited


def test_two_runs_with_the_same_seed_share_a_database() -> None:
    first = wiki_generate(works=10, claims=20, pages=2, seed=7)
    second = wiki_generate(works=10, claims=20, pages=2, seed=7)

    assert first.tag != second.tag
    assert not set(first.source_ids) & set(second.source_ids)
    assert OpenQuestion.objects.filter(pk__in=first.question_ids + second.question_ids).count() == 2


def test_too_few_works_is_refused_and_writes_nothing() -> None:
    before = Source.objects.count()
    with pytest.raises(ValueError, match="two works"):
        wiki_generate(works=1, claims=10, seed=8)
    assert Source.objects.count() == before
