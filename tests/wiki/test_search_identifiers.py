"""A search that is a work's arXiv ID (with or without ``arXiv:``, a version or its address), DOI (with or without
https://doi.org/) or BibTeX key finds that work first, and offers it above the results as a name would."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import make_page, make_source
from wiki.search.identifiers import identifier_forms
from wiki.search.query import search
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def works() -> dict[str, int]:
    webarena = make_source(slug="webarena", short_name="WebArena", title="WebArena: A Realistic Web Environment",
                           arxiv_id="2307.13854", bibtex_key="zhou2023webarena")
    kdd = make_source(slug="kdd-paper", short_name="KDD Paper", title="A Paper at KDD", doi="10.1145/3394486.3403172",
                      bibtex_key="DBLP:conf/kdd/Smith20")
    # Mentions WebArena's ID in its abstract: found too, after the work that is it.
    follow = make_source(slug="follow-up", short_name="Follow-up", title="A Follow-up",
                         abstract="We extend WebArena (arXiv:2307.13854) to mobile apps; see 10.1145/3394486.3403172.")
    make_page(slug="web-agents", title="Web agents", body="WebArena (arXiv 2307.13854) is the benchmark most used.")
    return {"webarena": webarena.pk, "kdd": kdd.pk, "follow": follow.pk}


@pytest.mark.parametrize("query", ["arXiv:2307.13854v2", "2307.13854", "https://arxiv.org/abs/2307.13854v1"])
def test_the_forms_of_an_arxiv_id_are_read_as_the_wiki_stores_it(query: str) -> None:
    assert identifier_forms(query) == ("2307.13854",)


def test_an_arxiv_doi_is_searched_as_the_doi_and_as_the_id() -> None:
    assert identifier_forms("https://doi.org/10.48550/arXiv.2307.13854") == ("2307.13854", "10.48550/arxiv.2307.13854")
    assert identifier_forms("GRPO") == identifier_forms("policy gradient") == ()


@pytest.mark.parametrize(("query", "work"), [
    ("2307.13854", "webarena"), ("arXiv:2307.13854", "webarena"), ("arXiv:2307.13854v3", "webarena"),
    ("https://arxiv.org/abs/2307.13854", "webarena"), ("zhou2023webarena", "webarena"), ("Zhou2023WebArena", "webarena"),
    ("10.1145/3394486.3403172", "kdd"), ("https://doi.org/10.1145/3394486.3403172", "kdd"),
    ("doi:10.1145/3394486.3403172", "kdd"), ("DBLP:conf/kdd/Smith20", "kdd"),
])
def test_an_identifier_finds_its_work_first_and_leads_to_it(works: dict[str, int], query: str, work: str) -> None:
    results = search(query)

    [sources] = [group for group in results.groups if group.kind == "source"]
    assert sources.hits[0].object_id == works[work]
    assert [(named.kind, named.slug) for named in results.exact] == [("source", {"webarena": "webarena", "kdd": "kdd-paper"}[work])]


def test_works_and_pages_mentioning_the_id_are_found_after_it(works: dict[str, int]) -> None:
    results = search("arXiv:2307.13854")

    groups = {group.kind: group.hits for group in results.groups}
    assert [hit.object_id for hit in groups["source"]] == [works["webarena"], works["follow"]]
    [page] = groups["page"]
    assert "<mark>2307.13854</mark>" in page.snippet_html


def test_a_work_given_an_identifier_later_is_found_by_it(works: dict[str, int]) -> None:
    source_update(source=make_source(slug="react", short_name="ReAct", title="ReAct"), fields={"arxiv_id": "arXiv:2210.03629"})

    assert [hit.title for group in search("2210.03629").groups for hit in group.hits] == ["ReAct"]


def test_the_search_page_and_the_api_lead_to_the_work(works: dict[str, int], client: Client) -> None:
    html = client.get(reverse("wiki:search"), {"q": "arXiv:2307.13854v2"}).content.decode()
    assert '<p class="search-exact">Go to: <a href="/sources/webarena/" lang="en">WebArena</a>' in html

    body = APIClient().get("/api/v1/search/", {"q": "https://doi.org/10.1145/3394486.3403172"}).json()
    assert [named["slug"] for named in body["exact"]] == ["kdd-paper"]
    [sources] = [group for group in body["groups"] if group["kind"] == "source"]
    assert sources["results"][0]["url"] == "/sources/kdd-paper/"
