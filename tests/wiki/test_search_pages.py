from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClassificationFactory, make_source

pytestmark = pytest.mark.django_db


def _hit_urls(html: str) -> list[str]:
    return re.findall(r'<a class="hit-title" href="([^"]+)"', html)


def _link(html: str, rel: str) -> str:
    found = re.search(rf'<a href="([^"]+)" rel="{rel}">', html)
    assert found, f"no {rel} link"
    return reverse("wiki:search") + found.group(1).replace("&amp;", "&")


def test_all_results_of_a_kind_keep_the_mechanism_and_verdict_asked_for(client: Client) -> None:
    for n in range(12):
        ClassificationFactory.create(source=make_source(short_name=f"Zebrafish Agent {n}"))
    for n in range(3):
        ClassificationFactory.create(source=make_source(short_name=f"Zebrafish Harness {n}"), mechanism="harness",
                                     verdict="not_strict", rl_update=False)

    html = client.get(reverse("wiki:search"), {"q": "zebrafish", "mechanism": "policy_gradient", "verdict": "strict"}).content.decode()
    link = re.search(r'<a href="(\?[^"]*kind=source[^"]*)">', html)
    assert link
    every = client.get(reverse("wiki:search") + link.group(1).replace("&amp;", "&"))

    assert every.context["form"].cleaned_data["mechanism"] == "policy_gradient"
    assert every.context["form"].cleaned_data["verdict"] == "strict"
    titles = [hit.title for group in every.context["results"].groups for hit in group.hits]
    assert len(titles) == 12
    assert not any("Harness" in title for title in titles)


def test_one_kinds_results_go_on_page_after_page(client: Client) -> None:
    works = {make_source(short_name=f"Quokka Study {n}").get_absolute_url() for n in range(60)}

    first = client.get(reverse("wiki:search"), {"q": "quokka", "kind": "source"}).content.decode()
    second = client.get(_link(first, "next")).content.decode()

    assert len(_hit_urls(first)) == 50
    assert len(_hit_urls(second)) == 10
    assert set(_hit_urls(first)) | set(_hit_urls(second)) == works
    assert '<ol class="search-hits" start="51">' in second
    assert 'rel="next"' not in second
    assert _hit_urls(client.get(_link(second, "prev")).content.decode()) == _hit_urls(first)


def test_a_page_past_the_results_leads_back_to_the_last_one(client: Client) -> None:
    for n in range(60):
        make_source(short_name=f"Quokka Study {n}")

    html = client.get(reverse("wiki:search"), {"q": "quokka", "kind": "source", "p": "9"}).content.decode()

    assert not _hit_urls(html)
    assert _link(html, "prev").endswith("p=2")


def test_a_later_page_of_results_costs_the_queries_of_the_first(client: Client) -> None:
    for n in range(120):
        make_source(short_name=f"Quokka Study {n}")
    url = reverse("wiki:search")
    client.get(url, {"q": "study", "kind": "source"})  # the glossary read once for the content version

    with CaptureQueriesContext(connection) as first:
        client.get(url, {"q": "quokka", "kind": "source"})
    with CaptureQueriesContext(connection) as third:
        html = client.get(url, {"q": "quokka", "kind": "source", "p": "3"}).content.decode()

    assert len(_hit_urls(html)) == 20
    assert len(third) == len(first)
