"""Search reads words without their accents and in either spelling, British or American, on both sides: a query typed
without accents finds the accented name (and the other way round), ``optimisation`` finds ``optimization``; each hit
highlights the word as written."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_claim, make_indexed_question, make_page, make_source
from wiki.roles import Account
from wiki.search.query import Hit, search
from wiki.search.spelling import other_spelling
from wiki.search.tokenize import document_tokens, fold_for_search, query_terms
from wiki.services.glossary import glossary_term_create

pytestmark = pytest.mark.django_db


def _hits(query: str) -> dict[str, list[Hit]]:
    return {group.kind: group.hits for group in search(query, limit=50).groups}


def _found(query: str) -> set[tuple[str, int]]:
    return {(kind, hit.object_id) for kind, hits in _hits(query).items() for hit in hits}


def test_accents_are_folded_one_character_for_one_and_chinese_is_untouched() -> None:
    assert query_terms("Müller Jörg café") == query_terms("Muller JORG cafe") == ["muller", "jorg", "cafe"]
    assert document_tokens("Sørensen Łukasz Nguyễn")[:3] == ["sorensen", "lukasz", "nguyen"]
    assert document_tokens("信用分配與獎勵") == document_tokens("信用分配与奖励")
    text = "Jörg Müller 的獎勵 café"
    assert fold_for_search(text) == "Jorg Muller 的奖励 cafe"
    assert len(fold_for_search(text)) == len(text)


def test_a_name_without_accents_finds_it_with_them_and_the_other_way_round_in_every_kind(editor: Account) -> None:
    work = make_source(short_name="Gradients", title="Gradients Revisited", authors="Müller, Jörg; Lefèvre, Zoë")
    page = make_page(slug="cafe-notes", title="Café notes", body="Notes taken at the café about Jorg Muller's result.")
    claim = make_claim("Müller's café experiment reuses the rollouts.")
    question = make_indexed_question(title="Does the café effect hold?", text="As Jörg Müller asks.", user=editor)

    for query in ("Muller", "Müller", "MULLER"):
        assert {("source", work.pk), ("page", page.pk), ("claim", claim.pk), ("question", question.pk)} <= _found(query)
    for query in ("cafe", "café"):
        assert {("page", page.pk), ("claim", claim.pk), ("question", question.pk)} <= _found(query)
    assert ("source", work.pk) in _found("Jorg") and ("source", work.pk) in _found("Zoe Lefevre")
    assert ("source", work.pk) in _found("Müll")  # a prefix, as before


def test_a_hit_highlights_the_accented_word_as_written(client: Client) -> None:
    make_source(short_name="Gradients", title="Gradients Revisited", authors="Müller, Jörg")

    html = client.get(reverse("wiki:search"), {"q": "muller jorg", "kind": "source"}).content.decode()

    assert "<mark>Müller</mark>, <mark>Jörg</mark>" in html


@pytest.mark.parametrize(("british", "american"), [
    ("optimisation", "optimization"), ("optimised", "optimized"), ("organising", "organizing"),
    ("behaviour", "behavior"), ("behavioural", "behavioral"), ("favourite", "favorite"), ("analyse", "analyze"),
])
def test_british_and_american_spellings_name_each_other(british: str, american: str) -> None:
    assert other_spelling(british) == american
    assert other_spelling(american) == british


def test_words_that_only_look_like_a_spelling_pair_have_none() -> None:
    assert [other_spelling(word) for word in ("size", "prize", "four", "tensor", "actor", "error", "rise")] == [None] * 7


def test_either_spelling_finds_the_other(client: Client) -> None:
    american = make_page(slug="po-us", title="Notes on PPO", body="Proximal policy optimization clips the ratio.")
    british = make_page(slug="po-uk", title="Harness notes", body="The agent's behaviour drifts under policy optimisation.")

    assert {hit.object_id for hit in _hits("policy optimisation")["page"]} == {american.pk, british.pk}
    assert {hit.object_id for hit in _hits("policy optimization")["page"]} == {american.pk, british.pk}
    assert [hit.object_id for hit in _hits("behavior")["page"]] == [british.pk]
    html = client.get(reverse("wiki:search"), {"q": "policy optimisation", "kind": "page"}).content.decode()
    assert "<mark>policy</mark> <mark>optimization</mark>" in html
    assert "<mark>policy</mark> <mark>optimisation</mark>" in html


def test_a_glossary_name_in_the_other_spelling_names_the_term(editor: Account) -> None:
    term = glossary_term_create(fields={"slug": "preference-optimization", "name_zh": "偏好优化",
                                        "name_en": "preference optimization"}, user=editor)
    british = make_page(slug="dpo-uk", title="DPO notes", body="Direct preference optimisation skips the reward model.")
    chinese = make_page(slug="dpo-zh", title="DPO 笔记", body="偏好优化不需要奖励模型。")

    results = search("preference optimisation", kinds=["page"])

    assert [t.slug for t in results.terms] == [term.slug]
    assert {hit.object_id for group in results.groups for hit in group.hits} == {british.pk, chinese.pk}
    assert {hit.object_id for group in search("preference optimization", kinds=["page"]).groups for hit in group.hits} == {
        british.pk, chinese.pk}
