"""Rules on field values, declared once on the models so that forms, the API, importers and commands share them.

Each rule is a validator whose pattern means the same in Python and in the ECMAScript dialect of the
OpenAPI schema, so that generated clients and the server agree on what is valid.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, cast
from urllib.parse import quote, urlsplit, urlunsplit

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import (
    DomainNameValidator,
    MaxLengthValidator,
    MaxValueValidator,
    MinValueValidator,
    RegexValidator,
    URLValidator,
)
from django.db import models
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The years a work may be dated: from the first printed books (a classic such as Maxwell's "On Governors", 1867, or a
# reprint of a Ming edition, is cited as any paper is) to a century ahead.
YEAR_MIN = 1400
YEAR_MAX = 2100

MAX_PAGE_SUMMARY_CHARS = 2_000
# The classifier reads the abstract and notes on every source page and classification form: a pasted book
# would make those pages take seconds. An abstract is a few thousand characters; notes may be longer.
MAX_ABSTRACT_CHARS = 20_000
MAX_NOTES_CHARS = 50_000
MAX_TEXT_CHARS = 20_000  # the free-text fields of classifications and questions

# C0 and C1 control characters and DEL: they break XML (the Atom feed), terminals and most parsers.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
# Control characters other than tab, line feed and carriage return, which multi-line text may hold.
_CONTROL_IN_TEXT = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
# Whitespace by Python's str.strip and JavaScript's \s both, and the zero-width characters (U+200B–U+200D,
# U+2060, U+FEFF) that show nothing either: a text of only these reads as empty.
_BLANK = r"\x00-\x20\x7f-\xa0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff"
# Bidirectional overrides and isolates: in a one-line field (a title) they make the text read otherwise than it is
# stored ("\u202eevil" shows as "live"), and they spill over into the text shown after it.
_BIDI_CONTROL = r"\u202a-\u202e\u2066-\u2069"
_NOT_IN_LINE = _CONTROL + _BIDI_CONTROL

LINE_PATTERN = rf"^[^{_NOT_IN_LINE}]*[^{_BLANK}{_BIDI_CONTROL}][^{_NOT_IN_LINE}]*$"
OPTIONAL_LINE_PATTERN = rf"^[^{_NOT_IN_LINE}]*$"
# Multi-line text refuses the direction overrides too: an author list or a summary is shown inline, among other text.
_NOT_IN_TEXT = _CONTROL_IN_TEXT + _BIDI_CONTROL
TEXT_PATTERN = rf"^[^{_NOT_IN_TEXT}]*$"
SOME_TEXT_PATTERN = rf"^[^{_NOT_IN_TEXT}]*[^{_BLANK}{_BIDI_CONTROL}][^{_NOT_IN_TEXT}]*$"
# A page slug: what Django's slugify(allow_unicode=True) makes of Latin, Greek, Cyrillic, Chinese, Japanese and
# Korean titles. Spelled out because \w means ASCII only in the ECMAScript patterns clients use. Capitals match
# here, as typed; a page's slug is stored lower-cased (:func:`validate_lowercase`), as wiki links find it.
# Hyphens and underscores join words, so an address holds at least one letter or digit: "-" or "__" is refused.
_PAGE_SLUG_WORD = (
    r"0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff"
    r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
)
PAGE_SLUG_PATTERN = rf"^[-_{_PAGE_SLUG_WORD}]*[{_PAGE_SLUG_WORD}][-_{_PAGE_SLUG_WORD}]*$"
SOURCE_SLUG_PATTERN = r"^[-_a-z0-9]*[a-z0-9][-_a-z0-9]*$"


@deconstructible
class FullMatchValidator(RegexValidator):
    """A :class:`RegexValidator` whose pattern must match the whole value.

    ``RegexValidator`` searches, and Python's ``$`` also matches before a final line feed; the pattern
    (anchored with ``^…$``, as the OpenAPI schema shows it) is applied with ``fullmatch`` instead.
    """

    def __call__(self, value: Any) -> None:
        # Django compiles the pattern on first use; the stubs type the attribute as the constructor's argument.
        if not cast("re.Pattern[str]", self.regex).fullmatch(str(value)):
            raise ValidationError(self.message, code=self.code, params={"value": value})


validate_line = FullMatchValidator(
    LINE_PATTERN,
    gettext_lazy("Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction "
                 "overrides (U+202A–U+202E, U+2066–U+2069)."),
    code="invalid_characters",
)
validate_optional_line = FullMatchValidator(
    OPTIONAL_LINE_PATTERN,
    gettext_lazy("Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides "
                 "(U+202A–U+202E, U+2066–U+2069)."),
    code="invalid_characters",
)
validate_text = FullMatchValidator(
    TEXT_PATTERN,
    gettext_lazy("Remove the control characters (other than tab and line breaks) and direction overrides "
                 "(U+202A–U+202E, U+2066–U+2069)."),
    code="invalid_characters",
)
validate_some_text = FullMatchValidator(
    SOME_TEXT_PATTERN,
    gettext_lazy("Type some visible text, without control characters (other than tab and line breaks) or direction "
                 "overrides (U+202A–U+202E, U+2066–U+2069)."),
    code="invalid_characters",
)
validate_page_slug = FullMatchValidator(
    PAGE_SLUG_PATTERN,
    gettext_lazy("Use letters (Latin, Greek, Cyrillic, Chinese, Japanese, Korean), digits, hyphens and underscores, with "
                 "at least one letter or digit."),
    code="invalid_slug",
)
validate_source_slug = FullMatchValidator(
    SOURCE_SLUG_PATTERN, gettext_lazy("Use a-z, digits, hyphens and underscores, with at least one letter or digit."),
    code="invalid_slug",
)


@deconstructible
class YearFromValidator(MinValueValidator):
    """The earliest year a work may have, said in the wiki's words."""

    message = gettext_lazy("%(show_value)s is earlier than the works the wiki keeps: give a year from %(limit_value)s on.")


@deconstructible
class YearToValidator(MaxValueValidator):
    """The latest year a work may have, said in the wiki's words."""

    message = gettext_lazy("%(show_value)s is later than the works the wiki keeps: give a year up to %(limit_value)s.")


def validate_lowercase(value: str) -> None:
    """A page's slug is stored as a wiki link finds it: ``[[Tree-GRPO]]`` leads to ``tree-grpo``."""
    if value != value.lower():
        raise ValidationError(gettext_lazy("Use lower-case letters in the address: “%(value)s”."), code="uppercase_slug",
                              params={"value": value.lower()})


def normalize_page_slug(slug: str) -> str:
    """The slug as typed, as a page stores it: trimmed, lower-cased and full-width forms read as what they are, as a
    wiki link's slug is (``Tree-GRPO`` → ``tree-grpo``, ``ＡＢＣ－测试`` → ``abc-测试``)."""
    return unicodedata.normalize("NFKC", slug).strip().lower()


def validate_no_conflict_markers(value: str) -> None:
    """The markers the edit-conflict screen puts around a clash must be resolved before a text is saved."""
    from wiki.text.merge import has_conflict_markers

    if has_conflict_markers(value):
        raise ValidationError(
            gettext_lazy("The text still holds a clash between <<<<<<< and >>>>>>>: keep the lines you want and remove the markers."),
            code="unresolved_conflict",
        )


def validate_arxiv_id(value: str) -> None:
    """Any form of an arXiv ID (``arXiv:2307.13854v2``, an arxiv.org URL); :meth:`Source.clean` stores it normalised."""
    from wiki.references.identifiers import normalize_arxiv_id

    if value.strip() and normalize_arxiv_id(value) is None:
        raise ValidationError(_("“%(value)s” is not an arXiv ID (e.g. 2509.21240 or cs.AI/0601001)."), code="invalid_arxiv", params={"value": value})


def validate_doi(value: str) -> None:
    """A DOI, bare or as a doi.org URL; :meth:`Source.clean` stores it normalised."""
    from wiki.references.identifiers import normalize_doi

    if value.strip() and normalize_doi(value) is None:
        raise ValidationError(_("“%(value)s” is not a DOI (e.g. 10.1145/3600006)."), code="invalid_doi", params={"value": value})


# What BibTeX and biber read as a citation key, and what the exports keep (:mod:`wiki.references.citation_keys`);
# any other key would be replaced by the work's slug in every export, unlike what the editor typed.
BIBTEX_KEY = r"^[A-Za-z0-9_:.+/-]+$"


def validate_bibtex_key(value: str) -> None:
    """A BibTeX key of letters, digits and ``-_:./+`` (``yao2023react``, ``arXiv:2307.13854``); blank is none.

    Checked by the forms, the API and the services when a key is set or changed, not declared on the field: keys saved
    before the rule stay valid until they are changed."""
    if value and not re.fullmatch(BIBTEX_KEY, value):
        raise ValidationError(
            _("“%(value)s” cannot be a BibTeX key: use only letters, digits and - _ : . / + (no spaces or braces)."),
            code="invalid_bibtex_key", params={"value": value})


def text_limit(limit: int) -> list[Any]:
    """Validators of a multi-line text field of at most ``limit`` characters (TextField ignores ``max_length``)."""
    return [MaxLengthValidator(limit), validate_text]


def max_length(model: type[models.Model], name: str) -> int:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.max_length is not None
    return field.max_length


def fit(model: type[models.Model], name: str, value: str) -> str:
    """``value`` cut to the length of the field ``model.name``: for text derived by the wiki, never for what an editor typed."""
    return value[: max_length(model, name)]


_URL_SAFE = "/:@!$&'()*+,;=-._~%"
_QUERY_SAFE = _URL_SAFE + "?"


def percent_encode_url(url: str) -> str:
    """``url`` with every character a URL may not hold percent-encoded (``<``, ``"``, spaces, non-ASCII in the path
    and query); the host is IDNA-encoded. Existing escapes are kept, so encoding twice changes nothing."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        ascii_host = host.encode("idna").decode("ascii") if host and not host.isascii() else host
    except UnicodeError:
        ascii_host = host
    netloc = parts.netloc.replace(host, ascii_host) if host else parts.netloc
    return urlunsplit((
        parts.scheme, netloc, quote(parts.path, safe=_URL_SAFE), quote(parts.query, safe=_QUERY_SAFE),
        quote(parts.fragment, safe=_QUERY_SAFE),
    ))


_UNICODE_LETTERS = "\u00a1-\uffff"


@deconstructible
class LinkURLValidator(URLValidator):
    """A web address as reference managers and publishers write them: Django's rule, with a host name that may hold
    underscores (``http://example_url.com``, ``my_site.blogspot.com``, which browsers open though DNS's rules for
    host names leave them out); the message names the address refused."""

    hostname_re = rf"[a-z{_UNICODE_LETTERS}0-9_](?:[a-z{_UNICODE_LETTERS}0-9_-]{{0,61}}[a-z{_UNICODE_LETTERS}0-9_])?"
    domain_re = rf"(?:\.(?!-)[a-z{_UNICODE_LETTERS}0-9_-]{{1,63}}(?<!-))*"
    host_re = "(" + hostname_re + domain_re + DomainNameValidator.tld_re + "|localhost)"
    regex = re.compile(
        r"^(?:[a-z0-9.+-]*)://(?:[^\s:@/]+(?::[^\s:@/]*)?@)?"
        r"(?:" + URLValidator.ipv4_re + "|" + URLValidator.ipv6_re + "|" + host_re + ")"
        r"(?::[0-9]{1,5})?(?:[/?#][^\s]*)?\Z",
        re.IGNORECASE,
    )
    message = gettext_lazy("“%(value)s” is not a web address (http://, https://, ftp://…) the wiki can link to.")


class LinkURLField(models.URLField):  # type: ignore[type-arg]
    """A URL field checked by :class:`LinkURLValidator`, in forms too."""

    default_validators = [LinkURLValidator()]

    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": LinkURLFormField, **kwargs})


class LinkURLFormField(forms.URLField):
    default_validators = [LinkURLValidator()]
    # Django's "Enter a valid URL." would replace the validator's message, which names the address and what is allowed.
    default_error_messages = {"invalid": LinkURLValidator.message}

    def to_python(self, value: Any) -> str:
        try:
            return str(super().to_python(value))
        except ValidationError as error:  # an address that cannot be read at all ("http://[") gets the same message
            raise ValidationError(self.error_messages["invalid"], code="invalid", params={"value": value}) from error


def is_control_free(text: str) -> bool:
    return re.search(f"[{_CONTROL}]", text) is None


def strip_control(text: str) -> str:
    """``text`` without control characters (tab and line breaks kept), for output formats that cannot hold them (XML)
    and for what a form gives back as typed."""
    return re.sub(f"[{_CONTROL_IN_TEXT}]", "", text)


def without_django_null_check(field: Any) -> None:
    """Drops the NUL check Django's form CharField adds from ``field`` when one of the rules above refuses every
    control character already: a NUL in a title or text gets one message, the wiki's, rather than two (Django's own
    reads wrongly in Chinese, "不允许是用空字符串")."""
    from django.core.validators import ProhibitNullCharactersValidator

    ours = (validate_line, validate_optional_line, validate_text, validate_some_text)
    if any(validator in ours for validator in field.validators):
        field.validators = [v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)]
