"""Whatever an editor types, rendering is refused with a message or renders (timed by benchmarks/markdown_bench.py)."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from wiki import markdown as wiki_markdown
from wiki.devtools.hostile_markdown import ACCEPTED, REFUSED
from wiki.markdown import MarkdownTooComplex


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_pathological_text_is_refused_with_a_message(text: str) -> None:
    with pytest.raises(MarkdownTooComplex) as raised:
        wiki_markdown.check_complexity(text)
    assert str(raised.value)


@pytest.mark.parametrize("text", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_worst_accepted_text_passes_the_check_and_renders(text: str) -> None:
    wiki_markdown.check_complexity(text)
    assert wiki_markdown.render(text, sources={}, existing_pages=frozenset()).html


def test_the_seed_pages_are_within_every_limit(settings: Settings) -> None:
    from pathlib import Path

    paths = sorted((Path(settings.BASE_DIR) / "fixtures" / "pages").glob("*.md"))
    # A moved fixtures folder would otherwise leave nothing to check and the test passing.
    assert paths
    for path in paths:
        wiki_markdown.check_complexity(path.read_text(encoding="utf-8"))
