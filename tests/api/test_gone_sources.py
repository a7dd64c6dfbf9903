"""A work merged into another or deleted answers as its page does: 301 to the kept work, 410 when deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import make_source
from tests.queries import query_names
from wiki.caching import versions
from wiki.services.deletion import source_delete
from wiki.services.merges import source_merge

pytestmark = pytest.mark.django_db


def test_a_merged_work_redirects_to_the_kept_one_like_its_page(api: APIClient, editor: Any) -> None:
    merged = make_source(slug="alpha", short_name="Alpha", title="Alpha Agents: Learning to Act")
    kept = make_source(slug="beta", short_name="Beta", title="Beta Agents: Learning to Act at Scale")
    source_merge(merged=merged, kept=kept, user=editor)

    response = api.get("/api/v1/sources/alpha/")

    assert response.status_code == 301
    assert response["Location"] == "http://testserver/api/v1/sources/beta/"
    assert api.get("/sources/alpha/")["Location"] == "/sources/beta/"
    followed = api.get("/api/v1/sources/alpha/", follow=True)
    assert followed.status_code == 200 and followed.json()["slug"] == "beta"


@pytest.mark.parametrize("method", ["put", "patch"])
def test_an_edit_of_a_merged_work_is_gone_naming_the_work_it_lives_on_as(editor_api: APIClient, editor: Any,
                                                                         method: str) -> None:
    merged = make_source(slug="alpha", short_name="Alpha", title="Alpha Agents: Learning to Act")
    kept = make_source(slug="beta", short_name="Beta", title="Beta Agents: Learning to Act at Scale")
    source_merge(merged=merged, kept=kept, user=editor)
    declared = editor_api.get("/api/schema/", {"format": "json"}).json()["paths"]["/api/v1/sources/{slug}/"][method]["responses"]

    edit = {"title": "Alpha Agents", "venue": "NeurIPS"}
    english = getattr(editor_api, method)("/api/v1/sources/alpha/", edit, format="json", HTTP_IF_MATCH="*")
    chinese = getattr(editor_api, method)("/api/v1/sources/alpha/", edit, format="json", HTTP_IF_MATCH="*",
                                          HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert "410" in declared
    assert english.status_code == 410 and english.json() == {
        "detail": "The work “Alpha” was merged into “Beta”: edit that one.", "code": "gone", "errors": {}, "codes": {}}
    assert chinese.json()["detail"] == "工作“Alpha”已合并到“Beta”：请编辑后者。"
    kept.refresh_from_db()
    assert kept.venue == ""


def test_a_deleted_work_is_gone_with_the_error_shape(api: APIClient, editor: Any) -> None:
    work = make_source(slug="spam", short_name="Spam", title="Spam: Not a Paper")
    source_delete(source=work, user=editor, reason="Not a research work.")

    response = api.get("/api/v1/sources/spam/")
    chinese = api.get("/api/v1/sources/spam/", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 410
    assert response.json() == {"detail": "The work “Spam” was deleted.", "code": "gone", "errors": {}, "codes": {}}
    assert chinese.status_code == 410 and chinese.json()["detail"] == "工作“Spam”已被删除。"


def test_a_work_that_never_was_is_not_found(api: APIClient) -> None:
    response = api.get("/api/v1/sources/never-was/")

    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_redirect_runs_the_same_queries_whatever_the_number_of_merges(api: APIClient, editor: Any) -> None:
    def names() -> list[str]:
        versions.bump()
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/v1/sources/work-0/").status_code == 301
        return query_names(queries)

    kept = make_source(slug="kept", short_name="Kept", title="Kept: The Work That Stays")
    source_merge(merged=make_source(slug="work-0", short_name="W0", title="Work Zero: A Duplicate"), kept=kept, user=editor)
    api.get("/api/v1/sources/work-0/")
    few = names()
    for n in range(1, 20):
        source_merge(merged=make_source(slug=f"work-{n}", short_name=f"W{n}", title=f"Work {n}: Another Duplicate"),
                     kept=kept, user=editor)

    # The live work looked for (its validator's subquery on the classifications names the statement), then the gone one.
    assert names() == few == ["SELECT wiki_classification", "SELECT wiki_source"]


def test_a_work_deleted_while_an_edit_of_it_is_on_its_way_answers_410(
        editor_api: APIClient, editor: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.api.etags import if_match
    from wiki.api.views import sources as views
    from wiki.services.sources import source_update

    work = make_source(slug="spam", short_name="Spam", title="Spam: Not a Paper")

    def deleted_first(**kwargs: Any) -> Any:  # the delete lands after the view found the work, before its lock
        source_delete(source=work, user=editor, reason="Not a research work.")
        return source_update(**kwargs)

    monkeypatch.setattr(views, "source_update", deleted_first)
    response = editor_api.patch("/api/v1/sources/spam/", {"notes": "Read again."}, format="json",
                                **if_match(editor_api, "/api/v1/sources/spam/"))

    assert response.status_code == 410
    assert response.json()["code"] == "gone" and "Spam" in response.json()["detail"]
