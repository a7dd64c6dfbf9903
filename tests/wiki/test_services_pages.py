"""Saving, merging and reverting pages; claims keep their identity across edits."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import claims_of, make_editor, make_page
from wiki.markdown import MarkdownTooComplex
from wiki.models import ChangeEvent, Citation, Claim, Page, Revision, Source, WikiLink
from wiki.roles import User
from wiki.services.pages import EditConflict, page_preview, page_revert, page_save, page_save_revision
from wiki.text.merge import merge_texts

KEY_POINTS = """## 关键要点

- SkillForge 用 GRPO 更新策略。（来源：SkillForge: Evolving Verifiable Skills for Reinforcement Learning Agents，pp.3-4）
- StarHarness 只演化外部 harness。（来源：StarHarness: Harness Evolution，§3.1）
- FACET 用 SFT 蒸馏轨迹。（来源：FACET: Trajectory Distillation）
"""


def _save(page: Page, body: str, *, base: int | None = None, user: User | None = None) -> Revision:
    return page_save_revision(slug=page.slug, title=page.title, body=body, base_revision=base, user=user)


def test_saving_creates_numbered_revisions_with_size_change(db: None) -> None:
    page = make_page(body="abc")
    second = _save(page, "abcdef", base=1)
    assert second.number == 2
    assert (second.size, second.size_delta) == (6, 3)
    assert list(page.revisions.values_list("number", flat=True)) == [2, 1]


def test_save_records_a_change_event_with_comment_and_author(db: None) -> None:
    user = make_editor()
    page = make_page(body="abc")
    page_save_revision(slug=page.slug, title=page.title, body="abcd", comment="typo", user=user, base_revision=1)
    event = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.PAGE, object_id=page.pk).first()
    assert event is not None
    assert (event.action, event.summary, event.user, event.size_delta) == ("edited", "typo", user, 1)


def test_unchanged_claim_keeps_identity_status_and_classification_evidence(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    before = {c.text: c for c in claims_of(page)}
    skillforge = next(c for t, c in before.items() if t.startswith("SkillForge"))
    skillforge.status = "verified"
    skillforge.save()
    _save(page, KEY_POINTS.replace("FACET 用 SFT 蒸馏轨迹", "FACET 用 SFT 蒸馏专家轨迹") + "\nA new paragraph.\n", base=1)
    after = Claim.objects.get(pk=skillforge.pk)
    assert after.status == "verified"
    assert after.is_orphaned is False
    assert after.citations.get().locator == "pp.3-4"


def test_claim_whose_sentence_was_removed_is_orphaned_not_deleted(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    facet = next(c for c in claims_of(page) if c.text.startswith("FACET"))
    _save(page, KEY_POINTS.replace("- FACET 用 SFT 蒸馏轨迹。（来源：FACET: Trajectory Distillation）\n", ""), base=1)
    facet.refresh_from_db()
    assert facet.is_orphaned is True
    assert [c.text[:5] for c in claims_of(page)] == ["Skill", "StarH"]


def test_reworded_sentence_keeps_its_claim(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    old = next(c for c in claims_of(page) if c.text.startswith("StarHarness"))
    _save(page, KEY_POINTS.replace("只演化外部 harness", "只演化外部 harness 与技能库"), base=1)
    old.refresh_from_db()
    assert old.is_orphaned is False
    assert old.text.startswith("StarHarness 只演化外部 harness 与技能库")


def test_a_different_sentence_becomes_a_new_claim_and_the_old_one_is_orphaned(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    old = next(c for c in claims_of(page) if c.text.startswith("StarHarness"))
    _save(page, KEY_POINTS.replace("StarHarness 只演化外部 harness。", "WebArena 只评测固定模型，没有更新 policy。"), base=1)
    old.refresh_from_db()
    new = next(c for c in claims_of(page) if c.text.startswith("WebArena"))
    assert old.is_orphaned is True
    assert new.pk != old.pk


def test_orphaned_claim_comes_back_with_its_identity_when_the_sentence_returns(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    facet = next(c for c in claims_of(page) if c.text.startswith("FACET"))
    _save(page, "## 关键要点\n\n- nothing\n", base=1)
    _save(page, KEY_POINTS, base=2)
    facet.refresh_from_db()
    assert facet.is_orphaned is False


def test_moving_a_claim_keeps_it_and_updates_its_position_and_section(db: None) -> None:
    page = make_page(body=KEY_POINTS)
    star = next(c for c in claims_of(page) if c.text.startswith("StarHarness"))
    lines = KEY_POINTS.splitlines()
    moved = "\n".join([lines[0], lines[1], lines[3], lines[2], lines[4]]) + "\n"
    _save(page, moved, base=1)
    star.refresh_from_db()
    assert (star.position, star.is_orphaned, star.section) == (0, False, "关键要点")


def test_links_and_backlinks_follow_the_text(db: None) -> None:
    target = make_page(slug="target-page", title="Target Page")
    page = make_page(body="See [[Target Page]] and [[Wanted Page]].")
    assert set(WikiLink.objects.filter(source_page=page).values_list("target_slug", flat=True)) == {"target-page", "wanted-page"}
    _save(page, "Only [[Wanted Page]] now.", base=1)
    assert not WikiLink.objects.backlinks_to(target.slug).exists()


def test_stale_base_revision_raises_conflict_and_writes_nothing(db: None) -> None:
    page = make_page(body="one\n")
    _save(page, "one\ntwo\n", base=1)
    events = ChangeEvent.objects.count()
    with pytest.raises(EditConflict) as raised:
        _save(page, "one\nthree\n", base=1)
    assert raised.value.current.number == 2
    page.refresh_from_db()
    assert page.body == "one\ntwo\n"
    assert page.revisions.count() == 2
    assert ChangeEvent.objects.count() == events


def test_two_sequential_saves_from_the_same_base_conflict_on_the_second(db: None) -> None:
    page = make_page(body="base\n")
    first = _save(page, "base\nalice\n", base=1)
    assert first.number == 2
    with pytest.raises(EditConflict):
        _save(page, "base\nbob\n", base=1)


def test_too_complex_body_is_refused_before_anything_is_written(db: None) -> None:
    page = make_page(body="fine")
    with pytest.raises(MarkdownTooComplex):
        _save(page, ">" * 500 + " deep", base=1)
    assert page.revisions.count() == 1


def test_merge_combines_edits_to_different_lines() -> None:
    base = "a\nb\nc\n"
    result = merge_texts(base=base, theirs="A\nb\nc\n", mine="a\nb\nC\n")
    assert result.is_clean
    assert result.text() == "A\nb\nC\n"


def test_merge_marks_clashing_lines_with_both_sides() -> None:
    result = merge_texts(base="a\nb\nc\n", theirs="a\ntheirs\nc\n", mine="a\nmine\nc\n")
    assert not result.is_clean
    assert result.conflict_count == 1
    text = result.text()
    assert "theirs\n=======\nmine\n" in text
    assert text.startswith("a\n<<<<<<< theirs")


CITED = "- GRPO 更新策略（来源：A，p.3）。\n"


@pytest.mark.parametrize(("base", "theirs", "mine", "merged"), [
    # a citation added to the sentence meanwhile (a claim's form writes it), the sentence reworded
    (CITED, "- GRPO 更新策略（来源：A，p.3；B，§2）。\n", "- GRPO 更新 agent 自身的策略（来源：A，p.3）。\n",
     "- GRPO 更新 agent 自身的策略（来源：A，p.3；B，§2）。\n"),
    # the word before the citation reworded
    (CITED, "- GRPO 更新策略（来源：A，p.3；B）。\n", "- GRPO 更新参数（来源：A，p.3）。\n", "- GRPO 更新参数（来源：A，p.3；B）。\n"),
    # the sentence's only citation removed meanwhile, the sentence reworded
    (CITED, "- GRPO 更新策略。\n", "- GRPO 只更新策略（来源：A，p.3）。\n", "- GRPO 只更新策略。\n"),
    # a citation given to a sentence that had none, a line added after it
    ("- GRPO 更新策略。\n", CITED, "- GRPO 更新策略。\n- 末行。\n", f"{CITED}- 末行。\n"),
    # the other way round: the sentence reworded meanwhile, a citation added to it
    (CITED, "- GRPO 只更新策略（来源：A，p.3）。\n", "- GRPO 更新策略（综合：A，p.3）。\n", "- GRPO 只更新策略（综合：A，p.3）。\n"),
])
def test_a_citation_changed_meanwhile_is_merged_with_a_rewording_of_its_sentence(base: str, theirs: str, mine: str,
                                                                                 merged: str) -> None:
    result = merge_texts(base=base, theirs=theirs, mine=mine)
    assert result.is_clean
    assert result.text() == merged


def test_a_sentence_both_reworded_still_clashes_whatever_its_citations() -> None:
    result = merge_texts(base="- GRPO 更新策略（来源：A，p.3）。\n", theirs="- GRPO 改写策略（来源：A，p.3；B）。\n",
                         mine="- GRPO 更新 agent 策略（来源：A，p.3）。\n")
    assert not result.is_clean


def test_a_citation_both_changed_differently_still_clashes() -> None:
    result = merge_texts(base="- GRPO 更新策略（来源：A，p.3）。\n", theirs="- GRPO 更新策略（来源：A，p.4）。\n",
                         mine="- GRPO 更新的是策略（来源：A，p.5）。\n")
    assert not result.is_clean


def test_revert_saves_the_old_text_as_a_new_revision(db: None) -> None:
    user = make_editor()
    page = make_page(body=KEY_POINTS)
    _save(page, "vandalised", base=1)
    revision = page_revert(page=page, number=1, user=user)
    page.refresh_from_db()
    assert revision.number == 3
    assert page.body == KEY_POINTS
    assert revision.comment == "Reverted to revision 1"
    assert page.revisions.get(number=2).body == "vandalised"
    assert len(claims_of(page)) == 3
    assert ChangeEvent.objects.filter(kind="page", object_id=page.pk, action="reverted").exists()


def test_revert_with_a_stale_base_conflicts(db: None) -> None:
    page = make_page(body="one")
    _save(page, "two", base=1)
    with pytest.raises(EditConflict):
        page_revert(page=page, number=1, base_revision=1)


@pytest.mark.django_db(transaction=True)
def test_two_editors_saving_in_the_same_second_one_wins_one_conflicts() -> None:
    page = make_page(slug="race", body="start\n")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def edit(text: str) -> None:
        try:
            barrier.wait(timeout=5)
            _save(page, text, base=1)
            outcomes.append("saved")
        except EditConflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=edit, args=(f"start\n{who}\n",)) for who in ("alice", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["conflict", "saved"]
    page.refresh_from_db()
    assert page.revisions.count() == 2
    assert page.body in {"start\nalice\n", "start\nbob\n"}


@pytest.mark.django_db(transaction=True)
def test_two_editors_creating_the_same_page_in_the_same_second_one_wins_one_conflicts() -> None:
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def create(text: str) -> None:
        try:
            barrier.wait(timeout=5)
            page_save_revision(slug="born-twice", title="Born twice", body=text, base_revision=0)
            outcomes.append("saved")
        except EditConflict:
            outcomes.append("conflict")
        except Exception as error:  # noqa: BLE001 - an IntegrityError here would be a 500 and the typed text lost
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(f"{who}\n",)) for who in ("alice", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["conflict", "saved"]
    assert Page.objects.get(slug="born-twice").revisions.count() == 1


def _key_points(n: int, *, cited: bool) -> str:
    cite = "（来源：Alpha Work: Study，p.3）" if cited else ""
    return "## 关键要点\n\n" + "\n".join(f"- claim number {i}{cite}" for i in range(n)) + "\n"


def test_saving_claims_takes_the_same_number_of_queries_for_ten_or_a_hundred(db: None) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (10, 100):
        page = make_page(body=_key_points(n, cited=True))
        with CaptureQueriesContext(connection) as first:
            _save(page, _key_points(n, cited=True) + "- one more\n", base=1)
        counts.append(len(first.captured_queries))
        assert page.claims.current().count() == n + 1
        assert all(c.citations.count() == 1 for c in page.claims.current()[:5])
    assert counts[0] == counts[1]


def test_citations_an_editor_set_on_a_claim_survive_saving_the_page(db: None) -> None:
    from tests.factories import make_source
    from wiki.services.claims import CitationInput, claim_update

    page = make_page(body=KEY_POINTS)
    claim = next(c for c in claims_of(page) if c.text.startswith("SkillForge"))
    extra = make_source()
    claim_update(claim=claim, status="verified", citations=[CitationInput(source=extra, locator="Table 2", kind="cited")],
                 about=[extra])
    # Written into the sentence as revision 2: a save from revision 1 would be a conflict, one from 2 keeps them.
    page.refresh_from_db()
    assert f"（来源：{extra.title}，Table 2）" in page.body
    _save(page, page.body + "\nMore text.\n", base=2)
    claim.refresh_from_db()
    assert list(claim.citations.values_list("source_id", "locator")) == [(extra.pk, "Table 2")]
    assert list(claim.about.all()) == [extra]
    assert claim.status == "verified"


def test_a_citation_too_long_for_a_source_or_locator_is_a_reported_problem_not_a_server_error(db: None) -> None:
    sources_before = Source.objects.count()
    long_title = "- claim（来源：" + "T" * 700 + "，p.3）"
    long_locator = "- claim（来源：Title，" + "p.3、" * 60 + "p.4）"
    for body in (long_title, long_locator):
        page = make_page(body=body)
        assert not Citation.objects.filter(claim__page=page).exists()
        assert any("longer than" in problem.message for problem in page_preview(body=body).result.problems)
    assert Source.objects.count() == sources_before


def _queries_to_create_page_linked_from(n: int, slug: str) -> int:
    from django.test.utils import CaptureQueriesContext

    for i in range(n):
        make_page(slug=f"{slug}-linking-{i}", body=f"See [[{slug}]]. （来源：Work {slug} {i}: A Study）")
    with CaptureQueriesContext(connection) as created:
        make_page(slug=slug, title=slug)
    assert all("wanted" not in p.rendered_html for p in Page.objects.filter(slug__startswith=f"{slug}-linking-"))
    return len(created.captured_queries)


def test_creating_a_wanted_page_rerenders_its_linking_pages_in_a_fixed_number_of_queries(db: None) -> None:
    assert _queries_to_create_page_linked_from(2, "few") == _queries_to_create_page_linked_from(12, "many")


def test_saving_a_page_deleted_meanwhile_raises_page_deleted_with_who_and_why_and_writes_nothing(db: None) -> None:
    from wiki.services.deletion import page_delete
    from wiki.services.pages import PageDeleted

    staff = make_editor("dora")
    page = page_save_revision(slug="doomed", title="Doomed", body="old").page
    page_delete(page=page, user=staff, reason="Spam")

    with pytest.raises(PageDeleted) as raised:
        page_save_revision(slug="doomed", title="Doomed", body="new", base_revision=1)

    assert raised.value.page.deleted_by == staff and raised.value.page.deleted_reason == "Spam"
    assert [e.code for e in raised.value.error_dict["slug"]] == ["deleted"]
    assert Page.all_objects.get(pk=page.pk).body == "old" and page.revisions.count() == 1


def test_an_unchanged_save_asking_for_a_new_work_still_saves_and_asking_again_does_not(db: None) -> None:
    from tests.factories import make_source

    make_source(slug="react", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting in Language Models")
    close = "ReAct: Synergizing Reasoning and Acting in Language Model"
    body = f"- ReAct 交替推理与行动。（来源：{close}，§3）\n"
    page = page_save_revision(slug="p", title="P", body=body)

    unchanged = page_save(slug="p", title="P", body=body, base_revision=1)
    asked = page_save(slug="p", title="P", body=body, base_revision=1, new_works=[close])
    again = page_save(slug="p", title="P", body=body, base_revision=1, new_works=[close])  # the form sent twice

    assert unchanged.unchanged and unchanged.revision == page
    assert not asked.unchanged and asked.revision.number == 2
    assert again.unchanged and again.revision == asked.revision
    assert Source.objects.filter(title=close).count() == 1


def test_sending_again_what_the_latest_revision_holds_is_unchanged_whoever_saved_it(db: None) -> None:
    page = make_page(title="Twice", body="one\n")
    saved = _save(page, "one\ntwo\n", base=1, user=make_editor("alice"))
    events = ChangeEvent.objects.count()

    for user in (saved.author, make_editor("bob")):
        repeated = page_save(slug=page.slug, title="Twice", body="one\ntwo\n", base_revision=1, user=user)
        assert repeated.unchanged and repeated.revision == saved

    assert page.revisions.count() == 2 and ChangeEvent.objects.count() == events
    with pytest.raises(EditConflict):
        page_save(slug=page.slug, title="Twice", body="one\nthree\n", base_revision=1)
    with pytest.raises(EditConflict):  # the text, but another title, is a different edit
        page_save(slug=page.slug, title="Twice over", body="one\ntwo\n", base_revision=1)


@pytest.mark.django_db(transaction=True)
def test_the_same_edit_sent_twice_at_once_is_saved_once_and_the_other_is_unchanged() -> None:
    page = make_page(slug="double-click", body="start\n")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def send() -> None:
        try:
            barrier.wait(timeout=5)
            saved = page_save(slug=page.slug, title=page.title, body="start\nmore\n", base_revision=1)
            outcomes.append("unchanged" if saved.unchanged else "saved")
        except Exception as error:  # noqa: BLE001 - a conflict with oneself is the wrong answer
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["saved", "unchanged"]
    assert page.revisions.count() == 2
