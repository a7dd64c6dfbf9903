"""Request bodies are JSON only, in UTF-8, nested at most ``MAX_DEPTH`` levels (no write needs more than three), with
each key once in an object."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.http import parse_header_parameters
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.parsers import JSONParser

from wiki.charsets import text_encoding
from wiki.json_depth import MAX_DEPTH, depth_of

# The charsets a JSON body may declare: UTF-8, and ASCII, which is UTF-8 too.
_UTF8 = frozenset({"utf-8", "utf-8-sig", "ascii"})


class WikiJSONParser(JSONParser):
    """DRF's JSON parser, refusing with 400 what it would otherwise turn into a RecursionError (500), with one
    message saying where the body stops being JSON (never Python's own wording). A UTF-8 byte order mark
    before the JSON is read past, as many Windows tools write one.

    JSON is UTF-8 (RFC 8259, section 8.1): a body declared in another charset is refused rather than read in it
    (which no other JSON reader does) or read as UTF-8 against what its client says it is.

    An object naming a key twice is refused: RFC 8259 (section 4) leaves what it means to each reader, some keeping
    the first value and some the last, so a proxy or a client's own checks may have read another value than the one
    that would be saved."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        refuse_content_coding(parser_context)
        charset = parse_header_parameters(media_type or "")[1].get("charset", "").strip()
        if charset and text_encoding(charset) not in _UTF8:
            raise ParseError(gettext("JSON is read as UTF-8 (RFC 8259): send the body in UTF-8, with no charset or "
                                     "charset=utf-8, not “%(charset)s”.") % {"charset": charset}, code="unsupported_charset")
        try:
            text = stream.read().decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError(gettext("The body is not valid JSON: it is not %(encoding)s text.") % {"encoding": "UTF-8"}) from None
        try:
            data = json.loads(text.removeprefix("\ufeff"), parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        except json.JSONDecodeError as error:
            raise ParseError(gettext("The body is not valid JSON: line %(line)s, column %(column)s.")
                             % {"line": error.lineno, "column": error.colno}) from None
        except _RepeatedKey as error:
            raise ParseError(gettext("The body names the key “%(key)s” twice in one object; each key may appear once.")
                             % {"key": error.args[0]}, code="repeated_key") from None
        except _NotJSON as error:
            raise ParseError(gettext("The body is not valid JSON: %(name)s is not a JSON value.") % {"name": error.args[0]}) from None
        except ValueError:
            # Python refuses integers of more than sys.get_int_max_str_digits() digits.
            raise ParseError(gettext("The body is not valid JSON: a number has too many digits.")) from None
        if depth_of(data) > MAX_DEPTH:
            raise ParseError(_too_deep())
        return data


def refuse_content_coding(parser_context: Mapping[str, Any] | None) -> None:
    """415 for a body sent compressed (``Content-Encoding: gzip``), which the API does not read (RFC 9110, section
    15.5.16), rather than a 400 saying that its compressed bytes are not UTF-8."""
    request = (parser_context or {}).get("request")
    coding = request.META.get("HTTP_CONTENT_ENCODING", "").strip() if request is not None else ""
    if coding and coding.lower() != "identity":
        raise UnsupportedMediaType(coding, detail=gettext(
            "The body is sent with Content-Encoding “%(coding)s”, which the API does not read: send it uncompressed.")
            % {"coding": coding}, code="unsupported_encoding")


class _NotJSON(ValueError):
    """NaN and Infinity, which Python's reader takes and JSON has not."""


class _RepeatedKey(ValueError):
    """A key an object names twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return data


def _refuse_constant(name: str) -> None:
    raise _NotJSON(name)


def _too_deep() -> str:
    return gettext("The body is not valid JSON: nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}
