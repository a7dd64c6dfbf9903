"""The patterns read over every text open on a character class; each finds what its plain form finds."""

import json
import re
from pathlib import Path

import pytest

from classifier.features import WORD
from classifier.text import CLAUSE_END, SENTENCE_END

PLAIN = {
    "sentence ends": (SENTENCE_END, r"[。！？!?\n]|\.(?<!\b[A-Z]\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<!\bal\.)(?<!etc\.)(?=\s|$)"),
    "clause ends": (CLAUSE_END, r"[，,；;。！？!?：:\n]|\.(?=\s|$)"),
    "words": (WORD, r"[A-Za-z][A-Za-z-]{2,}|[\u4e00-\u9fff]{2,}"),
}
TEXTS = [
    item["text"] for item in json.loads((Path(__file__).parent / "data" / "classification_dev.json").read_text("utf-8"))
] + [
    "We use e.g. PPO, i.e. an RL method, vs. DPO (Ouyang et al. 2022), etc. U.S. agents. Done.\nNext: 1.5 points.",
    "It ends with a stop.",
    "ab a-b abc-d 强 强化 强化学习。RL-based 智能体",
    "..." + "." * 50 + " x",
]


@pytest.mark.parametrize("name", PLAIN)
def test_a_pattern_finds_what_its_plain_form_finds(name: str) -> None:
    pattern, plain = PLAIN[name][0], re.compile(PLAIN[name][1])
    for text in TEXTS:
        assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in plain.finditer(text)]
