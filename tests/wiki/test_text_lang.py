"""Which language a piece of text is in, and its Chinese runs (wiki/text/lang.py)."""

from __future__ import annotations

from wiki.text.lang import chinese_runs


def test_a_chinese_example_typed_without_spaces_is_one_run() -> None:
    assert chinese_runs("Citations: （来源：Title，pp.3-4） or （综合：Title）.") == [
        ("Citations: ", False), ("（来源：Title，pp.3-4）", True), (" or ", False), ("（综合：Title）.", True)]


def test_spaces_join_chinese_words_into_one_run_and_belong_to_english_ones_elsewhere() -> None:
    assert chinese_runs(" as in 策略 梯度 or /wiki/信用分配/") == [
        (" as in ", False), ("策略 梯度", True), (" or ", False), ("/wiki/信用分配/", True)]
    assert chinese_runs("plain English") == [("plain English", False)]
    assert chinese_runs("") == []
