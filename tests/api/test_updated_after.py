"""``?updated_after=``: a mirror reads only the items changed since a moment, read with its offset or in the wiki's
time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db.models import Model
from django.test import override_settings
from rest_framework.test import APIClient

from tests.factories import make_claim, make_classification, make_contrast, make_question, make_source
from wiki.models import ChangeEvent, Claim, Classification, Contrast, GlossaryTerm, OpenQuestion, Page, Source

pytestmark = pytest.mark.django_db

SOURCES = "/api/v1/sources/"
EARLIER = datetime(2025, 1, 1, 0, 0, tzinfo=UTC)
LATER = datetime(2025, 1, 1, 1, 0, tzinfo=UTC)


def _slugs(api: APIClient, moment: str) -> set[str]:
    response = api.get(SOURCES, {"updated_after": moment, "q": "mirrored"})
    assert response.status_code == 200, response.content[:300]
    return {row["slug"] for row in response.json()["results"]}


@pytest.fixture
def works() -> tuple[Source, Source]:
    old, new = make_source(slug="mirrored-old", short_name="Mirrored old"), make_source(slug="mirrored-new", short_name="Mirrored new")
    Source.objects.filter(pk=old.pk).update(updated_at=EARLIER)
    Source.objects.filter(pk=new.pk).update(updated_at=LATER)
    return old, new


def test_updated_after_lists_the_works_changed_after_the_moment(api: APIClient, works: tuple[Source, Source]) -> None:
    assert _slugs(api, "2025-01-01T00:30:00Z") == {"mirrored-new"}
    assert _slugs(api, "2025-01-01T08:30:00+08:00") == {"mirrored-new"}
    assert _slugs(api, "2024-12-31T23:59:59.999999Z") == {"mirrored-old", "mirrored-new"}
    # after, not at: the newest time a mirror holds asks for nothing it has
    assert _slugs(api, "2025-01-01T01:00:00Z") == set()
    assert _slugs(api, "2025-01-01T00:00:00.000001+00:00") == {"mirrored-new"}


def test_a_time_without_offset_is_read_in_the_wikis_time_zone(api: APIClient, works: tuple[Source, Source]) -> None:
    # Asia/Shanghai, eight hours ahead of UTC: 08:30 there is 00:30 UTC
    assert _slugs(api, "2025-01-01T08:30:00") == {"mirrored-new"}
    assert _slugs(api, "2025-01-01T00:30:00") == {"mirrored-old", "mirrored-new"}
    # a date alone is its midnight there
    assert _slugs(api, "2025-01-01") == {"mirrored-old", "mirrored-new"}
    with override_settings(TIME_ZONE="UTC"):  # (another address for the same time: answers are kept per address)
        assert _slugs(api, "2025-01-01T00:30") == {"mirrored-new"}


def test_a_work_whose_classification_changed_counts_as_changed(api: APIClient, works: tuple[Source, Source]) -> None:
    old, _ = works
    classification = make_classification(old)
    Classification.objects.filter(pk=classification.pk).update(updated_at=datetime(2025, 1, 1, 2, 0, tzinfo=UTC))

    assert _slugs(api, "2025-01-01T01:30:00Z") == {"mirrored-old"}
    assert _slugs(api, "2025-01-01T03:00:00Z") == set()


def test_updated_after_pages_by_cursor_with_the_count_of_what_changed(api: APIClient) -> None:
    for n in range(7):
        make_source(slug=f"mirrored-{n}", short_name=f"Mirrored {n}")
    Source.objects.filter(slug__startswith="mirrored-").update(updated_at=EARLIER)
    Source.objects.filter(slug__in=["mirrored-1", "mirrored-3", "mirrored-4", "mirrored-6"]).update(updated_at=LATER)

    first = api.get(SOURCES, {"updated_after": "2025-01-01T00:30:00Z", "page_size": "3", "q": "mirrored"}).json()
    second = api.get(first["next"]).json()

    assert first["count"] == 4 and "updated_after=2025-01-01T00%3A30%3A00Z" in first["next"]
    assert [row["slug"] for row in first["results"] + second["results"]] == ["mirrored-1", "mirrored-3", "mirrored-4", "mirrored-6"]
    assert second["next"] is None


def _one_of_each() -> dict[str, tuple[type[Model], Model, str]]:
    """For each list with ``updated_at``: its model, one of its items and the key the list shows it by."""
    left, right = make_source(short_name="Mirror left"), make_source(short_name="Mirror right")
    claim = make_claim("Mirror left updates its policy with GRPO", cites=[left])
    return {
        "/api/v1/pages/": (Page, claim.page, "slug"),
        SOURCES: (Source, left, "slug"),
        "/api/v1/claims/": (Claim, claim, "id"),
        "/api/v1/classifications/": (Classification, make_classification(right), "id"),
        "/api/v1/contrasts/": (Contrast, make_contrast(left, right, claim=claim), "id"),
        "/api/v1/questions/": (OpenQuestion, make_question(), "id"),
        "/api/v1/glossary/": (GlossaryTerm, GlossaryTerm.objects.create(slug="mirror-term", name_en="Mirror term", name_zh="镜像"), "slug"),
    }


def test_every_list_with_an_updated_time_reads_updated_after(api: APIClient) -> None:
    items = _one_of_each()
    for model, _, _ in items.values():
        model._default_manager.update(updated_at=EARLIER)

    for url, (model, item, key) in items.items():
        model._default_manager.filter(pk=item.pk).update(updated_at=LATER)
        body = api.get(url, {"updated_after": "2025-01-01T00:30:00Z"}).json()
        model._default_manager.filter(pk=item.pk).update(updated_at=EARLIER)

        assert [row[key] for row in body["results"]] == [getattr(item, key)], url
        assert body["count"] == 1, url


@pytest.mark.parametrize("value", ["yesterday", "2025-13-01T00:00:00Z", "2025-01-01T25:00:00", "1735689600",
                                   "2025-01-01T00:00:00+25:00", "9999-12-31T23:59:59-12:00"])
def test_a_value_that_is_no_moment_is_a_400_that_changes_nothing(api: APIClient, works: tuple[Source, Source], value: str) -> None:
    before = (list(Source.objects.order_by("pk").values_list("pk", "updated_at")), ChangeEvent.objects.count())

    response = api.get(SOURCES, {"updated_after": value})

    assert response.status_code == 400
    body = response.json()
    assert list(body["errors"]) == ["updated_after"] and body["code"] in {"invalid", "overflow"}
    assert body["detail"].startswith("updated_after")
    assert (list(Source.objects.order_by("pk").values_list("pk", "updated_at")), ChangeEvent.objects.count()) == before


def test_updated_after_is_refused_where_it_means_nothing(api: APIClient, works: tuple[Source, Source]) -> None:
    empty = api.get(SOURCES, {"updated_after": ""})
    twice = api.get(f"{SOURCES}?updated_after=2025-01-01T00:00:00Z&updated_after=2025-01-02T00:00:00Z")
    on_one_work = api.get(f"{SOURCES}mirrored-old/", {"updated_after": "2025-01-01T00:00:00Z"})

    assert [(r.status_code, r.json()["code"]) for r in (empty, twice, on_one_work)] == [
        (400, "blank"), (400, "repeated_parameter"), (400, "unknown_parameter")]


@pytest.mark.parametrize("url", [SOURCES, "/api/v1/changes/"])
@pytest.mark.parametrize("moment", ["0001-01-01", "0001-01-01T07:59:59", "9999-12-31T23:59:59-08:00"])
def test_a_time_out_of_the_range_of_dates_is_a_400_in_the_readers_language(api: APIClient, url: str, moment: str) -> None:
    english = api.get(url, {"updated_after": moment}, HTTP_ACCEPT_LANGUAGE="en")
    chinese = api.get(url, {"updated_after": moment}, HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert english.status_code == chinese.status_code == 400
    assert english.json()["codes"] == {"updated_after": ["overflow"]} and english.json()["code"] == "overflow"
    assert english.json()["detail"] == "updated_after: Datetime value out of range."
    assert chinese.json()["detail"] == "updated_after：日期时间超出范围。"
