from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import ContrastWiki
from wiki.models import (
    Claim,
    Classification,
    ClassificationChange,
    Component,
    Contrast,
    OpenQuestion,
    Page,
    Revision,
    Source,
)
from wiki.roles import Account
from wiki.search.query import search

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("contrast_wiki")]

NEW_PAGE = {"slug": "reward-shaping", "title": "Reward Shaping", "body": "## 要点\n\n- 稠密奖励塑形改变信用分配。\n"}


def test_editor_creates_a_page_whose_claims_are_extracted_and_searchable(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", NEW_PAGE, format="json")

    assert response.status_code == 201
    assert response.json()["revision"] == 1
    page = Page.objects.get(slug="reward-shaping")
    assert page.claims.count() == 1
    assert [g.kind for g in search("稠密奖励").groups] == ["page", "claim"]


def test_creating_a_page_with_a_taken_slug_is_409_exists_with_both_versions(editor_api: APIClient) -> None:
    theirs = Page.objects.get(slug="contrast-wiki")

    response = editor_api.post("/api/v1/pages/", {**NEW_PAGE, "slug": "contrast-wiki"}, format="json")

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "exists"
    assert body["detail"] == "A page at “contrast-wiki” exists already; edit it instead."
    assert body["yours"]["body"] == NEW_PAGE["body"] and body["theirs"]["body"] == theirs.body
    assert Page.objects.get(slug="contrast-wiki").body == theirs.body


def test_creating_a_page_whose_title_makes_a_taken_slug_adds_no_revision(editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/", NEW_PAGE, format="json")

    # No slug sent: the one made from the title is taken, as when two clients create the same page at once.
    response = editor_api.post("/api/v1/pages/", {"title": "Reward Shaping", "body": "Mine."}, format="json")

    assert response.status_code == 409
    assert list(Revision.objects.filter(page__slug="reward-shaping").values_list("number", flat=True)) == [1]


def test_editing_a_page_from_the_current_revision_saves_a_new_one(editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/", NEW_PAGE, format="json")

    response = editor_api.patch("/api/v1/pages/reward-shaping/", {"body": "Changed.", "base_revision": 1}, format="json")

    assert response.status_code == 200
    assert response.json()["revision"] == 2
    assert list(Revision.objects.filter(page__slug="reward-shaping").values_list("number", flat=True).order_by("number")) == [1, 2]
    assert Page.objects.get(slug="reward-shaping").title == "Reward Shaping"


def test_editing_from_an_old_revision_is_409_with_both_versions(editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/", NEW_PAGE, format="json")
    editor_api.patch("/api/v1/pages/reward-shaping/", {"body": "Theirs.", "base_revision": 1}, format="json")

    response = editor_api.put(
        "/api/v1/pages/reward-shaping/", {"title": "Reward Shaping", "body": "Mine.", "base_revision": 1}, format="json"
    )

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "edit_conflict" and body["errors"] == {}
    assert (body["base_revision"], body["current_revision"]) == (1, 2)
    assert body["yours"]["body"] == "Mine." and body["theirs"]["body"] == "Theirs."
    assert Page.objects.get(slug="reward-shaping").body == "Theirs."


def test_editing_without_a_base_revision_is_400(editor_api: APIClient) -> None:
    response = editor_api.patch("/api/v1/pages/contrast-wiki/", {"body": "x"}, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"base_revision"}


def test_editing_from_a_revision_the_page_never_had_is_400_and_saves_nothing(editor_api: APIClient) -> None:
    latest = editor_api.get("/api/v1/pages/contrast-wiki/").json()["revision"]

    response = editor_api.patch("/api/v1/pages/contrast-wiki/", {"body": "x", "base_revision": latest + 5}, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"base_revision"}
    assert editor_api.get("/api/v1/pages/contrast-wiki/").json()["revision"] == latest


def test_editor_adds_a_source_and_a_duplicate_is_409(editor_api: APIClient) -> None:
    data = {"title": "TreeSearch-RL: Rollouts for Agents", "kind": "preprint", "arxiv_id": "arXiv:2501.01234v2", "year": 2025}

    created = editor_api.post("/api/v1/sources/", data, format="json")
    duplicate = editor_api.post("/api/v1/sources/", {**data, "title": "Another title"}, format="json")

    assert created.status_code == 201
    assert created.json()["slug"] == "treesearch-rl" and created.json()["arxiv_id"] == "2501.01234"
    assert duplicate.status_code == 409
    assert duplicate.json()["code"] == "duplicate" and duplicate.json()["existing"] == "treesearch-rl"
    assert search("treesearch").groups[0].kind == "source"


def test_bad_source_fields_are_400_and_change_nothing(editor_api: APIClient) -> None:
    before = Source.objects.count()

    response = editor_api.post("/api/v1/sources/", {"title": "X", "year": 1066, "doi": "nonsense", "kind": "poem"}, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"year", "doi", "kind"}
    assert Source.objects.count() == before


def test_editor_classifies_a_work_and_the_change_is_kept(editor_api: APIClient) -> None:
    source = Source.objects.create(slug="new-work", short_name="NewWork", title="NewWork")
    payload = {"source": "new-work", "mechanism": "sft_distillation", "verdict": "not_strict", "interactive_env": True,
               "multi_step": True, "verifiable_reward": True, "rl_update": False}

    response = editor_api.post("/api/v1/classifications/", payload, format="json")

    assert response.status_code == 201
    data = response.json()
    assert data["rubric_verdict"] == "not_strict" and data["set_by"] == "editor" and data["set_by_user"] == "editor"
    assert ClassificationChange.objects.filter(classification__source=source).count() == 1

    # the same work classified again: a conflict with the classification it has, as for a page or a source
    again = editor_api.post("/api/v1/classifications/", {**payload, "mechanism": "harness"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "exists", again.json()
    assert Classification.objects.get(source=source).mechanism == "sft_distillation"
    # while an input that is wrong besides stays a 400
    assert editor_api.post("/api/v1/classifications/", {**payload, "verdict": "bogus"}, format="json").status_code == 400


def test_a_rubric_fact_is_true_false_or_null_when_unknown(editor_api: APIClient) -> None:
    Source.objects.create(slug="half-known", short_name="HalfKnown", title="HalfKnown")
    payload = {"source": "half-known", "mechanism": "policy_gradient", "verdict": "not_strict", "interactive_env": True,
               "multi_step": None, "verifiable_reward": True, "rl_update": True}

    created = editor_api.post("/api/v1/classifications/", payload, format="json")

    assert created.status_code == 201, created.json()
    data = created.json()
    assert (data["interactive_env"], data["multi_step"], data["rl_update"]) == (True, None, True)
    # an unknown fact never makes a work strict
    assert data["rubric_verdict"] == "not_strict"
    read = editor_api.get("/api/v1/sources/half-known/").json()["classifications"][0]
    assert read["multi_step"] is None and read["verifiable_reward"] is True
    url = f"/api/v1/classifications/{data['id']}/"
    patched = editor_api.patch(url, {"multi_step": True, "verdict": "strict"}, format="json", **if_match(editor_api, url))
    assert patched.json()["multi_step"] is True and patched.json()["rubric_verdict"] == "strict"


def test_verdict_departing_from_the_rubric_needs_a_rationale(editor_api: APIClient) -> None:
    Source.objects.create(slug="odd-work", short_name="OddWork", title="OddWork")
    payload = {"source": "odd-work", "mechanism": "harness", "verdict": "strict"}

    refused = editor_api.post("/api/v1/classifications/", payload, format="json")
    accepted = editor_api.post("/api/v1/classifications/", {**payload, "rationale": "The audit says so."}, format="json")

    assert refused.status_code == 400
    assert refused.json()["code"] == "rationale_required" and set(refused.json()["errors"]) == {"rationale"}
    assert accepted.status_code == 201
    assert accepted.json()["rubric_verdict"] == "not_strict"


def test_changing_the_work_or_component_of_a_classification_is_refused(editor_api: APIClient) -> None:
    classification = Classification.objects.filter(component__isnull=True).first()
    assert classification is not None
    other = Source.objects.create(slug="other-work", short_name="OtherWork", title="OtherWork")
    url = f"/api/v1/classifications/{classification.pk}/"

    moved = editor_api.patch(url, {"source": "other-work"}, format="json", **if_match(editor_api, url))
    narrowed = editor_api.patch(url, {"component": None, "source": classification.source.slug, "algorithm": "PPO"}, format="json",
                                **if_match(editor_api, url))

    assert moved.status_code == 400
    assert moved.json()["code"] == "read_only" and set(moved.json()["errors"]) == {"source"}
    assert narrowed.status_code == 200  # the same work and component, sent back unchanged, are fine
    classification.refresh_from_db()
    assert classification.source_id != other.pk and classification.algorithm == "PPO"


def test_evidence_locator_must_be_a_locator(editor_api: APIClient) -> None:
    classification = Classification.objects.filter(component__isnull=True).first()
    assert classification is not None

    url = f"/api/v1/classifications/{classification.pk}/"
    response = editor_api.patch(url, {"evidence_locator": "somewhere"}, format="json", **if_match(editor_api, url))
    fine = editor_api.patch(url, {"evidence_locator": "§3.1 / §5"}, format="json", **if_match(editor_api, url))

    assert response.status_code == 400 and set(response.json()["errors"]) == {"evidence_locator"}
    assert fine.status_code == 200 and fine.json()["evidence_locator"] == "§3.1 / §5"


def test_editor_sets_a_claim_status_and_keeps_its_citations(editor_api: APIClient) -> None:
    claim = Claim.objects.current().filter(citations__isnull=False).first()
    assert claim is not None
    citations = list(claim.citations.values_list("source_id", "locator"))

    url = f"/api/v1/claims/{claim.pk}/"
    rewritten = editor_api.patch(url, {"status": "verified", "text": "rewritten"}, format="json", **if_match(editor_api, url))
    response = editor_api.patch(url, {"status": "verified"}, format="json", **if_match(editor_api, url))

    # The text comes from the page: sending it is refused, naming it, rather than dropped.
    assert rewritten.status_code == 400 and rewritten.json()["errors"].keys() == {"text"}
    assert rewritten.json()["code"] == "read_only"
    assert response.status_code == 200
    claim.refresh_from_db()
    assert claim.status == "verified" and claim.text != "rewritten"
    assert list(claim.citations.values_list("source_id", "locator")) == citations


def test_editor_raises_and_answers_a_question(editor_api: APIClient) -> None:
    created = editor_api.post("/api/v1/questions/", {"title": "榴莲 是否严格", "priority": "high", "sources": ["gripforge"]}, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]

    url = f"/api/v1/questions/{pk}/"
    unanswered = editor_api.patch(url, {"status": "answered"}, format="json", **if_match(editor_api, url))
    claim = Claim.objects.current().first()
    assert claim is not None
    answered = editor_api.patch(url, {"status": "answered", "answer_claim": claim.pk, "claims": [claim.pk]}, format="json",
                               **if_match(editor_api, url))

    assert unanswered.status_code == 400 and set(unanswered.json()["errors"]) == {"answer_claim"}
    assert answered.status_code == 200
    question = OpenQuestion.objects.get(pk=pk)
    assert question.status == "answered" and list(question.sources.values_list("slug", flat=True)) == ["gripforge"]
    assert search("榴莲", kinds=["question"]).groups[0].hits[0].object_id == pk


def test_a_question_answered_without_its_claim_is_refused_in_the_clients_language(editor_api: APIClient) -> None:
    refused = editor_api.post("/api/v1/questions/", {"title": "榴莲 是否严格", "status": "answered"}, format="json",
                              HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert refused.status_code == 400
    assert refused.json()["errors"] == {"answer_claim": ["已回答的问题需要给出回答它的论断。"]}
    assert refused.json()["codes"] == {"answer_claim": ["required"]}
    assert not OpenQuestion.objects.filter(title="榴莲 是否严格").exists()


@pytest.mark.parametrize(
    ("method", "url", "payload"),
    [
        ("post", "/api/v1/pages/", NEW_PAGE),
        ("patch", "/api/v1/pages/contrast-wiki/", {"body": "x", "base_revision": 1}),
        ("post", "/api/v1/sources/", {"title": "Some Work"}),
        ("patch", "/api/v1/sources/gripforge/", {"notes": "x"}),
        ("post", "/api/v1/classifications/", {"source": "gripforge", "mechanism": "harness", "verdict": "not_strict"}),
        ("patch", "/api/v1/claims/{claim}/", {"status": "verified"}),
        ("post", "/api/v1/questions/", {"title": "Q"}),
        ("post", "/api/v1/contrasts/", {"left": "tasksmith", "right": "polarharness", "axis": "x"}),
    ],
)
def test_writes_need_an_editor(api: APIClient, reader_api: APIClient, method: str, url: str, payload: dict[str, Any]) -> None:
    claim = Claim.objects.current().first()
    assert claim is not None
    url = url.format(claim=claim.pk)

    anonymous = getattr(api, method)(url, payload, format="json")
    reader = getattr(reader_api, method)(url, payload, format="json")

    assert anonymous.status_code in (401, 403) and anonymous.json()["code"] == "not_authenticated"
    assert reader.status_code == 403 and reader.json()["code"] == "permission_denied"


def test_token_authenticated_editor_can_write(editor: Account) -> None:
    from tests.factories import make_api_token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {make_api_token(editor)}")
    claim = Claim.objects.current().first()
    assert claim is not None

    url = f"/api/v1/claims/{claim.pk}/"
    assert client.patch(url, {"status": "disputed"}, format="json", **if_match(client, url)).status_code == 200
    assert Claim.objects.get(pk=claim.pk).status == "disputed"


def test_editor_contrasts_two_works_and_the_same_contrast_again_is_409(editor_api: APIClient) -> None:
    payload = {"left": "tasksmith", "right": "polarharness", "axis": "SFT vs harness evolution"}

    created = editor_api.post("/api/v1/contrasts/", payload, format="json")
    again = editor_api.post("/api/v1/contrasts/", payload, format="json")
    same = editor_api.post("/api/v1/contrasts/", {**payload, "right": "tasksmith"}, format="json")

    assert created.status_code == 201
    assert (created.json()["left"], created.json()["right"]) == ("tasksmith", "polarharness")
    assert again.status_code == 409 and again.json()["code"] == "exists" and again.json()["errors"]
    assert same.status_code == 400  # a work against itself: bad input, no conflict


def test_a_contrasts_claim_must_speak_of_one_of_its_works_and_then_is_about_both(
    editor_api: APIClient, contrast_wiki: ContrastWiki
) -> None:
    payload = {"left": "tasksmith", "right": "polarharness", "axis": "SFT vs harness evolution"}
    env_claim = Claim.objects.current().get(text__startswith="ShopWorld")
    sft_claim = Claim.objects.current().get(text__startswith="TaskSmith")
    about_before = set(env_claim.about.values_list("slug", flat=True))

    unrelated = editor_api.post("/api/v1/contrasts/", {**payload, "claim": env_claim.pk}, format="json")

    assert unrelated.status_code == 400, unrelated.content
    assert unrelated.json()["code"] == "unrelated_claim" and list(unrelated.json()["errors"]) == ["claim"]
    assert set(env_claim.about.values_list("slug", flat=True)) == about_before
    assert not Contrast.objects.filter(left=contrast_wiki.sft, right=contrast_wiki.harness).exists()

    related = editor_api.post("/api/v1/contrasts/", {**payload, "claim": sft_claim.pk}, format="json")

    assert related.status_code == 201, related.content
    assert {"tasksmith", "polarharness"} <= set(sft_claim.about.values_list("slug", flat=True))


def test_claims_about_a_work_are_listed_apart_from_those_citing_it(contrast_wiki: ContrastWiki) -> None:
    client = APIClient()
    grpo_claim = Claim.objects.current().get(text__startswith="GripForge")

    about = client.get("/api/v1/claims/?about=polarharness").json()
    citing = client.get("/api/v1/claims/?source=polarharness").json()
    merged = client.get("/api/v1/claims/?about=no-such-work")

    assert [claim["id"] for claim in about["results"]] == [grpo_claim.pk]
    assert citing["results"] == []
    assert merged.status_code == 400 and list(merged.json()["errors"]) == ["about"]



def _patch_page(client: APIClient, address: str, **fields: Any) -> Any:
    page = Page.objects.get(slug=address)
    data = {"title": page.title, "body": page.body, "base_revision": page.revisions.count(), **fields}
    return client.patch(f"/api/v1/pages/{address}/", data, format="json")


def test_a_save_that_changes_nothing_makes_no_revision_and_says_so(editor_api: APIClient) -> None:
    from wiki.caching import versions
    from wiki.models import ChangeEvent

    page = Page.objects.get(slug="contrast-wiki")
    revisions, events, version = page.revisions.count(), ChangeEvent.objects.count(), versions.current()

    response = _patch_page(editor_api, "contrast-wiki", comment="nothing really")

    assert response.status_code == 200
    body = response.json()
    assert body["unchanged"] is True and body["revision"] == revisions
    assert body["claim_changes"]["changes"] == [] and body["claim_changes"]["kept"] == page.claims.filter(is_orphaned=False).count()
    assert page.revisions.count() == revisions and ChangeEvent.objects.count() == events
    assert versions.current() == version
    changed = _patch_page(editor_api, "contrast-wiki", body=page.body + "\n另一句。\n")
    assert changed.json()["unchanged"] is False and changed.json()["revision"] == revisions + 1


def test_a_body_with_unresolved_conflict_markers_is_refused_as_the_form_refuses_it(editor_api: APIClient) -> None:
    page = Page.objects.get(slug="contrast-wiki")
    clash = "a\n<<<<<<< theirs (saved meanwhile)\nb\n=======\nc\n>>>>>>> mine\n"

    response = _patch_page(editor_api, "contrast-wiki", body=clash)

    assert response.status_code == 400 and response.json()["code"] == "unresolved_conflict"
    assert list(response.json()["errors"]) == ["body"]
    assert Page.objects.get(slug="contrast-wiki").body == page.body


def test_an_edit_cannot_move_a_page_to_another_slug(editor_api: APIClient) -> None:
    page = Page.objects.get(slug="contrast-wiki")

    response = _patch_page(editor_api, "contrast-wiki", slug="renamed", body=page.body + "\n改。\n")

    assert response.status_code == 400 and response.json()["code"] == "read_only"
    assert list(response.json()["errors"]) == ["slug"]
    assert Page.objects.filter(slug="contrast-wiki").exists() and not Page.objects.filter(slug="renamed").exists()
    assert page.revisions.count() == Page.objects.get(slug="contrast-wiki").revisions.count()
    assert _patch_page(editor_api, "contrast-wiki", slug="contrast-wiki", body=page.body + "\n改。\n").status_code == 200


def test_the_schema_gives_no_slug_to_an_edit(api: APIClient) -> None:
    schemas = api.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]

    assert "slug" in schemas["PageWriteRequest"]["properties"]
    assert "slug" not in schemas["PatchedPageEditRequest"]["properties"]
    assert "slug" not in schemas["PageEditRequest"]["properties"]


def test_a_slug_with_capitals_is_stored_lower_cased_and_links_find_it(editor_api: APIClient) -> None:
    response = editor_api.post("/api/v1/pages/", {"title": "upper slug", "slug": "ABC", "body": "x"}, format="json")

    assert response.status_code == 201 and response.json()["slug"] == "abc"
    second = editor_api.post("/api/v1/pages/", {"title": "lower slug", "slug": "abc", "body": "y"}, format="json")
    assert second.status_code == 409 and second.json()["code"] == "exists"
    linking = editor_api.post("/api/v1/pages/", {"title": "Linking", "body": "See [[ABC]]."}, format="json").json()
    assert 'href="/wiki/abc/"' in linking["rendered_html"] and "wanted" not in linking["rendered_html"]
    assert [link["slug"] for link in editor_api.get("/api/v1/pages/abc/backlinks/").json()] == ["linking"]


def test_a_deleted_page_answers_410_to_reads_and_edits(editor_api: APIClient, editor: Account) -> None:
    from wiki.services.deletion import page_delete

    page = Page.objects.get(slug="contrast-wiki")
    page_delete(page=page, user=editor, reason="Spam")

    for response in (editor_api.get("/api/v1/pages/contrast-wiki/"),
                     editor_api.get("/api/v1/pages/contrast-wiki/revisions/"),
                     editor_api.get("/api/v1/pages/contrast-wiki/revisions/1/"),
                     editor_api.patch("/api/v1/pages/contrast-wiki/", {"body": "x", "base_revision": 1}, format="json")):
        assert response.status_code == 410, response.request
        assert response.json()["code"] == "gone"
    assert Page.all_objects.get(pk=page.pk).body == page.body
    # its claims and their history with it, to anyone
    claim = Claim.objects.filter(page=page).first()
    assert claim is not None
    for client in (editor_api, APIClient()):
        assert client.get(f"/api/v1/claims/{claim.pk}/").status_code == 404
        assert client.get(f"/api/v1/claims/{claim.pk}/history/").status_code == 404
    assert editor_api.patch("/api/v1/pages/no-such-page/", {"body": "x", "base_revision": 1}, format="json").status_code == 404


def test_an_edit_of_a_deleted_work_answers_410(editor_api: APIClient, editor: Account) -> None:
    from wiki.services.deletion import source_delete

    source = Source.objects.create(slug="spam-work", short_name="Spam", title="Spam work")
    source_delete(source=source, user=editor, reason="Spam")

    response = editor_api.patch("/api/v1/sources/spam-work/", {"title": "Changed"}, format="json")

    assert response.status_code == 410 and response.json()["code"] == "gone"
    assert Source.all_objects.get(pk=source.pk).title == "Spam work"


def test_a_component_is_added_and_classified_in_one_request_or_not_at_all(editor_api: APIClient) -> None:
    shepherd = Source.objects.create(slug="shepherd", short_name="Shepherd", title="Shepherd")
    tree = Component.objects.create(source=shepherd, slug="tree-grpo", name="Tree-GRPO")
    payload = {"source": "shepherd", "mechanism": "harness", "verdict": "not_strict", "interactive_env": True,
               "multi_step": True, "verifiable_reward": None, "rl_update": False}

    created = editor_api.post("/api/v1/classifications/", {**payload, "new_component": "Supervisor"}, format="json")
    existing = editor_api.post("/api/v1/classifications/", {**payload, "new_component": "TREE grpo"}, format="json")
    both = editor_api.post("/api/v1/classifications/", {**payload, "component": tree.pk, "new_component": "Planner"},
                           format="json")

    assert created.status_code == 201, created.json()
    assert created.json()["component_name"] == "Supervisor" and "new_component" not in created.json()
    assert existing.status_code == 400 and set(existing.json()["errors"]) == {"new_component"}
    assert both.status_code == 400 and set(both.json()["errors"]) == {"new_component"}
    assert sorted(Component.objects.filter(source=shepherd).values_list("name", flat=True)) == ["Supervisor", "Tree-GRPO"]
    url = f"/api/v1/classifications/{created.json()['id']}/"
    renamed = editor_api.patch(url, {"new_component": "Planner"}, format="json", **if_match(editor_api, url))
    assert renamed.status_code == 400 and Component.objects.filter(source=shepherd).count() == 2


def test_a_created_object_is_answered_with_its_address_and_absolute_links(editor_api: APIClient) -> None:
    page = editor_api.post("/api/v1/pages/", NEW_PAGE, format="json")
    work = editor_api.post("/api/v1/sources/", {"title": "Located: A Work", "authors": "Doe, Jane"}, format="json")
    contrast = editor_api.post("/api/v1/contrasts/", {"left": "tasksmith", "right": "polarharness", "axis": "located"},
                               format="json")
    question = editor_api.post("/api/v1/questions/", {"title": "Where is it?"}, format="json")
    classification = editor_api.post("/api/v1/classifications/", {
        "source": work.json()["slug"], "mechanism": "harness", "verdict": "not_strict", "interactive_env": False,
        "multi_step": False, "verifiable_reward": False, "rl_update": False}, format="json")

    for created, path in ((page, f"/api/v1/pages/{NEW_PAGE['slug']}/"), (work, f"/api/v1/sources/{work.json()['slug']}/"),
                          (contrast, f"/api/v1/contrasts/{contrast.json()['id']}/"),
                          (question, f"/api/v1/questions/{question.json()['id']}/"),
                          (classification, f"/api/v1/classifications/{classification.json()['id']}/")):
        assert created.status_code == 201, created.json()
        assert created["Location"] == f"http://testserver{path}"
        assert editor_api.get(created["Location"]).json() == editor_api.get(path).json()
    assert page.json()["html_url"] == f"http://testserver/wiki/{NEW_PAGE['slug']}/"
    assert work.json()["html_url"] == f"http://testserver/sources/{work.json()['slug']}/"
    assert question.json()["html_url"].startswith("http://testserver/questions/")
    claim = editor_api.get("/api/v1/claims/", {"page_slug": NEW_PAGE["slug"]}).json()["results"][0]
    assert claim["html_url"].startswith(f"http://testserver/wiki/{NEW_PAGE['slug']}/#claim-")
