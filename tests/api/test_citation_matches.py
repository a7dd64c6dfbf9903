"""Through the API, a page save says how its citations resolved: "did you mean …", and the works it created."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.factories import make_source
from wiki.models import Citation, Source

REACT = "ReAct: Synergizing Reasoning and Acting in Language Models"
TYPO = "ReAct: Synergizing Reasoning and Acting in Language Model"
TYPO_SLUG = "react-synergizing-reasoning-and-acting-in-language-model"
BODY = f"## 关键要点\n\n- ReAct 交替推理与行动。（来源：{TYPO}，§3）\n- 另一项工作。（来源：A Fresh Work on Tool Use）\n"


def test_a_close_title_is_did_you_mean_and_creates_nothing_a_new_one_is_created(editor_api: APIClient) -> None:
    make_source(slug="react", short_name="ReAct", title=REACT)
    response = editor_api.post("/api/v1/pages/", {"title": "ReAct notes", "body": BODY}, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    close, fresh = data["citation_matches"]
    assert (close["title"], close["outcome"], close["work"]) == (TYPO, "close", None)
    assert [(w["slug"], w["html_url"], w["api_url"]) for w in close["suggestions"]] == [
        ("react", "http://testserver/sources/react/", "http://testserver/api/v1/sources/react/")]
    assert (fresh["title"], fresh["outcome"], fresh["work"]["title"]) == ("A Fresh Work on Tool Use", "created",
                                                                          "A Fresh Work on Tool Use")
    assert [w["title"] for w in data["created_sources"]] == ["A Fresh Work on Tool Use"]
    assert not Source.objects.filter(title=TYPO).exists()


def test_new_works_confirms_a_close_title_as_a_new_work(editor_api: APIClient) -> None:
    make_source(slug="react", short_name="ReAct", title=REACT)
    editor_api.post("/api/v1/pages/", {"title": "ReAct notes", "slug": "react-notes", "body": BODY}, format="json")
    response = editor_api.patch("/api/v1/pages/react-notes/", {"body": BODY, "base_revision": 1, "new_works": [TYPO]},
                                format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    # "ReAct" names the other work: the new one is called, and slugged, by its whole title.
    assert [(w["slug"], w["short_name"], w["title"]) for w in data["created_sources"]] == [(TYPO_SLUG, TYPO, TYPO)]
    assert [m["outcome"] for m in data["citation_matches"]] == ["created", "exact"]
    assert Citation.objects.filter(claim__page__slug="react-notes", source__slug=TYPO_SLUG, locator="§3").exists()


def test_new_works_must_be_a_list_of_strings(editor_api: APIClient) -> None:
    for wrong in ("ReAct", [7], {"a": "b"}):
        response = editor_api.post("/api/v1/pages/", {"title": "T", "body": "x", "new_works": wrong}, format="json")
        assert response.status_code == 400, wrong
        assert "new_works" in str(response.json())
