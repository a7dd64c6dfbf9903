"""Cite this page: the permanent link of the revision cited, the day it was read, and the citation in BibTeX, CSL-JSON,
an APA-like and a GB/T 7714-like style, each read back as written whatever the title holds."""

from __future__ import annotations

import html as html_lib
import json
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_page
from wiki.models import Page, Revision
from wiki.references.bibtex import parse_bibtex
from wiki.references.csl import parse_csl_json
from wiki.services.deletion import page_delete
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

TRICKY = '强化 {Reward} "Shaping" 50% & <script>alert(1)</script> \\emph'


def _cite_url(slug: str) -> str:
    return reverse("wiki:page-cite", kwargs={"slug": slug})


def _pre(html: str, element_id: str) -> str:
    """The text of the ``<pre>`` of that id, as a reader copies it."""
    found = re.search(rf'<pre id="{element_id}"[^>]*>(.*?)</pre>', html, re.S)
    assert found is not None, element_id
    return html_lib.unescape(re.sub(r"<[^>]+>", "", found[1]))


def _bibtex_title(text: str) -> str:
    """The title the wiki's own importer reads in a BibTeX file of one entry."""
    [entry] = parse_bibtex(text)
    assert entry.errors == [] and entry.draft is not None
    return entry.draft.title


def _tricky_page() -> Page:
    editor = make_editor("cite-editor")
    make_page(slug="shaping", title="Reward shaping", body="First text.", user=editor)
    page_save_revision(slug="shaping", title=TRICKY, body="奖励塑形的第二版。", summary="", user=editor)
    return Page.objects.get(slug="shaping")


def test_the_citation_names_the_current_revision_by_its_absolute_permanent_link(client: Client) -> None:
    _tricky_page()
    today = timezone.localdate().isoformat()

    html = client.get(_cite_url("shaping")).content.decode()

    permanent = "http://testserver/wiki/shaping/revisions/2/"
    assert f'<a href="{permanent}" class="address">{permanent}</a>' in html
    assert f'{today}<span class="muted"> (today, in your time zone)</span>' in html
    assert "revision 2</a>, the current one" in html
    for element_id in ("cite-apa", "cite-gbt", "cite-bibtex", "cite-csl"):
        assert permanent in _pre(html, element_id)


def test_every_format_escapes_the_title_and_reads_it_back_as_written(client: Client) -> None:
    _tricky_page()

    html = client.get(_cite_url("shaping")).content.decode()

    # the page escapes the title as HTML: the script in it is text
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    [entry] = parse_bibtex(_pre(html, "cite-bibtex"))
    assert entry.errors == [] and entry.draft is not None and entry.draft.title == TRICKY
    assert entry.draft.authors == "Agentic RL Wiki contributors"
    bibtex = _pre(html, "cite-bibtex")
    assert bibtex.startswith("@misc{agentic-rl-wiki:shaping:r2,")
    assert "50{\\%}" in bibtex and "{\\{}Reward{\\}}" in bibtex and "note         = {Revision 2}," in bibtex
    assert f"urldate      = {{{timezone.localdate().isoformat()}}}," in bibtex
    [item] = json.loads(_pre(html, "cite-csl"))
    assert item["type"] == "webpage" and item["version"] == "2" and item["language"] == "zh-Hans"
    assert (
        item["author"] == [{"literal": "Agentic RL Wiki contributors"}] and item["container-title"] == "Agentic RL Wiki"
    )
    [read] = parse_csl_json(_pre(html, "cite-csl"))
    assert read.draft is not None and read.draft.title == TRICKY
    apa, gbt = _pre(html, "cite-apa"), _pre(html, "cite-gbt")
    assert apa.startswith(f"Agentic RL Wiki contributors. ({timezone.localdate().year}, ")
    assert f"). {TRICKY} (revision 2). In Agentic RL Wiki. Retrieved " in apa
    assert gbt.startswith(f"Agentic RL Wiki 编者. {TRICKY}[EB/OL]. (")
    assert gbt.endswith("http://testserver/wiki/shaping/revisions/2/.")
    # each citation is marked with its language, the title with its own
    assert '<pre id="cite-gbt" class="citation" lang="zh-Hans"' in html
    assert '<pre id="cite-apa" class="citation" lang="en"' in html and '<span lang="zh-Hans">强化 {Reward}' in html


def test_an_older_revision_is_cited_with_its_own_title_and_link(client: Client) -> None:
    _tricky_page()

    html = client.get(_cite_url("shaping"), {"revision": "1"}).content.decode()

    assert "revision 1</a>, not the current one (revision 2)" in html
    assert "Cite the current revision" in html
    apa = _pre(html, "cite-apa")
    assert "Reward shaping (revision 1)" in apa and apa.endswith("http://testserver/wiki/shaping/revisions/1/")
    assert _pre(html, "cite-bibtex").startswith("@misc{agentic-rl-wiki:shaping:r1,")
    assert json.loads(_pre(html, "cite-csl"))[0]["language"] == "en"
    assert f'href="{_cite_url("shaping")}?revision=1&amp;format=bib"' in html


def test_the_chinese_citation_calls_a_revision_xiu_ding_ban_ben_as_the_rest_of_the_wiki_does(client: Client) -> None:
    _tricky_page()

    older = client.get(_cite_url("shaping"), {"revision": "1"}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    current = client.get(_cite_url("shaping"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert "修订版本 1</a>，而不是当前修订版本（修订版本 2）" in older
    assert "指向当前修订版本，即<a" in current and "修订版本 2</a>" in current
    assert "号修订" not in older + current and "引用当前修订版本" in older


def test_the_revision_page_links_to_its_citation(client: Client) -> None:
    _tricky_page()

    html = client.get(reverse("wiki:page-revision", kwargs={"slug": "shaping", "number": 1})).content.decode()

    assert f'href="{_cite_url("shaping")}?revision=1">Cite this revision</a>' in html


def test_the_citation_downloads_as_bibtex_and_csl_json(client: Client) -> None:
    _tricky_page()

    bib = client.get(_cite_url("shaping"), {"format": "bib"})
    csl = client.get(_cite_url("shaping"), {"format": "csl", "revision": "1"})

    assert bib.status_code == 200 and bib["Content-Type"] == "application/x-bibtex; charset=utf-8"
    assert bib["Content-Disposition"] == 'attachment; filename="shaping-r2.bib"'
    assert _bibtex_title(bib.content.decode()) == TRICKY
    assert csl["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
    assert csl["Content-Disposition"] == 'attachment; filename="shaping-r1.json"'
    assert json.loads(csl.content)[0]["title"] == "Reward shaping"


def test_a_chinese_address_is_percent_encoded_and_keyed_by_the_page(client: Client) -> None:
    page = make_page(slug="奖励塑形", title="奖励塑形", body="中文。")

    bib = client.get(_cite_url("奖励塑形"), {"format": "bib"})
    text = bib.content.decode()

    assert text.startswith(f"@misc{{agentic-rl-wiki:page-{page.pk}:r1,")
    assert "url          = {http://testserver/wiki/%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2/revisions/1/}," in text
    assert bib["Content-Disposition"] == "attachment; filename*=utf-8''%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2-r1.bib"
    assert _bibtex_title(text) == "奖励塑形"


def test_the_dates_are_the_readers_days(client: Client) -> None:
    page = make_page(slug="shaping", title="Reward shaping")
    # saved at 20:30 UTC on 1 March: already 2 March in Shanghai
    Revision.objects.filter(page=page).update(created_at=datetime(2025, 3, 1, 20, 30, tzinfo=ZoneInfo("UTC")))
    client.cookies["wiki_time_zone"] = "Asia/Shanghai"

    shanghai = client.get(_cite_url("shaping"), {"format": "csl"}).json()[0]
    client.cookies["wiki_time_zone"] = "America/New_York"
    new_york = client.get(_cite_url("shaping"), {"format": "csl"}).json()[0]

    assert shanghai["issued"] == {"date-parts": [[2025, 3, 2]]} and new_york["issued"] == {"date-parts": [[2025, 3, 1]]}


@pytest.mark.parametrize(
    ("query", "status", "said"),
    [
        ({"revision": "abc"}, 400, "“abc” is no revision number: give a whole number from 1 to 2."),
        ({"revision": "0"}, 400, "“0” is no revision number"),
        ({"revision": "３"}, 400, "“３” is no revision number"),
        ({"revision": "7"}, 404, "The page has no revision 7: its revisions are numbered 1 to 2."),
        ({"revision": "99999999999999999999"}, 404, "The page has no revision 99999999999999999999"),
        ({"format": "ris"}, 400, "No format “ris”: ask for bib or csl"),
        ({"format": "bib", "revision": "x"}, 400, "“x” is no revision number"),
    ],
)
def test_a_revision_or_format_the_page_has_not_is_said(
    client: Client, query: dict[str, str], status: int, said: str
) -> None:
    _tricky_page()

    response = client.get(_cite_url("shaping"), query)

    assert response.status_code == status
    assert said in html_lib.unescape(response.content.decode())


def test_moved_and_deleted_pages(client: Client) -> None:
    page = make_page(slug="shaping", title="Reward shaping")
    page_move(page=page, slug="reward-shaping", user=None)
    moved = client.get(_cite_url("shaping"), {"revision": "1"})
    assert moved.status_code == 302 and moved["Location"] == _cite_url("reward-shaping") + "?revision=1"

    page_delete(page=Page.objects.get(slug="reward-shaping"), user=None, reason="Spam")

    assert client.get(_cite_url("reward-shaping")).status_code == 410
    assert client.get(_cite_url("never-written")).status_code == 404


def test_a_chinese_address_reads_in_its_characters_where_people_read_it_and_links_percent_encoded(client: Client) -> None:
    make_page(slug="奖励塑形", title="奖励塑形", body="中文。")
    readable, encoded = "http://testserver/wiki/奖励塑形/revisions/1/", "http://testserver/wiki/%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2/revisions/1/"

    html = client.get(_cite_url("奖励塑形"), headers={"accept-language": "zh-CN"}).content.decode()

    assert f'<a href="{encoded}" class="address">{readable}</a>' in html
    assert _pre(html, "cite-gbt").endswith(f"[EB/OL]. ({timezone.localdate().isoformat()})[{timezone.localdate().isoformat()}]. {readable}.")
    assert _pre(html, "cite-apa").endswith(f", from {readable}")
    assert encoded in _pre(html, "cite-bibtex") and encoded in _pre(html, "cite-csl")
    assert "%E5" not in _pre(html, "cite-gbt") + _pre(html, "cite-apa")


def test_the_author_is_named_in_the_readers_language(client: Client) -> None:
    _tricky_page()

    chinese = client.get(_cite_url("shaping"), headers={"accept-language": "zh-CN"}).content.decode()
    english = client.get(_cite_url("shaping"), headers={"accept-language": "en"}).content.decode()

    assert '<dt>作者</dt>\n      <dd lang="zh-Hans">Agentic RL Wiki 编者</dd>' in chinese
    assert '<dt>Author</dt>\n      <dd lang="en">Agentic RL Wiki contributors</dd>' in english
    # The styles name it as each style does, whatever the reader's language.
    assert _pre(chinese, "cite-apa").startswith("Agentic RL Wiki contributors. ")


def test_the_copy_buttons_are_a_script_of_the_wiki_not_inline(client: Client) -> None:
    _tricky_page()

    html = client.get(_cite_url("shaping")).content.decode()

    assert html.count("data-copy=") == 4 and html.count(" hidden>") >= 4
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert all('src="' in attributes and not body.strip() for attributes, body in scripts)
    assert '<script src="/static/js/copy-citation.js" defer></script>' in html
    assert (Path(settings.BASE_DIR) / "static" / "js" / "copy-citation.js").exists()


def test_a_citation_costs_two_queries_whatever_the_pages_history(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    _tricky_page()
    with django_assert_num_queries(2):
        client.get(_cite_url("shaping"))
    body = "Text."
    for n in range(30):
        body += f"\n\nMore {n}. " * 20
        page_save_revision(slug="shaping", title=f"Reward shaping {n}", body=body, summary="")

    with django_assert_num_queries(2):
        client.get(_cite_url("shaping"), {"revision": "20"})
    with django_assert_num_queries(2):
        client.get(_cite_url("shaping"), {"format": "bib"})
