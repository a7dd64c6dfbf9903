"""The patterns read over every text open on a character class; each finds what its plain form finds."""

import json
import re
from pathlib import Path

import pytest

from classifier.features import WORD
from classifier.text import CLAUSE_END, LATIN_WORD, SEGMENT_END, SENTENCE_END

PLAIN = {
    "sentence ends": (
        SENTENCE_END, r"[。！？!?\n]|\.(?<!\b[A-Z]\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<!\bal\.)(?<!etc\.)(?=\s|$)"
    ),
    "clause ends": (CLAUSE_END, r"[，,；;。！？!?：:\n]|\.(?=\s|$)"),
    "words": (WORD, r"[A-Za-z][A-Za-z-]{2,}|[\u4e00-\u9fff]{2,}"),
    "segment separators": (SEGMENT_END, r"[；;]|(?i:,?(?<!\s)\s++(?:while|whereas)\s+|,\s+but\s+|,\s+however,?\s+)"),
    "Latin words": (LATIN_WORD, r"[A-Za-z][A-Za-z0-9_.+-]*[A-Za-z0-9_+]|[A-Za-z]"),
}
TEXTS = [
    item["text"] for item in json.loads((Path(__file__).parent / "data" / "classification_dev.json").read_text("utf-8"))
] + [
    "We use e.g. PPO, i.e. an RL method, vs. DPO (Ouyang et al. 2022), etc. U.S. agents. Done.\nNext: 1.5 points.",
    "It ends with a stop.",
    "ab a-b abc-d 强 强化 强化学习。RL-based 智能体",
    "..." + "." * 50 + " x",
    "It works,  while others fail; it trains, but slowly, however, well.  Whereas  X,\twhile Y;Z, However, W",
    "Qwen2.5-7B, GPT-4o, a.b-, x+, _y and GRPO-style a",
    " while x,while y, \n while z" + " " * 30 + "while",
]


@pytest.mark.parametrize("name", PLAIN)
def test_a_pattern_finds_what_its_plain_form_finds(name: str) -> None:
    pattern, plain = PLAIN[name][0], re.compile(PLAIN[name][1])
    for text in TEXTS:
        assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in plain.finditer(text)]
