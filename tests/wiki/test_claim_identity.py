"""Claims of a long page keep their identity, status and attachments through the edits editors make."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import cite, make_contrast, make_page, make_source
from wiki.markdown import render
from wiki.models import Claim, ClaimRevision, Contrast, OpenQuestion, Page, Revision
from wiki.models.claims import ClaimStatus
from wiki.services.claims import claim_reattach, claim_set_status
from wiki.services.page_claims import ClaimReport, claim_report_for, page_claims_plan
from wiki.services.pages import page_revert, page_save_revision

pytestmark = pytest.mark.django_db

FACET = "FACET 是一个重要的非严格反例"
ASTAR = "Astar 是另一种严格但较窄的正例"
SKILLFORGE = "SkillForge 是严格 Agentic RL 的正例"
TRACEFORGE = "TraceForge 虽在 generator/critic co-training 中"
FLASH = "FlashREINFORCE 是严格 Agentic RL 的异步训练正例"
MIMO = "MiMo-V2.6 是把"


# A long page of key points citing works with locators, as editors write them (its text is this module's own, so
# that these tests edit what they read whatever becomes of the seed wiki).
PAGE = Path(__file__).resolve().parent / "data" / "claim_identity_page.md"


@pytest.fixture
def page(db: None) -> Page:
    """The page saved once, with a contrast resting on its FACET claim."""
    saved = make_page(slug="claims-under-edit", title="Agentic RL", body=PAGE.read_text(encoding="utf-8"),
                      summary="Agentic RL 指让可执行 LLM Agent 依据轨迹回报更新策略或模型的强化学习范式。")
    facet = _claim(saved, FACET)
    cited = facet.sources.get()
    make_contrast(cited, make_source(short_name="GRPO Work"), axis="SFT vs GRPO 策略更新", claim=facet)
    return saved


def _claim(page: Page, fragment: str) -> Claim:
    return Claim.objects.get(page=page, is_orphaned=False, text__contains=fragment)


def _latest(page: Page) -> int:
    return page.revisions.order_by("-number").values_list("number", flat=True)[0]


def _save(page: Page, body: str) -> Revision:
    return page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=body,
                              base_revision=_latest(page))


def _verify(claim: Claim) -> Claim:
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    claim.refresh_from_db()
    return claim


def _plan(page: Page, body: str) -> ClaimReport:
    """What saving ``body`` would do to the page's claims, as the preview tells it."""
    return page_claims_plan(page=page, refs=render(body, sources={}, existing_pages=frozenset()).claims)


def _bullet(body: str, fragment: str) -> str:
    return next(line for line in body.splitlines() if fragment in line)


def test_one_word_edit_keeps_the_claim_its_status_and_records_the_old_text(page: Page) -> None:
    claim = _verify(_claim(page, FACET))
    revision = _save(page, page.body.replace("一个重要的非严格反例", "一个关键的非严格反例"))
    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "verified")
    assert "一个关键的非严格反例" in after.text
    entry = after.revisions.get(page_revision=revision)
    assert (entry.kind, entry.previous_text, entry.text) == ("reworded", claim.text, after.text)
    report = claim_report_for(revision)
    assert [(c.outcome, c.claim_id) for c in report.changes] == [("reworded", claim.pk)]
    assert ("delete", "重要") in report.changes[0].diff and ("insert", "关键") in report.changes[0].diff


def test_added_qualifier_keeps_the_claim_and_its_contrast_but_asks_for_verification_again(page: Page) -> None:
    claim = _verify(_claim(page, FACET))
    contrasts = set(Contrast.objects.filter(claim=claim).values_list("pk", flat=True))
    assert contrasts
    revision = _save(page, page.body.replace(FACET, "FACET 是一个重要且常被误读的非严格反例"))
    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "needs_verification")
    assert set(Contrast.objects.filter(claim=after).values_list("pk", flat=True)) == contrasts
    entry = after.revisions.get(page_revision=revision)
    assert entry.previous_status == "verified" and "wording changed" in entry.reason


def test_changed_locator_keeps_the_claim_rewrites_its_citation_and_asks_for_verification(page: Page) -> None:
    claim = _verify(_claim(page, FACET))
    revision = _save(page, page.body.replace("§3.1 / §5", "§3.2 / §5"))
    after = Claim.objects.get(pk=claim.pk)
    assert after.status == "needs_verification"
    assert list(after.citations.values_list("locator", flat=True)) == ["§3.2 / §5"]
    assert "citations or locators changed" in after.revisions.get(page_revision=revision).reason


def test_a_citation_retyped_in_full_width_letters_and_spaced_keeps_a_verified_claim_verified(page: Page) -> None:
    claim = _verify(_claim(page, FACET))
    citations = list(claim.citations.values_list("source_id", "locator"))
    cited = "（来源：FACET: Preserving Source Intent and Executable State in Terminal Task Synthesis，§3.1 / §5）"
    retyped = "（来源：ＦＡＣＥＴ: Preserving Source Intent and Executable State in Terminal Task Synthesis，§ ３.１/§５）"
    assert cited in page.body

    planned = _plan(page, page.body.replace(cited, retyped)).changes
    revision = _save(page, page.body.replace(cited, retyped))

    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "verified")
    assert list(after.citations.values_list("source_id", "locator")) == citations
    assert [(c.outcome, c.status, c.reason) for c in planned] == [("reworded", "verified", "")]
    entry = after.revisions.get(page_revision=revision)
    assert (entry.previous_status, entry.status, entry.reason) == ("verified", "verified", "")


def test_repunctuation_keeps_the_claim_and_a_verified_status(page: Page) -> None:
    claim = _verify(_claim(page, SKILLFORGE))
    line = _bullet(page.body, SKILLFORGE)
    sentence, citation = line.split("（来源")
    _save(page, page.body.replace(line, sentence.replace("；", "。").replace("：", ": ").replace("，", ", ") + "（来源" + citation))
    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "verified")
    assert after.revisions.filter(kind="reworded").exists()


def test_moved_paragraph_keeps_every_claim_with_no_history_entry(page: Page) -> None:
    before = {c.pk: c.text for c in page.claims.current()}
    paragraph = next(p for p in page.body.split("\n\n") if p.startswith("[[Multi-Harness RL]]"))
    moved = page.body.replace(paragraph + "\n\n", "").replace("## 核心内容", paragraph + "\n\n## 核心内容")
    revision = _save(page, moved)
    assert {c.pk: c.text for c in page.claims.current()} == before
    assert not ClaimRevision.objects.filter(page_revision=revision).exists()
    moved_claim = page.claims.current().get(text__startswith="[[Multi-Harness RL]]".strip("[]") + " 展示了")
    assert moved_claim.section == "摘要"
    assert claim_report_for(revision).kept == len(before)


def test_split_sentence_keeps_the_claim_on_the_larger_part_and_the_other_is_new(page: Page) -> None:
    claim = _claim(page, ASTAR)
    line = _bullet(page.body, ASTAR)
    first, second = line.split("执行闭环。")
    revision = _save(page, page.body.replace(line, f"{first}执行闭环。\n- {second}"))
    after = Claim.objects.get(pk=claim.pk)
    assert after.is_orphaned is False and after.text.endswith("执行闭环。")
    piece = page.claims.current().get(text__startswith="它不等于 coding/browser")
    assert piece.pk != claim.pk
    report = {c.claim_id: c for c in claim_report_for(revision).changes}
    assert report[claim.pk].outcome == "split"
    assert (report[piece.pk].outcome, report[piece.pk].related_id) == ("new", claim.pk)


def test_merged_sentences_keep_one_claim_and_orphan_the_other_saying_into_which(page: Page) -> None:
    flash, mimo = _claim(page, FLASH), _claim(page, MIMO)
    flash_line, mimo_line = _bullet(page.body, FLASH), _bullet(page.body, MIMO)
    merged = flash_line + " " + mimo_line.removeprefix("- ")
    revision = _save(page, page.body.replace(flash_line + "\n" + mimo_line, merged))
    kept = page.claims.current().get(text__contains=FLASH)
    assert kept.pk in {flash.pk, mimo.pk}
    gone = Claim.objects.get(pk=({flash.pk, mimo.pk} - {kept.pk}).pop())
    assert gone.is_orphaned is True
    entry = gone.revisions.get(page_revision=revision)
    assert (entry.kind, entry.related_claim_id) == ("merged", kept.pk)


def test_a_disputed_claim_merged_into_another_leaves_the_merged_sentence_disputed_and_says_why(page: Page) -> None:
    flash, mimo = _claim(page, FLASH), _claim(page, MIMO)
    flash_line, mimo_line = _bullet(page.body, FLASH), _bullet(page.body, MIMO)
    merged = flash_line + " " + mimo_line.removeprefix("- ")
    body = page.body.replace(flash_line + "\n" + mimo_line, merged)
    # Whichever of the two the merge orphans is the disputed one, the other verified.
    kept_before = next(c.claim_id for c in _plan(page, body).changes if c.outcome == "reworded")
    assert kept_before is not None
    gone_before = ({flash.pk, mimo.pk} - {kept_before}).pop()
    Claim.objects.filter(pk=kept_before).update(status="verified")
    Claim.objects.filter(pk=gone_before).update(status="disputed")

    planned = {c.claim_id: c for c in _plan(page, body).changes}
    revision = _save(page, body)

    kept = Claim.objects.get(pk=kept_before)
    assert (kept.is_orphaned, kept.status) == (False, "disputed")
    assert Claim.objects.get(pk=gone_before).is_orphaned is True
    entry = kept.revisions.get(page_revision=revision)
    assert (entry.previous_status, entry.status) == ("verified", "disputed")
    assert entry.reason == f"Claim #{gone_before}, which is disputed, was merged into it: disputed too until an editor settles it."
    report = {c.claim_id: c for c in claim_report_for(revision).changes}
    assert report[kept.pk].status == planned[kept.pk].status == "disputed"
    assert report[gone_before].outcome == "merged"


def test_deleted_key_point_orphans_its_claim_and_revert_restores_it_with_its_questions(page: Page) -> None:
    claim = _verify(_claim(page, TRACEFORGE))
    question = OpenQuestion.objects.create(page=page, title="TraceForge 的 critic 是否可执行？")
    question.claims.add(claim)
    base = _latest(page)
    deleted = _save(page, page.body.replace(_bullet(page.body, TRACEFORGE) + "\n", ""))
    claim.refresh_from_db()
    assert claim.is_orphaned is True
    assert claim.revisions.get(page_revision=deleted).kind == "orphaned"
    assert [c.outcome for c in claim_report_for(deleted).changes] == ["orphaned"]

    reverted = page_revert(page=page, number=base, base_revision=_latest(page))
    claim.refresh_from_db()
    assert (claim.is_orphaned, claim.status) == (False, "verified")
    assert claim.revisions.get(page_revision=reverted).kind == "restored"
    assert list(question.claims.all()) == [claim]


def test_revert_of_a_rewording_gives_the_same_claim_its_old_text_back(page: Page) -> None:
    claim = _claim(page, FACET)
    base = _latest(page)
    _save(page, page.body.replace(FACET, "FACET 是一个重要且常被误读的非严格反例"))
    page_revert(page=page, number=base, base_revision=_latest(page))
    after = Claim.objects.get(pk=claim.pk)
    assert (after.text, after.is_orphaned) == (claim.text, False)
    assert list(after.revisions.exclude(kind="created").values_list("kind", flat=True)) == ["reworded", "reworded"]
    assert Claim.objects.filter(page=page, text__contains="常被误读").count() == 0


def test_a_different_claim_in_place_of_a_deleted_one_is_new(page: Page) -> None:
    claim = _claim(page, TRACEFORGE)
    line = _bullet(page.body, TRACEFORGE)
    _save(page, page.body.replace(line, "- Recuris 只演化外部 harness，没有参数更新，因此不是严格 Agentic RL。"))
    claim.refresh_from_db()
    assert claim.is_orphaned is True
    assert page.claims.current().get(text__startswith="Recuris").pk != claim.pk


def _key_points(n: int, *, edited: bool) -> str:
    # Both works exist before the save counted, so that it creates no source.
    lines = ["- an unchanged statement about works（来源：Alpha Work: Study、Beta Work: Study）"]
    lines += [f"- claim number {i} says that agent {i} learns policy {i} from reward {i}（来源：Alpha Work: Study，p.3）"
             for i in range(n)]
    if edited:
        lines[1] = lines[1].replace("learns", "really learns")  # reworded
        lines[2] = lines[2].replace("p.3", "p.4")  # citation changed
        del lines[3]  # orphaned
        lines.append("- an entirely new statement about environments（来源：Beta Work: Study，§2）")
    return "## 关键要点\n\n" + "\n".join(lines) + "\n"


def test_saving_claims_takes_the_same_number_of_queries_whatever_the_page_size() -> None:
    counts = []
    for n in (10, 100):
        page = make_page(body=_key_points(n, edited=False))
        Claim.objects.filter(page=page).update(status="verified")
        with CaptureQueriesContext(connection) as queries:
            page_save_revision(slug=page.slug, title=page.title, body=_key_points(n, edited=True), base_revision=1)
        counts.append(len(queries.captured_queries))
        assert page.claims.current().count() == n + 1
        assert page.claims.filter(is_orphaned=True).count() == 1
        assert ClaimRevision.objects.filter(claim__page=page, kind="reworded").count() == 2
    assert counts[0] == counts[1]


def test_revert_of_a_merge_restores_the_merged_away_claim_with_its_status_and_questions(page: Page) -> None:
    flash, mimo = _verify(_claim(page, FLASH)), _verify(_claim(page, MIMO))
    base = _latest(page)
    flash_line, mimo_line = _bullet(page.body, FLASH), _bullet(page.body, MIMO)
    _save(page, page.body.replace(flash_line + "\n" + mimo_line, flash_line + " " + mimo_line.removeprefix("- ")))
    kept = page.claims.current().get(text__contains=FLASH)
    gone = Claim.objects.get(pk=({flash.pk, mimo.pk} - {kept.pk}).pop())
    question = OpenQuestion.objects.create(page=page, title="MiMo 与 FlashREINFORCE 是否同一训练方式？")
    question.claims.add(gone)
    claims_before = Claim.objects.filter(page=page).count()

    reverted = page_revert(page=page, number=base, base_revision=_latest(page))
    gone.refresh_from_db()
    assert (gone.is_orphaned, gone.status) == (False, "verified")
    assert gone.revisions.get(page_revision=reverted).kind == "restored"
    assert list(question.claims.all()) == [gone]
    assert Claim.objects.filter(page=page).count() == claims_before
    assert {c.claim_id: c.outcome for c in claim_report_for(reverted).changes} == {kept.pk: "reworded", gone.pk: "restored"}



def test_a_loose_list_gives_one_claim_an_item_and_tightening_it_keeps_them(db: None) -> None:
    grpo, react = make_source(title="DeepSeekMath"), make_source(title="ReAct")
    first = f"- 第一条：GRPO 不需要 critic。{cite(grpo, locator='§4.1')}\n"
    second = f"- 第二条：ReAct 不更新参数。{cite(react)}\n\n    它只在推理时交替思考与行动。\n"
    loose = make_page(slug="loose-list", title="Loose list", body=f"## 关键要点\n\n{first}\n{second}")
    claims = list(loose.claims.filter(is_orphaned=False).order_by("position").values_list("pk", "text"))
    assert [text[:8] for _, text in claims] == ["第一条：GRPO", "第二条：ReAc"]
    assert "它只在推理时交替思考与行动" in claims[1][1]
    _save(loose, f"## 关键要点\n\n{first}{second}")  # the blank line between the items taken out
    assert list(loose.claims.filter(is_orphaned=False).order_by("position").values_list("pk", "text")) == claims
    assert not loose.claims.filter(is_orphaned=True).exists()


def test_claims_stored_with_placeholders_are_read_again_as_the_reader_sees_them_keeping_their_status() -> None:
    from django.apps import apps

    reread = importlib.import_module("wiki.migrations.0033_claims_read_inline_html_and_formulas").reread
    saved = make_page(slug="placeholders", title="Placeholders", body=f"## 关键要点\n\n- 论断 <i>斜体</i> 与 $x^2$。{cite(make_source(short_name='Kiwi'))}\n")
    claim = saved.claims.get()
    # as an older renderer stored it: Markdown's placeholders and a formula's token in the text
    Claim.objects.filter(pk=claim.pk).update(text="论断 \x02wzxhzdk:0\x03斜体\x02wzxhzdk:1\x03 与 MATH0123456789abX0X。",
                                             anchor="claim-0000000000", status=ClaimStatus.DISPUTED)

    reread(apps, None)

    claim.refresh_from_db()
    assert claim.text.startswith("论断 斜体 与 $x^2$。"), claim.text
    assert claim.status == ClaimStatus.DISPUTED
    assert f'id="{claim.anchor}"' in Page.objects.get(pk=saved.pk).rendered_html
    assert claim.revisions.latest("id").kind == ClaimRevision.Kind.REWORDED
    assert Revision.objects.filter(page=saved).count() == 1


# FACET's sentence reworded in steps: each step keeps the claim, the last is far from the first.
FACET_STEPS = (
    "FACET 是一个重要的非严格反例：它在可执行 terminal 环境中生成 rollout 并用 verifier 过滤轨迹，再拿这些轨迹做监督微调，"
    "从未用环境回报更新 agent policy；因此应标为“环境/任务构建 + SFT”。",
    "FACET 应标为“环境/任务构建 + SFT”：它用 verifier 过滤 terminal rollout 轨迹，再拿这些轨迹做监督微调，"
    "从未用环境回报更新 agent policy，不是严格正例。",
)
FACET_REWRITTEN = "FACET 只是数据合成流程：终端任务由 LLM 生成、经执行校验后留下，训练阶段全是监督学习，和强化学习无关。"


def _reword_facet_in_steps(page: Page, *, verify_each: bool) -> tuple[Claim, int]:
    """FACET with a question (verified, and again after each step, when ``verify_each``), reworded in two steps, then
    rewritten: its claim is an orphan whose current text is far from the first. Returns it and the first revision."""
    claim = _claim(page, FACET)
    if verify_each:
        claim = _verify(claim)
    OpenQuestion.objects.create(page=page, title="FACET 的 verifier 是否算 reward？").claims.add(claim)
    first = _latest(page)
    sentence = _bullet(page.body, FACET).removeprefix("- ").split("（来源")[0]
    for step in FACET_STEPS:
        page.refresh_from_db()
        _save(page, page.body.replace(sentence, step))
        sentence = step
        assert Claim.objects.get(pk=claim.pk).text.startswith(step)
        if verify_each:
            claim_set_status(claim=Claim.objects.get(pk=claim.pk), status="verified")
    page.refresh_from_db()
    _save(page, page.body.replace(sentence, FACET_REWRITTEN))
    claim.refresh_from_db()
    assert claim.is_orphaned and claim.text.startswith(FACET_STEPS[-1])
    return claim, first


def test_revert_to_a_wording_an_orphan_had_earlier_restores_it_with_its_status_and_question(page: Page) -> None:
    claim, first = _reword_facet_in_steps(page, verify_each=True)
    claims_before = Claim.objects.filter(page=page).count()

    reverted = page_revert(page=page, number=first, base_revision=_latest(page))

    claim.refresh_from_db()
    # Word for word a text it had while verified: still verified.
    assert (claim.is_orphaned, claim.status) == (False, "verified")
    assert claim.text.startswith(FACET)
    assert claim.revisions.get(page_revision=reverted).kind == "restored"
    assert [q.title for q in claim.questions.all()] == ["FACET 的 verifier 是否算 reward？"]
    assert list(claim.citations.values_list("locator", flat=True)) == ["§3.1 / §5"]
    assert Claim.objects.filter(page=page).count() == claims_before
    assert Contrast.objects.filter(claim=claim).exists()


def test_restoring_a_text_an_orphan_had_before_it_was_verified_asks_for_verification_again(page: Page) -> None:
    claim, first = _reword_facet_in_steps(page, verify_each=False)
    claim_set_status(claim=claim, status="verified")  # verified only as an orphan, at its last text

    reverted = page_revert(page=page, number=first, base_revision=_latest(page))

    claim.refresh_from_db()
    assert (claim.is_orphaned, claim.status) == (False, "needs_verification")
    entry = claim.revisions.get(page_revision=reverted)
    assert (entry.kind, entry.previous_status) == ("restored", "verified")
    assert "wording changed" in entry.reason


def test_a_save_writing_an_earlier_wording_again_restores_the_orphan_that_had_it(page: Page) -> None:
    first = _bullet(page.body, FACET).removeprefix("- ").split("（来源")[0]
    claim, _ = _reword_facet_in_steps(page, verify_each=False)
    page.refresh_from_db()
    # Not a revert: the editor writes the first wording again, with one word changed.
    revision = _save(page, page.body.replace(FACET_REWRITTEN, first.replace("重要的", "关键的")))
    claim.refresh_from_db()
    assert claim.is_orphaned is False
    assert claim.revisions.get(page_revision=revision).kind == "restored"
    # The rewritten sentence's own claim has no sentence now.
    assert Claim.objects.get(page=page, text__startswith=FACET_REWRITTEN).is_orphaned is True


SHEPHERD = "Shepherd 的 Tree-GRPO 是严格正例"
SHEPHERD_PIECES = (
    "Shepherd 的 Tree-GRPO 属于严格正例：它让共享前缀的 terminal rollout 产生 sibling outcome advantage，并以 clipped GRPO 训练 "
    "worker policy。（来源：Shepherd: Enabling Programmable Meta-Agents via Reversible Agentic Execution Traces，§4.3）",
    "Shepherd 论文里的运行时 supervisor 与 CRO 则没有任何参数更新，因此不属于 Agentic RL。"
    "（来源：Shepherd: Enabling Programmable Meta-Agents via Reversible Agentic Execution Traces，§5）",
)


def test_a_disputed_claim_split_in_its_place_stays_with_the_first_piece_and_the_other_is_split_from_it(page: Page) -> None:
    claim = _claim(page, SHEPHERD)
    Claim.objects.filter(pk=claim.pk).update(status="disputed")
    question = OpenQuestion.objects.create(page=page, title="CRO 真的没有参数更新吗？")
    question.claims.add(claim)
    line = _bullet(page.body, SHEPHERD)

    revision = _save(page, page.body.replace(line, "- " + SHEPHERD_PIECES[0] + "\n- " + SHEPHERD_PIECES[1]))

    first = Claim.objects.get(pk=claim.pk)
    assert (first.is_orphaned, first.status) == (False, "disputed")
    assert first.text.startswith("Shepherd 的 Tree-GRPO 属于严格正例")
    assert list(first.citations.values_list("locator", flat=True)) == ["§4.3"]
    assert list(question.claims.all()) == [first]
    second = page.claims.current().get(text__startswith="Shepherd 论文里的运行时")
    assert second.status == "disputed"
    created = second.revisions.get(page_revision=revision)
    assert (created.kind, created.related_claim_id) == ("created", claim.pk)
    assert f"Split from claim #{claim.pk}" in created.reason
    report = {c.claim_id: (c.outcome, c.related_id) for c in claim_report_for(revision).changes}
    assert report == {claim.pk: ("split", None), second.pk: ("new", claim.pk)}


def test_two_other_claims_in_place_of_one_are_new_and_it_is_orphaned(page: Page) -> None:
    claim = _claim(page, SHEPHERD)
    line = _bullet(page.body, SHEPHERD)
    _save(page, page.body.replace(line, "- Shepherd 提供可回放的执行轨迹，便于调试 meta-agent。\n"
                                        "- 运行时 supervisor 的提示词模板在附录中给出，共 12 个。"))
    claim.refresh_from_db()
    assert claim.is_orphaned is True
    assert not ClaimRevision.objects.filter(related_claim=claim).exists()


def test_reattaching_an_orphan_to_a_sentence_it_had_while_verified_keeps_it_verified(page: Page) -> None:
    original = _bullet(page.body, FACET)
    claim, _ = _reword_facet_in_steps(page, verify_each=True)
    other = make_page(slug="facet-elsewhere", title="FACET elsewhere", body="## 关键要点\n\n" + original + "\n")
    claim_reattach(claim=claim, sentence=other.claims.get())
    claim.refresh_from_db()
    assert (claim.is_orphaned, claim.status, claim.page_id) == (False, "verified", other.pk)


def test_an_orphan_reattached_to_a_disputed_sentence_is_disputed_and_says_why(page: Page) -> None:
    claim = _verify(_claim(page, FACET))
    original = _bullet(page.body, FACET)
    _save(page, page.body.replace(original + "\n", ""))
    other = make_page(slug="facet-elsewhere", title="FACET elsewhere", body="## 关键要点\n\n" + original + "\n")
    sentence = claim_set_status(claim=other.claims.get(), status="disputed")

    claim_reattach(claim=Claim.objects.get(pk=claim.pk), sentence=sentence)

    claim.refresh_from_db()
    assert (claim.is_orphaned, claim.status, claim.page_id) == (False, "disputed", other.pk)
    entry = claim.revisions.get(kind="reattached")
    assert (entry.previous_status, entry.status) == ("verified", "disputed")
    assert f"The sentence was claim #{sentence.pk}, which is disputed" in entry.reason


def test_key_points_converted_to_traditional_characters_keep_every_claim_with_its_status_question_and_contrast(
        page: Page) -> None:
    import opencc

    to_traditional = opencc.OpenCC("s2t").convert
    facet = _verify(_claim(page, FACET))
    question = OpenQuestion.objects.create(page=page, title="FACET 是否更新参数？")
    question.claims.add(facet)
    contrasts = set(Contrast.objects.filter(claim=facet).values_list("pk", flat=True))
    before = {c.pk: c.status for c in page.claims.current()}
    # Each sentence converted, its citation left as the wiki writes it.
    lines = [to_traditional(line.partition("（来源")[0]) + "（来源" + line.partition("（来源")[2] if "（来源" in line else line
             for line in page.body.splitlines()]
    converted = "\n".join(lines)
    assert to_traditional("非严格反例") in converted and "非严格反例" not in converted

    revision = _save(page, converted)

    assert {c.pk: c.status for c in page.claims.current()} == before
    assert not page.claims.filter(is_orphaned=True).exists()
    after = Claim.objects.get(pk=facet.pk)
    assert (after.status, list(after.questions.all())) == ("verified", [question])
    assert set(Contrast.objects.filter(claim=after).values_list("pk", flat=True)) == contrasts
    assert {c.outcome for c in claim_report_for(revision).changes} == {"reworded"}



@pytest.mark.parametrize(("sentence", "kept"), [
    ("奖励模型必须校准", True),  # a modal verb for its synonym: the same claim
    ("奖励模型需要剪枝", False),  # another subject: another claim
])
def test_a_short_claim_keeps_its_status_and_question_through_a_word_saying_the_same_only(
        db: None, sentence: str, kept: bool) -> None:
    page = make_page(slug="short-claims", title="Short", body="## 关键要点\n\n- 奖励模型需要校准\n- 评测结果应可复现\n")
    claim = _verify(_claim(page, "奖励模型"))
    question = OpenQuestion.objects.create(page=page, title="奖励模型怎样校准？")
    question.claims.add(claim)

    _save(page, f"## 关键要点\n\n- {sentence}\n- 评测结果应可复现\n")

    written = Claim.objects.get(page=page, is_orphaned=False, text=sentence)
    assert (written.pk == claim.pk) is kept
    assert written.status == ("verified" if kept else "needs_verification")
    # The question stays with the claim it was asked about: on the page when reworded, an orphan when replaced.
    assert [(c.pk, c.is_orphaned) for c in question.claims.all()] == [(claim.pk, not kept)]
