"""The consistency findings through the API: listed with their dismissals; editors dismiss and reopen them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import make_classification, make_source
from wiki.models import ChangeEvent, Classification, FindingDismissal
from wiki.reports.consistency import classification_key
from wiki.roles import Account

pytestmark = pytest.mark.django_db

LIST = "/api/v1/findings/"


def _fresh() -> Classification:
    return make_classification(make_source(slug="fresh-rl", short_name="Fresh-RL"), mechanism="harness",
                               verdict="not_strict", rl_update=False)


def _all(api: APIClient, query: str = "") -> list[dict]:  # type: ignore[type-arg]
    response = api.get(LIST + "?page_size=200" + query)
    assert response.status_code == 200, response.json()
    return list(response.json()["results"])


@pytest.mark.usefixtures("seed")
def test_findings_are_listed_with_the_seeds_dismissals_and_filtered(api: APIClient) -> None:
    everything = _all(api)
    rlinf = next(f for f in everything if f["subject"] == "RLinf")
    assert rlinf["kind"] == "rl_name_not_rl" and rlinf["url"] == "/sources/rlinf/"
    assert rlinf["dismissal"]["dismissed_by"] is None and "属于 Agentic RL 基础设施" in rlinf["dismissal"]["reason"]
    dismissed = _all(api, "&dismissed=true")
    assert {f["subject"] for f in dismissed} == {"prime-rl", "RLinf", "Agent RL Environment", "FACET vs SkillForge",
                                                 "Agentic ESOpt vs SkillForge"}
    open_ = _all(api, "&dismissed=false")
    assert all(f["dismissal"] is None for f in open_) and len(open_) + len(dismissed) == len(everything)
    assert {f["kind"] for f in _all(api, "&kind=missing_locator")} == {"missing_locator"}
    assert api.get(LIST + "?kind=nonsense").status_code == 400
    assert api.get(LIST + "?dissmissed=true").status_code == 400


def test_an_editor_dismisses_and_reopens_a_finding_and_both_are_recorded(editor_api: APIClient, editor: Account) -> None:
    key = classification_key(_fresh().pk)
    response = editor_api.post("/api/v1/findings/dismiss/", {"kind": "rl_name_not_rl", "key": key,
                                                             "reason": "A harness on purpose."}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["subject"], body["reason"], body["dismissed_by"], body["reopened_at"]) == ("Fresh-RL", "A harness on purpose.", "editor", None)
    assert next(f for f in _all(editor_api, "&dismissed=true") if f["key"] == key)["dismissal"]["dismissed_by"] == "editor"
    again = editor_api.post("/api/v1/findings/dismiss/", {"kind": "rl_name_not_rl", "key": key, "reason": "Twice."}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_dismissed"
    response = editor_api.post("/api/v1/findings/reopen/", {"kind": "rl_name_not_rl", "key": key}, format="json")
    assert response.status_code == 200 and response.json()["reopened_by"] == "editor"
    assert next(f for f in _all(editor_api, "&dismissed=false") if f["key"] == key)["dismissal"] is None
    assert editor_api.post("/api/v1/findings/reopen/", {"kind": "rl_name_not_rl", "key": key}, format="json").status_code == 409
    assert list(ChangeEvent.objects.filter(kind="finding").order_by("id").values_list("action", flat=True)) == ["dismissed", "reopened"]


def test_bad_dismissals_are_refused_and_change_nothing(editor_api: APIClient, api: APIClient, reader_api: APIClient) -> None:
    key = classification_key(_fresh().pk)
    # a finding dismissed as the wiki was loaded, with no recent change
    dismissed = make_classification(make_source(slug="loaded-rl", short_name="Loaded-RL"), mechanism="infrastructure",
                                    verdict="not_strict", rl_update=False)
    FindingDismissal.objects.create(kind="rl_name_not_rl", key=classification_key(dismissed.pk), subject="Loaded-RL",
                                    reason="Infrastructure on purpose.")
    before = FindingDismissal.objects.count()
    for body in ({"kind": "rl_name_not_rl", "key": key, "reason": "  "},
                 {"kind": "rl_name_not_rl", "key": key},
                 {"kind": "rl_name_not_rl", "key": key, "reason": 7},
                 {"kind": "rl_name_not_rl", "key": "classification-999999", "reason": "Because."},
                 {"kind": "elsewhere", "key": key, "reason": "Because."},
                 {"kind": "rl_name_not_rl", "key": "Not A Key", "reason": "Because."}):
        response = editor_api.post("/api/v1/findings/dismiss/", body, format="json")
        # a well-formed key the report has not names no finding: 404, as an address naming nothing
        assert response.status_code == (404 if body.get("key") == "classification-999999" else 400), (body, response.json())
    ok = {"kind": "rl_name_not_rl", "key": key, "reason": "Because."}
    assert api.post("/api/v1/findings/dismiss/", ok, format="json").status_code == 401
    assert reader_api.post("/api/v1/findings/dismiss/", ok, format="json").status_code == 403
    loaded = {"kind": "rl_name_not_rl", "key": classification_key(dismissed.pk)}
    assert reader_api.post("/api/v1/findings/reopen/", loaded, format="json").status_code == 403
    assert FindingDismissal.objects.count() == before and not ChangeEvent.objects.filter(kind="finding").exists()


def test_the_list_runs_as_many_queries_whatever_the_number_of_findings_and_dismissals(api: APIClient, editor: Account) -> None:
    from wiki.reports.consistency import consistency_report
    from wiki.services.findings import finding_dismiss

    api.get(LIST)
    with CaptureQueriesContext(connection) as small:
        assert api.get(LIST).status_code == 200
    for n in range(30):
        make_classification(make_source(slug=f"bulk-{n}-rl", short_name=f"Bulk{n}-RL"), mechanism="harness",
                            verdict="not_strict", rl_update=False)
    for finding in [f for f in consistency_report().rl_name_not_rl if f.subject.startswith("Bulk")][:20]:
        finding_dismiss(finding=finding, reason="Bulk.", user=editor)
    api.get(LIST)
    with CaptureQueriesContext(connection) as large:
        response = api.get(LIST + "?page_size=200")
    bulk = [f for f in response.json()["results"] if f["subject"].startswith("Bulk") and f["kind"] == "rl_name_not_rl"]
    assert len(bulk) == 30 and sum(1 for f in bulk if f["dismissal"]) == 20
    assert len(large.captured_queries) == len(small.captured_queries)


def test_a_dismissal_or_reopening_sent_with_the_state_read_is_refused_when_it_changed_since(editor_api: APIClient) -> None:
    key = classification_key(_fresh().pk)
    ref = {"kind": "rl_name_not_rl", "key": key}

    def state() -> str:
        return str(next(f for f in _all(editor_api) if (f["kind"], f["key"]) == (ref["kind"], key))["etag"])

    read_open = state()
    dismissed = editor_api.post("/api/v1/findings/dismiss/", {**ref, "reason": "A harness."}, format="json",
                                HTTP_IF_MATCH=read_open)
    assert dismissed.status_code == 201 and dismissed["ETag"] == state() != read_open
    read_dismissed = state()
    # someone else reopens it and dismisses it again, for another reason
    editor_api.post("/api/v1/findings/reopen/", ref, format="json")
    editor_api.post("/api/v1/findings/dismiss/", {**ref, "reason": "Another reason."}, format="json")

    stale = editor_api.post("/api/v1/findings/reopen/", ref, format="json", HTTP_IF_MATCH=read_dismissed)
    assert (stale.status_code, stale.json()["code"]) == (412, "precondition_failed")
    assert FindingDismissal.objects.get(key=key, reopened_at__isnull=True).reason == "Another reason."
    stale = editor_api.post("/api/v1/findings/dismiss/", {**ref, "reason": "Mine."}, format="json", HTTP_IF_MATCH=read_open)
    assert (stale.status_code, stale.json()["code"]) == (412, "precondition_failed")

    reopened = editor_api.post("/api/v1/findings/reopen/", ref, format="json", HTTP_IF_MATCH=state())
    assert reopened.status_code == 200 and reopened["ETag"] == state() == read_open
    assert not FindingDismissal.objects.filter(key=key, reopened_at__isnull=True).exists()


def test_the_schema_declares_the_findings_state_and_its_preconditions(api: APIClient) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()
    assert "etag" in schema["components"]["schemas"]["Finding"]["required"]
    for action in ("dismiss", "reopen"):
        operation = schema["paths"][f"/api/v1/findings/{action}/"]["post"]
        assert "If-Match" in {p["name"] for p in operation["parameters"] if p["in"] == "header"}, action
        assert "412" in operation["responses"], action
