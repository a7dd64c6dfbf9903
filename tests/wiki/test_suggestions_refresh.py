"""After a write, a refresh of the stored suggestions reads the texts of the works that write touched, and only
theirs, whatever wrote it: a service, the ORM or hand-written SQL (the database's triggers mark the works)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classifier.model import current_weights
from tests.factories import make_claim, make_editor, make_source
from wiki import suggestions
from wiki.models import Citation, Claim, Classification, Component, Page, Source, StoredSuggestion
from wiki.services.claims import CitationInput, claim_update
from wiki.services.classifications import classification_save
from wiki.services.deletion import page_delete, page_restore, source_delete, source_restore
from wiki.services.merges import source_merge
from wiki.services.pages import page_save_revision
from wiki.services.sources import source_update

pytestmark = pytest.mark.django_db

STRICT = "We train the web agent with GRPO in a live browser environment over many steps; task success is the reward."
SFT = "We fine-tune the model on expert trajectories filtered by a verifier."


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[list[int] | None]:
    """The works whose texts each refresh reads (``None``: every work's)."""
    calls: list[list[int] | None] = []
    real = suggestions.texts_about

    def counted(source_ids: Iterable[int] | None) -> dict[int, list[str]]:
        ids = None if source_ids is None else sorted(source_ids)
        calls.append(ids)
        return real(ids)

    monkeypatch.setattr(suggestions, "texts_about", counted)
    return calls


def _up_to_date(classified: list[str], read: list[list[int] | None]) -> None:
    """Every stored suggestion as it should be, with nothing classified or read since."""
    assert suggestions.suggestions_refresh(limit=None)
    classified.clear()
    read.clear()


def _refreshed(classified: list[str], read: list[list[int] | None]) -> tuple[list[str], list[list[int] | None]]:
    """What one request's refresh classified and read."""
    assert suggestions.suggestions_refresh()
    return list(classified), list(read)


def _stored_as_made_now(source: Source, component: Component | None = None) -> bool:
    """The stored row is the suggestion ``suggestion_for`` makes from the text the work has now."""
    source = Source.all_objects.get(pk=source.pk)
    row = StoredSuggestion.objects.get(source=source, component=component)
    view = suggestions.suggestion_for(source, component)
    return row.digest == suggestions.suggestion_digest(view.subject, view.text) and row.as_suggestion() == view.suggestion


def _page(claim: Claim) -> Page:
    return Page.objects.get(pk=claim.page_id)


def _edit(page: Page, old: str, new: str) -> None:
    assert old in page.body
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=page.body.replace(old, new, 1))


def test_after_an_edit_of_one_claim_a_refresh_reads_and_classifies_only_the_work_it_cites(
    classified: list[str], read: list[list[int] | None],
) -> None:
    works = [make_source(short_name=f"Steady{n}", abstract=SFT) for n in range(5)]
    claims = [make_claim(f"Steady{n} fine-tunes on expert trajectories.", cites=[work]) for n, work in enumerate(works)]
    make_claim("Each of them distils a verifier's choices.", cites=works, page=_page(claims[0]))
    _up_to_date(classified, read)
    _edit(_page(claims[2]), "fine-tunes on expert trajectories", "trains with GRPO in a live browser environment")
    with CaptureQueriesContext(connection) as one:
        assert _refreshed(classified, read) == (["Steady2"], [[works[2].pk]])
    assert _stored_as_made_now(works[2])
    # Up to date now: the next request reads nothing at all.
    classified.clear()
    read.clear()
    assert _refreshed(classified, read) == ([], [])
    # An edit that touches every work: their texts are read in as many queries as one work's.
    _edit(_page(claims[0]), "distils a verifier's choices", "distils the choices of a verifier")
    with CaptureQueriesContext(connection) as every:
        assert _refreshed(classified, read) == ([f"Steady{n}" for n in range(5)], [[work.pk for work in works]])
    assert len(every) == len(one)


def test_an_abstract_edited(classified: list[str], read: list[list[int] | None]) -> None:
    work, other = make_source(short_name="Abstracted", abstract=SFT), make_source(short_name="Other", abstract=SFT)
    _up_to_date(classified, read)
    source_update(source=work, fields={"abstract": STRICT})
    assert _refreshed(classified, read) == (["Abstracted"], [[work.pk]])
    assert _stored_as_made_now(work)
    classified.clear()
    read.clear()
    # A field the classifier does not read marks nothing.
    source_update(source=other, fields={"venue": "NeurIPS"})
    assert _refreshed(classified, read) == ([], [])


def test_a_short_name_edited_changes_the_work_and_its_components(classified: list[str], read: list[list[int] | None]) -> None:
    work = make_source(short_name="Oldname", abstract=STRICT)
    part = Component.objects.create(source=work, slug="trainer", name="Trainer")
    classification_save(source=work, component=part, fields={"mechanism": "policy_gradient", "verdict": "strict",
                                                              "interactive_env": True, "multi_step": True,
                                                              "verifiable_reward": True, "rl_update": True})
    _up_to_date(classified, read)
    source_update(source=work, fields={"short_name": "Newname"})
    assert _refreshed(classified, read) == (["Newname", "Newname Trainer"], [[work.pk]])
    assert _stored_as_made_now(work) and _stored_as_made_now(work, part)


def test_a_claim_added_orphaned_and_moved(classified: list[str], read: list[list[int] | None]) -> None:
    work, bystander = make_source(short_name="Claimed", abstract=SFT), make_source(short_name="Bystander")
    first = make_claim("Claimed trains with GRPO in a live browser.", cites=[work])
    page = _page(first)
    make_claim("A sentence about something else.", cites=[bystander], page=page)
    _up_to_date(classified, read)

    make_claim("Claimed rewards task success over many steps.", cites=[work], page=_page(first))
    assert _refreshed(classified, read) == (["Claimed"], [[work.pk]])
    assert _stored_as_made_now(work)
    classified.clear()
    read.clear()

    # The order of the claims is the order of the text read.
    page = _page(first)
    lines = page.body.splitlines()
    one = next(i for i, line in enumerate(lines) if "live browser" in line)
    two = next(i for i, line in enumerate(lines) if "task success" in line)
    lines[one], lines[two] = lines[two], lines[one]
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body="\n".join(lines) + "\n")
    assert _refreshed(classified, read) == (["Claimed"], [[work.pk]])
    assert _stored_as_made_now(work)
    classified.clear()
    read.clear()

    page = _page(first)
    sentence = next(line for line in page.body.splitlines() if "task success" in line)
    _edit(page, sentence + "\n", "")
    assert Claim.objects.filter(text__contains="task success", is_orphaned=True).exists()
    # The sentences after it moved up: the bystander's text is read again, the same, and not classified.
    assert _refreshed(classified, read) == (["Claimed"], [[work.pk, bystander.pk]])
    assert _stored_as_made_now(work)


def test_a_claim_deleted(classified: list[str], read: list[list[int] | None]) -> None:
    work = make_source(short_name="Deleted-claim", abstract=SFT)
    claim = make_claim("Deleted-claim trains with GRPO in a live browser.", cites=[work])
    make_claim("Deleted-claim rewards task success.", cites=[work], page=_page(claim))
    _up_to_date(classified, read)
    Claim.objects.filter(pk=claim.pk).delete()
    assert _refreshed(classified, read) == (["Deleted-claim"], [[work.pk]])
    assert _stored_as_made_now(work)


def test_a_claims_citations_and_is_about_links_changed(classified: list[str], read: list[list[int] | None]) -> None:
    cited, added, named = (make_source(short_name=name, abstract=SFT) for name in ("Cited", "Added", "Named"))
    claim = make_claim("Named trains with GRPO in a live browser.", cites=[cited])
    _up_to_date(classified, read)

    # Cited's citation and link give way to a citation of Added; the claim is now about Named, which it names.
    claim_update(claim=claim, status=claim.status, citations=[CitationInput(added, "§2", "cited")], about=[named])
    assert _refreshed(classified, read) == (["Cited", "Added", "Named"], [[cited.pk, added.pk, named.pk]])
    assert all(_stored_as_made_now(work) for work in (cited, added, named))
    classified.clear()
    read.clear()

    # Written again as it was, Added's citation changes nothing it reads.
    claim_update(claim=claim, status=claim.status, citations=[CitationInput(added, "§2", "cited")], about=[added])
    assert _refreshed(classified, read) == (["Named"], [[added.pk, named.pk]])
    assert _stored_as_made_now(named) and _stored_as_made_now(added)


def test_a_component_classified_renamed_and_unclassified(classified: list[str], read: list[list[int] | None]) -> None:
    work = make_source(short_name="Parted", abstract=STRICT)
    part = Component.objects.create(source=work, slug="planner", name="Planner")
    _up_to_date(classified, read)

    classification = classification_save(source=work, component=part, fields={
        "mechanism": "harness", "verdict": "not_strict", "rl_update": False, "rationale": "A planner only."})
    assert _refreshed(classified, read) == (["Parted Planner"], [[work.pk]])
    assert _stored_as_made_now(work, part)
    classified.clear()
    read.clear()

    part.name = "Scheduler"
    part.save()
    assert _refreshed(classified, read) == (["Parted Scheduler"], [[work.pk]])
    assert _stored_as_made_now(work, part)
    classified.clear()
    read.clear()

    # Unclassified, the component's suggestion is no longer wanted; the work's own is as it was.
    Classification.objects.filter(pk=classification.pk).delete()
    assert _refreshed(classified, read) == ([], [[work.pk]])


def test_a_work_deleted_restored_and_merged(classified: list[str], read: list[list[int] | None]) -> None:
    editor = make_editor()
    gone = make_source(short_name="Gone", abstract=SFT)
    kept, merged = make_source(short_name="Kept", abstract=SFT), make_source(short_name="Merged", abstract=STRICT)
    make_claim("Merged trains with GRPO in a live browser over many steps.", cites=[merged])
    _up_to_date(classified, read)

    source_delete(source=gone, user=editor, reason="a duplicate")
    # Written while deleted, as no form would: read once the work is back.
    Source.all_objects.filter(pk=gone.pk).update(abstract=STRICT)
    assert _refreshed(classified, read) == ([], [[gone.pk]])
    source_restore(source=Source.all_objects.get(pk=gone.pk), user=editor)
    assert _refreshed(classified, read) == (["Gone"], [[gone.pk], [gone.pk]])
    assert _stored_as_made_now(gone)
    classified.clear()
    read.clear()

    # The merged work's claims are the kept work's now.
    source_merge(merged=merged, kept=kept, user=editor)
    assert _refreshed(classified, read) == (["Kept"], [[kept.pk, merged.pk]])
    assert _stored_as_made_now(kept)


def test_a_claim_written_by_hand_written_sql(classified: list[str], read: list[list[int] | None]) -> None:
    work = make_source(short_name="Handwritten", abstract=SFT)
    claim = make_claim("Handwritten fine-tunes on expert trajectories.", cites=[work])
    _up_to_date(classified, read)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE wiki_claim SET text = %s WHERE id = %s", [STRICT, claim.pk])
    assert _refreshed(classified, read) == (["Handwritten"], [[work.pk]])
    assert _stored_as_made_now(work)
    classified.clear()
    read.clear()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM wiki_citation WHERE claim_id = %s", [claim.pk])
    assert _refreshed(classified, read) == (["Handwritten"], [[work.pk]])
    assert _stored_as_made_now(work)


def test_new_weights_make_every_suggestion_stale_a_request_at_a_time(
    classified: list[str], read: list[list[int] | None], monkeypatch: pytest.MonkeyPatch,
) -> None:
    works = [make_source(short_name=f"Weighed{n}", abstract=SFT) for n in range(5)]
    _up_to_date(classified, read)
    newer = dataclasses.replace(current_weights(), version=current_weights().version + 1)
    monkeypatch.setattr(suggestions, "current_weights", lambda: newer)
    monkeypatch.setattr(suggestions, "REFRESH_BATCH", 2)
    monkeypatch.setattr(suggestions, "REFRESH_READ", 3)
    # Three works read, two classified; then the next three; then the last.
    assert not suggestions.suggestions_refresh(limit=suggestions.REFRESH_BATCH)
    assert not suggestions.suggestions_refresh(limit=suggestions.REFRESH_BATCH)
    assert suggestions.suggestions_refresh(limit=suggestions.REFRESH_BATCH)
    assert classified == [f"Weighed{n}" for n in range(5)]
    ids = [work.pk for work in works]
    assert read == [ids[:3], ids[2:5], ids[4:]]
    assert set(StoredSuggestion.objects.values_list("weights_version", flat=True)) == {newer.version}


def test_a_write_made_while_a_refresh_reads_stays_marked_for_the_next(
    classified: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = make_source(short_name="Racing", abstract=SFT)
    claim = make_claim("Racing fine-tunes on expert trajectories.", cites=[work])
    assert suggestions.suggestions_refresh(limit=None)
    Claim.objects.filter(pk=claim.pk).update(text="Racing fine-tunes on more expert trajectories.")
    real = suggestions.texts_about

    def then_written(source_ids: Iterable[int] | None) -> dict[int, list[str]]:
        texts = real(source_ids)
        # Committed by another request after this one read the marks and the texts.
        Claim.objects.filter(pk=claim.pk).update(text=STRICT)
        return texts

    monkeypatch.setattr(suggestions, "texts_about", then_written)
    assert suggestions.suggestions_refresh()
    monkeypatch.setattr(suggestions, "texts_about", real)
    assert not _stored_as_made_now(work)
    assert suggestions.suggestions_refresh()
    assert _stored_as_made_now(work)


def test_a_citation_moved_to_another_claim_marks_the_work(classified: list[str], read: list[list[int] | None]) -> None:
    work = make_source(short_name="Moved", abstract=SFT)
    first = make_claim("Moved fine-tunes on expert trajectories.", cites=[work])
    second = make_claim("Moved trains with GRPO in a live browser.")
    _up_to_date(classified, read)
    Citation.objects.filter(claim=first, source=work).update(claim=second)
    assert _refreshed(classified, read) == (["Moved"], [[work.pk]])
    assert _stored_as_made_now(work)


def test_a_page_deleted_and_restored(classified: list[str], read: list[list[int] | None]) -> None:
    editor = make_editor()
    cited, named, elsewhere = (make_source(short_name=name, abstract=SFT) for name in ("Paged", "Named", "Elsewhere"))
    claim = make_claim("Paged trains with GRPO in a live browser over many steps.", cites=[cited])
    about = make_claim("Named rewards task success in a live browser.", page=_page(claim))
    claim_update(claim=about, status=about.status, citations=[], about=[named])
    make_claim("Elsewhere fine-tunes on expert trajectories.", cites=[elsewhere])
    _up_to_date(classified, read)

    # The claims of a deleted page are no longer read: its works are read and classified again without them.
    page_delete(page=_page(claim), user=editor, reason="spam")
    assert _refreshed(classified, read) == (["Paged", "Named"], [[cited.pk, named.pk]])
    assert suggestions.suggestion_for(cited).text == SFT and suggestions.suggestion_for(named).text == SFT
    assert _stored_as_made_now(cited) and _stored_as_made_now(named)
    classified.clear()
    read.clear()

    page_restore(page=Page.all_objects.get(pk=claim.page_id), user=editor)
    assert _refreshed(classified, read) == (["Paged", "Named"], [[cited.pk, named.pk]])
    assert "live browser" in suggestions.suggestion_for(cited).text
    assert _stored_as_made_now(cited) and _stored_as_made_now(named)


@pytest.mark.parametrize("tables", ["wiki_citation, wiki_claim_about", "wiki_citation", "wiki_classification"])
def test_a_table_truncated_marks_every_live_work(tables: str, classified: list[str], read: list[list[int] | None]) -> None:
    cited = make_source(short_name="Truncated", abstract=SFT)
    bystander, gone = make_source(short_name="Bystander", abstract=SFT), make_source(short_name="Gone", abstract=SFT)
    make_claim("The agent trains with GRPO in a live browser over many steps.", cites=[cited])
    source_delete(source=gone, user=make_editor(), reason="a duplicate")
    _up_to_date(classified, read)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # TRUNCATE refuses tables with checks still pending
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        cursor.execute(f"TRUNCATE {tables} CASCADE")
    # No row tells which works a TRUNCATE touched: every live work is read again, and only a changed text classified (a
    # claim citing a work is also about it: its text goes with both links only).
    changed = ["Truncated"] if "wiki_claim_about" in tables else []
    assert _refreshed(classified, read) == (changed, [[cited.pk, bystander.pk]])
    assert _stored_as_made_now(cited) and _stored_as_made_now(bystander)
