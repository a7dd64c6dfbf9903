"""What an editor is told when a merge cannot be made or is done already."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_source
from wiki.models import Source, SourceMerge
from wiki.services.merges import source_merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def merge(editor: Any) -> SourceMerge:
    alpha = make_source(slug="alpha", short_name="Alpha", title="Alpha: A Work")
    beta = make_source(slug="beta", short_name="Beta", title="Beta: A Work")
    return source_merge(merged=alpha, kept=beta, user=editor)


def test_merging_back_into_the_work_merged_into_this_one_says_so(editor_client: Client, merge: SourceMerge) -> None:
    response = editor_client.post(reverse("wiki:source-merge", kwargs={"slug": "beta"}), {"into": "/sources/alpha/"})

    html = response.content.decode()
    assert response.status_code == 400
    assert "“Alpha” was merged into this work, “Beta”" in html and "No work has the address" not in html
    assert '<a href="/sources/alpha/">Alpha</a> was merged into' in html
    assert reverse("wiki:source-merge-undo", kwargs={"pk": merge.pk}) in html
    assert not Source.all_objects.get(slug="beta").is_deleted


def test_an_unknown_address_is_still_said_to_be_unknown(editor_client: Client, merge: SourceMerge) -> None:
    response = editor_client.post(reverse("wiki:source-merge", kwargs={"slug": "beta"}), {"into": "gamma"})

    assert response.status_code == 400 and "gamma" in response.content.decode() and response.context["merged_here"] is None


def test_undoing_an_undone_merge_says_it_is_undone_already(editor_client: Client, merge: SourceMerge) -> None:
    url = reverse("wiki:source-merge-undo", kwargs={"pk": merge.pk})
    editor_client.post(url, follow=True)

    again = editor_client.post(url)
    shown = editor_client.get(again["Location"])

    assert again.status_code == 302 and again["Location"] == "/sources/alpha/"
    assert '<li class="message info">This merge was undone already: “Alpha” is back at its own address.</li>' in shown.content.decode()
    assert SourceMerge.objects.get().undone_at is not None
