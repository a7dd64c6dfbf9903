"""ASCII slugs for names written in Chinese: a work called 通义深度研究 is at ``/sources/tong-yi-shen-du-yan-jiu/``.

Works and components have ASCII slugs (they go into citation keys and graph keys as well as URLs). A name with
ASCII letters or digits takes its slug from them, as :func:`django.utils.text.slugify` keeps them; one without
takes it from its Chinese characters read in pinyin (without tones, a syllable a word, 女 as ``nv``), which a
Chinese reader can read back, rather than a number.
"""

from __future__ import annotations

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


def ascii_slugify(text: str) -> str:
    """:func:`django.utils.text.slugify`, keeping the Latin letters it would drop as the ASCII they are written as."""
    return slugify(text.translate(_UNDECOMPOSED))


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


def pinyin_slug(text: str, *, length: int) -> str:
    """The slug of ``text`` with its Chinese characters in pinyin: ``智能体 RL`` → ``zhi-neng-ti-rl``; empty when
    nothing in it can be read in ASCII."""
    return cut_slug(ascii_slugify(in_pinyin(text.replace(".", "-"))), length)


def pinyin_sort_key(text: str) -> str:
    """``text`` read in pinyin, syllables apart, in lower case: the order Chinese lists sort names in
    (``策略梯度`` → ``ce lue ti du``, before ``环境`` → ``huan jing``). Other letters are kept as they are."""
    return in_pinyin(text).lower()


def in_pinyin(text: str) -> str:
    """``text`` with its Chinese characters read in pinyin, a syllable a word; unchanged when it has none."""
    if not has_chinese(text):
        return text
    # Imported when first needed: its dictionaries take a fifth of a second and some 55 MB to load, which a
    # process that never names a work in Chinese should not pay.
    from pypinyin import lazy_pinyin

    return " ".join(lazy_pinyin(text))
