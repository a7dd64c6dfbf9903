"""A work cited at one place however the locator is typed (``pp.3-4``, ``pp. 3–4``, ``第 3–4 页``) is one citation,
shown as the editor typed it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import make_page, make_source
from wiki.forms.claims import CitationFormSet
from wiki.graph.nodes import node_id
from wiki.graph.page import page_neighbourhood
from wiki.models import Citation, Claim, Source
from wiki.services.merges import source_merge
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

TITLE = "Locators Typed Apart: A Study of Citing Pages"


def test_a_sentence_citing_a_work_twice_at_the_same_pages_has_one_citation(db: None) -> None:
    make_source(short_name="Typed", title=TITLE)
    page = make_page(body=f"## 关键要点\n\n- 一个断言（来源：{TITLE}，pp.3-4；{TITLE}，第 3–4 页）\n")
    claim = Claim.objects.current().get(page=page)
    assert list(claim.citations.values_list("locator", flat=True)) == ["pp.3-4"]


def test_a_pages_sources_list_one_range_of_pages_once_as_first_typed(client: Client, db: None) -> None:
    make_source(short_name="Typed", title=TITLE)
    page = make_page(
        body=(
            f"## 关键要点\n\n- 第一个断言（来源：{TITLE}，pp. 3–4）\n- 第二个断言（来源：{TITLE}，第3-4页）\n"
            f"- 第三个断言（来源：{TITLE}，p. 3–4；{TITLE}，§5）\n"
        )
    )
    html = client.get(page.get_absolute_url()).content.decode()
    section = re.search(r'<section class="cited-works".*?</section>', html, re.S)
    assert section is not None
    assert re.findall(r'<span class="locator">([^<]*)</span>', section.group(0)) == ["pp. 3–4", "§5"]


def test_retyping_a_locator_another_way_keeps_a_verified_claim_verified(db: None) -> None:
    make_source(short_name="Typed", title=TITLE)
    page = make_page(body=f"## 关键要点\n\n- 一个断言（来源：{TITLE}，pp.3-4）\n")
    claim = Claim.objects.current().get(page=page)
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    page_save_revision(
        slug=page.slug,
        title=page.title,
        base_revision=1,
        body=f"## 关键要点\n\n- 一个断言（来源：{TITLE}，第 3–4 页）\n",
    )
    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "verified")


def test_a_merge_keeps_one_citation_of_a_claim_citing_both_works_at_the_same_pages(db: None) -> None:
    kept = make_source(short_name="Kept", title=TITLE)
    merged = make_source(short_name="Merged", title="Another Record of the Same Study")
    page = make_page(body=f"## 关键要点\n\n- 一个断言（来源：{TITLE}，pp.3-4；{merged.title}，第 3–4 页）\n")
    source_merge(merged=merged, kept=kept, user=None)
    claim = Claim.objects.current().get(page=page)
    assert list(Citation.objects.filter(claim=claim).values_list("source__short_name", "locator")) == [
        ("Kept", "pp.3-4")
    ]


def test_the_claim_form_refuses_one_work_twice_at_the_same_pages_typed_apart(db: None) -> None:
    source = make_source(short_name="Typed", title=TITLE)
    data = {
        "citations-TOTAL_FORMS": "2",
        "citations-INITIAL_FORMS": "0",
        "citations-0-source": source.short_name,
        "citations-0-locator": "pp.3-4",
        "citations-0-kind": "cited",
        "citations-1-source": source.short_name,
        "citations-1-locator": "第 3–4 页",
        "citations-1-kind": "cited",
    }
    formset = CitationFormSet(data, prefix="citations")
    assert not formset.is_valid()
    assert [e.code for e in formset.non_form_errors().as_data()] == ["duplicate_citation"]


def test_a_graph_edge_names_one_range_of_pages_once(db: None) -> None:
    source = make_source(short_name="Typed", title=TITLE)
    page = make_page(
        body=f"## 关键要点\n\n- 第一个断言（来源：{TITLE}，pp.3-4）\n- 第二个断言（来源：{TITLE}，第 3–4 页）\n"
    )
    graph = page_neighbourhood(page.slug)
    assert graph is not None
    assert graph.edges[node_id("page", page.slug), node_id("source", source.slug), "cites"]["label"] == "pp.3-4"
    assert Source.objects.cited_on(page.pk).get().locators_cited == ["pp.3-4"]
