"""Editors correct how a work is written back (its entry type, pages, volume, publisher…) in its form and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import make_source
from wiki.models import ChangeEvent, Source
from wiki.references.bibtex import KIND_BY_ENTRY_TYPE
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.draft import ENTRY_TYPE_LABELS
from wiki.roles import Account


def _as_a_browser_sends(client: Client, url: str, **changes: str) -> dict[str, Any]:
    """The edit form's fields as the browser sends them back, with ``changes`` typed in."""
    form = client.get(url).context["form"]
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    return {**data, **changes}


@pytest.fixture
def paper(db: None) -> Source:
    return make_source(slug="back2basics", short_name="Back2Basics", title="Back to Basics", kind="paper", year=2024,
                       venue="Proceedings of ACL", bibtex_key="back2basics", entry_type="inproceedings",
                       bibliographic={"pages": "12248--12267", "volume": "1", "publisher": "ACL"})


def test_an_editor_corrects_the_pages_and_entry_type_and_the_export_writes_them(editor_client: Client, paper: Source) -> None:
    url = reverse("wiki:source-edit", kwargs={"slug": paper.slug})
    form_page = editor_client.get(url).content.decode()
    assert 'name="bib_pages"' in form_page and 'value="12248--12267"' in form_page
    assert '<option value="inproceedings" selected>' in form_page

    response = editor_client.post(url, _as_a_browser_sends(editor_client, url, entry_type="article",
                                                            bib_pages="  12248 – 12270 ", bib_publisher="",
                                                            bib_number="3", bib_month="8"))

    assert response.status_code == 302
    paper.refresh_from_db()
    assert paper.entry_type == "article"
    assert paper.bibliographic == {"pages": "12248 – 12270", "volume": "1", "number": "3", "month": "8"}
    assert ChangeEvent.objects.filter(object_id=str(paper.pk), action=ChangeEvent.Action.EDITED).exists()
    bibtex = dump_bibtex([paper])
    assert bibtex.startswith("% 1 work") and "@article{back2basics," in bibtex
    assert "pages = {12248--12270}" in bibtex and "number = {3}" in bibtex and "month = aug," in bibtex
    assert "publisher" not in bibtex and "journal = {Proceedings of ACL}" in bibtex
    page = editor_client.get(paper.get_absolute_url()).content.decode()
    assert "12248 – 12270" in page and "article (journal article)" in page


def test_a_wrong_detail_is_an_error_on_its_field_and_changes_nothing(editor_client: Client, paper: Source) -> None:
    url = reverse("wiki:source-edit", kwargs={"slug": paper.slug})

    response = editor_client.post(url, _as_a_browser_sends(editor_client, url, title="Back to Basics, Again",
                                                            bib_pages="12\u202e248", entry_type="poem"))

    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) == {"bib_pages", "entry_type"}
    html = response.content.decode()
    # the group of details opens on its error, and what was typed is given back
    assert '<details class="field-group" open>' in html and 'value="Back to Basics, Again"' in html
    paper.refresh_from_db()
    assert (paper.title, paper.entry_type, paper.bibliographic["pages"]) == ("Back to Basics", "inproceedings", "12248--12267")


def test_a_new_work_typed_by_hand_keeps_its_details(editor_client: Client, db: None) -> None:
    url = reverse("wiki:source-create")
    data = _as_a_browser_sends(editor_client, url, title="Sutton and Barto: Reinforcement Learning", kind="paper", short_name="Sutton & Barto",
                               year="2018", entry_type="book", bib_edition="Second", bib_isbn="978-0-262-03924-6")

    response = editor_client.post(url, {**data, "save": "1"})

    assert response.status_code == 302, response.context["form"].errors
    work = Source.objects.get(title="Sutton and Barto: Reinforcement Learning")
    assert (work.entry_type, work.bibliographic) == ("book", {"edition": "Second", "isbn": "978-0-262-03924-6"})


def test_the_api_writes_the_details_and_refuses_ones_it_does_not_keep(editor: Account, paper: Source) -> None:
    editor_api = APIClient()
    editor_api.force_authenticate(editor)
    url = f"/api/v1/sources/{paper.slug}/"

    refused = editor_api.patch(url, {"bibliographic": {"pages": "1--2", "colour": "blue", "volume": "x\ny\u0007"},
                                     "entry_type": "poem"}, format="json", **if_match(editor_api, url))
    assert refused.status_code == 400
    errors = refused.json()["errors"]
    assert set(errors) == {"bibliographic", "entry_type"}
    assert any("colour" in message for message in errors["bibliographic"])
    paper.refresh_from_db()
    assert paper.bibliographic["pages"] == "12248--12267" and paper.entry_type == "inproceedings"

    saved = editor_api.patch(url, {"bibliographic": {"pages": "1--2", "volume": " 2\n", "series": ""},
                                   "entry_type": "article"}, format="json", **if_match(editor_api, url))
    assert saved.status_code == 200, saved.json()
    assert saved.json()["bibliographic"] == {"pages": "1--2", "volume": "2"}
    assert saved.json()["entry_type"] == "article"
    paper.refresh_from_db()
    assert paper.bibliographic == {"pages": "1--2", "volume": "2"}

    # left out, the details are kept
    kept = editor_api.patch(url, {"notes": "Read."}, format="json", **if_match(editor_api, url))
    assert kept.status_code == 200 and kept.json()["bibliographic"] == {"pages": "1--2", "volume": "2"}


def test_every_entry_type_an_editor_can_choose_is_one_the_importer_reads() -> None:
    assert set(ENTRY_TYPE_LABELS) == set(KIND_BY_ENTRY_TYPE)


def test_the_detail_a_venue_was_read_from_follows_the_venue_when_it_is_corrected(editor_client: Client, db: None) -> None:
    work = make_source(slug="thesis", short_name="Thesis", title="A Thesis", venue="Peking Univ.", entry_type="thesis",
                       bibliographic={"institution": "Peking Univ.", "month": "2"})
    url = reverse("wiki:source-edit", kwargs={"slug": work.slug})

    response = editor_client.post(url, _as_a_browser_sends(editor_client, url, venue="Peking University"))

    assert response.status_code == 302
    work.refresh_from_db()
    assert work.bibliographic == {"institution": "Peking University", "month": "2"}
    assert "institution = {Peking University}" in dump_bibtex([work])


def test_the_source_list_finds_a_short_name_typed_with_other_spacing(client: Client, db: None) -> None:
    make_source(slug="skillforge", short_name="SkillForge")

    for typed in ("skill forge", "ｓｋｉｌｌ－ｆｏｒｇｅ"):
        assert 'href="/sources/skillforge/"' in client.get(reverse("wiki:source-list"), {"q": typed}).content.decode()
