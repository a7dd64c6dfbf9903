"""Words that change how a claim is written but not what it is about, and words that change what it says.

Plain Python, no Django; texts come folded (:func:`wiki.text.claim_matching.folded`: lower-case, Simplified characters,
ASCII letters and digits).

Character n-grams cannot tell ``奖励模型需要校准`` → ``奖励模型必须校准`` (a modal verb swapped for its synonym: the same
claim) from ``智能体需要记忆`` → ``智能体需要规划`` (another subject: another claim): both change two characters of a
short sentence. :data:`INTERCHANGEABLE` lists the words a claim is reworded with — modal verbs, degree and frequency
words, hedges, conjunctions, verbs of use — in groups of words that say the same; matching reads each group as one
word. A group holds no opposites: ``可能`` (may) and ``必须`` (must), ``通常`` (usually) and ``总是`` (always) say different
things and stay apart. Words that read otherwise inside longer words (``大概率``, ``相当于``, ``特别是``, ``于是否``) are
left out.

:data:`OPPOSITES` lists the pairs of words whose swap turns a statement into its opposite (``成功`` → ``失败``,
``outperforms`` → ``underperforms``); with the negations they are the marks a small edit must leave alone to leave
what a claim says alone. Each side is read as one mark, so ``提升`` → ``提高`` or ``increases`` → ``increased`` changes
nothing, and ``提高`` → ``降低`` does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

# Each group: the word the others are read as, then the others. Chinese words match anywhere (no spaces between
# words), Latin ones as whole words; a longer word is tried before a shorter one.
INTERCHANGEABLE: tuple[tuple[str, ...], ...] = (
    ("需要", "必须", "必需", "务必", "须要"),
    ("应该", "应当", "理应"),
    ("可以", "能够"),
    ("可能", "或许", "也许"),
    ("非常", "十分", "极其", "极为", "格外"),
    ("更加", "更为"),
    ("略微", "稍微", "稍稍"),
    ("通常", "往往", "一般", "常常", "经常"),
    ("但是", "然而", "不过", "可是"),
    ("因此", "所以", "因而", "故而"),
    ("并且", "而且"),
    ("例如", "比如", "譬如", "诸如"),
    ("使用", "采用", "利用", "运用"),
    ("must", "has to", "have to", "needs to", "need to"),
    ("should", "ought to"),
    ("may", "might"),
    ("very", "highly", "extremely"),
    ("often", "usually", "typically", "generally", "commonly", "frequently"),
    ("mainly", "mostly", "largely", "primarily", "chiefly"),
    ("especially", "particularly", "notably"),
    ("however", "but", "yet"),
    ("therefore", "thus", "hence", "consequently"),
    ("also", "additionally", "moreover", "furthermore"),
    ("for example", "for instance"),
    ("use", "employ", "utilize", "utilise"),
    ("uses", "employs", "utilizes", "utilises"),
    ("used", "employed", "utilized", "utilised"),
    ("using", "employing", "utilizing", "utilising"),
)

# Pairs of sides: a word of one side swapped for a word of the other says the opposite. Chinese words match anywhere,
# Latin ones (regular expressions, for their inflections) as whole words.
OPPOSITES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("正例",), ("反例",)),
    (("正向", "正面", "positive"), ("负向", "负面", "negative")),
    (("优于", "好于", "更好", "更优", "better", r"outperform(?:s|ed|ing)?"),
     ("劣于", "差于", "更差", "worse", r"underperform(?:s|ed|ing)?")),
    (("最好", "最佳", "最优", "best"), ("最差", "最坏", "worst")),
    (("高于", "大于", "多于", "更高", "更大", "更多", "higher", "greater", "larger", "more"),
     ("低于", "小于", "少于", "更低", "更小", "更少", "lower", "smaller", "less", "fewer")),
    (("提升", "提高", "上升", "增加", "增长", "增强", "改善",
      r"increas(?:e|es|ed|ing)"),
     ("下降", "降低", "减少", "减弱", "恶化",
      r"decreas(?:e|es|ed|ing)", r"reduc(?:e|es|ed|ing)", r"declin(?:e|es|ed|ing)", r"degrad(?:e|es|ed|ing)",
      r"worsen(?:s|ed|ing)?")),
    (("成功", r"success(?:es|ful|fully)?", r"succeed(?:s|ed|ing)?"), ("失败", r"fail(?:s|ed|ing|ures?)?")),
    (("有效", r"effective(?:ly)?"), ("无效", "失效", r"ineffective(?:ly)?")),
    (("正确", r"correct(?:ly)?"), ("错误", r"incorrect(?:ly)?", r"wrong(?:ly)?")),
    (("同策略", r"on[- ]?policy"), ("异策略", "离策略", r"off[- ]?policy")),
    (("在线", "online"), ("离线", "offline")),
    (("单轮", "单步", r"single[- ]?(?:turn|step)"), ("多轮", "多步", r"multi[- ]?(?:turn|step)")),
    (("开源", r"open[- ]?source"), ("闭源", r"closed[- ]?source")),
    (("stable",), ("unstable",)),
    (("possible",), ("impossible",)),
    (("necessary",), ("unnecessary",)),
    (("sufficient",), ("insufficient",)),
    (("likely",), ("unlikely",)),
)

# Compounds in which a negating character negates nothing (非常 "very", 未来 "future", 不过 "but"): read before it.
NOT_NEGATIONS = ("非常", "未来", "不断", "不仅", "不但", "不同", "无论", "不论", "是否", "否则", "不过")
NEGATIONS = (r"[不没未无非否]", r"not", r"no", r"non", r"never", r"none", r"nor", r"neither", r"without", r"cannot",
             r"\w+n't")

_LATIN = re.compile(r"[a-z]")


def _alternative(pattern: str) -> str:
    return rf"\b(?:{pattern})\b" if _LATIN.match(pattern) else pattern


def _trie(words: Iterable[str]) -> str:
    """A regular expression matching any of ``words``, the longest first, written as a tree of their letters: one
    alternation of a hundred words tried at every character of every sentence would slow a large page's save."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, Any]) -> str:
        parts = [re.escape(char) + branch(rest) for char, rest in sorted(node.items()) if char]
        if not parts:
            return ""
        return ("(?:" + "|".join(parts) + ")" + "?") if "" in node else (
            parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")")

    return branch(root)


_CANONICAL = {word: group[0] for group in INTERCHANGEABLE for word in group}
# Two expressions, each opening on its words' letters, which lets the regular expression engine skip ahead to them; a
# Latin word's start is checked on its match (a ``\\b`` before it would be tried at every character).
_REWORDING_CJK = re.compile(_trie(w for w in _CANONICAL if not _LATIN.match(w)))
_REWORDING_LATIN = re.compile(_trie(w for w in _CANONICAL if _LATIN.match(w)) + r"\b")


def _canonical(match: re.Match[str]) -> str:
    return _CANONICAL[match.group(0)]


def _canonical_word(match: re.Match[str]) -> str:
    start = match.start()
    if start and (match.string[start - 1].isalnum() or match.string[start - 1] == "_"):
        return match.group(0)
    return _CANONICAL[match.group(0)]


# One named group per side (``p3`` and ``n3`` for the two sides of the fourth pair), ``skip`` for compounds that
# negate nothing, ``neg`` for a negation; compounds first, then the pairs, then the negating characters.
_MARKS = re.compile("|".join([
    "(?P<skip>{})".format("|".join(NOT_NEGATIONS)),
    *(f"(?P<{side}{index}>{'|'.join(_alternative(w) for w in words)})"
      for index, pair in enumerate(OPPOSITES) for side, words in zip("pn", pair, strict=True)),
    "(?P<neg>{})".format("|".join(_alternative(w) for w in NEGATIONS)),
]))


@lru_cache(maxsize=8192)
def reworded_as_one(text: str) -> str:
    """``text`` (folded) with each interchangeable word written as the first of its group: ``必须`` as ``需要``,
    ``has to`` as ``must``."""
    return _REWORDING_LATIN.sub(_canonical_word, _REWORDING_CJK.sub(_canonical, text))


# A Latin word this long or longer that is no mark, one letter from a word of ``other`` that is one (a letter added,
# dropped or replaced, or two swapped), is that word misspelt: ``sucess`` → ``success`` fixes a typo and turns nothing
# into its opposite. A word that is itself a mark is read as written (``effective`` → ``ineffective``), and a shorter
# one is too often another word one letter away (``not`` → ``now``, ``more`` → ``mode``).
MIN_MISSPELT = 5
_LATIN_WORD = re.compile(r"(?<![a-z])[a-z]+(?![a-z])")


def _is_mark(word: str) -> bool:
    match = _MARKS.fullmatch(word)
    return match is not None and match.lastgroup not in (None, "skip")


def _one_letter_apart(a: str, b: str) -> bool:
    if len(a) < len(b):
        a, b = b, a
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(b))
    if len(a) == len(b) + 1:
        return a[start + 1:] == b[start:]
    if len(a) != len(b) or start == len(a):
        return False
    return a[start + 1:] == b[start + 1:] or (a[start + 2:] == b[start + 2:] and a[start:start + 2] == b[start:start + 2][::-1])


def misspelt_read_as_written(text: str, other: str) -> str:
    """``text`` (folded) with each word misspelling a mark of ``other`` (folded, :data:`MIN_MISSPELT`) written as that
    mark is in ``other``, for :func:`meaning_marks` to read the two alike."""
    marks = {word for word in _LATIN_WORD.findall(other) if _is_mark(word)}
    if not marks:
        return text

    def written(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) < MIN_MISSPELT or word in marks or _is_mark(word):
            return word
        return next((mark for mark in sorted(marks) if _one_letter_apart(word, mark)), word)

    return _LATIN_WORD.sub(written, text)


def meaning_marks(text: str) -> list[str]:
    """The negations and sides of opposites in ``text`` (folded), sorted: ``neg`` for a negation, ``p3`` or ``n3`` for
    a word of either side of the fourth pair of :data:`OPPOSITES`."""
    return sorted(m.lastgroup for m in _MARKS.finditer(text.replace("’", "'")) if m.lastgroup and m.lastgroup != "skip")
