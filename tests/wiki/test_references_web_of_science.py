"""Web of Science's plain-text export (FN/VR header, PT … ER records, EF), read by rispy's WoK reader: found by its
content, imported on the form and through the API, each record with its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import make_editor
from wiki.models import Source, SourceImport
from wiki.references.formats import ReferenceFormat, detect_format, parse_references
from wiki.services.source_import import sources_import

# As Web of Science writes it: a byte-order mark, CRLF line ends, values over lines set in by three spaces.
FILE = Path(__file__).parent / "data" / "web_of_science.txt"


def _text() -> str:
    return FILE.read_bytes().decode("utf-8")


def test_a_web_of_science_export_is_told_by_its_content_and_read_record_by_record() -> None:
    assert detect_format(_text()) == ReferenceFormat.WOS
    fmt, entries = parse_references(_text())
    assert fmt == ReferenceFormat.WOS
    assert [(e.line, e.label, e.errors) for e in entries] == [
        (3, "WOS:001234567800001", []), (46, "CSCD:7712345", []), (66, "WOS:001300000000002", [])]
    english, chinese, conference = (e.draft for e in entries)
    assert english is not None and chinese is not None and conference is not None
    assert english.title == "Policy Gradient Training of Tool-Using Language Agents in Executable Environments"
    assert english.authors == "Zhang, Wei; Li, Na; Smith, John A."
    assert (english.year, english.venue, english.doi, english.entry_type) == (
        2025, "IEEE TRANSACTIONS ON NEURAL NETWORKS AND LEARNING SYSTEMS", "10.1109/tnnls.2025.1234567", "article")
    assert english.abstract.startswith("We train language agents with group relative policy optimisation on multi-step")
    assert "episode in an executable" in english.abstract
    assert {name: english.bibliographic.get(name) for name in ("volume", "number", "pages", "month", "issn")} == {
        "volume": "36", "number": "3", "pages": "4512–4525", "month": "3", "issn": "2162-237X"}
    assert english.extra_fields["keywords"] == "agentic reinforcement learning, tool use, GRPO"
    assert (chinese.title, chinese.authors, chinese.venue) == ("面向长程任务的智能体强化学习方法", "王磊; 陈静", "计算机学报")
    # a Chinese abstract's wrapped lines join with no space, as it was written
    assert chinese.abstract == "本文提出一种面向长程任务的智能体强化学习方法。智能体在可执行环境中交互，并以环境回报更新策略。"
    assert conference.entry_type == "inproceedings"
    assert conference.venue == "PROCEEDINGS OF THE 2024 CONFERENCE ON EMPIRICAL METHODS IN NATURAL LANGUAGE PROCESSING"


def test_the_form_imports_an_uploaded_web_of_science_file_and_finds_it_again(editor_client: Client) -> None:
    upload = SimpleUploadedFile("savedrecs.txt", FILE.read_bytes(), content_type="text/plain")
    preview = editor_client.post(reverse("wiki:source-create"), {"file": upload, "import": "1"})
    assert preview.status_code == 200
    assert preview.context["report"].counts == {"created": 3, "duplicate": 0, "refused": 0}
    assert "Web of Science: 3" in preview.content.decode()
    confirm = dict(preview.context["confirm_form"].initial)
    editor_client.post(reverse("wiki:source-create"), {**confirm, "confirm": "1"})
    assert Source.objects.filter(doi="10.11897/sp.j.1016.2024.01801", title="面向长程任务的智能体强化学习方法").exists()
    assert SourceImport.objects.get().format == "wos"
    again = editor_client.post(reverse("wiki:source-create"), {"entry": _text(), "import": "1"})
    assert again.context["report"].counts == {"created": 0, "duplicate": 3, "refused": 0}


@pytest.mark.parametrize("media_type", ["application/x-inst-for-scientific-info", "application/x-research-info-systems"])
def test_the_api_imports_a_web_of_science_file(db: None, media_type: str) -> None:
    api = APIClient()
    api.force_authenticate(make_editor())
    response = api.post("/api/v1/sources/import/", data=FILE.read_bytes(), content_type=media_type)
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["format"] == "wos"
    assert [(e["key"], e["line"]) for e in data["created"]] == [
        ("WOS:001234567800001", 3), ("CSCD:7712345", 46), ("WOS:001300000000002", 66)]


def test_a_refused_web_of_science_record_gives_the_line_of_its_tag(db: None) -> None:
    text = "FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nAU Li, N\nTI A Fine Title\nPY circa\nER\n\nEF\n"
    (result,) = sources_import(text=text).results
    assert (result.status, result.line, result.message) == ("refused", 3, "year “circa” is not a year (line 6)")
