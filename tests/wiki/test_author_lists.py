"""A work with forty authors shows the first three, then "等 40 人" / "et al.", which opens on the rest without
JavaScript; a short list is shown whole."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client

from tests.factories import make_source
from tests.wiki.htmltext import html_text

pytestmark = pytest.mark.django_db

FORTY = "; ".join(f"Author{n}, A." for n in range(1, 41))


def _render(authors: str) -> str:
    return Template("{% load author_lists %}{% author_list authors %}").render(Context({"authors": authors}))


def test_a_long_list_shows_three_names_and_folds_the_rest_in_a_details_element() -> None:
    html = _render(FORTY)

    shown, folded = html.split("<details", 1)
    assert re.findall(r"Author\d+", shown) == ["Author1", "Author2", "Author3"]
    assert "<summary" in folded and "et al. (40 authors in all)</summary>" in folded
    assert re.findall(r"Author\d+", folded) == [f"Author{n}" for n in range(4, 41)]
    assert "<script" not in html


def test_a_short_list_is_shown_whole_and_an_unknown_rest_says_et_al() -> None:
    assert "<details" not in _render("Sutton, Richard S.; Barto, Andrew G.")
    assert html_text(_render("Sutton, Richard S.; Barto, Andrew G.")) == "Sutton, Richard S.; Barto, Andrew G."
    assert html_text(_render("Yao, Shunyu; Zhao, Jeffrey; et al.")) == "Yao, Shunyu; Zhao, Jeffrey et al."
    assert html_text(_render("")) == "—"


def test_a_works_page_folds_forty_authors_in_chinese_as_deng_n_ren(client: Client) -> None:
    work = make_source(slug="many", title="A Paper of Many Hands", authors=FORTY)

    page = client.get(work.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    english = client.get(work.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "等 40 人</summary>" in page
    assert "et al. (40 authors in all)</summary>" in english
    assert re.findall(r"Author\d+", english.split('class="more-authors"')[0].split("Bibliographic details")[-1]) == [
        "Author1", "Author2", "Author3"]
    cite = client.get(f"{work.get_absolute_url()}cite/").content.decode()
    assert "et al. (40 authors in all)</summary>" in cite
