"""An edit from the page form merged with what was saved meanwhile, and one section of a page saved alone."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from tests.factories import cite, claims_of, make_editor, make_page, make_source
from wiki.models import Page
from wiki.services.page_edits import page_save_merging, page_save_section
from wiki.services.pages import EditConflict, MergedEdit, page_save, page_save_revision

BODY = "## Intro\n\nintro\n\n## Key points\n\n- first point\n\n## End\n\nend\n"


def test_an_edit_from_an_older_revision_is_merged_with_the_latest_and_saved(db: None) -> None:
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title="Their title", body="A\nb\nc\n", base_revision=1)
    saved = page_save_merging(slug=page.slug, title=page.title, summary="Mine", body="a\nb\nC\n", base_revision=1)
    assert saved.merged == MergedEdit(base=1, theirs=2) and not saved.unchanged
    assert saved.revision.number == 3
    assert (saved.revision.title, saved.revision.summary, saved.revision.body) == ("Their title", "Mine", "A\nb\nC\n")
    page.refresh_from_db()
    assert (page.title, page.body) == ("Their title", "A\nb\nC\n")


def test_an_edit_from_the_latest_revision_is_an_ordinary_save(db: None) -> None:
    page = make_page(body="a\n")
    saved = page_save_merging(slug=page.slug, title=page.title, body="b\n", base_revision=1)
    assert saved.merged is None and saved.revision.number == 2


def test_a_clash_raises_the_conflict_with_the_edit_as_sent_and_writes_nothing(db: None) -> None:
    page = make_page(body="a\nb\n")
    page_save_revision(slug=page.slug, title=page.title, body="a\ntheirs\n", base_revision=1)
    with pytest.raises(EditConflict) as conflict:
        page_save_merging(slug=page.slug, title=page.title, body="a\nmine\n", base_revision=1)
    assert conflict.value.mine["body"] == "a\nmine\n" and conflict.value.current.number == 2
    assert page.revisions.count() == 2


def test_the_claims_of_a_merged_edit_are_read_from_the_merged_text(db: None) -> None:
    work = make_source(title="Merged Work: A Study")
    page = make_page(body=BODY)
    theirs = BODY.replace("- first point\n", f"- first point\n- their point{cite(work, locator='p.1')}\n")
    page_save_revision(slug=page.slug, title=page.title, body=theirs, base_revision=1)
    mine = BODY.replace("end\n", f"end, with my sentence{cite(work, locator='p.2')}\n")
    saved = page_save_merging(slug=page.slug, title=page.title, body=mine, base_revision=1)
    assert saved.merged is not None
    texts = [claim.text for claim in claims_of(page)]
    assert any("their point" in text for text in texts) and any("my sentence" in text for text in texts)


def test_the_api_save_still_refuses_an_edit_from_an_older_revision(db: None) -> None:
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, body="A\nb\nc\n", base_revision=1)
    with pytest.raises(EditConflict):
        page_save(slug=page.slug, title=page.title, body="a\nb\nC\n", base_revision=1)


@pytest.mark.django_db(transaction=True)
def test_a_save_landing_while_a_merge_is_made_is_merged_with_too_never_overwritten() -> None:
    page = make_page(slug="three-editors", body="one\ntwo\nthree\nfour\nfive\n")
    page_save_revision(slug=page.slug, title=page.title, body="ONE\ntwo\nthree\nfour\nfive\n", base_revision=1)
    locked, release = threading.Event(), threading.Event()
    outcomes: list[object] = []

    def third_editor() -> None:
        # Saves from revision 2 while holding the page's row, as a save in progress does.
        try:
            with transaction.atomic():
                list(Page.objects.select_for_update().filter(pk=page.pk))
                locked.set()
                release.wait(timeout=10)
                page_save(slug=page.slug, title=page.title, body="ONE\ntwo\nTHREE\nfour\nfive\n", base_revision=2)
        finally:
            connection.close()

    def merging_editor() -> None:
        try:
            outcomes.append(page_save_merging(slug=page.slug, title=page.title, body="one\ntwo\nthree\nfour\nFIVE\n",
                                              base_revision=1))
        except EditConflict as conflict:
            outcomes.append(conflict)
        finally:
            connection.close()

    third = threading.Thread(target=third_editor)
    third.start()
    assert locked.wait(timeout=10)
    merging = threading.Thread(target=merging_editor)
    merging.start()
    merging.join(timeout=1)
    assert merging.is_alive()  # waits for the save in progress rather than merging with what it read before it
    release.set()
    third.join(timeout=30)
    merging.join(timeout=30)
    [saved] = outcomes
    assert not isinstance(saved, EditConflict)
    assert saved.merged == MergedEdit(base=1, theirs=3)  # type: ignore[attr-defined]
    page.refresh_from_db()
    assert page.body == "ONE\ntwo\nTHREE\nfour\nFIVE\n"
    assert list(page.revisions.order_by("number").values_list("number", flat=True)) == [1, 2, 3, 4]


def test_a_section_is_saved_into_the_text_it_was_read_from(db: None) -> None:
    page = make_page(title="Sections", summary="Kept", body=BODY)
    editor = make_editor()
    saved = page_save_section(page=page, section=2, text="## Key points\n\n- first point\n- second point\n\n",
                              comment="/* Key points */ one more", user=editor, base_revision=1)
    assert saved.merged is None
    assert saved.revision.body == BODY.replace("- first point\n", "- first point\n- second point\n")
    assert (saved.revision.title, saved.revision.summary, saved.revision.comment) == ("Sections", "Kept",
                                                                                       "/* Key points */ one more")
    assert [claim.text for claim in claims_of(page)] == ["first point", "second point"]


def test_a_section_read_from_an_older_revision_is_merged_with_the_latest(db: None) -> None:
    page = make_page(body=BODY)
    page_save_revision(slug=page.slug, title="Retitled", body=BODY.replace("intro\n", "new intro\n"), base_revision=1)
    saved = page_save_section(page=page, section=3, text="## End\n\nthe end\n", base_revision=1)
    assert saved.merged == MergedEdit(base=1, theirs=2)
    assert saved.revision.body == BODY.replace("intro\n", "new intro\n").replace("\nend\n", "\nthe end\n")
    assert saved.revision.title == "Retitled"


def test_a_section_that_clashes_raises_the_conflict_with_the_whole_text_it_made(db: None) -> None:
    page = make_page(body=BODY)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("\nend\n", "\ntheir end\n"), base_revision=1)
    with pytest.raises(EditConflict) as conflict:
        page_save_section(page=page, section=3, text="## End\n\nmy end\n", base_revision=1)
    assert conflict.value.mine["body"] == BODY.replace("\nend\n", "\nmy end\n")
    assert page.revisions.count() == 2


@pytest.mark.parametrize(("section", "base", "field"), [(4, 1, "section"), (1, 9, "base_revision")])
def test_a_section_or_revision_the_page_does_not_have_is_refused(db: None, section: int, base: int, field: str) -> None:
    page = make_page(body=BODY)
    with pytest.raises(ValidationError) as refused:
        page_save_section(page=page, section=section, text="## X\n", base_revision=base)
    assert list(refused.value.error_dict) == [field]
    assert page.revisions.count() == 1
