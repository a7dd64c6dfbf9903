"""The factories make rows as the wiki's own writes do, with what those writes derive."""

from __future__ import annotations

import pytest

from tests.factories import ClassificationFactory, PageFactory, SourceFactory, make_claim, make_editor
from wiki.models import ChangeEvent, ClassificationChange, SearchDocument

pytestmark = pytest.mark.django_db


def test_a_page_is_saved_with_its_claims_citations_links_and_search_documents() -> None:
    work = SourceFactory.create(title="Forge: A Study")
    page = PageFactory.create(body="See [[Elsewhere]].\n\n## 关键要点\n\n- Forge 用 GRPO 更新策略。（来源：Forge: A Study，p.3）\n")

    [claim] = page.claims.current()
    assert [(c.source, c.locator) for c in claim.citations.all()] == [(work, "p.3")]
    assert page.revisions.get().number == 1 and page.outgoing_links.get().target_slug == "elsewhere"
    assert SearchDocument.objects.filter(kind="page", object_id=page.pk).exists()
    assert SearchDocument.objects.filter(kind="claim", object_id=claim.pk).exists()
    assert SearchDocument.objects.filter(kind="source", object_id=work.pk).exists()


def test_a_classification_is_saved_with_its_history_and_the_works_search_document() -> None:
    editor = make_editor()
    classification = ClassificationFactory.create(verdict="not_strict", rl_update=False, set_by_user=editor)

    assert ClassificationChange.objects.get(classification=classification).user == editor
    assert ChangeEvent.objects.filter(kind="classification", object_id=classification.pk).exists()
    assert SearchDocument.objects.get(kind="source", object_id=classification.source_id).verdicts == ["not_strict"]
    # a verdict other than the rubric's gets the rationale the rule asks for
    assert ClassificationFactory.create(verdict="not_strict").rationale


def test_a_claim_is_a_cited_key_point_and_can_be_added_to_a_page() -> None:
    work = SourceFactory.create()
    first = make_claim("第一条要点。", cites=[work], locator="§2", status="verified")
    second = make_claim("第二条要点。", page=first.page)

    assert first.status == "verified" and first.citations.get().locator == "§2"
    assert second.page == first.page and first.page.revisions.count() == 2

