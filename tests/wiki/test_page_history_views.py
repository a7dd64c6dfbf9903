"""What a page's history, diff and old revisions show of each revision (who, when, why) and how they lead from one
edit to the next."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_page
from wiki.models import Page
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def _page(edits: int = 4) -> Page:
    """Revisions 1 to ``edits``, each saved by "author-N" with the summary "edit N"."""
    page = make_page(slug="notes", title="Notes", body="1\n", user=make_editor("author-1"))
    for n in range(2, edits + 1):
        page_save_revision(
            slug="notes",
            title="Notes",
            body=f"{n}\n",
            comment=f"edit {n}",
            user=make_editor(f"author-{n}"),
            base_revision=n - 1,
        )
    return page


def _diff(client: Client, first: object, second: object) -> str:
    return client.get(
        reverse("wiki:page-diff", kwargs={"slug": "notes"}) + f"?from={first}&to={second}"
    ).content.decode()


def _changes_by(name: str) -> str:
    return f'href="{reverse("wiki:changes")}?user={name}"'


def test_a_diff_asked_for_backwards_is_redirected_to_the_older_revision_first(client: Client) -> None:
    _page()
    url = reverse("wiki:page-diff", kwargs={"slug": "notes"})

    response = client.get(f"{url}?from=3&to=1")

    assert response.status_code == 302 and response["Location"] == f"{url}?from=1&to=3"
    assert client.get(response["Location"]).context["old"].number == 1


def test_each_side_of_a_diff_says_its_revision_author_time_and_summary(client: Client) -> None:
    _page()

    html = _diff(client, 2, 3)

    sides = re.findall(r'<section class="diff-side diff-side-(old|new)".*?</section>', html, re.S)
    assert sides == ["old", "new"]
    old, new = re.findall(r'<section class="diff-side.*?</section>', html, re.S)
    assert f'href="{reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 2})}">Revision 2</a>' in old
    assert _changes_by("author-2") in old and "edit 2" in old and "<time datetime=" in old
    assert _changes_by("author-3") in new and "edit 3" in new
    # the current revision says so
    assert ">Current revision (4)</a>" in _diff(client, 3, 4)


def test_a_diff_of_one_edit_leads_to_the_edits_before_and_after_it(client: Client) -> None:
    _page()
    url = reverse("wiki:page-diff", kwargs={"slug": "notes"})

    middle, first, last, wide = _diff(client, 2, 3), _diff(client, 1, 2), _diff(client, 3, 4), _diff(client, 1, 3)

    assert f'<a href="{url}?from=1&amp;to=2">← Older edit</a>' in middle
    assert f'<a href="{url}?from=3&amp;to=4">Newer edit →</a>' in middle
    assert "Older edit" not in first and "Newer edit" in first
    assert "Newer edit" not in last and "Older edit" in last
    assert "Older edit" not in wide and "Newer edit" not in wide


def test_an_old_revision_leads_to_the_revisions_beside_it_and_gives_its_summary(client: Client) -> None:
    _page()

    def shown(number: int) -> str:
        return client.get(reverse("wiki:page-revision", kwargs={"slug": "notes", "number": number})).content.decode()

    middle, first, last = shown(2), shown(1), shown(4)

    assert (
        f'href="{reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 1})}">← Older revision</a>' in middle
    )
    assert (
        f'href="{reverse("wiki:page-revision", kwargs={"slug": "notes", "number": 3})}">Newer revision →</a>' in middle
    )
    assert re.search(r"Edit summary: <span[^>]*>edit 2</span>", middle)
    assert "Older revision" not in first and "Newer revision" in first and "no summary" in first
    assert "Newer revision" not in last and "Older revision" in last


def test_history_and_the_page_link_their_authors_to_their_changes(client: Client) -> None:
    page = _page()

    history = client.get(reverse("wiki:page-history", kwargs={"slug": "notes"})).content.decode()
    shown = client.get(page.get_absolute_url()).content.decode()

    assert all(_changes_by(f"author-{n}") in history for n in range(1, 5))
    assert re.search(rf"Last edited .*? by <a {re.escape(_changes_by('author-4'))}>author-4</a>", shown, re.S)


def test_a_diff_runs_a_fixed_number_of_queries_whatever_the_history(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    short = make_page(slug="short", body="0", user=make_editor())
    long = make_page(slug="long", body="0", user=make_editor())
    for page, edits in ((short, 3), (long, 60)):
        for n in range(2, edits + 1):
            page_save_revision(slug=page.slug, title=page.title, body=str(n), base_revision=n - 1, user=make_editor())
    for page, latest in ((short, 3), (long, 60)):
        # the page with its latest number, the two revisions with their authors, the claims the edits changed
        with django_assert_num_queries(3):
            html = client.get(
                reverse("wiki:page-diff", kwargs={"slug": page.slug}) + f"?from=2&to={latest}"
            ).content.decode()
        assert "Revision 2" in html and 'class="diff-side diff-side-old"' in html
