"""Whatever an editor types, rendering is refused with a message or finishes in bounded time."""

from __future__ import annotations

import time

import pytest

from wiki import markdown as wiki_markdown
from wiki.markdown import MarkdownTooComplex

REFUSED = {
    "200k [": "[" * 200_000,
    "200k backslashes": "\\" * 200_000,
    "paragraph of 40k <div>": "<div>" * 40_000,
    "50k headings": "# h\n" * 40_000,
    "28k list items": "- item\n" * 28_000,
    "3000 citations": "".join(f"x（来源：T{i}，p.3）\n\n" for i in range(3000)),
    "40 deep nested lists": "\n".join("    " * i + "- x" for i in range(40)),
    "deep quotes": "> " * 500 + "x",
    "10 [ in a 200k paragraph beyond the scan budget": "[" * 11 + "word " * 39_000,
}
# The worst inputs just inside the limits (see wiki/markdown/limits.py).
ACCEPTED = {
    "999 [ in one paragraph": "[" * 999 + "a" * 1002,
    "1 paragraph: 10 [ in 199k chars": "[" * 10 + "word " * 39_000,
    "5000 list items": "\n".join(f"- item {i} " + "word " * 6 for i in range(5000))[:200_000],
    "2000 citations": "\n\n".join("（来源：X，p.3）" * 1000 for _ in range(2)),
    "1000 headings": "\n".join(f"## heading {i}\n" + "text " * 30 for i in range(1000))[:200_000],
    "lists 32 deep": "\n".join("    " * (i % 32) + "- x" for i in range(2500)),
    "20 paragraphs of 1000 &amp;": "\n\n".join("&amp;" * 1000 for _ in range(20)),
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_pathological_text_is_refused_with_a_message(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(MarkdownTooComplex) as raised:
        wiki_markdown.check_complexity(text)
    assert str(raised.value)
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("text", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_worst_accepted_text_renders_in_bounded_time(text: str) -> None:
    started = time.perf_counter()
    result = wiki_markdown.render(text, sources={}, existing_pages=frozenset())
    elapsed = time.perf_counter() - started
    assert result.html
    # Measured at 0.3-0.9 s on one core; the bound leaves room for a busy test machine.
    assert elapsed < 4.0


def test_the_seed_pages_are_within_every_limit(settings) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    paths = sorted((Path(settings.BASE_DIR) / "fixtures" / "pages").glob("*.md"))
    # A moved fixtures folder would otherwise leave nothing to check and the test passing.
    assert paths
    for path in paths:
        wiki_markdown.check_complexity(path.read_text(encoding="utf-8"))
