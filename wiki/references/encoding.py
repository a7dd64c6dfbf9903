"""A reference file's bytes as text: its byte-order mark, else the charset it declares, else UTF-8.

Reference managers write UTF-8 (Zotero, JabRef, Better BibTeX), some with a byte-order mark; Windows tools write
UTF-16 with a mark, or Windows-1252 with none; Chinese Windows tools and databases (NoteExpress, CNKI exports) write
GBK/GB 18030 with none. Text read in the wrong encoding is refused with the reason, never imported with its letters
changed.
"""

from __future__ import annotations

import codecs
import re

from django.utils.translation import gettext

from wiki.charsets import text_encoding
from wiki.references.errors import ReferencesRefused

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# What an upload without a byte-order mark that is not UTF-8 most likely is: Windows' Western encoding, which
# Latin-1 would read as control characters where it has curly quotes, dashes and €.
LEGACY_ENCODING = "cp1252"
# What Chinese text without a byte-order mark that is not UTF-8 most likely is: GB 18030, which reads GB 2312 and GBK.
# Windows-1252 would read nearly every byte pair of it as two accented Latin letters.
CHINESE_LEGACY_ENCODING = "gb18030"
_NON_ASCII_BYTES = bytes(range(0x80, 0x100))
_FOUR_HIGH_BYTES = re.compile(rb"[\x80-\xff]{4}")
_IDEOGRAPHS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2}")


def decode_reference_file(data: bytes, *, charset: str = "", fallback: str = "") -> str:
    """``data`` decoded by its byte-order mark (UTF-8, UTF-16), else by ``charset`` when one is declared, else as
    UTF-8, else, when a ``fallback`` is given, as GB 18030 if it is Chinese text in it and as ``fallback`` if not;
    raises :class:`ReferencesRefused` when none of these reads it."""
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
            chinese = _chinese_legacy_text(data)
            return chinese if chinese is not None else _decode(data, fallback, declared=False)
        raise ReferencesRefused(
            gettext("The file is not UTF-8 (byte %(byte)s at position %(position)s). Save it as UTF-8, "
                    "or declare its encoding (Content-Type: application/x-bibtex; charset=windows-1252).")
            % {"byte": f"0x{data[error.start]:02X}", "position": error.start}, code="not_utf8") from None


def _chinese_legacy_text(data: bytes) -> str | None:
    """``data`` read as GB 18030 when it is Chinese text in that encoding, else None.

    It is when GB 18030 reads it whole, with two ideographs side by side somewhere, and its bytes are bytes of Chinese:
    either every byte above ASCII pairs with another one (GB 2312, which simplified Chinese is written in), or some
    four of them stand in a row (GBK's other characters take an ASCII byte as their second half). Western text in
    Windows-1252 is neither: its accented letters stand alone between ASCII letters ("Müller", "référé"), and a
    letter followed by a space or a comma is no GB 18030 at all."""
    try:
        text = data.decode(CHINESE_LEGACY_ENCODING)
    except UnicodeDecodeError:
        return None
    if not _IDEOGRAPHS.search(text):
        return None
    paired = len(data.translate(None, _NON_ASCII_BYTES)) == len(text.encode("ascii", "ignore"))
    return text if paired or _FOUR_HIGH_BYTES.search(data) else None


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
