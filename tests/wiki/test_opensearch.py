"""Browsers find the wiki's search (OpenSearch) and send their address-bar searches to it."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

NS = {"os": "http://a9.com/-/spec/opensearch/1.1/"}


def test_every_page_names_the_search_description_and_it_leads_to_the_search(client: Client) -> None:
    home = client.get(reverse("wiki:home")).content.decode()
    described = client.get(reverse("wiki:opensearch"))

    assert ('<link rel="search" href="/opensearch.xml" type="application/opensearchdescription+xml" '
            'title="Agentic RL Wiki">') in home
    assert described.status_code == 200
    assert described["Content-Type"] == "application/opensearchdescription+xml; charset=utf-8"
    root = ElementTree.fromstring(described.content)
    assert root.findtext("os:ShortName", namespaces=NS) == "Agentic RL Wiki"
    templates = {url.get("type"): url.get("template", "") for url in root.findall("os:Url", NS)}
    assert templates == {"text/html": "http://testserver/search/?q={searchTerms}",
                         "application/json": "http://testserver/api/v1/search/?q={searchTerms}"}
    searched = client.get(templates["text/html"].replace("http://testserver", "").replace("{searchTerms}", "GRPO"))
    assert searched.status_code == 200


def test_the_description_reads_in_the_readers_language(client: Client) -> None:
    chinese = client.get(reverse("wiki:opensearch"), headers={"accept-language": "zh-hans"})
    description = ElementTree.fromstring(chinese.content).findtext("os:Description", namespaces=NS)
    assert description == "搜索 Agentic RL Wiki：页面、论断、工作和待核实问题，中英文皆可。"
