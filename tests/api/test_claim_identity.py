"""Through the API, a save says what it did to claims; a claim's history, re-attaching and retiring."""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_page
from wiki.models import Claim, Page

FACET = "FACET 是一个重要的非严格反例"
BODY = "## 关键要点\n\n- SkillForge 用 GRPO 同时更新环境动作和 skill calling。\n- FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。\n"


# A long page of cited key points (tests/wiki/data/claim_identity_page.md, owned by the tests, as the page they edit).
LONG_PAGE = Path(__file__).resolve().parent.parent / "wiki" / "data" / "claim_identity_page.md"


@pytest.fixture
def long_page(db: None) -> Page:
    return make_page(slug="long-page", title="Agentic RL", body=LONG_PAGE.read_text(encoding="utf-8"))


def _put(api: APIClient, page: Page, body: str) -> dict:  # type: ignore[type-arg]
    number = page.revisions.order_by("-number").values_list("number", flat=True)[0]
    response = api.put(f"/api/v1/pages/{page.slug}/", {"title": page.title, "summary": page.summary, "body": body,
                                                       "base_revision": number}, format="json")
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def test_the_issue_example_keeps_the_claim_and_the_save_reports_it(long_page: Page, editor_api: APIClient) -> None:
    page = long_page
    claim = Claim.objects.get(page=page, text__contains=FACET)
    data = _put(editor_api, page, page.body.replace(FACET, "FACET 是一个重要且常被误读的非严格反例"))
    changes = data["claim_changes"]["changes"]
    assert [(c["outcome"], c["claim"]) for c in changes] == [("reworded", claim.pk)]
    assert ["insert", "且常被误读"] in changes[0]["diff"]
    data = _put(editor_api, Page.objects.get(pk=page.pk), page.body)
    assert [(c["outcome"], c["claim"]) for c in data["claim_changes"]["changes"]] == [("reworded", claim.pk)]
    assert Claim.objects.filter(page=page, is_orphaned=True).count() == 0
    history = editor_api.get(f"/api/v1/claims/{claim.pk}/history/").json()
    assert [h["kind"] for h in history][-2:] == ["reworded", "reworded"]
    assert history[-1]["previous_text"].count("常被误读") == 1


def test_an_orphaned_claim_is_reattached_or_retired_through_the_api(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    data = _put(editor_api, page, BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。", "WebArena 只评测固定模型。"))
    assert {c["outcome"] for c in data["claim_changes"]["changes"]} == {"new", "orphaned"}
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")

    refused = editor_api.post(f"/api/v1/claims/{sentence.pk}/retire/", {"reason": "x"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "not_orphaned")
    attached = editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": sentence.pk}, format="json")
    assert attached.status_code == 200
    assert (attached.json()["text"], attached.json()["is_orphaned"]) == ("WebArena 只评测固定模型。", False)

    _put(editor_api, page, BODY)
    fresh = Claim.objects.get(page=page, is_orphaned=False, text__startswith="FACET")
    assert fresh.pk != facet.pk  # the WebArena sentence went away, and with it the claim now holding it
    retired = editor_api.post(f"/api/v1/claims/{facet.pk}/retire/", {"reason": "moved to another page"}, format="json")
    assert (retired.status_code, retired.json()["retired_reason"]) == (200, "moved to another page")


def test_a_claim_replaced_by_a_reattached_one_leads_to_it(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    _put(editor_api, page, BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。", "WebArena 只评测固定模型。"))
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")
    assert editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": sentence.pk}, format="json").status_code == 200
    assert not Claim.objects.filter(pk=sentence.pk).exists()

    read = editor_api.get(f"/api/v1/claims/{sentence.pk}/?format=json")
    assert (read.status_code, read["Location"]) == (301, f"http://testserver/api/v1/claims/{facet.pk}/?format=json")
    history = editor_api.get(f"/api/v1/claims/{sentence.pk}/history/")
    assert (history.status_code, history["Location"]) == (301, f"http://testserver/api/v1/claims/{facet.pk}/history/")
    write = editor_api.patch(f"/api/v1/claims/{sentence.pk}/", {"status": "disputed"}, format="json")
    assert (write.status_code, write["Location"]) == (308, f"http://testserver/api/v1/claims/{facet.pk}/")
    assert Claim.objects.get(pk=facet.pk).status != "disputed"
    assert editor_api.get(f"/api/v1/claims/{facet.pk + sentence.pk + 1000}/").status_code == 404


def test_every_answer_at_a_replaced_claims_address_is_declared_in_the_schema(editor_api: APIClient) -> None:
    """A generated client reads only the statuses an operation declares: each redirect a replaced claim's address
    answers is one, with the Location it sends."""
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    _put(editor_api, page, BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。", "WebArena 只评测固定模型。"))
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")
    assert editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": sentence.pk}, format="json").status_code == 200
    paths = editor_api.get("/api/schema/", {"format": "json"}).json()["paths"]

    for method, path, body in (("get", "/api/v1/claims/{id}/", None), ("get", "/api/v1/claims/{id}/history/", None),
                               ("patch", "/api/v1/claims/{id}/", {"status": "disputed"}),
                               ("post", "/api/v1/claims/{id}/reattach/", {"sentence": facet.pk}),
                               ("post", "/api/v1/claims/{id}/retire/", {"reason": "x"})):
        response = getattr(editor_api, method)(path.format(id=sentence.pk), body, format="json")
        declared = paths[path][method]["responses"]

        assert response["Location"].endswith(path.format(id=facet.pk)), (method, path)
        assert str(response.status_code) in declared, (method, path, response.status_code)
        assert "Location" in declared[str(response.status_code)]["headers"], (method, path)


def test_the_local_graph_of_a_replaced_claim_leads_to_the_claim_it_lives_on_as(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    _put(editor_api, page, BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。", "WebArena 只评测固定模型。"))
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")
    assert editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": sentence.pk}, format="json").status_code == 200
    declared = editor_api.get("/api/schema/", {"format": "json"}).json()["paths"]["/api/v1/graph/local/"]["get"]["responses"]

    moved = editor_api.get("/api/v1/graph/local/", {"node": f"claim:{sentence.pk}", "depth": "2"})
    graph = editor_api.get(moved["Location"])

    assert (moved.status_code, moved["Location"]) == (
        301, f"http://testserver/api/v1/graph/local/?node=claim%3A{facet.pk}&depth=2")
    assert "re-attached" in declared["301"]["description"]
    assert graph.status_code == 200 and graph.json()["center"] == f"claim:{facet.pk}"
    assert editor_api.get("/api/v1/graph/local/", {"node": f"claim:{facet.pk + sentence.pk + 1000}"}).status_code == 404


def test_a_removed_sentence_is_reported_as_deleted_in_its_claims_diff(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    data = _put(editor_api, page, "## 关键要点\n\n- SkillForge 用 GRPO 同时更新环境动作和 skill calling。\n")
    (change,) = data["claim_changes"]["changes"]
    assert (change["outcome"], change["claim"]) == ("orphaned", facet.pk)
    assert change["diff"] == [["delete", facet.text]]


def test_readers_cannot_retire_and_claims_cannot_be_created(long_page: Page, api: APIClient, editor_api: APIClient) -> None:
    claim = Claim.objects.filter(page=long_page).first()
    assert claim is not None
    assert api.post(f"/api/v1/claims/{claim.pk}/retire/", {"reason": "x"}, format="json").status_code in (401, 403)
    assert editor_api.post("/api/v1/claims/", {"text": "x"}, format="json").status_code == 405


def test_reattaching_to_a_claim_that_is_not_a_sentence_says_what_it_is(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    skill, facet = (Claim.objects.get(page=page, text__startswith=start) for start in ("SkillForge", "FACET"))
    _put(editor_api, page, "## 关键要点\n\n- WebArena 只评测固定模型。\n")
    orphaned = editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": skill.pk}, format="json")
    assert (orphaned.status_code, orphaned.json()["code"], orphaned.json()["errors"]) == (
        400, "sentence_orphaned", {"sentence": [f"Claim #{skill.pk} is orphaned, not a sentence on a page."]})
    retired = editor_api.post(f"/api/v1/claims/{skill.pk}/retire/", {"reason": "duplicated"}, format="json")
    assert retired.status_code == 200

    refused = editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": skill.pk}, format="json")
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["errors"]) == (
        "sentence_retired", {"sentence": [f"Claim #{skill.pk} is retired, not a sentence on a page."]})
    chinese = editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": skill.pk}, format="json",
                              HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert chinese.json()["errors"]["sentence"] == [f"论断 #{skill.pk} 已停用，不是页面上的句子。"]
    missing = editor_api.post(f"/api/v1/claims/{facet.pk}/reattach/", {"sentence": facet.pk + 10_000}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "does_not_exist")
    assert Claim.objects.get(pk=facet.pk).is_orphaned is True


def test_a_claims_api_history_has_status_changes_and_reasons_in_the_readers_language(editor_api: APIClient) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    url = f"/api/v1/claims/{facet.pk}/"
    assert editor_api.patch(url, {"status": "verified"}, format="json", **if_match(editor_api, url)).status_code == 200
    _put(editor_api, page, BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，不是 RL。\n", ""))
    history = editor_api.get(f"/api/v1/claims/{facet.pk}/history/", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()
    assert [(h["kind"], h["previous_status"], h["status"], h["user"]) for h in history[1:]] == [
        ("status", "needs_verification", "verified", "editor"), ("orphaned", "", "verified", "editor")]
    assert history[-1]["reason"] == "其句子已从页面删除。"
