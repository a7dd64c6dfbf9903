"""Text handling: segments, subject focus and the masked working text.

Every function keeps offsets: the working text has the same length as the
original, with what must not be read (citations, other works' clauses, the
subject's own name) blanked out, so cue offsets point into the original.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from classifier.lexicon import COMMON_TOKENS, PRONOUN, SUBJECT_STOPWORDS

# A source note such as "（来源：…）" or "(Source: …)" names titles, and the
# title never decides.
CITATION = re.compile(r"[（(]\s*(?:来源|综合|出处|参见|(?i:sources?|see|cf\.|via))\s*[：:][^（）()]*[）)]")

# Sentence ends, then the separators of the segments inside a sentence.
# Patterns read over every text open on a character class: the regex engine then skips in one tight loop to
# the next place the class holds, instead of starting the whole pattern at each character. So a full stop is
# taken with the other ends and its exceptions are looked back on from after it.
SENTENCE_END = re.compile(
    r"[。！？!?\n.](?:(?<!\.)|(?<!\b[A-Z]\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<!\bal\.)(?<!etc\.)(?=\s|$))"
)
# A "while" clause starts only where a run of spaces does, and the run is taken whole: tried from inside the
# run, the pattern would re-read the rest of it at every position (20,000 spaces took three seconds).
SEGMENT_END = re.compile(
    r"[；;,\s](?:(?<=[；;])|(?i:(?<=,)(?:\s++(?:while|whereas)\s+|\s+but\s+|\s+however,?\s+)|"
    r"(?<=\s)(?<!\s\s)\s*+(?:while|whereas)\s+))"
)
CLAUSE_END = re.compile(r"[，,；;。！？!?：:\n.](?:(?<!\.)|(?=\s|$))")
CJK = re.compile(r"[\u3400-\u9fff]")
# Counted in runs: one match per word rather than per character.
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
LATIN_RUN = re.compile(r"[A-Za-z]+")
LATIN_WORD = re.compile(r"[A-Za-z](?:[A-Za-z0-9_.+-]*[A-Za-z0-9_+])?")
# Model names ("GPT-4", "Qwen2.5-7B") are not works under discussion.
MODEL_NAME = re.compile(
    r"(?:gpt|qwen|llama|claude|gemini|mistral|glm|nemotron)(?:[-.]?(?:\d+(?:\.\d+)?[a-z]?|turbo|instruct|math|"
    r"coder|pro|mini|chat|o))*"
)

# "它与 A、B 形成“X”与“Y”的对照": the left side takes X, the right side Y.
CONTRAST = re.compile(
    r"(?P<left>[^，。；,;]*?)(?:与|和|(?i:\s(?:and|vs\.?|versus)\s))(?P<right>[^，。；,;“”\"]*?)"
    r"(?:形成|构成|(?i:\s(?:form|forms|illustrate|illustrates|represent|represents)\s(?:a|the)\s))"
    r"\s*[“\"「](?P<a>[^”\"」]+)[”\"」]\s*(?:与|和|(?i:and|versus|vs\.?))\s*[“\"「](?P<b>[^”\"」]+)[”\"」]"
    r"\s*(?:的)?\s*(?:对照|对比|(?i:contrast))"
)
QUOTE = re.compile(r"[“\"「]")


class Segment(NamedTuple):
    """A stretch of text between segment separators; ``sentence`` numbers it."""

    start: int
    end: int
    sentence: int


def is_chinese(text: str) -> bool:
    """Whether the text is mainly Chinese (for the rationale's language);
    source notes, often English titles, do not count."""
    text = mask_citations(text)
    cjk = sum(map(len, CJK_RUN.findall(text)))
    latin = sum(map(len, LATIN_RUN.findall(text)))
    return cjk >= 4 and cjk * 4 >= latin


def mask_citations(text: str) -> str:
    if ":" not in text and "：" not in text:  # every source note has a colon: most texts need no search
        return text
    return CITATION.sub(lambda m: " " * len(m.group()), text)


def segments(text: str) -> list[Segment]:
    """Sentences split further at ；/; and at "while", "whereas", ", but"."""
    result: list[Segment] = []
    start = 0
    sentence = 0
    # A separator found in a sentence is found in the whole text too: with none there, no sentence is searched.
    separated = SEGMENT_END.search(text) is not None
    for end_match in [*SENTENCE_END.finditer(text), None]:
        end = end_match.end() if end_match else len(text)
        if end <= start:
            continue
        seg_start = start
        for sep in SEGMENT_END.finditer(text, start, end) if separated else ():
            if sep.start() > seg_start:
                result.append(Segment(seg_start, sep.start(), sentence))
            seg_start = sep.end()
        if text[seg_start:end].strip():
            result.append(Segment(seg_start, end, sentence))
        sentence += 1
        start = end
    return result


def _is_name_like(token: str) -> bool:
    """A Latin token that names a work rather than a concept."""
    low = token.lower()
    if low in COMMON_TOKENS or MODEL_NAME.fullmatch(low):
        return False
    if re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|\d|-rl\b", token):
        return True
    return len(token) >= 2 and token.isupper()


def _other_name_in(text: str, subject_tokens: set[str]) -> bool:
    return any(
        _is_name_like(tok) and tok.lower() not in subject_tokens for tok in LATIN_WORD.findall(text)
    )


def _topic_is_other_name(text: str, subject_tokens: set[str]) -> bool:
    """Whether the clause opens on the name of another work ("Cua 提供…")."""
    m = re.match(r"\s*([A-Za-z][A-Za-z0-9_.+-]*)(\s*)(.?)", text)
    if not m or m.group(1).lower() in subject_tokens:
        return False
    token, follower = m.group(1), m.group(3)
    if _is_name_like(token):
        return True
    return token[0].isupper() and token.lower() not in COMMON_TOKENS and bool(CJK.match(follower))


SUBJECT_SPLIT = re.compile(r"[\s、，,/]+|(?<=[\u3400-\u9fff])(?=[A-Za-z])|(?<=[A-Za-z])(?=[\u3400-\u9fff])")


def _subject_parts(subject: str) -> list[str]:
    return [p for p in SUBJECT_SPLIT.split(subject) if p and p.lower() not in SUBJECT_STOPWORDS]


def subject_tokens(subject: str) -> list[str]:
    return [p.lower() for p in _subject_parts(subject)]


# A plain English word of a descriptive subject ("Web agent DPO from
# environment feedback") names nothing; only the whole subject or its
# name-like tokens ("CPO", "WebRL") point at the work.
PLAIN_WORD = re.compile(r"[A-Za-z][a-z]*")


def _weak_tokens(subject: str) -> frozenset[str]:
    parts = _subject_parts(subject)
    if len(parts) < 2:
        return frozenset()
    return frozenset(p.lower() for p in parts if PLAIN_WORD.fullmatch(p) or p.lower() in COMMON_TOKENS)


@lru_cache(maxsize=4096)
def name_pattern(token: str) -> re.Pattern[str]:
    """``token`` as a whole name, in any case (kept compiled: a subject is looked for in every segment)."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![A-Za-z0-9])", re.IGNORECASE)


def _mention_score(seg_text: str, subject: str, tokens: list[str], weak: frozenset[str] = frozenset()) -> float:
    if name_pattern(subject).search(seg_text):
        return len(tokens) + 1.0
    score = 0.0
    for token in tokens:
        if name_pattern(token).search(seg_text):
            score += 0.3 if token in COMMON_TOKENS or len(token) < 3 else 0.1 if token in weak else 1.0
    return score


def _contrast_side(text: str, seg: Segment, subject: str, tokens: list[str]) -> tuple[int, int] | None:
    """The contrast term that belongs to the subject, when the segment is a
    contrast sentence; a pronoun on the left carries the previous subject."""
    # A contrast names its terms in quotes; without one, no need to search.
    if not QUOTE.search(text, seg.start, seg.end):
        return None
    m = CONTRAST.search(text, seg.start, seg.end)
    if not m:
        return None
    left = _mention_score(m.group("left"), subject, tokens)
    right = _mention_score(m.group("right"), subject, tokens)
    if right > left:
        return m.span("b")
    if left > 0 or PRONOUN.match(m.group("left")):
        return m.span("a")
    return None


def focus(text: str, subject: str | None, *, chinese: bool | None = None) -> list[tuple[int, int]]:
    """The ranges of ``text`` that speak about ``subject``.

    Without a subject, or when the subject is never named, the whole text.
    Otherwise the segments naming it best, each carried on through the
    following segments until one names another work (inside the sentence)
    or opens on another work's name (in a later sentence).
    """
    if not subject or not subject.strip():
        return [(0, len(text))]
    subject = subject.strip()
    tokens = subject_tokens(subject)
    own = set(tokens) | {subject.lower()}
    segs = segments(text)
    weak = _weak_tokens(subject)
    scores = [_mention_score(text[s.start:s.end], subject, tokens, weak) for s in segs]
    best = max(scores, default=0.0)
    if best <= 0.3 or (weak and best < 1.0):
        return [(0, len(text))]
    ranges: list[tuple[int, int]] = []
    taken: set[int] = set()
    for i, seg in enumerate(segs):
        if scores[i] < best or i in taken:
            continue
        taken.add(i)
        side = _contrast_side(text, seg, subject, tokens)
        ranges.append(side if side else (seg.start, seg.end))
        for j in range(i + 1, len(segs)):
            nxt = segs[j]
            body = text[nxt.start:nxt.end]
            if scores[j] > 0.3 and scores[j] < best:
                break
            if nxt.sentence == seg.sentence:
                stop = _other_name_in(body, own) and not PRONOUN.match(body)
            else:
                stop = _topic_is_other_name(body, own)
            if stop or j in taken:
                break
            taken.add(j)
            side = _contrast_side(text, nxt, "\u0000", []) if PRONOUN.match(body) else None
            ranges.append(side if side else (nxt.start, nxt.end))
    first = min(taken)
    if chinese is None:
        chinese = is_chinese(text)
    if not chinese and not any(
        _topic_is_other_name(text[s.start:s.end], own) for s in segs[:first]
    ):
        # An English abstract names its work after setting the problem;
        # the sentences before the name are about the same work.
        ranges.append((0, segs[first].start))
    return sorted(ranges)


def working_text(text: str, ranges: list[tuple[int, int]]) -> str:
    """``text`` with citations and everything outside ``ranges`` blanked;
    outside text becomes a newline at each end with spaces between: the
    newlines end sentences and clauses, so no negation reaches across a gap,
    and a long gap is two clause ends rather than one per character. Names
    stay: the lexicon's name cues make them inert."""
    masked = mask_citations(text)
    pieces: list[str] = []
    reached = 0
    for start, end in sorted(ranges):
        if start > reached:
            pieces.append(_gap(start - reached))
        if end > reached:
            pieces.append(masked[max(start, reached):end])
            reached = end
    pieces.append(_gap(len(text) - reached))
    return "".join(pieces)


def _gap(length: int) -> str:
    return "\n" * length if length <= 2 else "\n" + " " * (length - 2) + "\n"
