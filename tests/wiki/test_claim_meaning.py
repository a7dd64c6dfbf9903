"""A verified claim whose edit is small but changes what it says (a negation, an opposite, a number) asks for
verification again, keeping its identity; a small edit that says the same keeps it verified."""

from __future__ import annotations

import pytest

from tests.factories import make_page
from wiki.models import Claim, ClaimRevision, Page
from wiki.services.claims import claim_set_status
from wiki.services.pages import page_save_revision
from wiki.text.claim_matching import meaning_changed

SENTENCES = [
    "SkillForge 是严格 Agentic RL 的正例，因为它用 GRPO 更新策略",
    "StarHarness 在 ALFWorld 上的成功率提升了 3 个百分点",
    "The harness does improve the agent without any update of its weights",
]


@pytest.mark.parametrize(("old", "new"), [
    (SENTENCES[0], SENTENCES[0].replace("正例", "反例")),
    (SENTENCES[0], SENTENCES[0].replace("是严格", "不是严格")),
    (SENTENCES[0], SENTENCES[0].replace("是严格", "是非严格")),
    (SENTENCES[1], SENTENCES[1].replace("3", "8")),
    (SENTENCES[1], SENTENCES[1].replace("提升", "下降")),
    (SENTENCES[2], SENTENCES[2].replace("does improve", "does not improve")),
    (SENTENCES[2], SENTENCES[2].replace("does improve", "doesn't improve")),
    ("FlashREINFORCE is strict Agentic RL", "FlashREINFORCE is non-strict Agentic RL"),
])
def test_a_negation_an_opposite_or_a_number_changes_what_a_sentence_says(old: str, new: str) -> None:
    assert meaning_changed(old, new) and meaning_changed(new, old)


@pytest.mark.parametrize(("old", "new"), [
    ("GRPO 训练在该环境中成功收敛", "GRPO 训练在该环境中失败收敛"),
    ("该奖励设计有效", "该奖励设计无效"),
    ("工具调用提高了成功率", "工具调用降低了成功率"),
    ("工具调用增加了交互轮数", "工具调用减少了交互轮数"),
    ("Tree-GRPO 优于 PPO", "Tree-GRPO 劣于 PPO"),
    ("A 的回报大于 B", "A 的回报小于 B"),
    ("结论正确", "结论错误"),
    ("这是单轮 RL", "这是多轮 RL"),
    ("该方法属于在线 RL", "该方法属于离线 RL"),
    ("The method increased the success rate", "The method decreased the success rate"),
    ("Each rollout ends in success", "Each rollout ends in failure"),
    ("The agent succeeds on WebArena", "The agent fails on WebArena"),
    ("Tree-GRPO outperformed PPO", "Tree-GRPO underperformed PPO"),
    ("The critic is effective", "The critic is ineffective"),
    ("The update is stable", "The update is unstable"),
    ("The reward is positive", "The reward is negative"),
    ("Training is on-policy", "Training is off-policy"),
])
def test_a_word_swapped_for_its_opposite_changes_what_a_sentence_says(old: str, new: str) -> None:
    assert meaning_changed(old, new) and meaning_changed(new, old)


@pytest.mark.parametrize(("old", "new"), [
    ("工具调用提升了成功率", "工具调用提高了成功率"),  # two words of one side
    ("The reward increases with the horizon", "The reward increased with the horizon"),  # another inflection
    ("但是没有更新策略", "不过没有更新策略"),  # 不 of 不过 negates nothing
    ("Tree-GRPO outperforms PPO", "Tree-GRPO outperformed PPO"),
])
def test_another_word_or_form_of_the_same_side_leaves_what_it_says(old: str, new: str) -> None:
    assert not meaning_changed(old, new)


@pytest.mark.parametrize(("old", "new"), [
    (SENTENCES[0], SENTENCES[0].replace("因为", "因为，")),
    (SENTENCES[1], SENTENCES[1].replace("提升了", "提升")),
    (SENTENCES[1], SENTENCES[1].replace("3", "３")),  # a full-width digit is the same number
    (SENTENCES[2], SENTENCES[2].replace("improve", "imporve")),
    ("这一结论很重要", "这一结论非常重要"),  # 非 of 非常 negates nothing
])
def test_a_typo_a_qualifier_or_another_width_leaves_what_it_says(old: str, new: str) -> None:
    assert not meaning_changed(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("Each rollout ends in sucess on WebArena", "Each rollout ends in success on WebArena"),  # a letter dropped
    ("The run was sucessful", "The run was successful"),
    ("The agent faild on OSWorld", "The agent failed on OSWorld"),
    ("Tree-GRPO outperfroms PPO", "Tree-GRPO outperforms PPO"),  # two letters swapped
    ("The variance is lowrr than PPO's", "The variance is lower than PPO's"),  # a letter replaced
    ("The critic is efective", "The critic is effective"),
])
def test_a_word_of_an_opposite_misspelt_or_its_typo_fixed_leaves_what_it_says(old: str, new: str) -> None:
    assert not meaning_changed(old, new) and not meaning_changed(new, old)


@pytest.mark.parametrize(("old", "new"), [
    ("Each rollout ends in sucess on WebArena", "Each rollout ends in failure on WebArena"),  # a flip, misspelt before
    ("The run was successful", "The run was unsuccessful"),  # no mark, but two letters added
    ("The critic is effective", "The critic is ineffective"),  # a mark one letter from a mark is no misspelling
    ("The agent does not succeed", "The agent does now succeed"),  # a short word one letter away is another word
])
def test_a_real_flip_near_a_misspelling_still_changes_what_it_says(old: str, new: str) -> None:
    assert meaning_changed(old, new) and meaning_changed(new, old)


def _verified(sentence: str) -> tuple[Page, Claim]:
    page = make_page(slug="meaning", title="Meaning", body=f"## 要点\n\n- {sentence}\n")
    return page, claim_set_status(claim=Claim.objects.get(page=page), status="verified")


@pytest.mark.django_db
@pytest.mark.parametrize(("old", "new"), [
    (SENTENCES[0], SENTENCES[0].replace("正例", "反例")),
    (SENTENCES[0], SENTENCES[0].replace("是严格", "不是严格")),
    (SENTENCES[1], SENTENCES[1].replace("3", "8")),
    (SENTENCES[2], SENTENCES[2].replace("does improve", "does not improve")),
    (SENTENCES[1], SENTENCES[1].replace("提升", "降低")),
    ("FACET 用 verifier 筛选成功轨迹后做 SFT", "FACET 用 verifier 筛选失败轨迹后做 SFT"),
    ("Tree-GRPO is trained on-policy on WebShop", "Tree-GRPO is trained off-policy on WebShop"),
])
def test_a_verified_claim_edited_to_say_otherwise_needs_verification_again_and_keeps_its_identity(
        old: str, new: str) -> None:
    page, claim = _verified(old)
    revision = page_save_revision(slug=page.slug, title=page.title, body=f"## 要点\n\n- {new}\n", base_revision=1)
    claim.refresh_from_db()
    assert (claim.text, claim.status, claim.is_orphaned) == (new, "needs_verification", False)
    entry = ClaimRevision.objects.get(page_revision=revision, claim=claim)
    assert entry.reason == "Verified before; needs verification again: a negation, an opposite or a number in it changed."


@pytest.mark.django_db
def test_a_verified_claim_with_a_typo_fixed_stays_verified() -> None:
    page, claim = _verified(SENTENCES[2].replace("improve", "imporve"))
    page_save_revision(slug=page.slug, title=page.title, body=f"## 要点\n\n- {SENTENCES[2]}\n", base_revision=1)
    claim.refresh_from_db()
    assert (claim.text, claim.status) == (SENTENCES[2], "verified")


@pytest.mark.django_db
def test_a_verified_claim_with_a_misspelt_opposite_fixed_stays_verified_and_a_flip_does_not() -> None:
    page, claim = _verified("The agent reaches sucess on most WebArena tasks")
    page_save_revision(slug=page.slug, title=page.title,
                       body="## 要点\n\n- The agent reaches success on most WebArena tasks\n", base_revision=1)
    claim.refresh_from_db()
    assert (claim.text, claim.status) == ("The agent reaches success on most WebArena tasks", "verified")

    page_save_revision(slug=page.slug, title=page.title,
                       body="## 要点\n\n- The agent reaches failure on most WebArena tasks\n", base_revision=2)
    claim.refresh_from_db()
    assert (claim.text, claim.status) == ("The agent reaches failure on most WebArena tasks", "needs_verification")
