"""A stored rationale in the reader's language: the classifier's own one-line reason is recognised word for word and
written again in the reader's language; what an editor wrote is shown as typed."""

from __future__ import annotations

import re

from django.utils.translation import get_language

from classifier.result import EN_FACT, MARK, ZH_FACT, ZH_MARK, ZH_VERDICT, rationale
from classifier.taxonomy import Fact, Mechanism, Verdict


def _classifier_line(chinese: bool) -> re.Pattern[str]:
    """The shape of the classifier's one-line reason in one language (see ``classifier.result.rationale``)."""
    names, marks = (ZH_FACT, ZH_MARK) if chinese else (EN_FACT, MARK)
    mark = "(" + "|".join(re.escape(m) for m in marks.values()) + ")"
    facts = ("，" if chinese else ", ").join(re.escape(names[f]) + ("" if chinese else " ") + mark for f in Fact)
    head = "机制：(.+?)；" if chinese else "(.+?); "
    return re.compile(f"^{head}{facts}(?:；.+|; .+)? → (.+)$", re.S)


_CLASSIFIER_LINES = {chinese: _classifier_line(chinese) for chinese in (False, True)}


def _read_classifier_line(text: str, chinese: bool) -> str | None:
    """``text`` in the reader's language if it is, word for word, the classifier's reason in the language given."""
    found = _CLASSIFIER_LINES[chinese].match(text)
    if found is None:
        return None
    head, *marks, verdict_text = found.groups()
    by_mark = {mark: value for value, mark in (ZH_MARK if chinese else MARK).items()}
    values = {fact: by_mark[mark] for fact, mark in zip(Fact, marks, strict=True)}
    verdicts = {(ZH_VERDICT[v] if chinese else v.label): v for v in Verdict}
    if verdict_text not in verdicts:
        return None
    opening, closing = ("（", "）") if chinese else (" (", ")")
    for mechanism in Mechanism:
        label = mechanism.label_zh if chinese else mechanism.label
        if head == label:
            algorithm = None
        elif head.startswith(label + opening) and head.endswith(closing):
            algorithm = head[len(label + opening):-len(closing)]
        else:
            continue
        args = (mechanism, algorithm, values, verdicts[verdict_text])
        if rationale(*args, chinese=chinese) == text:
            return rationale(*args, chinese=(get_language() or "").startswith("zh"))
    return None


def rationale_for_reader(text: str) -> str:
    """A stored rationale as the reader should see it: the classifier's own one-line reason (recognised word for
    word, in either language) in the reader's language; anything an editor wrote, as typed."""
    line = text.strip()
    for chinese in (False, True):
        if (shown := _read_classifier_line(line, chinese)) is not None:
            return shown
    return text
