"""What ``OPTIONS`` says each write takes: the fields of the body the schema declares for it, required as there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import SmallWiki
from wiki.models import Classification

pytestmark = pytest.mark.django_db


def _address(path: str, wiki: SmallWiki) -> str:
    classification = Classification.objects.filter(source=wiki.strict, component=None).get()
    values = {"/api/v1/pages/": wiki.page.slug, "/api/v1/sources/": wiki.strict.slug, "/api/v1/claims/": str(wiki.claims[0].pk),
              "/api/v1/classifications/": str(classification.pk), "/api/v1/questions/": str(wiki.question.pk),
              "/api/v1/contrasts/": str(wiki.contrast.pk)}
    for prefix, value in values.items():
        if path.startswith(prefix):
            return path.replace("{slug}", value).replace("{id}", value)
    return path


def _body(schema: dict[str, Any], operation: dict[str, Any]) -> tuple[set[str], set[str]] | None:
    """The fields a JSON body of the operation may hold, and those it must, as the schema says."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return None
    component = schema["components"]["schemas"][content["schema"]["$ref"].rsplit("/", 1)[1]]
    fields = {name for name, field in component["properties"].items() if not field.get("readOnly")}
    return fields, set(component.get("required", [])) & fields


def test_options_describes_each_write_by_the_body_its_schema_declares(small_wiki: SmallWiki) -> None:
    editor = APIClient()
    editor.force_authenticate(small_wiki.editor)
    schema = editor.get("/api/schema/", {"format": "json"}).json()
    described = 0
    for path, item in schema["paths"].items():
        for method in ("post", "put"):
            body = _body(schema, item[method]) if method in item else None
            actions = editor.options(_address(path, small_wiki)).json().get("actions", {})
            if body is None or method.upper() not in actions:
                continue
            fields, required = body
            # what is read back is listed too, marked read-only, as REST framework lists it
            told = {name: field for name, field in actions[method.upper()].items() if not field["read_only"]}
            assert set(told) == fields, (method, path, sorted(set(told) ^ fields))
            assert {name for name, field in told.items() if field["required"]} == required, (method, path)
            described += 1
    assert described >= 8


def test_options_of_the_pages_tells_what_a_new_page_needs(small_wiki: SmallWiki) -> None:
    editor = APIClient()
    editor.force_authenticate(small_wiki.editor)

    post = editor.options("/api/v1/pages/").json()["actions"]["POST"]
    move = editor.options(f"/api/v1/pages/{small_wiki.page.slug}/move/").json()["actions"]["POST"]

    assert post["title"]["required"] and not post["title"]["read_only"]
    assert "rendered_html" not in post and "base_revision" in post
    assert set(move) == {"slug", "title", "reason", "take_over", "page_id"}


def test_options_tells_an_anonymous_client_of_no_write(small_wiki: SmallWiki) -> None:
    assert "actions" not in APIClient().options("/api/v1/pages/").json()


def test_options_labels_every_field_in_the_language_asked_for(small_wiki: SmallWiki) -> None:
    editor = APIClient()
    editor.force_authenticate(small_wiki.editor)
    schema = editor.get("/api/schema/", {"format": "json"}).json()
    # names and notations that read the same in both languages
    same = {"ID", "URL", "DOI", "arXiv ID", "ArXiv ID"}
    english: list[tuple[str, str, str]] = []
    labelled = 0
    for path, item in schema["paths"].items():
        if not {"post", "put"} & set(item):
            continue
        actions = editor.options(_address(path, small_wiki), HTTP_ACCEPT_LANGUAGE="zh-Hans").json().get("actions", {})
        for method, fields in actions.items():
            for name, field in fields.items():
                labelled += 1
                if field.get("label") and field["label"] not in same and not re.search(r"[\u4e00-\u9fff]", field["label"]):
                    english.append((path, method, name))
    assert labelled > 50 and english == []

    pages = editor.options("/api/v1/pages/", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()["actions"]["POST"]
    assert (pages["title"]["label"], pages["base_revision"]["label"], pages["new_works"]["label"]) == ("标题", "起始修订版本", "新工作")
    english_pages = editor.options("/api/v1/pages/", HTTP_ACCEPT_LANGUAGE="en").json()["actions"]["POST"]
    assert (english_pages["base_revision"]["label"], english_pages["comment"]["label"]) == ("Revision started from", "Edit summary")
    # and described in it, as the schema in that language describes the field
    assert pages["base_revision"]["help_text"] == "你开始编辑时的修订版本；若此后有人保存过，回答 409。"
    assert english_pages["base_revision"]["help_text"] == "The revision you started from; a later save by someone else answers 409."
