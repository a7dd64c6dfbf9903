"""ASCII slugs for names written in Chinese: a work called 通义深度研究 is at ``/sources/tong-yi-shen-du-yan-jiu/``.

Works and components have ASCII slugs (they go into citation keys and graph keys as well as URLs). A name with
ASCII letters or digits takes its slug from them, as :func:`django.utils.text.slugify` keeps them; one without
takes it from its Chinese characters read in pinyin (without tones, a syllable a word, 女 as ``nv``), which a
Chinese reader can read back, rather than a number.
"""

from __future__ import annotations

import re

from django.utils.text import slugify

from wiki.text.lang import has_chinese

# Latin letters that do not decompose into a base letter and an accent, which slugify would drop: Øystein Træsse is
# ``oystein-traesse``, not ``ystein-trsse``; and Greek letters by their names, as papers spell them: τ-bench is
# ``tau-bench``, not ``bench``.
_UNDECOMPOSED = str.maketrans({"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
                               "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ł": "l", "Ł": "L",
                               "ı": "i", "ħ": "h", "Ħ": "H", "ŋ": "ng", "Ŋ": "NG",
                               **{case: name for letter, name in zip(
                                   "αβγδεϵζηθϑικλμνξοπρσςτυφϕχψω",
                                   ("alpha", "beta", "gamma", "delta", "epsilon", "epsilon", "zeta", "eta", "theta",
                                    "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho",
                                    "sigma", "sigma", "tau", "upsilon", "phi", "phi", "chi", "psi", "omega"),
                                   strict=True) for case in (letter, letter.upper())}})


# Dashes other than the hyphen-minus join or part words as it does: a non-breaking hyphen (``real‑world``), an en or em
# dash, a minus sign, a full-width hyphen.
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"))


def ascii_slugify(text: str) -> str:
    """:func:`django.utils.text.slugify`, keeping the Latin letters it would drop as the ASCII they are written as, and
    any dash as a hyphen (``real‑world`` with a non-breaking hyphen is ``real-world``, not ``realworld``); letters,
    digits and hyphens only, an underscore parting words as a space does (``OCL_h`` → ``ocl-h``)."""
    return slugify(text.translate(_UNDECOMPOSED).translate(_DASHES).replace("_", " ")).strip("-")


def cut_slug(slug: str, length: int) -> str:
    """``slug`` within ``length`` characters, cut after a whole word when it has more than one."""
    if len(slug) <= length:
        return slug
    cut = slug[: length + 1]
    return (cut.rsplit("-", 1)[0] if "-" in cut else cut[:length]).strip("-")


def numbered_slug(base: str, taken: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``, … : the first that is not among ``taken``."""
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


# Where Chinese surely parts two words: before the particle 的 (not 的确), before the conjunctions 与 and 及 (not 参与,
# 给与, 以及, 涉及, 普及), at punctuation and spaces. Chinese writes no spaces between words, so a reading cut anywhere
# else may cut a word in two (研究, "research", read yan-jiu, cut after yan).
_CHINESE_WORD_BREAK = re.compile(r"(?=的(?!确))|(?<![参给赋])(?=与)|(?<![以涉普危])(?=及)|[\s\W]+")


def pinyin_slug(text: str, *, length: int, longer: int | None = None) -> str:
    """The slug of ``text`` with its Chinese characters in pinyin: ``智能体 RL`` → ``zhi-neng-ti-rl``; empty when
    nothing in it can be read in ASCII. A reading longer than ``length`` is cut where a word surely ends, or, given
    ``longer``, kept whole up to that many characters rather than cut within a word; cut at a syllable only when
    neither can be."""
    whole = ascii_slugify(in_pinyin(text.replace(".", "-")))
    if not has_chinese(text):
        return cut_slug(whole, length)
    longest = max(length, longer or length)
    if len(whole) <= longest:
        return whole
    ends = [found.start() for found in _CHINESE_WORD_BREAK.finditer(text) if found.start() > 0]
    heads = [head for end in ends if len(head := ascii_slugify(in_pinyin(text[:end].replace(".", "-")))) <= longest]
    if heads and len(heads[-1]) >= length // 2:
        return heads[-1]
    return cut_slug(whole, length)


def in_pinyin(text: str) -> str:
    """``text`` with its Chinese characters read in pinyin, a syllable a word; unchanged when it has none."""
    if not has_chinese(text):
        return text
    # Imported when first needed: its dictionaries take a fifth of a second and some 55 MB to load, which a
    # process that never names a work in Chinese should not pay.
    from pypinyin import lazy_pinyin

    return " ".join(lazy_pinyin(text))
