"""Which earlier claim each sentence of an edited page is: plain Python, no Django.

A claim keeps its identity while its sentence is reworded (a typo fixed, a qualifier added, the
punctuation or a citation changed), so its status, questions and contrasts stay attached. Sentences
are compared by their character n-grams, which works for Chinese (no spaces between words), English
and mixed text alike: bigrams of CJK characters, padded trigrams of Latin words and numbers. Scores
are the Dice coefficient of the two multisets; the position in the page breaks ties.

The thresholds were measured on edit pairs built from the wiki's own sentences
(``benchmarks/claim_matching.py``): true rewordings score 0.6 or more, the most similar different
claims below 0.5.

Texts are compared as search reads them (:func:`wiki.search.tokenize.normalize`): full-width letters and digits as
ASCII, Traditional characters as Simplified, Latin letters without accents, so a paragraph run through a converter or
pasted from a source written in Traditional characters keeps its claims.
"""

from __future__ import annotations

import difflib
import enum
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from wiki.search.tokenize import normalize as search_normalize
from wiki.text.claim_words import meaning_marks, misspelt_read_as_written, reworded_as_one

# A sentence reworded within this Dice score of its earlier self keeps the claim.
THRESHOLD = 0.55
# Sentences with fewer n-grams than this are short enough for one shared term to make them look alike:
# they need a higher score to keep a claim.
SHORT_FEATURES = 10
SHORT_THRESHOLD = 0.7
# A short sentence changed in one place by a character (a typo fixed, a character added or dropped, one written as
# two) keeps its claim whatever its score: in six Chinese characters one changed character leaves under
# SHORT_THRESHOLD of the bigrams. Only for sentences of this many letters and digits (the longer of the two), and never
# when a Latin word or number changed.
ONE_CHARACTER_MIN_CHARS = 6
# In a short sentence, a word replaced by another that is neither interchangeable with it nor the same word inflected or
# mistyped (their letters less alike than this) names another subject: ``智能体需要记忆`` → ``智能体需要规划``.
SAME_WORD_RATIO = 0.75
# Split and merge: a piece belongs to a larger sentence when this share of its n-grams is found there.
CONTAINMENT = 0.8
# ... and the pieces together cover at least this share of the larger sentence.
COVERAGE = 0.5
# Pieces shorter than this many n-grams are too short to say where they came from.
MIN_PIECE_FEATURES = 8
# A split written in the claim's place (between the sentences of its neighbours) may reword its pieces more: each
# piece has this share of its n-grams in the claim, and two or more pieces together cover this share of it.
PLACE_CONTAINMENT = 0.6
PLACE_COVERAGE = 0.6
# ... and, being in the claim's place, may be shorter than elsewhere: a short Chinese sentence cut at its comma
# (``奖励模型需要校准，且评测必须可复现``) gives pieces of six or seven bigrams.
PLACE_MIN_PIECE_FEATURES = 5
# A claim merged into a sentence may be as short as a Chinese sentence of six characters (``奖励模型需要校准`` and
# ``评测必须可复现`` written as one): with CONTAINMENT of its n-grams in the sentence and the parts together covering
# it, a claim that short is still surely one of its parts.
MERGED_MIN_PART_FEATURES = 5
# An orphan is compared with at most this many of its earlier texts besides its current one.
EARLIER_TEXTS = 8
# At most this many characters (letters and digits; punctuation, spacing and case aside) change in a small edit.
SMALL_EDIT_CHARS = 4
# Candidate pairs are found through shared n-grams; one shared by more than this share of a large page's claims
# ("ag", "en") finds no candidates by itself, so a rewrite of a page with thousands of claims stays fast.
COMMON_FEATURE_SHARE = 0.05
COMMON_FEATURE_MIN_CLAIMS = 200

_CJK = "\u2e80-\u2fff\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_RUN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_IS_CJK = re.compile(rf"[{_CJK}]")
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")


class Outcome(enum.StrEnum):
    """What a save does to one claim."""

    KEPT = "kept"  # the same sentence
    REWORDED = "reworded"  # a changed sentence, the same claim
    SPLIT = "split"  # one sentence became several: this one keeps the claim, the others are new
    MERGED = "merged"  # several sentences became one: this claim is orphaned, another keeps the sentence
    RESTORED = "restored"  # a sentence removed earlier is back
    NEW = "new"
    ORPHANED = "orphaned"  # the sentence was removed


@dataclass(frozen=True)
class Previous:
    """A claim the page had before the save: ``text`` is what is compared (citations left out by the caller).

    ``earlier`` are texts an orphan had before (citations left out, most recent first): a sentence equal or close
    to one of them restores the orphan as well as one close to its current text. Only the first
    :data:`EARLIER_TEXTS` different ones count. ``written`` is its text as written, citations included (when the
    caller has it): of claims stating the same with other citations, each keeps the sentence citing as it did.
    """

    id: int
    text: str
    position: int
    orphaned: bool = False
    earlier: tuple[str, ...] = ()
    written: str = ""

    def texts(self) -> list[str]:
        """Its current text, then its different earlier texts (punctuation and spacing aside), most recent first."""
        seen = {normalise(self.text)}
        out = [self.text]
        for text in self.earlier if self.orphaned else ():
            key = normalise(text)
            if key and key not in seen:
                seen.add(key)
                out.append(text)
                if len(out) > EARLIER_TEXTS:
                    break
        return out


@dataclass(frozen=True)
class Sentence:
    text: str
    position: int
    written: str = ""


@dataclass(frozen=True)
class Match:
    """The fate of a sentence (``sentence`` is its index) or of a previous claim (``claim_id``).

    ``related`` is the other claim of a split or merge: for a new piece of a split, the claim it was split
    from; for a claim merged away, the claim that kept the merged sentence.
    """

    outcome: Outcome
    sentence: int | None
    claim_id: int | None
    score: float = 1.0
    related: int | None = None


@dataclass(frozen=True)
class Plan:
    """One match per sentence (in page order), then one per previous claim without a sentence."""

    matches: tuple[Match, ...]

    def for_sentence(self) -> dict[int, Match]:
        return {m.sentence: m for m in self.matches if m.sentence is not None}

    def without_sentence(self) -> list[Match]:
        return [m for m in self.matches if m.sentence is None]


@lru_cache(maxsize=8192)
def folded(text: str) -> str:
    """``text`` as search reads it, case-folded: width, Traditional characters, accents and case change nothing.
    Kept for the texts seen last: a save reads each sentence and each claim's text more than once."""
    return search_normalize(text).casefold()


def normalise(text: str) -> str:
    """Letters and digits only, folded (:func:`folded`): re-punctuating, re-spacing or converting changes nothing."""
    return "".join(_RUN.findall(folded(text)))


def features(text: str) -> Counter[str]:
    """Character bigrams of the CJK text (read as one run, punctuation aside) and each Latin word or number.

    A Latin word counts once, about what a CJK character carries: counting its letters instead lets one shared
    term ("agentic") make two short, different sentences look alike. Words that say the same (``需要`` and ``必须``,
    ``must`` and ``has to``: :data:`wiki.text.claim_words.INTERCHANGEABLE`) are read as one, so that a short sentence
    reworded with them keeps its claim where another subject (``记忆`` → ``规划``) does not.
    """
    runs = _RUN.findall(reworded_as_one(folded(text)))
    cjk = "".join(run for run in runs if _IS_CJK.match(run))
    grams: Counter[str] = Counter(cjk[i : i + 2] for i in range(len(cjk) - 1))
    if len(cjk) == 1:
        grams[cjk] += 1
    grams.update(run for run in runs if not _IS_CJK.match(run))
    return grams


def dice(a: Counter[str], b: Counter[str]) -> float:
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 0.0


def similarity(old: str, new: str) -> float:
    """How alike two sentences are, from 0 to 1."""
    if normalise(old) == normalise(new):
        return 1.0
    return dice(features(old), features(new))


def edit_size(old: str, new: str) -> int:
    """Letters and digits inserted or deleted between two sentences, punctuation, spacing and case aside."""
    a, b = normalise(old), normalise(new)
    if a == b:
        return 0
    same = sum(block.size for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return len(a) + len(b) - 2 * same


def is_small_edit(old: str, new: str) -> bool:
    return edit_size(old, new) <= SMALL_EDIT_CHARS


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _meaning_marks(text: str, other: str) -> tuple[list[str], list[str]]:
    t = folded(text)
    return meaning_marks(misspelt_read_as_written(t, folded(other))), sorted(_NUMBER.findall(t))


def meaning_changed(old: str, new: str) -> bool:
    """Whether an edit of a sentence, however small, changes what it says: a negation or one of a pair of opposites
    added, dropped or swapped (``不是``, ``not``, ``正例`` → ``反例``, ``成功`` → ``失败``, ``higher`` → ``lower``; the
    pairs are :data:`wiki.text.claim_words.OPPOSITES`), or a number changed (``3%`` → ``8%``). A word of an opposite
    misspelt on either side is that word (``sucess`` → ``success`` fixes a typo:
    :func:`wiki.text.claim_words.misspelt_read_as_written`)."""
    return _meaning_marks(old, new) != _meaning_marks(new, old)


def _latin_words(text: str) -> list[str]:
    return sorted(run for run in _RUN.findall(folded(text)) if not _IS_CJK.match(run))


def is_one_character_edit(old: str, new: str) -> bool:
    """The two sentences are the same but in one place, where one character was replaced, added or dropped, or one
    written as two (``很`` → ``非常``), punctuation, spacing and case aside, their Latin words and numbers unchanged
    (``GRPO`` → ``PPO`` names another work, ``3`` → ``8`` another figure)."""
    a, b = normalise(old), normalise(new)
    # Lengths further apart than one character are no such edit: a long sentence is not compared character by character.
    if a == b or abs(len(a) - len(b)) > 1 or max(len(a), len(b)) < ONE_CHARACTER_MIN_CHARS \
            or _latin_words(old) != _latin_words(new):
        return False
    changes = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    return len(changes) == 1 and max(changes[0][2] - changes[0][1], changes[0][4] - changes[0][3]) <= 2 \
        and min(changes[0][2] - changes[0][1], changes[0][4] - changes[0][3]) <= 1


def _tokens(text: str) -> list[str]:
    """Each CJK character and each Latin word of ``text``, folded, interchangeable words read as one
    (:func:`wiki.text.claim_words.reworded_as_one`)."""
    return _TOKEN.findall(reworded_as_one(folded(text)))


def _changed_places(a: Sequence[str], b: Sequence[str]) -> list[tuple[Sequence[str], Sequence[str]]]:
    """The places where token sequence ``b`` differs from ``a``, as (tokens of ``a``, tokens of ``b``); changes one token
    apart are one place (``模型`` → ``型号`` is one word replaced, not ``模`` dropped and ``号`` added)."""
    places: list[list[int]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if places and i1 - places[-1][1] <= 1 and j1 - places[-1][3] <= 1:
            places[-1][1], places[-1][3] = i2, j2
        else:
            places.append([i1, i2, j1, j2])
    return [(a[i1:i2], b[j1:j2]) for i1, i2, j1, j2 in places]


def replaces_a_word(old: str, new: str) -> bool:
    """Whether ``new`` writes, in a place of ``old``, another word instead of one of its words: two Chinese characters
    or more replaced by two or more others (``记忆`` → ``规划``), or one Latin word by another not spelled alike
    (``rewards`` → ``critics``, not ``reward``). Words that say the same (``需要`` → ``必须``,
    :data:`wiki.text.claim_words.INTERCHANGEABLE`) are no other word, nor is a word added, dropped or translated."""
    for x, y in _changed_places(_tokens(old), _tokens(new)):
        if all(_IS_CJK.match(t) for t in (*x, *y)):
            if len(x) >= 2 and len(y) >= 2:
                return True
        # A Chinese character is one token: two letters or more make a Latin word.
        elif len(x) == len(y) == 1 and x[0].isalpha() and y[0].isalpha() and min(len(x[0]), len(y[0])) >= 2 \
                and difflib.SequenceMatcher(None, x[0], y[0], autojunk=False).ratio() < SAME_WORD_RATIO:
            return True
    return False


def char_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """Per-character diff as ``("equal" | "delete" | "insert", text)`` parts, in reading order."""
    parts: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(("equal", old[i1:i2]))
            continue
        if i2 > i1:
            parts.append(("delete", old[i1:i2]))
        if j2 > j1:
            parts.append(("insert", new[j1:j2]))
    return tuple(parts)


@dataclass
class _Side:
    """Items on one side of the match, with their n-grams and relative positions."""

    keys: list[int]
    texts: list[str]
    positions: list[float]
    grams: list[Counter[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grams = [features(text) for text in self.texts]


def _relative(positions: Sequence[int]) -> list[float]:
    top = max(positions, default=0) or 1
    return [p / top for p in positions]


def _candidates(old: _Side, old_open: Iterable[int], new: _Side, new_open: Iterable[int]) -> dict[tuple[int, int], int]:
    """Pairs (old index, new index) sharing at least one n-gram that is not common, with the shared n-gram count."""
    old_open = list(old_open)
    index: dict[str, list[int]] = {}
    for i in old_open:
        for gram in old.grams[i]:
            index.setdefault(gram, []).append(i)
    if len(old_open) >= COMMON_FEATURE_MIN_CLAIMS:
        limit = max(1, int(len(old_open) * COMMON_FEATURE_SHARE))
        index = {gram: olds for gram, olds in index.items() if len(olds) <= limit}
    pairs: dict[tuple[int, int], int] = {}
    for j in new_open:
        shared: Counter[int] = Counter()
        for gram in new.grams[j]:
            shared.update(index.get(gram, ()))
        for i, count in shared.items():
            pairs[(i, j)] = count
    return pairs


def _scored(old: _Side, old_open: set[int], new: _Side, new_open: set[int], threshold: float) -> list[tuple[float, float, int, int]]:
    """(score, distance in the page, old index, new index) of each pair alike enough to be the same claim."""
    scored = []
    for (i, j) in _candidates(old, old_open, new, new_open):
        score = dice(old.grams[i], new.grams[j])
        short = min(old.grams[i].total(), new.grams[j].total()) < SHORT_FEATURES
        if (score >= threshold and not short) or (short and (
                (score >= max(threshold, SHORT_THRESHOLD) and not replaces_a_word(old.texts[i], new.texts[j]))
                or is_one_character_edit(old.texts[i], new.texts[j]))):
            scored.append((score, abs(old.positions[i] - new.positions[j]), i, j))
    return scored


def _contained(piece: Counter[str], whole: Counter[str], *, least: int = MIN_PIECE_FEATURES) -> float:
    """Share of ``piece``'s n-grams found in ``whole``; 0 for pieces too short to tell (under ``least`` n-grams)."""
    size = piece.total()
    return (piece & whole).total() / size if size >= least else 0.0


def _covers(pieces: Iterable[Counter[str]], whole: Counter[str]) -> bool:
    union: Counter[str] = Counter()
    for piece in pieces:
        union |= piece & whole
    return whole.total() > 0 and union.total() / whole.total() >= COVERAGE


def match_claims(
    previous: Sequence[Previous], sentences: Sequence[Sentence], *, threshold: float = THRESHOLD
) -> Plan:
    """Matches the sentences of the edited page to the page's previous claims.

    In order: the same text (punctuation and spacing aside), a current claim's before an orphan's, an orphan's
    current text before its earlier ones; the most similar sentence above ``threshold``, claims orphaned by earlier
    saves (by any of their texts) competing with current ones, so that a sentence coming back (a revert, an earlier
    wording restored) restores its claim; then sentences split from one claim or merged from several (one side keeps
    the claim, the editor is shown the other), and last a claim whose place now holds several sentences carrying
    its text (:func:`_splits_in_place`).
    """
    current = [p for p in previous if not p.orphaned]
    orphans = [p for p in previous if p.orphaned]
    by_sentence: dict[int, Match] = {}
    leftover: dict[int, Match] = {}
    new = _Side(keys=list(range(len(sentences))), texts=[s.text for s in sentences],
                positions=_relative([s.position for s in sentences]))
    new_open = set(range(len(sentences)))
    groups = ((current, Outcome.REWORDED), (orphans, Outcome.RESTORED))
    # One item per text a claim is compared by: a current claim's text, an orphan's current and earlier texts.
    texts = [[(k, text) for k, p in enumerate(group) for text in ([p.text] if group is current else p.texts())]
             for group, _ in groups]
    sides = []
    for (group, _), items in zip(groups, texts, strict=True):
        positions = _relative([p.position for p in group])
        sides.append(_Side(keys=[k for k, _ in items], texts=[t for _, t in items], positions=[positions[k] for k, _ in items]))
    opens = [set(range(len(items))) for items in texts]
    items_of: list[dict[int, list[int]]] = [{} for _ in groups]
    for rank, side in enumerate(sides):
        for i, k in enumerate(side.keys):
            items_of[rank].setdefault(k, []).append(i)

    def take(rank: int, i: int, j: int, match: Match) -> None:
        """Sentence ``j`` is the claim of item ``i``: neither is open any more, nor the claim's other texts."""
        opens[rank].difference_update(items_of[rank][sides[rank].keys[i]])
        new_open.discard(j)
        by_sentence[j] = match

    # The same text first, a current claim before an orphan, an orphan's current text before its earlier ones, nearest
    # in the page when it occurs more than once. The same text as written (citations included) before the same
    # statement: two claims stating one finding of two works keep their own sentences wherever these now stand.
    for rank, ((group, found), old) in enumerate(zip(groups, sides, strict=True)):
        for written in (True, False):
            old_keys = [normalise(group[old.keys[i]].written if items_of[rank][old.keys[i]][0] == i else "")
                        if written else normalise(text) for i, text in enumerate(old.texts)]
            new_keys = [normalise(s.written) if written else normalise(s.text) for s in sentences]
            exact: dict[str, list[int]] = {}
            for i, key in enumerate(old_keys):
                if key:
                    exact.setdefault(key, []).append(i)
            left = Counter(new_keys[j] for j in new_open)
            for j in sorted(new_open):
                key = new_keys[j]
                olds = [i for i in exact.get(key, []) if i in opens[rank]] if key else []
                if not olds:
                    continue
                # Fewer sentences of this text left than claims having it (a sentence written twice, then one copy
                # deleted, wherever it stood): the oldest claims keep them, so that the copy goes and the original
                # stays; an orphan whose current text it is before one that had it earlier.
                rank_of = {old.keys[i]: (items_of[rank][old.keys[i]][0] != i, group[old.keys[i]].id) for i in olds}
                keep = sorted(rank_of.values())[:left[key]]
                olds = [i for i in olds if rank_of[old.keys[i]] in keep]
                left[key] -= 1
                i = min(olds, key=lambda k: (items_of[rank][old.keys[k]][0] != k, abs(old.positions[k] - new.positions[j]), k))
                claim = group[old.keys[i]]
                same = claim.text == sentences[j].text
                take(rank, i, j, Match(Outcome.KEPT if same and found is Outcome.REWORDED else found, j, claim.id))

    # Then the most similar, best score first, current claims and orphans alike (a current claim first on equal
    # scores): a sentence that comes back nearly as an orphan had it is that orphan, not a piece of another claim.
    # Claims having one text (a sentence written twice) tie: the oldest first, as for the same text above, so that a
    # copy reworded where the original was deleted keeps the original's claim.
    # Claims stating the same with other citations tie too: the one citing as the sentence does first.
    copies = [_copy_ranks([group[k].id for k in side.keys], side.texts) for (group, _), side in zip(groups, sides, strict=True)]
    scored = [(-score, rank, -_written_alike(group[old.keys[i]].written if items_of[rank][old.keys[i]][0] == i else "",
                                             sentences[j].written), copies[rank][i], distance, i, j, score)
              for rank, ((group, _), old, old_open) in enumerate(zip(groups, sides, opens, strict=True))
              for score, distance, i, j in _scored(old, old_open, new, new_open, threshold)]
    scored.sort()
    for _, rank, _, _, _, i, j, score in scored:
        if i in opens[rank] and j in new_open:
            take(rank, i, j, Match(groups[rank][1], j, groups[rank][0][sides[rank].keys[i]].id, round(score, 3)))

    restored = {j for j, m in by_sentence.items() if m.outcome is Outcome.RESTORED}
    pairs = _splits_and_merges(current, sides[0], opens[0], new, new_open, by_sentence, leftover, restored)
    _splits_in_place(current, sides[0], opens[0], new, new_open, by_sentence, pairs)
    for i in opens[0]:
        leftover[current[i].id] = Match(Outcome.ORPHANED, None, current[i].id, 0.0)

    for j in new_open:
        by_sentence[j] = Match(Outcome.NEW, j, None, 0.0)
    ordered = [by_sentence[j] for j in range(len(sentences))]
    ordered += sorted(leftover.values(), key=lambda m: m.claim_id or 0)
    return Plan(matches=tuple(ordered))


def _written_alike(old: str, new: str) -> float:
    """How alike a claim's and a sentence's texts are as written, citations included (0 when either is not known)."""
    return dice(features(old), features(new)) if old and new else 0.0


def _copy_ranks(ids: Sequence[int], texts: Sequence[str]) -> list[int]:
    """For each claim's text, how many older claims have that text too (0 for a text no other claim has)."""
    holders: dict[str, set[int]] = {}
    for claim_id, text in zip(ids, texts, strict=True):
        holders.setdefault(normalise(text), set()).add(claim_id)
    return [sorted(holders[normalise(text)]).index(claim_id) for claim_id, text in zip(ids, texts, strict=True)]


def _splits_and_merges(
    group: Sequence[Previous],
    old: _Side,
    old_open: set[int],
    new: _Side,
    new_open: set[int],
    by_sentence: dict[int, Match],
    leftover: dict[int, Match],
    restored: set[int],
) -> Iterable[tuple[int, int]]:
    """``restored`` are the sentences orphans took back: a claim they came out of counts them among its pieces.
    Returns the pairs it compared (open and reworded claims, open and reworded sentences)."""
    index_of = {p.id: i for i, p in enumerate(group)}
    # Only a reworded sentence can be one piece of a split or the sum of a merge; an unchanged one is neither.
    matched_old = {index_of[m.claim_id]: j for j, m in by_sentence.items()
                   if m.claim_id is not None and m.outcome is Outcome.REWORDED}
    pairs = _candidates(old, old_open | set(matched_old), new, new_open | set(matched_old.values()))

    # Split: open sentences that each come from one claim (matched or not), together covering it.
    pieces: dict[int, list[int]] = {}
    for (i, j) in pairs:
        if j in new_open and _contained(new.grams[j], old.grams[i]) >= CONTAINMENT:
            best = pieces.setdefault(i, [])
            best.append(j)
    claimed: set[int] = set()
    for i, js in sorted(pieces.items(), key=lambda item: -len(item[1])):
        js = [j for j in js if j not in claimed]
        if not js:
            continue
        keeper = matched_old.get(i)
        members = js + ([keeper] if keeper is not None else [])
        back = [j for j in restored if _contained(new.grams[j], old.grams[i]) >= CONTAINMENT]
        if not _covers((new.grams[j] for j in members + back), old.grams[i]):
            continue
        if keeper is None:
            # No piece is the claim reworded: the first one in the page keeps it, as where the claim stood.
            keeper = min(js)
            js.remove(keeper)
            old_open.discard(i)
            new_open.discard(keeper)
            claimed.add(keeper)
        score = round(dice(old.grams[i], new.grams[keeper]), 3)
        if js:
            by_sentence[keeper] = Match(Outcome.SPLIT, keeper, group[i].id, score)
        elif by_sentence.get(keeper) is None:
            # One piece covering most of the claim: the claim shortened, not split.
            by_sentence[keeper] = Match(Outcome.REWORDED, keeper, group[i].id, score)
        for j in js:
            new_open.discard(j)
            claimed.add(j)
            by_sentence[j] = Match(Outcome.NEW, j, None, round(dice(old.grams[i], new.grams[j]), 3), related=group[i].id)

    # Merge: open claims that each went into one sentence (matched or not), together covering it.
    matched_new = {j: m for j, m in by_sentence.items() if m.claim_id is not None and m.outcome is Outcome.REWORDED}
    parts: dict[int, list[int]] = {}
    for (i, j) in pairs:
        if (j in new_open or j in matched_new) and i in old_open \
                and _contained(old.grams[i], new.grams[j], least=MERGED_MIN_PART_FEATURES) >= CONTAINMENT:
            parts.setdefault(j, []).append(i)
    for j, is_ in sorted(parts.items(), key=lambda item: -len(item[1])):
        is_ = [i for i in is_ if i in old_open]
        if not is_:
            continue
        keeper_match = matched_new.get(j)
        members = is_ + ([index_of[keeper_match.claim_id]] if keeper_match and keeper_match.claim_id is not None else [])
        if not _covers((old.grams[i] for i in members), new.grams[j]):
            continue
        if keeper_match is None or keeper_match.claim_id is None:
            keeper = max(is_, key=lambda i: ((old.grams[i] & new.grams[j]).total(), -abs(old.positions[i] - new.positions[j])))
            is_.remove(keeper)
            old_open.discard(keeper)
            new_open.discard(j)
            keeper_id = group[keeper].id
            # One claim covering most of the sentence: the claim extended, not merged.
            by_sentence[j] = Match(Outcome.REWORDED, j, keeper_id, round(dice(old.grams[keeper], new.grams[j]), 3))
        else:
            keeper_id = keeper_match.claim_id
        for i in is_:
            old_open.discard(i)
            leftover[group[i].id] = Match(Outcome.MERGED, None, group[i].id, round(dice(old.grams[i], new.grams[j]), 3),
                                          related=keeper_id)
    return pairs.keys()


def _splits_in_place(
    group: Sequence[Previous],
    old: _Side,
    old_open: set[int],
    new: _Side,
    new_open: set[int],
    by_sentence: dict[int, Match],
    pairs: Iterable[tuple[int, int]],
) -> None:
    """A claim whose place (between the sentences its neighbours in the page went to) now holds two or more
    sentences, each mostly made of its text and together carrying most of it: the claim was split, its pieces
    reworded. A piece that is the claim reworded keeps it, else the first piece does; the others are new, split from it.

    Only ``pairs`` are compared, those the split and merge step found sharing an n-gram; a sentence that could be a
    piece of two claims is a piece of the one it holds more of.
    """
    if not new_open:
        return
    index_of = {p.id: i for i, p in enumerate(group)}
    placed = {index_of[m.claim_id]: j for j, m in by_sentence.items() if m.claim_id in index_of}
    reworded = {index_of[m.claim_id]: j for j, m in by_sentence.items()
                if m.claim_id in index_of and m.outcome is Outcome.REWORDED}
    targets = old_open | set(reworded)
    if not targets:
        return
    order = sorted(range(len(group)), key=lambda i: (group[i].position, i))
    rank = {i: r for r, i in enumerate(order)}
    # The sentences before and after each claim's place: those its nearest placed neighbours went to.
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    below, above = -1, len(new.texts)
    for i in order:
        low[i] = below
        below = placed.get(i, below)
    for i in reversed(order):
        high[i] = above
        above = placed.get(i, above)
    best: dict[int, tuple[float, int]] = {}
    for (i, j) in pairs:
        if i not in targets or j not in new_open:
            continue
        share = _contained(new.grams[j], old.grams[i], least=PLACE_MIN_PIECE_FEATURES) if low[i] < j < high[i] else 0.0
        # The claim it holds most of, the earlier in the page on equal shares.
        if share >= PLACE_CONTAINMENT and (share, -rank[i]) > best.get(j, (0.0, 0)):
            best[j] = (share, -rank[i])
    pieces: dict[int, list[int]] = {}
    for j, (_, r) in sorted(best.items()):
        pieces.setdefault(order[-r], []).append(j)
    for i, js in sorted(pieces.items(), key=lambda item: rank[item[0]]):
        keeper = reworded.get(i)
        if keeper is not None and not low[i] < keeper < high[i]:
            continue
        members = sorted(js + ([keeper] if keeper is not None else []))
        union: Counter[str] = Counter()
        for j in members:
            union |= new.grams[j] & old.grams[i]
        if len(members) < 2 or union.total() < PLACE_COVERAGE * old.grams[i].total():
            continue
        if keeper is None:
            keeper = members[0]
            old_open.discard(i)
        by_sentence[keeper] = Match(Outcome.SPLIT, keeper, group[i].id, round(dice(old.grams[i], new.grams[keeper]), 3))
        for j in members:
            if j != keeper:
                new_open.discard(j)
                by_sentence[j] = Match(Outcome.NEW, j, None, round(dice(old.grams[i], new.grams[j]), 3), related=group[i].id)
        new_open.discard(keeper)
