"""ASCII slugs for names written in Chinese: a work called 通义深度研究 is at ``/sources/tong-yi-shen-du-yan-jiu/``.

Works and components have ASCII slugs (they go into citation keys and graph keys as well as URLs). A name with
ASCII letters or digits takes its slug from them, as :func:`django.utils.text.slugify` keeps them; one without
takes it from its Chinese characters read in pinyin (without tones, a syllable a word, 女 as ``nv``), which a
Chinese reader can read back, rather than a number.
"""

from __future__ import annotations

from django.utils.text import slugify
from pypinyin import lazy_pinyin


def cut_slug(slug: str, length: int) -> str:
    """``slug`` within ``length`` characters, cut after a whole word when it has more than one."""
    if len(slug) <= length:
        return slug
    cut = slug[: length + 1]
    return (cut.rsplit("-", 1)[0] if "-" in cut else cut[:length]).strip("-")


def pinyin_slug(text: str, *, length: int) -> str:
    """The slug of ``text`` with its Chinese characters in pinyin: ``智能体 RL`` → ``zhi-neng-ti-rl``; empty when
    nothing in it can be read in ASCII."""
    return cut_slug(slugify(" ".join(lazy_pinyin(text.replace(".", "-")))), length)
