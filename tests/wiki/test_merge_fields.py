"""Merging two works, the editor chooses field by field which value the kept work takes: both shown side by side, the
kept work's own chosen unless the other is picked; the undo gives the fields back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_source
from tests.wiki.htmltext import html_text
from tests.wiki.web_merges import web_merge
from wiki.models import ChangeEvent, Source, SourceMerge
from wiki.services.merges import source_merge, source_merge_undo
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair() -> tuple[Source, Source]:
    preprint = make_source(slug="react-preprint", short_name="ReAct preprint", title="ReAct: Synergizing Reasoning and Acting",
                           kind="preprint", year=2022, venue="arXiv", arxiv_id="2210.03629",
                           abstract="We explore the use of LLMs to generate reasoning traces.")
    published = make_source(slug="react", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting in LMs",
                            kind="paper", year=2023, venue="ICLR", doi="10.1000/react",
                            bibliographic={"pages": "1–20"})
    return preprint, published


def _url(slug: str) -> str:
    return reverse("wiki:source-merge", kwargs={"slug": slug})


def test_naming_the_kept_work_shows_both_works_values_side_by_side_and_merges_nothing(
        editor_client: Client, pair: tuple[Source, Source]) -> None:
    response = editor_client.post(_url("react"), {"into": "react-preprint"})

    assert response.status_code == 200 and not SourceMerge.objects.exists()
    fields = response.context["fields"]
    assert [(c.name, c.kept, c.merged) for c in fields.choices] == [
        ("short_name", "ReAct preprint", "ReAct"), ("title", "ReAct: Synergizing Reasoning and Acting",
                                                    "ReAct: Synergizing Reasoning and Acting in LMs"),
        ("year", 2022, 2023), ("venue", "arXiv", "ICLR"), ("kind", "preprint", "paper"), ("pages", "", "1–20")]
    page = response.content.decode()
    # each row: the kept work's value checked, the merged work's beside it
    assert 'name="take_venue" value="kept" id="id_take_venue_0" checked' in page
    assert 'name="take_venue" value="merged" id="id_take_venue_1">' in page
    text = html_text(page)
    assert "“ReAct preprint” (kept)" in text and "“ReAct” (merged)" in text and "Journal article" not in text
    assert "Paper" in text and "Preprint" in text  # a kind by its label
    assert "the arXiv ID and DOI of “ReAct” go on leading to “ReAct preprint”" in text


def test_the_kept_work_takes_the_values_picked_and_keeps_its_own_of_the_others(
        editor_client: Client, pair: tuple[Source, Source]) -> None:
    preprint, _ = pair

    response = web_merge(editor_client, "react", "react-preprint", take=("title", "venue", "year", "pages", "kind"))

    assert response.status_code == 302 and response["Location"] == preprint.get_absolute_url()
    kept = Source.objects.get(pk=preprint.pk)
    assert (kept.short_name, kept.title, kept.year, kept.venue, kept.kind) == (
        "ReAct preprint", "ReAct: Synergizing Reasoning and Acting in LMs", 2023, "ICLR", "paper")
    assert kept.bibliographic == {"pages": "1–20"}
    assert (kept.arxiv_id, kept.doi) == ("2210.03629", "")  # identifiers stay where they were
    assert kept.abstract == "We explore the use of LLMs to generate reasoning traces."
    event = ChangeEvent.objects.get(action="merged")
    assert "took Title, Year, Venue, Kind, Pages from the merged work" in event.summary


def test_undoing_the_merge_gives_the_fields_back_unless_edited_since(pair: tuple[Source, Source]) -> None:
    preprint, published = pair
    merge = source_merge(merged=published, kept=preprint, user=None, take=["title", "venue", "pages"])
    kept = Source.objects.get(pk=preprint.pk)
    source_update(source=kept, fields={"venue": "ICLR 2023"})

    source_merge_undo(merge=merge, user=None)

    kept.refresh_from_db()
    assert kept.title == "ReAct: Synergizing Reasoning and Acting"  # given back
    assert kept.bibliographic == {}
    assert kept.venue == "ICLR 2023"  # edited since the merge: kept as edited
    assert Source.objects.get(pk=published.pk).title == "ReAct: Synergizing Reasoning and Acting in LMs"


def test_a_kept_work_that_took_the_merged_works_title_stays_editable(pair: tuple[Source, Source]) -> None:
    preprint, published = pair
    source_merge(merged=published, kept=preprint, user=None, take=["title", "year"])

    saved = source_update(source=Source.objects.get(pk=preprint.pk), fields={"notes": "Read twice."})

    assert saved.notes == "Read twice." and saved.title == published.title


def test_taking_the_merged_works_short_name_frees_it_for_the_kept_work(editor_client: Client,
                                                                       pair: tuple[Source, Source]) -> None:
    web_merge(editor_client, "react", "react-preprint", take=("short_name",))

    assert Source.objects.get(slug="react-preprint").short_name == "ReAct"


def test_values_that_would_make_the_kept_work_another_works_duplicate_merge_nothing(
        editor_client: Client, pair: tuple[Source, Source]) -> None:
    make_source(slug="third", short_name="Third", title="ReAct: Synergizing Reasoning and Acting in LMs", year=2023)
    before = list(Source.all_objects.order_by("pk").values())

    response = web_merge(editor_client, "react", "react-preprint", take=("title", "year"))

    assert response.status_code == 400
    assert "With these values the kept work would be “Third”" in html_text(response.content.decode())
    assert not SourceMerge.objects.exists() and list(Source.all_objects.order_by("pk").values()) == before


def test_a_choice_that_is_neither_work_s_value_merges_nothing(editor_client: Client, pair: tuple[Source, Source]) -> None:
    shown = editor_client.post(_url("react"), {"into": "react-preprint"}).context["fields"]

    response = editor_client.post(_url("react"), {
        "into": "react-preprint", "compared": "1", "kept_at": shown.initial["kept_at"].isoformat(),
        "merged_at": shown.initial["merged_at"].isoformat(), "take_title": "both"})

    assert response.status_code == 400 and not SourceMerge.objects.exists()
    assert "Select a valid choice" in html_text(response.content.decode())


def test_a_work_changed_since_the_comparison_is_compared_again_and_nothing_is_merged(
        editor_client: Client, pair: tuple[Source, Source]) -> None:
    preprint, _ = pair
    shown = editor_client.post(_url("react"), {"into": "react-preprint"}).context["fields"]
    source_update(source=preprint, fields={"venue": "arXiv (v3)"})

    response = editor_client.post(_url("react"), {
        "into": "react-preprint", "compared": "1", "kept_at": shown.initial["kept_at"].isoformat(),
        "merged_at": shown.initial["merged_at"].isoformat(), "take_venue": "merged"})

    assert response.status_code == 409 and not SourceMerge.objects.exists()
    assert "One of the works was changed since you compared them, so nothing was merged." in html_text(response.content.decode())
    assert {c.name: c.kept for c in response.context["fields"].choices}["venue"] == "arXiv (v3)"


def test_the_comparison_takes_as_many_queries_for_works_with_many_details(editor_client: Client) -> None:
    def queries(merged: str, kept: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert editor_client.post(_url(merged), {"into": kept}).status_code == 200
        return len(captured.captured_queries)

    make_source(slug="a", short_name="A", title="A")
    make_source(slug="b", short_name="B", title="B")
    make_source(slug="c", short_name="C", title="C", authors="; ".join(f"X{n}, Y." for n in range(300)),
                bibliographic={"pages": "1–2", "volume": "3", "number": "4", "publisher": "P", "isbn": "1"})
    make_source(slug="d", short_name="D", title="D", abstract="Long. " * 3000, notes="N")
    editor_client.get(_url("a"))
    assert queries("a", "b") == queries("c", "d")
