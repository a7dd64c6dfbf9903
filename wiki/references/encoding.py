"""A reference file's bytes as text: its byte-order mark, else the charset it declares, else UTF-8.

Reference managers write UTF-8 (Zotero, JabRef, Better BibTeX), some with a byte-order mark; Windows tools write
UTF-16 with a mark, or Windows-1252 with none; Chinese Windows tools and databases (NoteExpress, CNKI exports) write
GBK/GB 18030 with none, and Traditional Chinese ones (Taiwan, Hong Kong) Big5. Text read in the wrong encoding is
refused with the reason, never imported with its letters changed.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter

from django.utils.translation import gettext

from wiki.charsets import text_encoding
from wiki.references.errors import ReferencesRefused
from wiki.search.tokenize import fold_variants

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# What an upload without a byte-order mark that is not UTF-8 most likely is: Windows' Western encoding, which
# Latin-1 would read as control characters where it has curly quotes, dashes and €.
LEGACY_ENCODING = "cp1252"
# What Chinese text without a byte-order mark that is not UTF-8 is: GB 18030 (which reads GB 2312 and GBK), or Big5 as
# Windows writes it. Windows-1252 would read nearly every byte pair of either as two accented Latin letters.
CHINESE_LEGACY_ENCODINGS = ("gb18030", "cp950")
_NON_ASCII_BYTES = bytes(range(0x80, 0x100))
_FOUR_HIGH_BYTES = re.compile(rb"[\x80-\xff]{4}")
_IDEOGRAPHS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2}")
_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# Chinese punctuation: CJK symbols, full-width forms, and the quotes, dash, ellipsis and middle dot GB 2312 shares with
# Western text.
_CHINESE_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef\u2018\u2019\u201c\u201d\u2014\u2026\u00b7]")
# How common the characters of a reading must be, on average, for it to be Chinese: Chinese text read in its own
# encoding scores above 0.9, read in the other one (or Western text read as either) mostly below 0.4.
_COMMON_ENOUGH = 0.6
_WORD = re.compile(r"[^\W\d_]+")
_FOUR_ACCENTED = re.compile(r"[^\x00-\x7f]{4}")
# What Western text holds besides letters above ASCII: Windows-1252's quotes, dashes and signs.
_WESTERN_SIGNS = frozenset("\u00a0“”‘’‚„–—…•«»‹›·¡¿€£§©®™†‡°±×÷¹²³¼½¾")


def decode_reference_file(data: bytes, *, charset: str = "", fallback: str = "",
                          media_type: str = "application/x-bibtex") -> str:
    """``data`` decoded by its byte-order mark (UTF-8, UTF-16), else by ``charset`` when one is declared, else as
    UTF-8, else, when a ``fallback`` is given, as GB 18030 or Big5 if it is Chinese text in one of them and as
    ``fallback`` if not; raises :class:`ReferencesRefused` when none of these reads it, naming ``media_type`` (the
    type the file was sent as) in the header that would declare its encoding."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decode(data, encoding, declared=True)
    if charset:
        declared = text_encoding(charset)
        if declared is None:
            raise ReferencesRefused(gettext("The declared charset “%(charset)s” is not one the wiki knows; send UTF-8.")
                                    % {"charset": charset}, code="unknown_charset")
        return _decode(data, declared, declared=True)
    unmarked = _utf16_without_mark(data)
    if unmarked:
        return _decode(data, unmarked, declared=True)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if fallback:
            _refuse_mixed(data)
            chinese = _chinese_legacy_text(data)
            return chinese if chinese is not None else _decode(data, fallback, declared=False)
        raise ReferencesRefused(
            gettext("The file is not UTF-8 (byte %(byte)s at position %(position)s). Save it as UTF-8, "
                    "or declare its encoding (Content-Type: %(media_type)s; charset=windows-1252).")
            % {"byte": f"0x{data[error.start]:02X}", "position": error.start, "media_type": media_type},
            code="not_utf8") from None


# What a line of UTF-8 holds that another encoding's bytes would hardly make: two Chinese characters, or two accented
# Latin letters (GBK or Windows-1252 bytes read as UTF-8 mostly fail, or give a letter of another script).
_UTF8_EVIDENCE = re.compile(r"(?:[\u3400-\u4dbf\u4e00-\u9fff].*){2}|(?:[\u00c0-\u024f].*){2}")


def _refuse_mixed(data: bytes) -> None:
    """Refuses a file part UTF-8 and part another encoding (lines pasted together from two files), which read in
    either would change the other part's letters; raises :class:`ReferencesRefused` naming a line of each."""
    utf8_line = other_line = 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line.isascii():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            other_line = other_line or number
        else:
            if _UTF8_EVIDENCE.search(text):
                utf8_line = utf8_line or number
        if utf8_line and other_line:
            raise ReferencesRefused(
                gettext("The file mixes encodings: line %(utf8)s is UTF-8, line %(other)s is not. Save it whole as "
                        "UTF-8.") % {"utf8": utf8_line, "other": other_line}, code="mixed_encodings")


def _chinese_legacy_text(data: bytes) -> str | None:
    """``data`` read as GB 18030 or as Big5 when it is Chinese text in one of them, else None.

    Of the readings that take the bytes whole and hold a Chinese character, the one whose characters are the most
    common Chinese ones (:func:`_commonness`) is taken when they are common enough and the bytes are clearly Chinese:
    either two ideographs stand side by side and every byte above ASCII pairs with another one (GB 2312, which
    simplified Chinese is written in) or some four of them stand in a row, or the bytes are no Western text (see
    :func:`_reads_as_western`). GBK's traditional characters and Big5's take an ASCII byte as their second half, so a
    file of them need not have four in a row; Western text in Windows-1252 is read by GB 18030 or Big5 as rare
    characters standing alone between Latin letters ("Héctor" as "H閏tor"), when a letter followed by a space or a
    comma does not make it no GB 18030 or Big5 at all."""
    readings = []
    for encoding in CHINESE_LEGACY_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _IDEOGRAPH.search(text):
            readings.append((_commonness(text), text))
    if not readings:
        return None
    score, text = max(readings, key=lambda reading: reading[0])
    if score < _COMMON_ENOUGH:
        return None
    paired = len(data.translate(None, _NON_ASCII_BYTES)) == len(text.encode("ascii", "ignore"))
    clearly_chinese = _IDEOGRAPHS.search(text) is not None and (paired or _FOUR_HIGH_BYTES.search(data) is not None)
    return text if clearly_chinese or not _reads_as_western(data) else None


def _commonness(text: str) -> float:
    """How common the characters above ASCII of ``text`` are in Chinese, from 0 to 1: a character in the first level
    of GB 2312 (its 3,755 most used, in their simplified form, so that a traditional character counts as the one it
    is written for) or Chinese punctuation counts 1, one in its second level ½, any other 0."""
    counts = Counter(char for char in text if not char.isascii())
    total = sum(counts.values())
    return sum(_character_commonness(char) * count for char, count in counts.items()) / total if total else 0.0


def _character_commonness(char: str) -> float:
    if _CHINESE_PUNCTUATION.match(char):
        return 1.0
    if not _IDEOGRAPH.match(char):
        return 0.0
    try:
        code = fold_variants(char).encode("gb2312")
    except UnicodeEncodeError:
        return 0.0
    return 1.0 if code[0] <= 0xD7 else 0.5


def _reads_as_western(data: bytes) -> bool:
    """Whether ``data`` read as Windows-1252 is Western text: every word with a letter above ASCII in it is written
    in lower case, in capitals or capitalised, holds an ASCII letter unless it is a letter alone ("à"), and has no
    four such letters in a row; every other character above ASCII is one of Windows-1252's quotes, dashes and signs.
    Chinese read so is runs of capitals and signs ("ÖÐÎÄ", "±Ø") or mixed-case words ("ówÓý")."""
    try:
        text = data.decode(LEGACY_ENCODING)
    except UnicodeDecodeError:
        return False
    for match in _WORD.finditer(text):
        word = match.group()
        if word.isascii():
            continue
        cased = word.islower() or word.isupper() or (word[0].isupper() and word[1:].islower())
        if not cased or _FOUR_ACCENTED.search(word) or (len(word) > 1 and not any(char.isascii() for char in word)):
            return False
    return all(char.isascii() or char.isalpha() or char in _WESTERN_SIGNS for char in text)


def _utf16_without_mark(data: bytes) -> str:
    """``utf-16-le`` or ``-be`` for UTF-16 written without a byte-order mark, told by its zero bytes: every other
    byte of Latin text (which UTF-8 text never holds)."""
    head = data[:2000]
    if len(head) < 4 or b"\x00" not in head:
        return ""
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if odd > len(head) // 4 and even == 0:
        return "utf-16-le"
    if even > len(head) // 4 and odd == 0:
        return "utf-16-be"
    return ""


def _decode(data: bytes, encoding: str, *, declared: bool) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        message = (gettext("The file is not valid %(encoding)s (byte %(byte)s at position %(position)s).") if declared
                   else gettext("The file is neither UTF-8 nor %(encoding)s (byte %(byte)s at position %(position)s); "
                                "save it as UTF-8."))
        raise ReferencesRefused(message % {"encoding": encoding, "byte": f"0x{data[error.start]:02X}", "position": error.start},
                                code="not_decodable") from None
