import re
from html import unescape

from wiki.diff import side_by_side, tokenize


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
