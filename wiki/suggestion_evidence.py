"""What a suggestion's evidence weighed, as the cards show it: the phrases highlighted in the text read, each titled
with what it points to and its weight, and the phrases that weighed most towards the suggested mechanism."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from classifier import Span, Suggestion
from classifier.taxonomy import Fact
from wiki.taxonomy import fact_label, mechanism_label

# How many of the phrases that weighed most towards the suggested mechanism a suggestion lists, and the least weight
# one must have to be listed (a lighter one decided nothing; the highlights still show it).
STRONGEST = 6
LEAST_LISTED = 0.05


def strongest(suggestion: Suggestion, limit: int = STRONGEST) -> list[Span]:
    """The phrases that weighed most towards the suggested mechanism, heaviest first, each once (where it
    weighed most).

    A phrase inside a longer one that also weighed towards it is part of that phrase, its weight added to the
    longer one's: the character pairs a Chinese text is also read by are listed as the cue they sit in ("强化学习",
    not "化学" beside it), and "learning" as "reinforcement learning". Of several phrases holding it, the longest
    takes it, then the one that starts first.

    In O(n log n) for n spans: a work cited by thousands of claims has thousands, and checking each against every
    phrase took seconds.
    """
    decides = f"mechanism:{suggestion.mechanism.value}"
    spans = [span for span in suggestion.evidence if span.decides == decides and span.contribution > 0]
    # The order spans are taken in: the longest first, then the earliest; of spans over the same characters, the one
    # the classifier gave first (the sort is stable).
    taken = sorted(spans, key=lambda span: (span.start - span.end, span.start))
    # A span is a phrase of its own when no span taken before it holds it. By start, the longer first, a span is held
    # by one before it exactly when one before it ends at or after its end.
    by_start = sorted(range(len(taken)), key=lambda i: (taken[i].start, -taken[i].end, i))
    phrase_rank: dict[int, int] = {}  # a phrase's place in ``taken`` → its place among the phrases by start
    furthest = -1
    for i in by_start:
        if taken[i].end > furthest:
            phrase_rank[i] = len(phrase_rank)
        furthest = max(furthest, taken[i].end)
    # Phrases never hold one another: by start, their ends rise too, and those holding a span are a run of them.
    phrases = [taken[i] for i in sorted(phrase_rank, key=phrase_rank.__getitem__)]
    starts, ends = [p.start for p in phrases], [p.end for p in phrases]
    first_taken = _FirstInRange([(p.start - p.end, p.start) for p in phrases])
    weights = [p.contribution for p in phrases]
    for i, span in enumerate(taken):
        if i not in phrase_rank:
            holder = first_taken.index(bisect_left(ends, span.end), bisect_right(starts, span.start))
            weights[holder] += span.contribution
    # As taken, so that of phrases weighing the same the longer, then the earlier, comes first.
    summed = [phrases[rank]._replace(contribution=weights[rank]) for rank in phrase_rank.values()]
    listed: dict[str, Span] = {}
    for phrase in sorted(summed, key=lambda span: -span.contribution):
        if phrase.contribution >= LEAST_LISTED:
            listed.setdefault(phrase.cue.casefold(), phrase)
    return list(listed.values())[:limit]


class _FirstInRange:
    """The place of the least key in any run of ``keys`` (a sparse table: built in O(n log n), asked in O(1))."""

    def __init__(self, keys: Sequence[tuple[int, int]]) -> None:
        self.keys = keys
        self.levels: list[list[int]] = [list(range(len(keys)))]
        width = 1
        while 2 * width <= len(keys):
            below = self.levels[-1]
            self.levels.append(
                [min(below[i], below[i + width], key=keys.__getitem__) for i in range(len(keys) - 2 * width + 1)]
            )
            width *= 2

    def index(self, start: int, stop: int) -> int:
        """The place of the least key in ``keys[start:stop]``, which is not empty."""
        level = (stop - start).bit_length() - 1
        row = self.levels[level]
        return min(row[start], row[stop - (1 << level)], key=self.keys.__getitem__)


def signed_weight(value: float) -> str:
    """A contribution as the cards show it: ``+0.37``, ``−0.04`` (a minus sign, not a hyphen)."""
    return f"{value:+.2f}".replace("-", "\u2212")


def evidence_title(span: Span, suggested: str) -> str:
    """What an evidence span points to and its weight, in the reader's language (a highlight's tooltip).

    A mechanism span's weight counts towards the ``suggested`` mechanism, whichever mechanism its cue names."""
    kind, _colon, key = span.decides.partition(":")
    if kind == "negation":
        return gettext("Negation or contrast")
    if kind == "narrow":
        return gettext("Narrow update target or action space")
    weight = signed_weight(span.contribution)
    if kind == "mechanism" and key != suggested:
        return gettext("A cue of %(label)s (weight %(weight)s towards %(suggested)s)") % {
            "label": mechanism_label(key), "weight": weight, "suggested": mechanism_label(suggested),
        }
    what = gettext("Mechanism: %(label)s") % {"label": mechanism_label(key)} if kind == "mechanism" else fact_label(key)
    if not round(span.contribution, 2):
        return what
    return gettext("%(what)s (weight %(weight)s)") % {"what": what, "weight": weight}


# A highlight's lines: the mechanism first, then the facts in the rubric's order, then negation and narrowness.
_TITLE_ORDER = {f"fact:{fact.value}": rank for rank, fact in enumerate(Fact, start=1)}


def _title_order(span: Span) -> int:
    return 0 if span.decides.startswith("mechanism:") else _TITLE_ORDER.get(span.decides, len(Fact) + 1)


def _precedence(place: tuple[tuple[int, int], list[Span]]) -> tuple[bool, int, float, int]:
    """Which of two overlapping phrases is highlighted: a negation or narrowing mark, then the longer phrase (a
    cue over the character pairs inside it), then the one that weighed more ("验证" over the "的验" beside it)."""
    (start, end), here = place
    marks = any(span.decides.partition(":")[0] in ("negation", "narrow") for span in here)
    return (not marks, start - end, -sum(abs(span.contribution) for span in here), start)


@dataclass(frozen=True)
class Marked:
    """A highlighted phrase of a suggestion's text, what it weighed on, a line each, and whether it was negated."""

    start: int
    end: int
    phrase: str
    lines: tuple[str, ...]
    negated: bool


def marked(text: str, suggestion: Suggestion) -> list[Marked]:
    """The suggestion's evidence spans in ``text``, in the order they stand, each titled with what it points to and
    its weight, a line each where one phrase weighed on several things. Of phrases that overlap, one is kept
    (:func:`_precedence`)."""
    suggested = suggestion.mechanism.value
    places: dict[tuple[int, int], list[Span]] = defaultdict(list)
    for span in suggestion.evidence:
        if 0 <= span.start < span.end <= len(text):
            places[span.start, span.end].append(span)
    # The phrases kept, in the order they stand: they never overlap, so a new one is checked against its neighbours
    # alone (a work cited by thousands of claims has thousands of phrases, and checking each against every one kept
    # took seconds).
    starts: list[int] = []
    chosen: list[tuple[tuple[int, int], list[Span]]] = []
    for place in sorted(places.items(), key=_precedence):
        (start, end), _here = place
        i = bisect_right(starts, start)
        if (i == 0 or chosen[i - 1][0][1] <= start) and (i == len(chosen) or end <= chosen[i][0][0]):
            starts.insert(i, start)
            chosen.insert(i, place)
    return [
        Marked(start, end, text[start:end], tuple(evidence_title(span, suggested) for span in sorted(here, key=_title_order)),
               any(span.negated for span in here))
        for (start, end), here in chosen
    ]


def highlight(text: str, suggestion: Suggestion) -> SafeString:
    """``text`` escaped, with each of the suggestion's evidence phrases (:func:`marked`) in ``<mark>``, titled with
    what it points to and its weight."""
    parts: list[str] = []
    cursor = 0
    for mark in marked(text, suggestion):
        parts.append(escape(text[cursor:mark.start]))
        # A line each, the line break written as a character reference, which ``linebreaksbr`` leaves alone.
        title = "&#10;".join(escape(line) for line in mark.lines)
        parts.append(f'<mark class="{"negated" if mark.negated else ""}" title="{title}">{escape(mark.phrase)}</mark>')
        cursor = mark.end
    parts.append(escape(text[cursor:]))
    return mark_safe("".join(parts))  # noqa: S308 - every part is escaped
