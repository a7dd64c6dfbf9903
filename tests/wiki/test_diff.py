import re
from html import unescape

from wiki.text.diff import side_by_side, tokenize


def test_chinese_is_tokenised_per_character_and_latin_per_word() -> None:
    assert tokenize("用GRPO更新 policy") == ["用", "GRPO", "更", "新", " ", "policy"]


def test_changed_chinese_word_is_marked_character_by_character() -> None:
    diff = side_by_side("策略梯度更新\n", "策略蒸馏更新\n")
    (row,) = diff.rows
    assert row.kind == "change"
    assert str(row.left) == "策略<del>梯度</del>更新"
    assert str(row.right) == "策略<ins>蒸馏</ins>更新"


def test_latin_words_are_marked_whole() -> None:
    (row,) = side_by_side("uses PPO here", "uses GRPO here").rows
    assert str(row.left) == "uses <del>PPO</del> here"
    assert str(row.right) == "uses <ins>GRPO</ins> here"


def test_everything_is_escaped() -> None:
    old, new = "<b>x</b>", "<script>alert(1)</script> & more"
    (row,) = side_by_side(old, new).rows
    for html, text in ((str(row.left), old), (str(row.right), new)):
        assert "<script" not in html and "<b>" not in html
        marks_removed = re.sub(r"</?(?:del|ins)>", "", html)
        assert "<" not in marks_removed
        assert unescape(marks_removed) == text


def test_long_unchanged_runs_are_folded_and_counts_reported() -> None:
    old = "\n".join(f"line {i}" for i in range(40))
    new = old.replace("line 20", "line twenty") + "\nextra"
    diff = side_by_side(old, new)
    kinds = [row.kind for row in diff.rows]
    assert kinds.count("skip") == 2
    assert (diff.added, diff.removed) == (2, 1)
    assert "insert" in kinds


def test_identical_texts_give_an_empty_diff() -> None:
    assert side_by_side("a\nb", "a\nb").is_empty


def test_token_diffs_stop_at_their_budget_and_mark_the_remaining_lines_whole() -> None:
    import random

    rng = random.Random(3)
    chars = "策略梯度更新环境奖励轨迹模型工具浏览器代理"
    # Lines just under the per-line limit, all changed: one pair spends most of the budget of token comparisons.
    old = "\n".join("".join(rng.choice(chars) for _ in range(3999)) for _ in range(50))
    new = "\n".join("".join(rng.choice(chars) for _ in range(3999)) for _ in range(50))
    changes = [row for row in side_by_side(old, new).rows if row.kind == "change"]
    whole = [row for row in changes if row.left is not None and row.left.count("<del>") == 1 and row.left.startswith("<del>")]
    assert len(changes) == 50
    assert len(whole) == 49


def test_the_most_repetitive_page_the_line_limit_allows_is_diffed() -> None:
    import random

    rng = random.Random(3)
    old = "\n".join(rng.choice(["- x", "", "- y", "text"]) for _ in range(10_000))
    new = "\n".join(rng.choice(["- x", "", "- y", "text"]) for _ in range(10_000))
    diff = side_by_side(old, new)
    assert diff.added and diff.removed


def test_a_small_change_in_a_long_line_is_still_marked_word_by_word() -> None:
    old = "策略" * 1500
    diff = side_by_side(old, old[:-1] + "新")
    change = next(row for row in diff.rows if row.kind == "change")
    assert change.right is not None and "<ins>新</ins>" in change.right
