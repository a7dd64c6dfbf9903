from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.factories import make_editor, make_source
from wiki.models import ChangeEvent, Source
from wiki.references.draft import SourceDraft, draft_from_identifier
from wiki.references.identifiers import normalize_arxiv_id, normalize_doi
from wiki.services.changes import StaleEdit
from wiki.services.sources import (
    SourceDeleted,
    SourceDuplicate,
    source_create,
    source_find_duplicate,
    source_save,
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
    make_source(slug="quillon", short_name="Quillon (2019)")
    make_source(slug="quillon-2", short_name="Quillon 2")
    editor = make_editor("citer")
    matched, created = sources_ensure_for_titles(
        titles=["Quillon: Evolving Skills", "Quillon: A Second Paper", "Zephyra: Trajectory Distillation"], user=editor
    )
    # The second "Quillon" is called by its whole title: a short name is one work's.
    assert sorted(s.slug for s in created) == ["quillon-3", "quillon-a-second-paper", "zephyra"]
    assert matched["Zephyra: Trajectory Distillation"].normalized_title
    events = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.CREATED)
    assert sorted(events.values_list("label", flat=True)) == ["Quillon", "Quillon: A Second Paper", "Zephyra"]
    assert set(events.values_list("user", flat=True)) == {editor.pk}


def test_a_slug_is_free_when_only_a_longer_one_shares_its_start(db: None) -> None:
    make_source(slug="zephyra-distill", short_name="Zephyra Distill")
    assert unique_source_slug("Zephyra") == "zephyra"


@pytest.mark.parametrize(("name", "slug"), [
    ("Øystein Træsse", "oystein-traesse"), ("Straße der Agenten", "strasse-der-agenten"), ("Łódź Œuvre", "lodz-oeuvre"),
    ("Ærø 智能体", "aero-zhi-neng-ti"), ("Crème brûlée", "creme-brulee"),
])
def test_latin_letters_that_do_not_decompose_are_kept_in_a_slug(db: None, name: str, slug: str) -> None:
    assert unique_source_slug(name) == slug


@pytest.mark.parametrize(("title", "short_name"), [
    ("通义深度研究：面向长程任务的智能体", "通义深度研究"),
    ("SkillForge: Evolving Verifiable Skills", "SkillForge"),
    ("A title without a subtitle", "A title without a subtitle"),
    # a subtitle after a dash, as arXiv listings and Chinese titles write one; a hyphen within a word parts nothing
    ("AIOptimizer -- A Reinforcement Learning Framework", "AIOptimizer"),
    ("AIOptimizer ——基于强化学习的优化器", "AIOptimizer"),
    ("ReAct — Synergizing Reasoning and Acting", "ReAct"),
    ("Self-Refine and Kullback–Leibler Control", "Self-Refine and Kullback–Leibler Control"),
])
def test_a_short_name_is_taken_from_before_the_subtitle(title: str, short_name: str) -> None:
    from wiki.references.draft import short_name_from_title

    assert short_name_from_title(title) == short_name


@pytest.mark.parametrize(("title", "short_name"), [
    ("Skill-It! A Data-Driven Skills Framework for Understanding and Training Language Models", "Skill-It!"),
    ("Who's Harry Potter? Approximate Unlearning in LLMs", "Who's Harry Potter?"),
    ("智能体！面向长程任务的强化学习", "智能体！"),
    # a colon ending a name that holds the mark; a question, a sentence or a long Chinese clause is no name
    ("Yahoo! Answers: A Study of Questions", "Yahoo! Answers"),
    ("Is Attention All You Need? A Study of Transformers", "Is Attention All You Need? A Study of Transformers"),
    ("Go! and then stop", "Go! and then stop"),
    ("我们是否需要强化学习来训练大模型智能体？一项调查", "我们是否需要强化学习来训练大模型智能体？一项调查"),
    ("Eureka!", "Eureka!"),
])
def test_a_name_ending_in_its_own_exclamation_or_question_mark_is_a_short_name(title: str, short_name: str) -> None:
    from wiki.references.draft import short_name_from_title

    assert short_name_from_title(title) == short_name


def test_a_work_imported_with_such_a_title_is_named_by_it(db: None) -> None:
    from wiki.services.source_import import sources_import

    report = sources_import(text="@article{chen2023skill, title={Skill-It! A Data-Driven Skills Framework for "
                                 "Understanding and Training Language Models}, author={Chen, Mayee}, year={2023}}")

    assert report.results[0].source is not None and report.results[0].source.short_name == "Skill-It!"


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


def _race(first: Callable[[], object], second: Callable[[], object]) -> list[str]:
    """What ``first`` and ``second`` each gave ("saved", "duplicate" or the error's name), ``second`` run in
    another connection while ``first``'s transaction is still open: it commits only once ``second`` waits for a
    lock or is done."""
    started, done = threading.Event(), threading.Event()
    waiting_pid: list[int] = []
    outcomes: dict[str, str] = {}

    def outcome(write: Callable[[], object]) -> str:
        try:
            write()
        except SourceDuplicate:
            return "duplicate"
        except Exception as error:  # noqa: BLE001 - an IntegrityError here would be a server error
            return type(error).__name__
        return "saved"

    def run_second() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                waiting_pid.append(cursor.fetchone()[0])
            started.wait(timeout=10)
            outcomes["second"] = outcome(second)
        finally:
            done.set()
            connection.close()

    def run_first() -> None:
        try:
            def hold() -> None:
                with transaction.atomic():
                    first()
                    started.set()
                    for _ in range(200):
                        with connection.cursor() as cursor:
                            cursor.execute("SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted", waiting_pid)
                            if done.is_set() or cursor.fetchone() is not None:
                                return
                        time.sleep(0.025)

            outcomes["first"] = outcome(hold)
        finally:
            started.set()
            connection.close()

    threads = [threading.Thread(target=run_second), threading.Thread(target=run_first)]
    threads[0].start()
    while not waiting_pid and threads[0].is_alive():
        time.sleep(0.01)
    threads[1].start()
    for thread in threads:
        thread.join(timeout=30)
    return [outcomes.get("first", "?"), outcomes.get("second", "?")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fields", [{"doi": "10.5555/race.0"}, {"arxiv_id": "2511.07777"}, {"title": "Identical Race Title"}])
def test_two_editors_giving_two_works_the_same_identity_at_once_get_one_save_and_one_duplicate(fields: dict[str, str]) -> None:
    x, y = make_source(short_name="RaceX", title="Race work X"), make_source(short_name="RaceY", title="Race work Y")

    outcomes = _race(lambda: source_update(source=x, fields=fields), lambda: source_update(source=y, fields=fields))

    assert outcomes == ["saved", "duplicate"]
    name, value = next(iter(fields.items()))
    assert list(Source.objects.filter(**{name: value}).values_list("slug", flat=True)) == [x.slug]


@pytest.mark.django_db(transaction=True)
def test_an_edit_racing_an_import_of_the_same_doi_is_a_duplicate_either_way() -> None:
    from wiki.references.formats import ReferenceFormat
    from wiki.services.source_import import ImportStatus, sources_import

    def importing(n: int) -> Callable[[], object]:
        def run() -> None:
            report = sources_import(text=f"@article{{ir{n}, title={{Imported race {n}}}, doi={{10.7777/imprace.{n}}}}}",
                                    fmt=ReferenceFormat.BIBTEX)
            if report.of(ImportStatus.DUPLICATE):
                raise SourceDuplicate(report.of(ImportStatus.DUPLICATE)[0].source, "same DOI")  # type: ignore[arg-type]
        return run

    edited = make_source(short_name="Edited", title="An edited work")
    assert _race(importing(0), lambda: source_update(source=edited, fields={"doi": "10.7777/imprace.0"})) == ["saved", "duplicate"]
    other = make_source(short_name="Edited first", title="A work edited first")
    assert _race(lambda: source_update(source=other, fields={"doi": "10.7777/imprace.1"}), importing(1)) == ["saved", "duplicate"]
    assert Source.objects.filter(doi__startswith="10.7777/imprace.").count() == 2


def test_a_save_that_changes_nothing_writes_nothing(db: None) -> None:
    source = source_create(draft=SourceDraft(title="Unchanging", url="https://example.org/über", doi="10.1234/same"))
    events = ChangeEvent.objects.count()
    # As a form sends them: the identifiers and the URL in other forms of the same values.
    as_sent = {"title": source.title, "doi": "https://doi.org/10.1234/SAME", "url": "https://example.org/über",
               "notes": source.notes}

    saved = source_save(source=source, fields=as_sent, loaded_at=source.updated_at)

    assert saved.unchanged
    assert Source.objects.get(pk=source.pk).updated_at == source.updated_at
    assert ChangeEvent.objects.count() == events


def test_a_repeated_save_from_a_form_opened_before_the_first_is_unchanged_not_stale(db: None) -> None:
    source = make_source()
    opened = Source.objects.get(pk=source.pk).updated_at
    assert not source_save(source=source, fields={"venue": "ICLR"}, loaded_at=opened).unchanged

    assert source_save(source=source, fields={"venue": "ICLR"}, loaded_at=opened).unchanged
    with pytest.raises(StaleEdit):
        source_save(source=source, fields={"venue": "NeurIPS"}, loaded_at=opened)


@pytest.mark.parametrize("merged", [False, True])
def test_saving_a_work_deleted_or_merged_meanwhile_writes_nothing_and_says_where_it_went(db: None, merged: bool) -> None:
    from wiki.services.deletion import source_delete
    from wiki.services.merges import source_merge

    editor = make_editor("deleter")
    source, kept = make_source(short_name="Going"), make_source(short_name="Kept")
    opened = Source.objects.get(pk=source.pk)  # as the form read it
    if merged:
        source_merge(merged=source, kept=kept, user=editor)
    else:
        source_delete(source=source, user=editor, reason="a test entry")

    with pytest.raises(SourceDeleted) as raised:
        source_update(source=opened, fields={"notes": "typed meanwhile", "title": "Going, renamed"})

    gone = raised.value.source
    assert (gone.deleted_by, gone.merged_into) == (editor, kept if merged else None)
    assert ("merged into “Kept”" if merged else "was deleted") in raised.value.messages[0]
    assert Source.all_objects.get(pk=source.pk).notes == ""


@pytest.mark.django_db(transaction=True)
def test_an_identifier_written_meanwhile_without_the_lock_is_still_a_duplicate_not_an_error() -> None:
    elsewhere, edited = make_source(short_name="Elsewhere"), make_source(short_name="Edited")

    def admin_writes() -> None:  # as the admin site writes: no duplicate check, no lock
        Source.all_objects.filter(pk=elsewhere.pk).update(doi="10.5555/unlocked")

    assert _race(admin_writes, lambda: source_update(source=edited, fields={"doi": "10.5555/unlocked"})) == ["saved", "duplicate"]
    assert Source.objects.get(pk=edited.pk).doi == ""


@pytest.mark.parametrize(("typed", "kept"), [
    ("张三、李四、王五", "张三; 李四; 王五"),
    ("张三；李四", "张三; 李四"),
    ("张三，李四", "张三; 李四"),
    ("Sutton, Richard S.; Barto, Andrew G.", "Sutton, Richard S.; Barto, Andrew G."),
    ("Qwen Team，阿里巴巴", "Qwen Team，阿里巴巴"),
])
def test_authors_typed_as_a_chinese_list_are_kept_as_several_people(db: None, typed: str, kept: str) -> None:
    from wiki.references.draft import SourceDraft

    source = source_create(draft=SourceDraft(title=f"A Work by {typed}", short_name=f"Work {typed}", authors=typed))

    assert Source.objects.get(pk=source.pk).authors == kept


def test_a_work_imported_with_a_subtitle_after_a_dash_is_named_by_its_head(db: None) -> None:
    from wiki.services.source_import import sources_import

    report = sources_import(text="@article{ai2025opt, title={AIOptimizer -- A Reinforcement Learning Framework for "
                                 "Optimizers}, author={Li, Wei}, year={2025}}")

    assert report.results[0].source is not None and report.results[0].source.short_name == "AIOptimizer"
