from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_editor, make_source
from wiki.models import ChangeEvent, Source
from wiki.references.draft import SourceDraft, draft_from_identifier
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi
from wiki.services.sources import (
    SourceDuplicate,
    source_create,
    source_find_duplicate,
    source_update,
    sources_ensure_for_titles,
    unique_source_slug,
)


def _queries_to_cite(titles: list[str]) -> int:
    with CaptureQueriesContext(connection) as cited:
        sources_ensure_for_titles(titles=titles)
    return len(cited.captured_queries)


def test_citing_many_new_works_takes_as_many_queries_as_citing_two(db: None) -> None:
    two = _queries_to_cite([f"Pair{i}: A Study" for i in range(2)])
    twenty = _queries_to_cite([f"Crowd{i}: A Study" for i in range(20)])
    assert two == twenty
    assert Source.objects.filter(short_name__startswith="Crowd").count() == 20


def test_new_sources_get_free_slugs_and_a_change_each(db: None) -> None:
    make_source(slug="quillon", short_name="Quillon")
    make_source(slug="quillon-2", short_name="Quillon 2")
    editor = make_editor("citer")
    matched, created = sources_ensure_for_titles(
        titles=["Quillon: Evolving Skills", "Quillon: A Second Paper", "Zephyra: Trajectory Distillation"], user=editor
    )
    assert sorted(s.slug for s in created) == ["quillon-3", "quillon-4", "zephyra"]
    assert matched["Zephyra: Trajectory Distillation"].normalized_title
    events = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.CREATED)
    assert sorted(events.values_list("label", flat=True)) == ["Quillon", "Quillon", "Zephyra"]
    assert set(events.values_list("user", flat=True)) == {editor.pk}


def test_a_slug_is_free_when_only_a_longer_one_shares_its_start(db: None) -> None:
    make_source(slug="zephyra-distill", short_name="Zephyra Distill")
    assert unique_source_slug("Zephyra") == "zephyra"


@pytest.mark.parametrize(
    ("existing", "candidate"),
    [
        ({"arxiv_id": "2509.21240"}, {"arxiv_id": "arXiv:2509.21240v3"}),
        ({"arxiv_id": "2509.21240"}, {"arxiv_id": "https://arxiv.org/abs/2509.21240v1"}),
        ({"doi": "10.1145/3600006"}, {"doi": "https://doi.org/10.1145/3600006"}),
        ({"doi": "10.1145/abc"}, {"doi": "doi:10.1145/ABC"}),
        ({"title": "SkillForge: Evolving Verifiable Skills"}, {"title": "skillforge — evolving verifiable skills!"}),
    ],
)
def test_duplicates_are_found_across_forms(db: None, existing: dict[str, str], candidate: dict[str, str]) -> None:
    source = make_source(**existing)
    found = source_find_duplicate(**candidate)  # type: ignore[arg-type]  # the identifiers only, as parametrized above
    assert found is not None and found.work == source


def test_different_works_are_not_duplicates(db: None) -> None:
    make_source(arxiv_id="2509.21240", doi="10.1/x", title="One Work")
    assert source_find_duplicate(arxiv_id="2509.21241", doi="10.1/y", title="Another Work") is None


def test_source_create_refuses_a_duplicate(db: None) -> None:
    existing = make_source(arxiv_id="2509.21240")
    with pytest.raises(SourceDuplicate) as raised:
        source_create(draft=SourceDraft(title="New title", arxiv_id="2509.21240"))
    assert raised.value.source == existing


def test_source_create_validates_fields(db: None) -> None:
    with pytest.raises(ValidationError):
        source_create(draft=SourceDraft(title="Bad URL", url="not a url"))
    assert not Source.objects.filter(title="Bad URL").exists()


def test_source_update_records_what_changed(db: None) -> None:
    source = make_source()
    source_update(source=source, fields={"year": 2024, "venue": "NeurIPS"})
    event = ChangeEvent.objects.filter(kind="source", object_id=source.pk).first()
    assert event is not None and (event.summary_key, event.summary_values) == ("changed_fields", {"fields": ["year", "venue"]})
    assert event.summary == "changed Year, Venue"


def test_source_update_from_a_stale_copy_keeps_a_change_saved_since(db: None) -> None:
    source = make_source()
    stale = Source.objects.get(pk=source.pk)  # as an API client's PUT read it, before the other save

    source_update(source=source, fields={"year": 2024})
    saved = source_update(source=stale, fields={"venue": "NeurIPS"})

    source.refresh_from_db()
    assert (source.year, source.venue) == (2024, "NeurIPS")
    assert (saved.year, saved.venue) == (2024, "NeurIPS")


@pytest.mark.django_db(transaction=True)
def test_two_editors_adding_the_same_work_at_once_get_one_source_and_one_duplicate() -> None:
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def add(title: str) -> None:
        try:
            barrier.wait(timeout=5)
            source_create(draft=SourceDraft(title=title, short_name="Twinned", arxiv_id="2511.04242"))
            outcomes.append("created")
        except SourceDuplicate:
            outcomes.append("duplicate")
        except Exception as error:  # noqa: BLE001 - an IntegrityError here would be a server error
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(f"Twinned: {who}",)) for who in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["created", "duplicate"]
    assert Source.objects.filter(arxiv_id="2511.04242").count() == 1


@pytest.mark.parametrize("raw", ["10.48550/arXiv.2307.13854", "https://doi.org/10.48550/arXiv.2307.13854",
                                 "doi:10.48550/ARXIV.2307.13854"])
def test_an_arxiv_doi_names_the_arxiv_id(raw: str) -> None:
    draft = draft_from_identifier(raw)
    assert draft is not None and (draft.arxiv_id, draft.doi) == ("2307.13854", "")


def test_an_arxiv_doi_is_a_duplicate_of_the_work_with_that_arxiv_id(db: None) -> None:
    existing = make_source(arxiv_id="2307.13854")
    found = source_find_duplicate(doi="10.48550/arXiv.2307.13854")
    assert found is not None and found.work == existing
    with pytest.raises(SourceDuplicate) as raised:
        source_create(draft=SourceDraft(title="WebArena", doi="https://doi.org/10.48550/arXiv.2307.13854"))
    assert raised.value.source == existing
    other = make_source(title="Another work")
    with pytest.raises(SourceDuplicate):
        source_update(source=other, fields={"doi": "10.48550/arXiv.2307.13854"})


def test_a_work_added_by_its_arxiv_doi_is_saved_with_the_arxiv_id(db: None) -> None:
    source = source_create(draft=SourceDraft(title="WebArena", doi="10.48550/arXiv.2307.13854"))
    source.refresh_from_db()
    assert (source.arxiv_id, source.doi) == ("2307.13854", "")


@pytest.mark.parametrize(("raw", "normal"), [
    ("arXiv:2307.13854v2", "2307.13854"),
    ("https://arxiv.org/abs/2307.13854", "2307.13854"),
    ("https://arxiv.org/pdf/2307.13854v1.pdf", "2307.13854"),
    ("math.GT/0309136", "math.GT/0309136"),
    ("math.gt/0309136v2", "math.GT/0309136"),
    ("cs.AI/0601001", "cs.AI/0601001"),
    ("hep-th/9901001", "hep-th/9901001"),
    ("see also 2501.00002 and 2501.00003", None),
    ("2501.00002 2501.00003", None),
    ("2499.00001", None),
    ("2500.00001", None),
    ("math/0313136", None),
])
def test_an_arxiv_id_field_holds_one_possible_id(raw: str, normal: str | None) -> None:
    assert normalize_arxiv_id(raw) == normal


@pytest.mark.parametrize(("raw", "normal"), [
    ("https://doi.org/10.1145/ABC", "10.1145/abc"),
    ("doi:10.1145/abc", "10.1145/abc"),
    ("10.1145/abc.", "10.1145/abc"),
    ("10.1000/xyz) and more text", None),
    ("see 10.1000/xyz", None),
])
def test_a_doi_field_holds_one_doi(raw: str, normal: str | None) -> None:
    assert normalize_doi(raw) == normal


def test_a_field_with_two_identifiers_is_refused_and_nothing_saved(db: None) -> None:
    with pytest.raises(ValidationError) as raised:
        source_create(draft=SourceDraft(title="Two IDs", arxiv_id="see also 2501.00002 and 2501.00003"))
    assert "arxiv_id" in raised.value.message_dict
    with pytest.raises(ValidationError) as raised:
        source_create(draft=SourceDraft(title="DOI and text", doi="10.1000/xyz) and more text"))
    assert "doi" in raised.value.message_dict
    assert not Source.objects.filter(title__in=["Two IDs", "DOI and text"]).exists()


def test_an_old_style_arxiv_id_with_or_without_subject_class_is_one_paper(db: None) -> None:
    existing = source_create(draft=SourceDraft(title="Knot theory", arxiv_id="math.GT/0309136"))
    assert existing.arxiv_id == "math.GT/0309136"
    found = source_find_duplicate(arxiv_id="math/0309136v2")
    assert found is not None and found.work == existing
    with pytest.raises(SourceDuplicate):
        source_create(draft=SourceDraft(title="Another name", arxiv_id="arXiv:math/0309136"))
    assert source_find_duplicate(arxiv_id="math/0309137") is None
