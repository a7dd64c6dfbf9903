"""Words that change what a claim says, however few its characters.

Plain Python, no Django; texts come folded (:func:`wiki.text.claim_matching.folded`: lower-case, Simplified characters,
ASCII letters and digits).

:data:`OPPOSITES` lists the pairs of words whose swap turns a statement into its opposite (``成功`` → ``失败``,
``outperforms`` → ``underperforms``); with the negations they are the marks a small edit must leave alone to leave
what a claim says alone. Each side is read as one mark, so ``提升`` → ``提高`` or ``increases`` → ``increased`` changes
nothing, and ``提高`` → ``降低`` does.
"""

from __future__ import annotations

import re

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


# One named group per side (``p3`` and ``n3`` for the two sides of the fourth pair), ``skip`` for compounds that
# negate nothing, ``neg`` for a negation; compounds first, then the pairs, then the negating characters.
_MARKS = re.compile("|".join([
    "(?P<skip>{})".format("|".join(NOT_NEGATIONS)),
    *(f"(?P<{side}{index}>{'|'.join(_alternative(w) for w in words)})"
      for index, pair in enumerate(OPPOSITES) for side, words in zip("pn", pair, strict=True)),
    "(?P<neg>{})".format("|".join(_alternative(w) for w in NEGATIONS)),
]))


def meaning_marks(text: str) -> list[str]:
    """The negations and sides of opposites in ``text`` (folded), sorted: ``neg`` for a negation, ``p3`` or ``n3`` for
    a word of either side of the fourth pair of :data:`OPPOSITES`."""
    return sorted(m.lastgroup for m in _MARKS.finditer(text.replace("’", "'")) if m.lastgroup and m.lastgroup != "skip")
