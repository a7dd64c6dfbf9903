"""The keys a wiki's editors know (Alt+Shift+E to edit, S to save, P to preview…) reach the same controls here, and no
screen gives one key to two of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_page, make_source

pytestmark = pytest.mark.django_db

ACCESS_KEY = re.compile(r'<(\w+)\b[^>]*?\baccesskey="(\w)"[^>]*>')


def _keys(html: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for match in ACCESS_KEY.finditer(html):
        found.setdefault(match.group(2), []).append(match.group(0))
    return found


def test_a_page_s_keys_lead_to_its_edit_history_move_and_watch(editor_client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping", body="Text.")

    keys = _keys(editor_client.get(page.get_absolute_url()).content.decode())

    assert all(len(tags) == 1 for tags in keys.values()), keys
    assert f'href="{reverse("wiki:page-edit", kwargs={"slug": page.slug})}"' in keys["e"][0]
    assert f'href="{reverse("wiki:page-history", kwargs={"slug": page.slug})}"' in keys["h"][0]
    assert f'href="{reverse("wiki:page-move", kwargs={"slug": page.slug})}"' in keys["m"][0]
    assert "watch-button" in keys["w"][0]
    assert f'href="{reverse("wiki:home")}"' in keys["z"][0] and 'id="site-search-q"' in keys["f"][0]
    assert f'href="{reverse("wiki:random-page")}"' in keys["x"][0]
    assert f'href="{reverse("wiki:changes")}"' in keys["r"][0]
    assert f'href="{reverse("wiki:watchlist")}"' in keys["l"][0]


def test_the_edit_form_s_keys_save_preview_show_changes_summary_and_minor(editor_client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping", body="Text.")

    keys = _keys(editor_client.get(reverse("wiki:page-edit", kwargs={"slug": page.slug})).content.decode())

    assert all(len(tags) == 1 for tags in keys.values()), keys
    assert 'name="save"' in keys["s"][0] and 'name="preview"' in keys["p"][0] and 'name="diff"' in keys["v"][0]
    assert 'name="comment"' in keys["b"][0] and 'name="minor"' in keys["i"][0]


def test_a_reader_s_screens_offer_no_key_twice(client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping", body="Text.")
    work = make_source(short_name="SkillForge", title="SkillForge")

    for url in (page.get_absolute_url(), work.get_absolute_url(), reverse("wiki:home"), reverse("wiki:changes")):
        keys = _keys(client.get(url).content.decode())
        assert keys and all(len(tags) == 1 for tags in keys.values()), (url, keys)
        assert "e" not in keys  # no edit link for a reader


def test_a_printed_page_says_where_it_was_read_instead_of_its_tools(editor_client: Client) -> None:
    page = make_page(slug="reward-shaping", title="Reward shaping", body="Text.")

    html = editor_client.get(page.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    permanent = reverse("wiki:page-revision", kwargs={"slug": page.slug, "number": 1})
    assert f'<p class="printed-from">取自 http://testserver{permanent}</p>' in html
    tools = html.split('<span class="page-tools">', 1)[1].split("</span>\n", 1)[0]
    assert 'accesskey="e"' in tools and 'accesskey="h"' in tools and "watch-button" in tools
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "wiki.css").read_text(encoding="utf-8")
    printed = css.split("@media print {", 2)[2].split("\n}", 1)[0]
    assert ".page-tools { display: none; }" in printed and ".printed-from { display: block;" in printed
