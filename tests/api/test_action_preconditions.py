"""A write on an object besides PUT/PATCH (a page's move, a claim's re-attaching or retiring, an import's undoing,
watching and unwatching) reads its preconditions as RFC 9110 has them: an If-Match naming another version than the one
its GET answers now is a 412 that changes nothing, the ETag read goes through, and none is needed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils.http import http_date
from django.utils.module_loading import import_string
from rest_framework.test import APIClient

from tests.factories import make_page
from wiki.models import Claim, Page, SourceImport, Watch
from wiki.roles import Account
from wiki.services.claims import claim_set_status
from wiki.services.pages import page_save
from wiki.services.source_import_undo import source_import_undo
from wiki.services.watches import watch_add, watch_remove

pytestmark = pytest.mark.django_db

KEY_POINTS = "## 关键要点\n\n"
BODY = f"{KEY_POINTS}- FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。\n- WebArena 只评测固定模型。\n"
FILE = b"@article{one, title={First Imported Work}, year={2024}}\n"


def _orphaned_claim() -> Claim:
    page = make_page(slug="claims", title="Claims", body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save(slug="claims", title="Claims", body=f"{KEY_POINTS}- WebArena 只评测固定模型。\n- SkillForge 用 GRPO 更新策略。\n")
    return facet


def _move(api: APIClient) -> tuple[str, str, dict[str, Any], Callable[[], object]]:
    make_page(slug="notes", title="Notes", body="笔记。")
    return ("/api/v1/pages/notes/", "/api/v1/pages/notes/move/", {"slug": "moved-notes"},
            lambda: list(Page.objects.values_list("slug", flat=True)))


def _reattach(api: APIClient) -> tuple[str, str, dict[str, Any], Callable[[], object]]:
    facet = _orphaned_claim()
    sentence = Claim.objects.get(is_orphaned=False, text__startswith="SkillForge")
    return (f"/api/v1/claims/{facet.pk}/", f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": sentence.pk},
            lambda: list(Claim.objects.order_by("pk").values_list("pk", "is_orphaned", "text")))


def _retire(api: APIClient) -> tuple[str, str, dict[str, Any], Callable[[], object]]:
    facet = _orphaned_claim()
    return (f"/api/v1/claims/{facet.pk}/", f"/api/v1/claims/{facet.pk}/retire/", {"reason": "moved to another page"},
            lambda: list(Claim.objects.values_list("retired_at", flat=True)))


def _undo(api: APIClient) -> tuple[str, str, dict[str, Any], Callable[[], object]]:
    url = api.post("/api/v1/sources/import/", data=FILE, content_type="application/x-bibtex").json()["api_url"]
    return url, f"{url}undo/", {}, lambda: list(SourceImport.objects.values_list("undone_at", flat=True))


ACTIONS = {"move": _move, "reattach": _reattach, "retire": _retire, "undo": _undo}


@pytest.mark.parametrize("action", ACTIONS)
def test_an_action_sent_with_a_stale_if_match_is_a_412_that_changes_nothing(editor_api: APIClient, action: str) -> None:
    _read, url, body, state = ACTIONS[action](editor_api)
    before = state()

    refused = editor_api.post(url, body, format="json", HTTP_IF_MATCH='"another-version"')
    chinese = editor_api.post(url, body, format="json", HTTP_IF_MATCH='"another-version"', HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert (refused.status_code, refused.json()["code"]) == (412, "precondition_failed")
    assert "If-Match" in refused.json()["detail"] and chinese.json()["detail"] != refused.json()["detail"]
    assert state() == before


@pytest.mark.parametrize("action", ACTIONS)
def test_an_action_sent_with_the_etag_read_or_none_goes_through(editor_api: APIClient, action: str) -> None:
    read, url, body, state = ACTIONS[action](editor_api)
    before = state()

    done = editor_api.post(url, body, format="json", HTTP_IF_MATCH=f'"other", {editor_api.get(read)["ETag"]}')

    assert done.status_code == 200, done.content
    assert state() != before


def test_a_move_of_a_page_edited_since_it_was_read_is_refused(editor_api: APIClient) -> None:
    make_page(slug="notes", title="Notes", body="笔记。")
    read = editor_api.get("/api/v1/pages/notes/")
    page_save(slug="notes", title="Notes", body="笔记，改过。")

    stale = editor_api.post("/api/v1/pages/notes/move/", {"slug": "moved"}, format="json", HTTP_IF_MATCH=read["ETag"])
    dated = editor_api.post("/api/v1/pages/notes/move/", {"slug": "moved"}, format="json",
                            HTTP_IF_UNMODIFIED_SINCE=http_date(0))
    existing = editor_api.post("/api/v1/pages/notes/move/", {"slug": "moved"}, format="json", HTTP_IF_NONE_MATCH="*")

    assert [r.status_code for r in (stale, dated, existing)] == [412, 412, 412]
    assert list(Page.objects.values_list("slug", flat=True)) == ["notes"]
    assert editor_api.post("/api/v1/pages/notes/move/", {"slug": "moved"}, format="json",
                           HTTP_IF_UNMODIFIED_SINCE=editor_api.get("/api/v1/pages/notes/")["Last-Modified"]).status_code == 200


WATCH = "/api/v1/watchlist/pages/notes/"


@pytest.mark.parametrize("method", ["put", "delete"])
def test_watching_with_a_stale_if_match_is_a_412_that_changes_nothing(editor_api: APIClient, method: str) -> None:
    make_page(slug="notes", title="Notes", body="笔记。")
    editor_api.put(WATCH, {}, format="json")
    read = editor_api.get(WATCH)["ETag"]

    stale = getattr(editor_api, method)(WATCH, {}, format="json", HTTP_IF_MATCH='"another-version"')
    assert (stale.status_code, stale.json()["code"]) == (412, "precondition_failed")
    assert Watch.objects.count() == 1

    done = getattr(editor_api, method)(WATCH, {}, format="json", HTTP_IF_MATCH=read)
    assert done.status_code == 200 and Watch.objects.count() == (1 if method == "put" else 0)


def test_a_watch_not_there_matches_no_if_match_and_if_none_match_star_watches_only_once(editor_api: APIClient) -> None:
    make_page(slug="notes", title="Notes", body="笔记。")

    for method in ("put", "delete"):
        refused = getattr(editor_api, method)(WATCH, {}, format="json", HTTP_IF_MATCH="*")
        assert refused.status_code == 412, method
    assert not Watch.objects.exists()
    assert editor_api.put(WATCH, {}, format="json", HTTP_IF_NONE_MATCH="*").status_code == 200
    assert editor_api.put(WATCH, {}, format="json", HTTP_IF_NONE_MATCH="*").status_code == 412
    assert editor_api.delete(WATCH, HTTP_IF_MATCH="*").status_code == 200
    assert not Watch.objects.exists()


# What another editor saves between the If-Match check and the service's row lock, by the service the view calls.
RIVALS: dict[str, tuple[str, Callable[[], object]]] = {
    "move": ("wiki.api.views.pages.page_move",
             lambda: page_save(slug="notes", title="Notes", body="笔记，改过。")),
    "reattach": ("wiki.api.views.claims.claim_reattach",
                 lambda: claim_set_status(claim=Claim.objects.get(text__startswith="FACET"), status="disputed")),
    "retire": ("wiki.api.views.claims.claim_retire",
               lambda: claim_set_status(claim=Claim.objects.get(text__startswith="FACET"), status="disputed")),
}


@pytest.mark.parametrize("action", RIVALS)
def test_an_action_whose_object_is_saved_after_its_if_match_was_checked_is_a_412(
        editor_api: APIClient, monkeypatch: pytest.MonkeyPatch, action: str) -> None:
    read, url, body, state = ACTIONS[action](editor_api)
    etag = editor_api.get(read)["ETag"]
    where, rival = RIVALS[action]
    service = import_string(where)

    def saved_meanwhile(**kwargs: Any) -> object:
        rival()
        return service(**kwargs)

    monkeypatch.setattr(where, saved_meanwhile)
    before = state()
    response = editor_api.post(url, body, format="json", HTTP_IF_MATCH=etag)

    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    assert state() == before


def _meanwhile(monkeypatch: pytest.MonkeyPatch, where: str, rival: Callable[[], object]) -> None:
    """Runs ``rival`` (another client's write) when the view calls its service, after any check the view made itself."""
    service = import_string(where)

    def saved_meanwhile(**kwargs: Any) -> object:
        rival()
        return service(**kwargs)

    monkeypatch.setattr(where, saved_meanwhile)


def test_an_import_undone_by_someone_else_after_its_if_match_was_checked_is_a_412(
        editor_api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    read, url, body, _ = _undo(editor_api)
    etag = editor_api.get(read)["ETag"]
    record = SourceImport.objects.get()
    _meanwhile(monkeypatch, "wiki.api.views.imports.source_import_undo",
               lambda: source_import_undo(record=record, user=None))

    response = editor_api.post(url, body, format="json", HTTP_IF_MATCH=etag)

    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    assert SourceImport.objects.get().undone_by is None  # the other client's undo, not this one's


def test_a_watch_added_after_if_none_match_star_was_checked_is_a_412(
        editor_api: APIClient, editor: Account, monkeypatch: pytest.MonkeyPatch) -> None:
    page = make_page(slug="notes", title="Notes", body="笔记。")
    _meanwhile(monkeypatch, "wiki.api.views.watchlist.watch_add", lambda: watch_add(user=editor, target=page))

    response = editor_api.put(WATCH, {}, format="json", HTTP_IF_NONE_MATCH="*")

    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    assert Watch.objects.count() == 1


def test_a_watch_removed_after_its_if_match_was_checked_is_a_412(
        editor_api: APIClient, editor: Account, monkeypatch: pytest.MonkeyPatch) -> None:
    page = make_page(slug="notes", title="Notes", body="笔记。")
    editor_api.put(WATCH, {}, format="json")
    etag = editor_api.get(WATCH)["ETag"]
    _meanwhile(monkeypatch, "wiki.api.views.watchlist.watch_remove", lambda: watch_remove(user=editor, target=page))

    response = editor_api.delete(WATCH, HTTP_IF_MATCH=etag)

    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
