"""Matching a page's sentences to its earlier claims: plain Python, no database."""

from __future__ import annotations

import pytest

from wiki.text.claim_matching import (
    Outcome,
    Previous,
    Sentence,
    char_diff,
    edit_size,
    features,
    is_small_edit,
    match_claims,
    normalise,
    similarity,
)

FACET = "FACET 是一个重要的非严格反例：它在可执行 terminal 环境中生成 rollout 并使用 verifier 筛选成功轨迹，但实际用这些轨迹做 SFT。"
SKILL = "SkillForge 是严格 Agentic RL 的正例：GRPO 同时更新环境动作和 skill calling，二值 outcome rollout 还会持续提取 skill bank。"
WEB = "WebArena 与 OSWorld 是两个重要反例：它们定义多步环境和终局 reward，但原论文只评测固定模型，没有根据回报更新 policy。"
EN = "The agent is trained with GRPO on WebArena using the task success reward and a verifier."


def _plan(old: list[str], new: list[str], orphaned: frozenset[int] = frozenset()) -> list[tuple[str, int | None]]:
    previous = [Previous(id=i + 1, text=t, position=i, orphaned=i + 1 in orphaned) for i, t in enumerate(old)]
    plan = match_claims(previous, [Sentence(text=t, position=i) for i, t in enumerate(new)])
    return [(str(m.outcome), m.claim_id) for m in plan.matches]


def test_unchanged_sentences_are_kept_wherever_they_move() -> None:
    assert _plan([FACET, SKILL, WEB], [WEB, FACET, SKILL]) == [("kept", 3), ("kept", 1), ("kept", 2)]


def test_a_qualifier_added_in_chinese_keeps_the_claim() -> None:
    reworded = FACET.replace("重要的", "重要且常被误读的")
    assert _plan([FACET, SKILL], [reworded, SKILL]) == [("reworded", 1), ("kept", 2)]


def test_an_english_typo_fix_and_repunctuation_keep_the_claim() -> None:
    assert _plan([EN.replace("trained", "trianed")], [EN]) == [("reworded", 1)]
    assert _plan([EN], [EN.replace(" using", ", using")]) == [("reworded", 1)]


def test_punctuation_spacing_case_and_width_do_not_count() -> None:
    assert normalise("Agentic RL：策略，更新。") == normalise("agentic  rl:策略,更新")
    assert similarity(FACET, FACET.replace("，", "、")) == 1.0


def test_a_different_claim_in_the_same_place_is_new_and_the_old_one_orphaned() -> None:
    assert _plan([FACET, SKILL], [WEB, SKILL]) == [("new", None), ("kept", 2), ("orphaned", 1)]


def test_identical_sentences_go_to_the_nearest_claim() -> None:
    assert _plan([FACET, SKILL, FACET], [SKILL, FACET, FACET]) == [("kept", 2), ("kept", 1), ("kept", 3)]


def test_a_split_sentence_keeps_the_claim_on_its_larger_part_and_names_it_on_the_other() -> None:
    first, second = WEB.split("，但")
    previous = [Previous(id=7, text=WEB, position=0)]
    plan = match_claims(previous, [Sentence(text=first + "。", position=0), Sentence(text="但" + second, position=1)])
    kept, piece = plan.matches
    assert (kept.outcome, kept.claim_id) == (Outcome.SPLIT, 7)
    assert (piece.outcome, piece.claim_id, piece.related) == (Outcome.NEW, None, 7)


def test_merged_sentences_keep_one_claim_and_the_other_is_merged_into_it() -> None:
    plan = match_claims([Previous(id=1, text=FACET, position=0), Previous(id=2, text=SKILL, position=1)],
                        [Sentence(text=FACET + SKILL, position=0)])
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.REWORDED, 1, None), (Outcome.MERGED, 2, 1),
    ]


def test_an_orphaned_claim_comes_back_when_its_sentence_returns_even_reworded() -> None:
    assert _plan([FACET, SKILL], [SKILL, FACET.replace("重要的", "关键的")], orphaned=frozenset({1})) == [
        ("kept", 2), ("restored", 1),
    ]


def test_short_sentences_sharing_one_term_are_different_claims() -> None:
    assert _plan(["Agentic RL 试图优化行动策略"], ["为什么 Agentic RL 更像 POMDP"]) == [("new", None), ("orphaned", 1)]


def test_a_typo_is_a_small_edit_and_a_qualifier_is_not() -> None:
    assert edit_size(FACET, FACET.replace("，", "; ")) == 0
    assert is_small_edit(EN, EN.replace("trained", "trianed"))
    assert not is_small_edit(FACET, FACET.replace("重要的", "重要且常被误读的"))


def test_char_diff_marks_each_changed_character() -> None:
    assert char_diff("重要的反例", "关键的反例") == (("delete", "重要"), ("insert", "关键"), ("equal", "的反例"))


def test_a_rewrite_of_a_large_page_matches_every_sentence_to_its_claim() -> None:
    old = [f"第 {i} 条：agent {i} 用 GRPO 在环境 env-{i} 上以 reward-{i} 更新 policy-{i}，并记录 trace-{i}。" for i in range(2000)]
    new = [t.replace("更新", "优化") for t in old]
    plan = match_claims([Previous(id=i, text=t, position=i) for i, t in enumerate(old)],
                        [Sentence(text=t, position=i) for i, t in enumerate(new)])
    assert [m.claim_id for m in plan.matches] == list(range(2000))


def test_a_sentence_merged_away_and_back_restores_its_orphan_rather_than_splitting_the_keeper() -> None:
    # After FACET was merged into SKILL's sentence: claim 2 holds both, claim 1 is the orphan.
    previous = [Previous(id=2, text=SKILL + FACET, position=0), Previous(id=1, text=FACET, position=1, orphaned=True)]
    for pieces in ([FACET, SKILL], [SKILL, FACET], [FACET.replace("重要的", "关键的"), SKILL]):
        plan = match_claims(previous, [Sentence(text=t, position=i) for i, t in enumerate(pieces)])
        outcomes = {m.claim_id: m.outcome for m in plan.matches}
        assert outcomes == {1: Outcome.RESTORED, 2: Outcome.REWORDED}, pieces


def test_an_orphan_comes_back_when_a_sentence_is_one_of_its_earlier_texts() -> None:
    far = "FACET 只是数据合成流程：终端任务由 LLM 生成、经执行校验后留下，训练阶段全是监督学习，和强化学习无关。"
    assert similarity(FACET, far) < 0.55
    previous = [Previous(id=1, text=far, position=0, orphaned=True, earlier=(FACET,)), Previous(id=2, text=SKILL, position=1)]
    for sentence in (FACET, FACET.replace("重要的", "关键的")):
        plan = match_claims(previous, [Sentence(text=sentence, position=0), Sentence(text=SKILL, position=1)])
        assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.RESTORED, 1), (Outcome.KEPT, 2)]
    # A current claim's earlier texts do not count: only orphans come back so.
    current = [Previous(id=1, text=far, position=0, earlier=(FACET,))]
    assert [m.outcome for m in match_claims(current, [Sentence(text=FACET, position=0)]).matches] == [
        Outcome.NEW, Outcome.ORPHANED,
    ]


def test_a_sentence_is_the_orphan_whose_current_text_it_is_before_one_that_had_it_earlier() -> None:
    previous = [Previous(id=1, text=SKILL, position=0, orphaned=True, earlier=(FACET,)),
                Previous(id=2, text=FACET, position=1, orphaned=True)]
    plan = match_claims(previous, [Sentence(text=FACET, position=0)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.RESTORED, 2)]


SHEPHERD = ("Shepherd 的 Tree-GRPO 是严格正例：共享前缀的 terminal rollout 产生 sibling outcome advantage，再用 clipped GRPO 更新 "
            "Qwen/Nemotron worker policy；同一论文中的运行时 supervisor 与 CRO 没有参数更新，不属于 Agentic RL。")
SHEPHERD_PIECES = ["Shepherd 的 Tree-GRPO 属于严格正例：它让共享前缀的 terminal rollout 产生 sibling outcome advantage，"
                   "并以 clipped GRPO 训练 worker policy。",
                   "Shepherd 论文里的运行时 supervisor 与 CRO 则没有任何参数更新，因此不属于 Agentic RL。"]


def test_a_claim_split_in_its_place_into_reworded_pieces_stays_with_the_first() -> None:
    assert all(similarity(SHEPHERD, piece) < 0.55 for piece in SHEPHERD_PIECES)
    previous = [Previous(id=1, text=FACET, position=0), Previous(id=2, text=SHEPHERD, position=1),
                Previous(id=3, text=WEB, position=2)]
    plan = match_claims(previous, [Sentence(text=t, position=i) for i, t in enumerate([FACET, *SHEPHERD_PIECES, WEB])])
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.KEPT, 1, None), (Outcome.SPLIT, 2, None), (Outcome.NEW, None, 2), (Outcome.KEPT, 3, None),
    ]


def test_reworded_pieces_elsewhere_in_the_page_are_no_split() -> None:
    previous = [Previous(id=1, text=FACET, position=0), Previous(id=2, text=SHEPHERD, position=1),
                Previous(id=3, text=WEB, position=2)]
    # The pieces after WEB's sentence: not where the claim was.
    plan = match_claims(previous, [Sentence(text=t, position=i) for i, t in enumerate([FACET, WEB, *SHEPHERD_PIECES])])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [
        (Outcome.KEPT, 1), (Outcome.KEPT, 3), (Outcome.NEW, None), (Outcome.NEW, None), (Outcome.ORPHANED, 2),
    ]


def test_one_reworded_piece_in_a_claims_place_is_a_new_claim_not_a_split() -> None:
    previous = [Previous(id=1, text=FACET, position=0), Previous(id=2, text=SHEPHERD, position=1)]
    plan = match_claims(previous, [Sentence(text=FACET, position=0), Sentence(text=SHEPHERD_PIECES[1], position=1)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.KEPT, 1), (Outcome.NEW, None), (Outcome.ORPHANED, 2)]


def test_a_split_with_no_piece_reworded_enough_to_be_the_claim_keeps_it_on_the_first_piece() -> None:
    pieces = SKILL.replace("：", "。").replace("，", "。").split("。")[:3]
    assert features(pieces[0]).total() < features(pieces[1]).total()  # the first piece is not the largest
    plan = match_claims([Previous(id=7, text=SKILL, position=0)], [Sentence(text=t, position=i) for i, t in enumerate(pieces)])
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.SPLIT, 7, None), (Outcome.NEW, None, 7), (Outcome.NEW, None, 7),
    ]


CREDIT = "强化学习需要设计奖励函数并处理信用分配问题。"
CREDIT_TRADITIONAL = "強化學習需要設計獎勵函數並處理信用分配問題。"


def test_a_sentence_rewritten_in_traditional_characters_is_the_same_claim_word_for_word() -> None:
    assert normalise(CREDIT_TRADITIONAL) == normalise(CREDIT)
    assert edit_size(CREDIT, CREDIT_TRADITIONAL) == 0
    assert _plan([CREDIT, FACET], [CREDIT_TRADITIONAL, FACET]) == [("reworded", 1), ("kept", 2)]


def test_traditional_characters_full_width_letters_and_accents_are_read_as_search_reads_them() -> None:
    assert normalise("ＧＲＰＯ在強化學習中由 Müller 提出") == normalise("GRPO 在强化学习中由 Muller 提出")
    assert similarity(SKILL, SKILL.replace("更新环境动作", "更新環境動作")) > 0.9


# Two verified key points of a page, as an editor left them after taking out the spaces between Chinese and Latin and
# converting part of one to Traditional characters, then merged into one sentence (their citations left out).
SKILLFORGE_EDITED = "SkillForge用GRPO同时更新环境动作和skill calling,是严格Agentic RL的正例."
SHEPHERD_EDITED = ("Shepherd 的 Tree-GRPO 利用共享前綴的 terminal rollout 計算 sibling outcome advantage，"
                   "再用 clipped GRPO 更新 worker policy。")
BOTH = ("SkillForge 用 GRPO 同时更新环境动作和 skill calling，Shepherd 的 Tree-GRPO 则利用共享前缀的 terminal rollout "
        "计算 sibling outcome advantage 后再用 clipped GRPO 更新 worker policy，两者都是严格 Agentic RL 的正例。")


def test_two_claims_merged_after_a_partial_conversion_keep_one_claim_and_the_other_is_merged_into_it() -> None:
    previous = [Previous(id=21, text=SKILLFORGE_EDITED, position=0), Previous(id=22, text=SHEPHERD_EDITED, position=1)]
    plan = match_claims(previous, [Sentence(text=BOTH, position=0)])
    kept, merged = plan.matches
    assert (kept.outcome, merged.outcome) == (Outcome.REWORDED, Outcome.MERGED)
    assert {kept.claim_id, merged.claim_id} == {21, 22} and merged.related == kept.claim_id


@pytest.mark.parametrize(("old", "new"), [
    ("智能体在环竟学习", "智能体在环境学习"),  # a typo fixed in eight characters
    ("强化学习很重要", "强化学习极重要"),  # one character of seven replaced
    ("奖励需要校准", "奖励需校准"),  # one dropped
    ("强化学习很重要", "强化学习非常重要"),  # one written as two
    ("工具调用提升成功率", "工具调用提升了成功率"),  # one added
])
def test_a_short_chinese_sentence_changed_by_one_character_keeps_its_claim(old: str, new: str) -> None:
    plan = match_claims([Previous(id=1, text=old, position=0)], [Sentence(text=new, position=0)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.REWORDED, 1)]


@pytest.mark.parametrize(("old", "new"), [
    ("GRPO是正例", "PPO是正例"),  # another work named
    ("智能体需要记忆", "智能体需要规划"),  # another word of two characters: another claim
    ("通义是正例", "豆包是正例"),
    ("工具调用提升了成功率", "多轮交互提升了成功率"),
])
def test_a_short_sentence_with_another_name_or_word_in_place_of_a_claim_is_a_new_claim(old: str, new: str) -> None:
    plan = match_claims([Previous(id=1, text=old, position=0)], [Sentence(text=new, position=0)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.NEW, None), (Outcome.ORPHANED, 1)]


def test_a_copy_reworded_where_its_original_was_deleted_keeps_the_original_claim() -> None:
    previous = [Previous(id=1, text=FACET, position=0), Previous(id=2, text=WEB, position=1),
                Previous(id=3, text=FACET, position=2)]
    reworded = FACET.replace("一个重要的", "一个关键的")
    plan = match_claims(previous, [Sentence(text=WEB, position=0), Sentence(text=reworded, position=1)])
    # The copy's text is all in the sentence the original kept: merged into it.
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.KEPT, 2, None), (Outcome.REWORDED, 1, None), (Outcome.MERGED, 3, 1)]


def test_both_copies_of_a_sentence_reworded_alike_keep_their_claims_in_place() -> None:
    previous = [Previous(id=1, text=FACET, position=0), Previous(id=2, text=WEB, position=1),
                Previous(id=3, text=FACET, position=2)]
    reworded = FACET.replace("一个重要的", "一个关键的")
    sentences = [Sentence(text=reworded, position=0), Sentence(text=WEB, position=1), Sentence(text=reworded, position=2)]
    plan = match_claims(previous, sentences)
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [
        (Outcome.REWORDED, 1), (Outcome.KEPT, 2), (Outcome.REWORDED, 3)]


def test_a_short_chinese_claim_cut_at_its_comma_in_its_place_is_split_and_keeps_the_claim_on_the_first_piece() -> None:
    previous = [Previous(id=1, text="奖励模型需要校准，且评测必须可复现", position=0),
                Previous(id=2, text="多轮交互是必要条件", position=1)]
    sentences = [Sentence(text="奖励模型需要校准", position=0), Sentence(text="评测必须可复现", position=1),
                 Sentence(text="多轮交互是必要条件", position=2)]
    plan = match_claims(previous, sentences)
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.SPLIT, 1, None), (Outcome.NEW, None, 1), (Outcome.KEPT, 2, None)]


def test_two_other_short_sentences_in_a_short_claims_place_are_new() -> None:
    previous = [Previous(id=1, text="奖励模型需要校准，且评测必须可复现", position=0),
                Previous(id=2, text="多轮交互是必要条件", position=1)]
    sentences = [Sentence(text="奖励模型很重要", position=0), Sentence(text="评测结果很难复现", position=1),
                 Sentence(text="多轮交互是必要条件", position=2)]
    plan = match_claims(previous, sentences)
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [
        (Outcome.NEW, None), (Outcome.NEW, None), (Outcome.KEPT, 2), (Outcome.ORPHANED, 1)]


def test_two_short_chinese_claims_written_as_one_sentence_are_merged_keeping_the_first() -> None:
    previous = [Previous(id=1, text="奖励模型需要校准", position=0), Previous(id=2, text="评测必须可复现", position=1),
                Previous(id=3, text="多轮交互是必要条件", position=2)]
    sentences = [Sentence(text="奖励模型需要校准，且评测必须可复现", position=0), Sentence(text="多轮交互是必要条件", position=1)]
    plan = match_claims(previous, sentences)
    assert [(m.outcome, m.claim_id, m.related) for m in plan.matches] == [
        (Outcome.REWORDED, 1, None), (Outcome.KEPT, 3, None), (Outcome.MERGED, 2, 1)]


@pytest.mark.parametrize(("old", "new"), [
    ("奖励模型需要校准", "奖励模型必须校准"),  # a modal verb for its synonym
    ("评测必须可复现", "评测需要可复现"),
    ("该方法通常有效", "该方法往往有效"),  # a frequency word
    ("奖励信号十分稀疏", "奖励信号极其稀疏"),  # a degree word
    ("智能体可以调用工具", "智能体能够调用工具"),
    ("Rewards must be verifiable", "Rewards have to be verifiable"),
    ("Agents often fail", "Agents typically fail"),
])
def test_a_short_sentence_reworded_with_a_word_saying_the_same_keeps_its_claim(old: str, new: str) -> None:
    plan = match_claims([Previous(id=1, text=old, position=0)], [Sentence(text=new, position=0)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.REWORDED, 1)]


@pytest.mark.parametrize(("old", "new"), [
    ("奖励模型需要校准", "奖励模型需要剪枝"),  # the same modal verb, another subject
    ("奖励模型需要校准", "策略模型必须校准"),  # the synonym and another subject at once
    ("智能体可能需要记忆", "智能体必须需要记忆"),  # may and must say different things
    ("Rewards must be verifiable", "Critics must be verifiable"),
])
def test_a_short_sentence_with_another_subject_beside_a_word_saying_the_same_is_a_new_claim(old: str, new: str) -> None:
    plan = match_claims([Previous(id=1, text=old, position=0)], [Sentence(text=new, position=0)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.NEW, None), (Outcome.ORPHANED, 1)]


def test_two_short_claims_differing_only_by_their_subject_keep_their_own_sentences_when_both_are_reworded() -> None:
    previous = [Previous(id=1, text="智能体需要记忆模块", position=0), Previous(id=2, text="智能体需要规划模块", position=1)]
    sentences = [Sentence(text="智能体必须规划模块", position=0), Sentence(text="智能体必须记忆模块", position=1)]
    plan = match_claims(previous, sentences)
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.REWORDED, 2), (Outcome.REWORDED, 1)]


@pytest.mark.parametrize(("reworded", "outcome"), [
    ("实验只在单一环境上进行，没有跨环境验证", Outcome.KEPT),
    ("实验只在单一环境上进行，且没有跨环境验证", Outcome.REWORDED),  # both reworded alike
])
def test_two_claims_stating_the_same_with_other_citations_keep_their_own_sentences_when_swapped(
        reworded: str, outcome: Outcome) -> None:
    statement = "实验只在单一环境上进行，没有跨环境验证"
    previous = [Previous(id=1, text=statement, position=0, written=f"{statement}（来源：AlphaWork，§1）"),
                Previous(id=2, text=statement, position=1, written=f"{statement}（来源：BetaWork，§2）")]
    plan = match_claims(previous, [Sentence(text=reworded, position=0, written=f"{reworded}（来源：BetaWork，§2）"),
                                   Sentence(text=reworded, position=1, written=f"{reworded}（来源：AlphaWork，§1）")])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(outcome, 2), (outcome, 1)]


def test_of_two_claims_stating_the_same_with_other_citations_the_one_whose_sentence_went_is_orphaned() -> None:
    statement = "实验只在单一环境上进行，没有跨环境验证"
    alpha, beta = f"{statement}（来源：AlphaWork，§1）", f"{statement}（来源：BetaWork，§2）"
    previous = [Previous(id=1, text=statement, position=0, written=alpha),
                Previous(id=2, text=statement, position=1, written=beta)]
    plan = match_claims(previous, [Sentence(text=statement, position=0, written=beta)])
    assert [(m.outcome, m.claim_id) for m in plan.matches] == [(Outcome.KEPT, 2), (Outcome.ORPHANED, 1)]
