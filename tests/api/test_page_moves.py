"""Moving a page through the API: editors only; the former address answers 301 with the new one; a refused address is
a 400 naming the field and changes nothing; a deleted page answers 410."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from wiki.models import Page, PageRedirect
from wiki.services.deletion import page_delete
from wiki.services.pages import page_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def notes() -> Page:
    page_save(slug="linker", title="Linker", body="[[old-notes]]")
    return page_save(slug="old-notes", title="Reading notes", body="笔记。").revision.page


def test_an_editor_moves_a_page_and_reads_it_at_its_new_address(notes: Page, editor_api: APIClient) -> None:
    moved = editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes", "reason": "clearer"}, format="json")

    assert moved.status_code == 200, moved.json()
    assert (moved.json()["slug"], moved.json()["title"]) == ("survey-notes", "Reading notes")
    assert [link["slug"] for link in moved.json()["backlinks"]] == ["linker"]
    assert editor_api.get("/api/v1/pages/survey-notes/").status_code == 200
    former = editor_api.get("/api/v1/pages/old-notes/")
    assert (former.status_code, former["Location"]) == (301, "http://testserver/api/v1/pages/survey-notes/")
    assert editor_api.get("/api/v1/pages/never-was/").status_code == 404
    assert list(PageRedirect.objects.values_list("slug", "page_id")) == [("old-notes", notes.pk)]


@pytest.mark.parametrize(("former", "now"), [
    ("/api/v1/pages/old-notes/revisions/?page_size=1", "/api/v1/pages/survey-notes/revisions/?page_size=1"),
    ("/api/v1/pages/old-notes/revisions/1/", "/api/v1/pages/survey-notes/revisions/1/"),
    ("/api/v1/pages/old-notes/backlinks/", "/api/v1/pages/survey-notes/backlinks/"),
])
def test_what_is_read_below_a_former_address_answers_301_to_the_same_read(
    notes: Page, editor_api: APIClient, former: str, now: str
) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")

    response = editor_api.get(former)

    assert (response.status_code, response["Location"]) == (301, f"http://testserver{now}")
    assert editor_api.get(response["Location"]).status_code == 200
    assert editor_api.get(former.replace("old-notes", "never-was")).status_code == 404



def test_bad_paging_below_a_former_address_is_a_400_not_a_redirect(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")

    response = editor_api.get("/api/v1/pages/old-notes/revisions/", {"page_size": "0", "page": "-2"})

    assert response.status_code == 400 and set(response.json()["errors"]) == {"page_size"}


def test_claims_filtered_by_a_former_address_are_the_moved_pages(notes: Page, editor_api: APIClient) -> None:
    page_save(slug="old-notes", title="Reading notes", body="## 关键要点\n\n- 一条论断。\n", base_revision=1)
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")

    claims = editor_api.get("/api/v1/claims/", {"page_slug": "old-notes"})

    assert claims.status_code == 200 and [c["text"] for c in claims.json()["results"]] == ["一条论断。"]


def test_moving_to_another_page_s_former_address_needs_take_over(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    page_save(slug="other", title="Other", body="x")

    refused = editor_api.post("/api/v1/pages/other/move/", {"slug": "old-notes"}, format="json")
    taken = editor_api.post("/api/v1/pages/other/move/", {"slug": "old-notes", "take_over": True}, format="json")

    assert refused.status_code == 400 and refused.json()["code"] == "former_address"
    assert list(refused.json()["errors"]) == ["take_over"]
    assert taken.status_code == 200 and taken.json()["slug"] == "old-notes"


def test_the_local_graph_of_a_page_named_by_its_former_address_answers_301(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")

    former = editor_api.get("/api/v1/graph/local/", {"node": "page:old-notes", "depth": "2"})

    assert (former.status_code, former["Location"]) == (
        301, "http://testserver/api/v1/graph/local/?node=page%3Asurvey-notes&depth=2")
    graph = editor_api.get(former["Location"]).json()
    assert graph["center"] == "page:survey-notes" and "page:linker" in {node["id"] for node in graph["nodes"]}
    assert editor_api.get("/api/v1/graph/local/", {"node": "page:never-was"}).status_code == 404


def test_a_move_to_another_pages_address_is_409_exists_as_creating_a_page_there(notes: Page, editor_api: APIClient) -> None:
    refused = editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "linker"}, format="json")
    created = editor_api.post("/api/v1/pages/", {"slug": "linker", "title": "Linker", "body": "Text."}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (created.status_code, created.json()["code"]) == (409, "exists")
    assert list(refused.json()["errors"]) == ["slug"]
    assert Page.objects.get(pk=notes.pk).slug == "old-notes" and not PageRedirect.objects.exists()


@pytest.mark.parametrize(("sent", "field", "code"), [
    ({"slug": "old-notes"}, "slug", "unchanged"),
    ({"slug": "wanted"}, "slug", "reserved"),
    ({"slug": "two words"}, "slug", "invalid_slug"),
    ({}, "slug", "required"),
    ({"slug": "fine", "reason": "two\nlines"}, "reason", "invalid_characters"),
])
def test_a_refused_move_names_the_field_and_changes_nothing(notes: Page, editor_api: APIClient, sent: dict[str, str],
                                                             field: str, code: str) -> None:
    refused = editor_api.post("/api/v1/pages/old-notes/move/", sent, format="json")

    assert refused.status_code == 400
    assert (refused.json()["code"], list(refused.json()["errors"])) == (code, [field])
    assert Page.objects.get(pk=notes.pk).slug == "old-notes" and not PageRedirect.objects.exists()


def test_readers_cannot_move_and_a_deleted_page_answers_410(notes: Page, api: APIClient, reader_api: APIClient,
                                                             editor_api: APIClient) -> None:
    assert api.post("/api/v1/pages/old-notes/move/", {"slug": "x"}, format="json").status_code in (401, 403)
    assert reader_api.post("/api/v1/pages/old-notes/move/", {"slug": "x"}, format="json").status_code == 403
    page_delete(page=notes, user=None, reason="test")
    assert editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "x"}, format="json").status_code == 410
    assert Page.all_objects.get(pk=notes.pk).slug == "old-notes"


def test_a_question_names_its_page_by_a_former_address_too(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")

    asked = editor_api.post("/api/v1/questions/", {"title": "Which reward?", "page": "old-notes"}, format="json")
    unknown = editor_api.post("/api/v1/questions/", {"title": "Which reward?", "page": "never-was"}, format="json")

    assert asked.status_code == 201, asked.json()
    assert asked.json()["page"] == "survey-notes"
    assert unknown.status_code == 400 and unknown.json()["errors"]["page"] == ["No page has the address “never-was”."]


@pytest.mark.parametrize("method", ["put", "patch"])
def test_an_edit_sent_to_a_former_address_is_sent_on_to_the_page_as_it_was(notes: Page, editor_api: APIClient,
                                                                            method: str) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    edit = {"title": "Reading notes", "body": "新的笔记。", "base_revision": 1}

    moved = getattr(editor_api, method)("/api/v1/pages/old-notes/?format=json", edit, format="json")
    saved = getattr(editor_api, method)(moved["Location"], edit, format="json")

    assert (moved.status_code, moved["Location"]) == (308, "http://testserver/api/v1/pages/survey-notes/?format=json")
    assert saved.status_code == 200, saved.json()
    assert saved.json()["revision"] == 2 and Page.objects.get(slug="survey-notes").body == "新的笔记。"


@pytest.mark.parametrize("action", ["edit", "move"])
def test_a_write_sent_to_a_former_address_a_new_page_took_goes_to_that_page_unless_if_match_names_the_one_read(
    notes: Page, editor_api: APIClient, action: str
) -> None:
    """The API names a page by its address: once a page is created where another was moved from, the address is the
    new page's. The ETag read from the moved page names that page, so a write sent with it as If-Match changes
    nothing (412); a base_revision alone names a revision number, which the new page may have too."""
    read = editor_api.get("/api/v1/pages/old-notes/")
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    newcomer = page_save(slug="old-notes", title="Newcomer", body="新页面。", base_revision=0).revision.page
    url = "/api/v1/pages/old-notes/" if action == "edit" else "/api/v1/pages/old-notes/move/"
    sent = {"title": "Reading notes", "body": "改过的笔记。"} if action == "edit" else {"slug": "survey-notes-2"}

    refused = editor_api.patch(url, sent, format="json", headers={"if-match": read["ETag"]}) if action == "edit" else \
        editor_api.post(url, sent, format="json", headers={"if-match": read["ETag"]})

    assert refused.status_code == 412, refused.json()
    assert Page.objects.get(pk=newcomer.pk).body == "新页面。" and Page.objects.get(pk=newcomer.pk).slug == "old-notes"
    assert Page.objects.get(pk=notes.pk).body == "笔记。" and Page.objects.get(pk=notes.pk).slug == "survey-notes"
    if action == "edit":
        by_number = editor_api.patch(url, {**sent, "base_revision": 1}, format="json")
        assert by_number.status_code == 200 and Page.objects.get(pk=newcomer.pk).body == "改过的笔记。"
        assert Page.objects.get(pk=notes.pk).body == "笔记。"


@pytest.mark.parametrize("action", ["edit", "move"])
def test_a_write_naming_the_page_read_is_refused_where_a_new_page_took_its_address_and_changes_nothing(
    notes: Page, editor_api: APIClient, action: str
) -> None:
    """A base_revision alone names a number the new page may have too; page_id names the page read."""
    read = editor_api.get("/api/v1/pages/old-notes/").json()
    assert read["id"] == notes.pk
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    newcomer = page_save(slug="old-notes", title="Newcomer", body="新页面。", base_revision=0).revision.page
    url = "/api/v1/pages/old-notes/" if action == "edit" else "/api/v1/pages/old-notes/move/"
    sent = ({"body": "改过的笔记。", "base_revision": read["revision"]} if action == "edit" else {"slug": "survey-notes-2"})

    refused = (editor_api.patch if action == "edit" else editor_api.post)(url, {**sent, "page_id": read["id"]}, format="json")

    assert refused.status_code == 409, refused.json()
    assert refused.json()["code"] == "other_page" and refused.json()["page_slug"] == "survey-notes"
    assert refused.json()["detail"] == (f"The page at “old-notes” is not the one page_id {notes.pk} names, which is now "
                                        "at “survey-notes”: nothing was written. Send the write there.")
    newcomer = Page.objects.get(pk=newcomer.pk)
    assert (newcomer.slug, newcomer.body, newcomer.revisions.count()) == ("old-notes", "新页面。", 1)
    notes = Page.objects.get(pk=notes.pk)
    assert (notes.slug, notes.body, notes.revisions.count()) == ("survey-notes", "笔记。", 1)
    there = (editor_api.patch if action == "edit" else editor_api.post)(
        url.replace("old-notes", "survey-notes"), {**sent, "page_id": read["id"]}, format="json")
    assert there.status_code == 200, there.json()
    assert there.json()["id"] == notes.pk and Page.objects.get(pk=newcomer.pk).body == "新页面。"


def test_a_write_naming_a_page_deleted_since_is_refused_in_the_client_s_language(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    page_delete(page=Page.objects.get(pk=notes.pk), user=None, reason="重复")
    newcomer = page_save(slug="old-notes", title="Newcomer", body="新页面。", base_revision=0).revision.page

    refused = editor_api.patch("/api/v1/pages/old-notes/", {"body": "改过的笔记。", "base_revision": 1, "page_id": notes.pk},
                               format="json", headers={"accept-language": "zh-CN"})

    assert refused.status_code == 409 and refused.json()["code"] == "other_page" and refused.json()["page_slug"] is None
    assert refused.json()["detail"] == f"“old-notes”处的页面不是 page_id {notes.pk} 所指的页面，那个页面已被删除或已不在本 wiki 中：什么也没有写入。"
    assert Page.objects.get(pk=newcomer.pk).body == "新页面。"


def test_a_write_naming_the_page_at_its_address_or_none_is_saved_as_before(notes: Page, editor_api: APIClient) -> None:
    named = editor_api.patch("/api/v1/pages/old-notes/", {"body": "一。", "base_revision": 1, "page_id": notes.pk}, format="json")
    unnamed = editor_api.patch("/api/v1/pages/old-notes/", {"body": "二。", "base_revision": 2}, format="json")

    assert (named.status_code, unnamed.status_code) == (200, 200)
    assert Page.objects.get(pk=notes.pk).body == "二。"


def test_the_schema_says_a_write_may_name_the_page_it_read(editor_api: APIClient) -> None:
    schema = editor_api.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    assert "page_id" in components["PatchedPageEditRequest"]["properties"] and "page_id" in components["PageMoveRequest"]["properties"]
    assert components["PageDetail"]["properties"]["id"]["readOnly"] is True
    for path, method in (("/api/v1/pages/{slug}/", "patch"), ("/api/v1/pages/{slug}/move/", "post")):
        assert "`other_page`" in schema["paths"][path][method]["responses"]["409"]["description"]


def test_a_move_sent_to_a_former_address_is_sent_on_to_the_page_as_its_schema_says(notes: Page, editor_api: APIClient) -> None:
    editor_api.post("/api/v1/pages/old-notes/move/", {"slug": "survey-notes"}, format="json")
    declared = editor_api.get("/api/schema/", {"format": "json"}).json()["paths"]["/api/v1/pages/{slug}/move/"]["post"]["responses"]

    moved = editor_api.post("/api/v1/pages/old-notes/move/", {"title": "Survey notes"}, format="json")
    again = editor_api.post(moved["Location"], {"title": "Survey notes"}, format="json")

    assert (moved.status_code, moved["Location"]) == (308, "http://testserver/api/v1/pages/survey-notes/move/")
    assert "Location" in declared["308"]["headers"]
    assert (again.status_code, again.json()["slug"], again.json()["title"]) == (200, "survey-notes", "Survey notes")
    assert editor_api.post("/api/v1/pages/never-was/move/", {"title": "X"}, format="json").status_code == 404


def test_a_move_with_a_title_renames_the_page_and_an_address_left_out_is_made_from_it(notes: Page, editor_api: APIClient) -> None:
    moved = editor_api.post("/api/v1/pages/old-notes/move/", {"title": "Survey Notes"}, format="json")

    assert moved.status_code == 200, moved.json()
    assert (moved.json()["slug"], moved.json()["title"]) == ("survey-notes", "Survey Notes")
    revisions = editor_api.get("/api/v1/pages/survey-notes/revisions/").json()["results"]
    assert [(r["number"], r["title"]) for r in revisions] == [(2, "Survey Notes"), (1, "Reading notes")]
    former_title = editor_api.get("/api/v1/pages/reading-notes/")
    assert (former_title.status_code, former_title["Location"]) == (301, "http://testserver/api/v1/pages/survey-notes/")

    refused = editor_api.post("/api/v1/pages/survey-notes/move/", {}, format="json")

    assert refused.status_code == 400 and set(refused.json()["errors"]) == {"slug"}
