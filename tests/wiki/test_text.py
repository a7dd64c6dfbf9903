from __future__ import annotations

from wiki.search.plain import plain_text
from wiki.text.spaces import collapse_spaces


def test_collapse_spaces_makes_every_run_one_space() -> None:
    assert collapse_spaces("  a \t\n\n b  ") == "a b"


def test_collapse_spaces_can_keep_line_breaks() -> None:
    assert collapse_spaces(" a  \t b\n\n\nc ", keep_lines=True) == "a b\nc"


def test_snippet_text_reads_wiki_links_as_the_renderer_does() -> None:
    assert plain_text("See [[Credit Assignment|credit]] and [[GRPO]].") == "See credit and GRPO."
    # Not a link on the page (it spans a line break), so not turned into one in the snippet either.
    assert "[[Credit" in plain_text("See [[Credit\nAssignment]].")


def test_an_excerpt_is_not_cut_at_the_point_of_a_number_or_a_version() -> None:
    from wiki.text.spaces import excerpt

    text = "Reward Placebo Trial 是 reward misspecification 的另一类 failure，它的 hack rate 提高到 0.87 而 CoT 只有 0.13。"

    assert excerpt(text, 86) == "Reward Placebo Trial 是 reward misspecification 的另一类 failure，它的 hack rate 提高到 0.87 而…"
    assert excerpt("MiMo-V2.6 and Qwen3.5 are models that many agent papers train with GRPO", 20) == "MiMo-V2.6 and…"
    assert excerpt("短句。" * 60, 20).endswith("。…")
