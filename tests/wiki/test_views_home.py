"""The home page: pages, recent changes, the head of the queue and the mechanism × verdict chart."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from classifier.taxonomy import Mechanism, Verdict
from tests.factories import SmallWiki, make_editor, make_reader
from tests.wiki.htmltext import html_tables, html_text
from wiki.models import ChangeEvent, Classification, OpenQuestion

pytestmark = pytest.mark.django_db


def test_home_lists_pages_recent_changes_and_queue_head(client: Client, small_wiki: SmallWiki) -> None:
    content = client.get(reverse("wiki:home")).content.decode()
    assert f'href="/wiki/{small_wiki.page.slug}/"' in content and f'href="/wiki/{small_wiki.notes.slug}/"' in content
    latest = ChangeEvent.objects.first()
    assert latest is not None and latest.label in html_text(content.split('id="changes-heading"')[1])
    head = list(OpenQuestion.objects.unresolved().queue()[:5])
    assert head
    queue = content.split('id="queue-heading"')[1].split("</section>")[0]
    assert re.findall(r'href="/questions/(\d+)/"', queue) == [str(q.pk) for q in head]


@pytest.mark.usefixtures("small_wiki")
def test_chart_segments_link_to_the_filtered_source_list_with_their_counts(client: Client) -> None:
    content = client.get(reverse("wiki:home")).content.decode()
    expected = Counter(Classification.objects.values_list("mechanism", "verdict"))
    segments = re.findall(r'<a class="seg seg-(\w+)" style="width: [\d.]+%" href="/sources/\?mechanism=(\w+)&amp;verdict=(\w+)" title="[^"]*: (\d+)"', content)
    assert {(mech, verdict): int(n) for seg, mech, verdict, n in segments if seg == verdict} == dict(expected)
    assert ("policy_gradient", "strict") in expected
    chinese = client.get(reverse("wiki:home"), headers={"accept-language": "zh-CN"}).content.decode()
    assert re.search(r'class="seg seg-strict"[^>]* title="策略梯度 · [^"：]+：\d+" aria-label="策略梯度 · ', chinese)


@pytest.mark.usefixtures("small_wiki")
def test_chart_has_a_table_with_the_same_numbers(client: Client) -> None:
    content = client.get(reverse("wiki:home")).content.decode()
    [table] = [t for t in html_tables(content) if t.headers and t.headers[0] == "Mechanism"]
    assert table.headers == ["Mechanism", *[v.label for v in Verdict], "Total"]
    counts = Counter(Classification.objects.values_list("mechanism", "verdict"))
    assert counts[("policy_gradient", "strict")] and counts[("environment", "not_strict")]
    for row in table.rows:
        mechanism = next(m for m in Mechanism if m.label == row[0])
        assert [int(cell) for cell in row[1:-1]] == [counts[(mechanism.value, v.value)] for v in Verdict]
        assert int(row[-1]) == sum(counts[(mechanism.value, v.value)] for v in Verdict)


@pytest.mark.usefixtures("small_wiki")
def test_a_chart_link_lists_exactly_the_counted_sources(client: Client) -> None:
    listing = client.get(reverse("wiki:source-list"), {"mechanism": "environment", "verdict": "not_strict"}).content.decode()
    listed = set(re.findall(r'<a href="/sources/([^/"]+)/" class="short-name">', listing))
    expected = set(Classification.objects.filter(mechanism="environment", verdict="not_strict").values_list("source__slug", flat=True))
    assert listed == expected and len(expected) > 1


@pytest.mark.parametrize("name", ["wiki:home", "wiki:source-list", "wiki:question-list"])
def test_every_page_footer_links_to_the_consistency_report_and_the_api_docs(client, name) -> None:  # type: ignore[no-untyped-def]
    content = client.get(reverse(name)).content.decode()
    footer = content[content.index('<footer class="site-footer">'):]
    assert f'href="{reverse("wiki:consistency-report")}"' in footer
    assert f'href="{reverse("api-docs")}"' in footer


def test_home_shows_the_recently_updated_pages_and_links_to_all_of_them(client: Client) -> None:
    from tests.factories import make_page
    from wiki.views.home import RECENT_PAGES

    for n in range(RECENT_PAGES + 5):
        make_page(slug=f"bulk-page-{n:03d}", title=f"Bulk page {n:03d}")
    pages = client.get(reverse("wiki:home")).content.decode().split('id="pages-heading"')[1].split("</section>")[0]
    shown = re.findall(r'class="page-link">([^<]+)<', pages)
    assert len(shown) == RECENT_PAGES
    assert shown[0] == f"Bulk page {RECENT_PAGES + 4:03d}"
    assert reverse("wiki:page-list") in pages


def test_page_list_pages_through_every_page_by_title(client: Client) -> None:
    from tests.factories import make_page
    from wiki.models import Page
    from wiki.views.listing import PER_PAGE

    for n in range(PER_PAGE + 2):
        make_page(slug=f"listed-{n:03d}", title=f"Listed {n:03d}")
    first = client.get(reverse("wiki:page-list")).content.decode()
    second = client.get(reverse("wiki:page-list") + "?p=2").content.decode()
    titles = re.findall(r'class="page-link">([^<]+)<', first) + re.findall(r'class="page-link">([^<]+)<', second)
    assert titles == list(Page.objects.order_by("title").values_list("title", flat=True))
    assert 'href="?p=2"' in first


EDITOR_TOOLS = ("wiki:triage", "wiki:classifier-agreement", "wiki:api-token")


def _header_and_footer(client: Client, name: str) -> tuple[str, str]:
    content = client.get(reverse(name)).content.decode()
    header = content[content.index('<header class="site-header">'):content.index("</header>")]
    return header, content[content.index('<footer class="site-footer">'):]


@pytest.mark.parametrize("name", ["wiki:home", "wiki:source-list", "wiki:preferences"])
def test_editors_find_triage_the_classifier_report_and_their_api_token_linked_from_every_page(client: Client, name: str) -> None:
    client.force_login(make_editor("linked"))
    header, footer = _header_and_footer(client, name)
    assert f'href="{reverse("wiki:triage")}"' in header
    assert all(f'href="{reverse(tool)}"' in footer for tool in EDITOR_TOOLS)

    # After the editor's copy of the page is cached, readers still get theirs, without the links.
    reader = Client()
    reader.force_login(make_reader("unlinked"))
    for other in (Client(), reader):
        header, footer = _header_and_footer(other, name)
        assert not any(f'href="{reverse(tool)}"' in header + footer for tool in EDITOR_TOOLS)


def test_the_not_found_page_links_back_to_the_home_page(client: Client) -> None:
    for language, home in (("en", "the home page"), ("zh-CN", "首页")):
        response = client.get("/no-such-address/", headers={"accept-language": language})
        assert response.status_code == 404
        main = response.content.decode().split('<main id="main"')[1].split("</main>")[0]
        assert f'<a href="{reverse("wiki:home")}">{home}</a>' in main, language
