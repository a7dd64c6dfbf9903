"""The cue scan's dispatch on a match's first two characters finds exactly what trying every cue would."""

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from classifier.lexicon import CUES, scan
from classifier.lexicon.starts import Guarded, first_chars, guarded, prefixes, sre_parse

DEV_SET = Path(__file__).parent / "data" / "classification_dev.json"


def _every_cue(text: str, narrow: bool) -> list[tuple[int, int, str]]:
    """The scan done the slow way: wherever a cue can start, every cue of the pass in lexicon order."""
    cues = [(i, c) for i, c in enumerate(CUES) if (c.narrow and c.mechanism is None and not c.facts) is narrow]
    alternation = re.compile("|".join(
        f"(?P<c{i}>{c.pattern})" if c.case_sensitive else f"(?P<c{i}>(?i:{c.pattern}))" for i, c in cues
    ))
    firsts = set().union(*(first_chars(sre_parse.parse(c.pattern))[0] or () for _, c in cues))
    latin = re.escape("".join(sorted(ch for ch in firsts if ch.isascii())))
    other = re.escape("".join(sorted(ch for ch in firsts if not ch.isascii())))
    # A cue opening on a Latin character is looked for only where a word starts.
    starts = re.compile(rf"(?<![A-Za-z0-9_])(?i:[{latin}])|[{other}]")
    found, reached = [], 0
    for start in starts.finditer(text):
        # A start that .lower() leaves apart from the ASCII letter matching folds it onto is passed over.
        if start.start() < reached or text[start.start()].lower() not in firsts:
            continue
        m = alternation.match(text, start.start())
        if m is not None:
            found.append((m.start(), m.end(), m.lastgroup or ""))
            reached = m.end()
    return found


def _texts() -> list[str]:
    texts = [item["text"] for item in json.loads(DEV_SET.read_text(encoding="utf-8"))]
    return [
        *texts,
        "We train the web agent with GRPO and PPO; RLHF, DPO and rejection sampling fine-tuning are baselines.",
        # Characters that case-insensitive matching folds onto ASCII letters: the Kelvin sign, dotless ı, long ſ.
        "We \u212aeep the agent, fıne-tune it with reınforcement learning and ſearch over ſtates with MCTS.",
        "RL\u0130 and r\u0130 and Rſ: odd pairs at a cue's start.",
    ]


@pytest.mark.parametrize("text", _texts())
def test_the_scan_finds_what_every_cue_tried_everywhere_finds(text: str) -> None:
    found = [(m.start(), m.end(), m.lastgroup or "") for m in scan(text)]
    assert found == _every_cue(text, narrow=False) + _every_cue(text, narrow=True)


@pytest.mark.parametrize(
    ("pattern", "openings"),
    [
        (r"(?<![A-Za-z0-9_])(?:(?i:rl|re(?:ward)?s?))(?![A-Za-z0-9_])", {"rl", "re"}),
        (r"a{0,3}b", {"aa", "ab", "b"}),
        (r"[ab][cd]", {"ac", "ad", "bc", "bd"}),
        (r"(?:ab)+c", {"ab"}),
        (r"强化学习", {"强化"}),
        (r"r", {"r"}),
        (r"x\w+", None),
    ],
)
def test_a_patterns_openings_are_read_from_its_parse(pattern: str, openings: set[str] | None) -> None:
    assert prefixes(sre_parse.parse(pattern), 2) == openings


GUARDED_TEXTS = [
    "We do not train; the weights are frozen, software frozen, and the policy remains frozen without RL.",
    "Cannot, knot, Never, ſnot, ınstead, İnstead and KNOT: letters folded by case-insensitive matching.",
    "该方法没有更新参数，但是保持冻结；而非微调。It is reward-free, yet instead of PPO it uses search.",
]


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?i:(?<![A-Za-z])(?:not|never|instead of))|are frozen|(?i:-free(?![A-Za-z]))|没有|保持冻结",
        r"但|但是|而(?!非)|(?i:(?<![A-Za-z])(?:but|yet|instead)(?![A-Za-z]))",
        r"(?<![A-Za-z0-9_])(?:knot|software)|(?i:(?<![A-Z])not)",
        r"(?<![0-9])not|(?<![A-Za-z])yet",
    ],
)
@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
@pytest.mark.parametrize("guard_with", [guarded, Guarded])
def test_a_guarded_pattern_matches_where_the_pattern_does(
    pattern: str, flags: int, guard_with: Callable[[re.Pattern[str]], re.Pattern[str] | Guarded]
) -> None:
    plain, guard = re.compile(pattern, flags), guard_with(re.compile(pattern, flags))
    for text in GUARDED_TEXTS:
        for pos in (0, 5, len(text) // 2):
            assert [m.span() for m in guard.finditer(text, pos)] == [m.span() for m in plain.finditer(text, pos)]
