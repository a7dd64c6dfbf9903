"""The web import shows what it would do first, entry by entry, and writes only what the editor confirmed."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_source
from tests.wiki.htmltext import html_text
from tests.wiki.web_imports import web_import
from wiki.models import ChangeEvent, Source, SourceImport
from wiki.services.source_import import ImportChanged, sources_import, sources_import_preview

pytestmark = pytest.mark.django_db

URL = reverse("wiki:source-create")
FILE = (
    "@article{fresh, title={Fresh Agent Study}, author={Li, Ming}, year={2025}}\n"
    "@article{again, title={Already Here: A Study}, year={2024}}\n"
    "@misc{notitle, author={Z}}\n"
)


def _wiki_counts() -> tuple[int, int, int]:
    return Source.all_objects.count(), ChangeEvent.objects.count(), SourceImport.objects.count()


def _confirm_fields(page: str) -> dict[str, str]:
    """What the preview's confirmation form posts, read from its HTML as a browser reads it."""
    form = page.split("data-import-form", 1)[1].split("</form>", 1)[0]
    fields = {name: html.unescape(value) for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)}
    text = re.search(r"<textarea name=\"text\"[^>]*>\n?(.*?)</textarea>", form, re.S)
    assert text is not None
    fields["text"] = html.unescape(text.group(1))
    return fields


def test_the_preview_says_what_each_entry_would_become_and_writes_nothing(editor_client: Client) -> None:
    existing = make_source(slug="already-here", short_name="Already Here", title="Already Here: A Study", year=2024)
    before = _wiki_counts()

    response = editor_client.post(URL, {"entry": FILE, "import": "1"})

    assert response.status_code == 200
    assert _wiki_counts() == before
    page = response.content.decode()
    text = html_text(page)
    assert "1 to create, 1 already in the wiki, 1 refused" in text
    assert "Creates “Fresh Agent Study” at /sources/fresh-agent-study/" in text
    # the duplicate names the work it duplicates, linked; the refusal its reason; each entry its line
    assert f'A duplicate of <a href="{existing.get_absolute_url()}">Already Here</a>' in page
    assert "Refused: no title" in text
    assert [result.line for result in response.context["report"].results] == [1, 2, 3]
    assert "Nothing is saved until you confirm. Up to 2,000 entries are imported per request" in text


def test_confirming_imports_what_the_preview_showed_and_records_the_import(editor_client: Client, editor) -> None:  # type: ignore[no-untyped-def]
    make_source(slug="already-here", short_name="Already Here", title="Already Here: A Study", year=2024)
    preview = editor_client.post(URL, {"entry": FILE, "import": "1"})

    # what the browser sends back: the form's hidden fields as the page holds them
    response = editor_client.post(URL, {**_confirm_fields(preview.content.decode()), "confirm": "1"})

    assert response.status_code == 200
    assert response.context["report"].counts == {"created": 1, "duplicate": 1, "refused": 1}
    created = Source.objects.get(bibtex_key="fresh")
    assert created.slug == "fresh-agent-study"
    record = SourceImport.objects.get()
    assert (record.user, record.via, record.format, record.entries) == (editor, "web", "bibtex", 3)
    assert (record.created_count, record.duplicate_count, record.refused_count, record.created_ids) == (1, 1, 1, [created.pk])
    assert f'href="{record.get_absolute_url()}">undo it</a>' in response.content.decode()


def test_an_import_the_wiki_changed_under_is_previewed_again_and_writes_nothing(editor_client: Client) -> None:
    preview = editor_client.post(URL, {"entry": FILE, "import": "1"})
    assert preview.context["report"].counts["created"] == 2
    confirm = _confirm_fields(preview.content.decode())
    # meanwhile, another editor adds one of the file's works
    make_source(slug="fresh", short_name="Fresh", title="Fresh Agent Study", year=2025)
    before = _wiki_counts()

    response = editor_client.post(URL, {**confirm, "confirm": "1"})

    assert response.status_code == 409
    assert _wiki_counts() == before
    assert "The wiki changed since the preview you confirmed, so nothing was imported." in html_text(response.content.decode())
    again = response.context["report"]
    assert [result.status for result in again.results] == ["duplicate", "created", "refused"]
    # the new preview confirms what it shows now
    response = editor_client.post(URL, {**_confirm_fields(response.content.decode()), "confirm": "1"})
    assert response.status_code == 200
    assert Source.objects.filter(title="Already Here: A Study").count() == 1
    assert Source.objects.filter(title="Fresh Agent Study").count() == 1


def test_the_service_refuses_an_import_other_than_the_one_previewed() -> None:
    report = sources_import_preview(text=FILE)
    make_source(slug="already-here", short_name="Already Here", title="Already Here: A Study", year=2024)
    before = _wiki_counts()

    with pytest.raises(ImportChanged):
        sources_import(text=FILE, expect=report.digest)

    assert _wiki_counts() == before
    assert sources_import(text=FILE, expect=sources_import_preview(text=FILE).digest).counts["created"] == 1


def test_the_preview_and_the_import_agree_on_what_a_file_does() -> None:
    make_source(slug="already-here", short_name="Already Here", title="Already Here: A Study", year=2024)
    text = FILE + "@article{fresh2, title={Fresh Agent Study}, author={Li, Ming}, year={2025}}\n"  # a repeat in the file

    preview = sources_import_preview(text=text)
    report = sources_import(text=text)

    assert preview.digest == report.digest
    assert [(r.status, r.line) for r in preview.results] == [(r.status, r.line) for r in report.results]
    assert preview.results[0].source is not None and preview.results[0].source.pk is None  # unsaved in the preview


@pytest.mark.parametrize(("fields", "message"), [
    ({"text": FILE, "format": "bibtex", "digest": "not-a-digest"}, "This confirmation is not one a preview gave"),
    ({"format": "bibtex", "digest": "0" * 64}, "The confirmation did not carry the file previewed"),
    ({"text": FILE, "format": "xml", "digest": "0" * 64}, "The confirmation did not carry the file previewed"),
])
def test_a_confirmation_that_is_no_preview_s_changes_nothing(editor_client: Client, fields: dict[str, str],
                                                            message: str) -> None:
    before = _wiki_counts()

    response = editor_client.post(URL, {**fields, "confirm": "1"})

    assert response.status_code == 400
    assert message in html_text(response.content.decode())
    assert _wiki_counts() == before


def test_a_confirmation_of_another_outcome_shows_the_preview_instead(editor_client: Client) -> None:
    before = _wiki_counts()

    response = editor_client.post(URL, {"text": FILE, "format": "bibtex", "digest": "0" * 64, "confirm": "1"})

    assert response.status_code == 409 and "confirm_form" in response.context
    assert _wiki_counts() == before


def test_a_file_that_cannot_be_read_is_refused_at_the_preview(editor_client: Client) -> None:
    response = editor_client.post(URL, {"entry": "[1, 2]", "import": "1"})

    assert response.status_code == 200 and "confirm_form" not in response.context
    assert "A CSL-JSON item is a JSON object" in html_text(response.content.decode())
    assert SourceImport.objects.count() == 0


def _bib(count: int, offset: int) -> str:
    return "".join(f"@article{{k{offset + i}, title={{Generated Work Number {offset + i}}}, year={{2024}}, "
                   f"eprint={{2402.{offset + i:05d}}}, archivePrefix={{arXiv}}}}\n" for i in range(count))


def test_the_preview_and_the_confirmation_take_as_many_queries_for_sixty_entries_as_for_two(editor_client: Client) -> None:
    def queries(text: str) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as previewed:
            preview = editor_client.post(URL, {"entry": text, "import": "1"})
        with CaptureQueriesContext(connection) as confirmed:
            response = editor_client.post(URL, {**dict(preview.context["confirm_form"].initial), "confirm": "1"})
        assert response.status_code == 200
        return len(previewed.captured_queries), len(confirmed.captured_queries)

    editor_client.get(URL)
    assert queries(_bib(2, 0)) == queries(_bib(60, 100))


def test_a_whole_file_uploaded_is_previewed_then_imported_with_its_name(editor_client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("library.ris", b"TY  - JOUR\nTI  - A Journal Work\nPY  - 2020\nER  - \n")
    response = web_import(editor_client, {"file": upload})

    assert response.context["report"].counts["created"] == 1
    assert SourceImport.objects.get().file_name == "library.ris"


ALL_REFUSED = "@misc{notitle, author={Z}}\n@article{bad, title={Bad Year}, year={1066}}\n"


def test_a_file_whose_every_entry_is_refused_offers_no_import_and_its_entries_to_fix(editor_client: Client) -> None:
    response = editor_client.post(URL, {"entry": ALL_REFUSED, "import": "1"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "data-import-form" not in page  # no "Import: create 0 works" to press
    text = html_text(page)
    assert "Every entry is refused, so importing this file would import nothing" in text
    assert "Nothing is saved until you confirm" not in text  # there is nothing to confirm
    assert "Refused: no title" in text
    assert response.context["retry_form"].initial["entry"].startswith("@misc{notitle")


def test_confirming_a_file_whose_every_entry_is_refused_records_no_import_and_says_why(editor_client: Client) -> None:
    preview = sources_import_preview(text=ALL_REFUSED)
    before = _wiki_counts()

    response = editor_client.post(URL, {"text": ALL_REFUSED, "format": "bibtex", "file_name": "", "digest": preview.digest,
                                        "confirm": "1"})

    assert response.status_code == 400
    assert _wiki_counts() == before
    text = html_text(response.content.decode())
    assert "Nothing was imported: each of the file's 2 entries was refused." in text
    assert "no import is recorded" in text and "This is import #" not in text
    assert "Refused: no title" in text


def test_the_service_records_no_import_of_a_file_whose_every_entry_is_refused() -> None:
    before = _wiki_counts()

    report = sources_import(text=ALL_REFUSED)

    assert _wiki_counts() == before
    assert report.record is None
    assert [(result.line, result.status) for result in report.results] == [(1, "refused"), (2, "refused")]
    assert report.nothing_imported == "Nothing was imported: each of the file's 2 entries was refused."
    assert sources_import(text=ALL_REFUSED + FILE).record is not None  # one entry imported is an import
