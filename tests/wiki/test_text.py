from __future__ import annotations

from wiki.search.index import plain_text
from wiki.text.spaces import collapse_spaces


def test_collapse_spaces_makes_every_run_one_space() -> None:
    assert collapse_spaces("  a \t\n\n b  ") == "a b"


def test_collapse_spaces_can_keep_line_breaks() -> None:
    assert collapse_spaces(" a  \t b\n\n\nc ", keep_lines=True) == "a b\nc"


def test_snippet_text_reads_wiki_links_as_the_renderer_does() -> None:
    assert plain_text("See [[Credit Assignment|credit]] and [[GRPO]].") == "See credit and GRPO."
    # Not a link on the page (it spans a line break), so not turned into one in the snippet either.
    assert "[[Credit" in plain_text("See [[Credit\nAssignment]].")
