"""A page's revision has a permanent address: the page as that revision left it, with who saved it and when, and
the way to the page now and to the changes since."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_editor, make_page
from wiki.services.deletion import page_delete
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def test_an_old_revision_reads_as_it_was_saved_and_leads_to_the_changes_since(client: Client) -> None:
    editor = make_editor("reviser")
    make_page(slug="notes", title="Notes", body="First text with [[Other Page]] and <script>alert(1)</script>.")
    page_save_revision(slug="notes", title="Notes renamed", body="Second text.", user=editor, base_revision=1)

    first = client.get(reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 1}))
    second = client.get(reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 2}))

    html = first.content.decode()
    assert first.status_code == 200 and "First text with" in html and "Second text." not in html
    assert '<h1 class="page-title" lang="en">Notes</h1>' in html and "<script>alert(1)" not in html
    assert 'class="wikilink wanted"' in html  # a link rendered against today's pages
    assert "The page has changed since (current revision: 2)." in html
    assert f'href="{reverse("wiki:page-diff", kwargs={"slug": "notes"})}?from=1&amp;to=2"' in html
    assert 'saved by <a href="/changes/?user=reviser">reviser</a>' in second.content.decode() and "It is the current revision." in second.content.decode()
    history = client.get(reverse("wiki:page-history", kwargs={"slug": "notes"})).content.decode()
    assert f'href="{reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 1})}"' in history
    current = client.get(reverse("wiki:page-detail", kwargs={"slug": "notes"})).content.decode()
    assert f'<a href="{reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 2})}">Permanent link</a>' in current


def test_a_revision_that_does_not_exist_is_not_found(client: Client) -> None:
    make_page(slug="notes", title="Notes", body="Text.")
    assert client.get(reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 2})).status_code == 404
    assert client.get(reverse("wiki:page-revision", kwargs={"slug": "no-page", "number": 1})).status_code == 404
    assert client.get("/wiki/notes/revisions/0/").status_code == 404


def test_a_revision_the_page_has_not_says_which_it_has_and_links_the_history(client: Client) -> None:
    make_page(slug="notes", title="Notes", body="Text.")

    response = client.get(reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 7}), HTTP_ACCEPT_LANGUAGE="zh-hans")

    html = response.content.decode()
    assert response.status_code == 404
    assert "本页没有修订版本 7：它的修订版本编号为 1 到 1。" in html
    assert f'<a href="{reverse("wiki:page-history", kwargs={"slug": "notes"})}">' in html


def test_a_deleted_pages_revisions_answer_gone_as_the_page_does(client: Client) -> None:
    editor = make_editor("remover")
    page = make_page(slug="gone-notes", title="Gone notes", body="Text.")
    page_delete(page=page, user=editor, reason="merged elsewhere")

    response = client.get(reverse("wiki:page-revision", kwargs={"slug": "gone-notes", "number": 1}))

    assert response.status_code == 410 and "merged elsewhere" in response.content.decode()
