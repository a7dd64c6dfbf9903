"""A page's sources section is built from its citations, as links to the works, and follows every edit."""

from __future__ import annotations

import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ContrastWiki, make_page, make_source
from wiki.models import Page, Source
from wiki.services.pages import page_save_revision


def _section(html: str) -> str:
    match = re.search(r'<section class="cited-works".*?</section>', html, re.S)
    assert match is not None
    return match.group(0)


def _listed(html: str) -> list[str]:
    return re.findall(r'<li data-source="([^"]+)"', _section(html))


def test_the_seed_page_lists_every_cited_work_in_order_with_links_and_locators(client: Client, seed: None) -> None:
    page = Page.objects.get(slug="agentic-rl")
    html = client.get(page.get_absolute_url()).content.decode()
    listed = _listed(html)
    assert listed[:3] == ["agentic-esopt", "facet", "skillforge"]
    assert listed == list(Source.objects.cited_on(page.pk).values_list("slug", flat=True))
    assert len(listed) == len(set(listed)) == 17
    section = _section(html)
    assert '<a href="/sources/facet/"' in section
    assert '<span class="locator">§3.1 / §5</span>' in section
    assert '<span class="locator">§2.4、§3</span>' in section
    # the authored section stays as written
    assert "<h2 id=\"来源\">来源</h2>" in html
    assert "The ultimate guide to multi-harness RL</li>" in html


def test_the_list_follows_an_edit_adding_and_removing_citations(client: Client, db: None) -> None:
    kept = make_source(slug="kept-work", short_name="Kept", title="Kept Work on Agents")
    dropped = make_source(slug="dropped-work", short_name="Dropped", title="Dropped Work on Agents")
    page = make_page(slug="cites", body=f"- a（来源：{kept.title}，p.3）\n- b（来源：{dropped.title}）\n")
    assert _listed(client.get(page.get_absolute_url()).content.decode()) == ["kept-work", "dropped-work"]

    page_save_revision(slug=page.slug, title=page.title, base_revision=1,
                       body=f"- c（综合：Newly Cited Work on Tools）\n- a（来源：{kept.title}，p.3）\n- d（来源：{kept.title}，§5）\n")
    html = client.get(page.get_absolute_url()).content.decode()  # the cached page is not served stale
    new = Source.objects.get(title="Newly Cited Work on Tools")
    assert _listed(html) == [new.slug, "kept-work"]
    section = _section(html)
    assert '<span class="locator">p.3</span>; <span class="locator">§5</span>' in section
    assert section.count('class="badge"') == 1  # only the synthesised-from work is marked


def test_a_page_without_citations_says_so(client: Client, db: None) -> None:
    page = make_page(body="No citations here.")
    assert "data-cited-works" in client.get(page.get_absolute_url()).content.decode()
    assert _listed(client.get(page.get_absolute_url()).content.decode()) == []


def test_the_source_list_filters_the_works_cited_on_a_page(client: Client, contrast_wiki: ContrastWiki) -> None:
    page = contrast_wiki.page
    html = client.get(reverse("wiki:source-list") + f"?cited_on={page.slug}").content.decode()
    cited = set(Source.objects.cited_on(page.pk).values_list("slug", flat=True))
    assert cited and contrast_wiki.unclassified.slug not in cited
    shown = set(re.findall(r'href="/sources/([^/"]+)/"', html)) & set(Source.objects.values_list("slug", flat=True))
    assert shown == cited
    api = client.get(f"/api/v1/sources/?cited_on={page.slug}&page_size=100").json()
    assert {row["slug"] for row in api["results"]} == cited


def test_the_list_takes_as_many_queries_for_forty_works_as_for_two(client: Client, db: None) -> None:
    def queries(n: int) -> int:
        body = "\n".join(f"- claim {k}（来源：Work Number {k} of {n} on Agents，p.{k}）" for k in range(n))
        page = make_page(slug=f"many-{n}", body=body)
        client.get(page.get_absolute_url())  # caches filled once per process
        Page.objects.filter(pk=page.pk).update(title=f"Many {n}")  # a write: the next read renders again
        with CaptureQueriesContext(connection) as captured:
            response = client.get(page.get_absolute_url())
        assert len(_listed(response.content.decode())) == n
        assert any("wiki_citation" in query["sql"] for query in captured.captured_queries)  # rendered, not cached
        return len(captured)

    assert queries(2) == queries(40)


def test_a_deleted_page_cites_nothing_in_the_source_list(client: Client, db: None) -> None:
    from wiki.services.deletion import page_delete

    work = make_source(slug="only-here", title="Only Cited Here")
    page = make_page(slug="to-delete", body=f"- a（来源：{work.title}）\n")
    url = reverse("wiki:source-list") + "?cited_on=to-delete"
    assert 'href="/sources/only-here/"' in client.get(url).content.decode()
    page_delete(page=page, user=None, reason="test")
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400  # refused, naming the page, rather than an empty list
    assert "The page “to-delete” was deleted" in response.content.decode()
    assert 'href="/sources/only-here/"' not in response.content.decode()
