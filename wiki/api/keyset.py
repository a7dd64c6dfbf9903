"""Keyset ("seek") paging: a page starts after the last row the client was given, found by that row's values in the
list's own order, so reading a page costs the same at any depth (no OFFSET) and rows added or removed between two
pages move no other row from one page to another.

The order is whatever the list is ordered by (``?ordering=``, expressions such as a case-folded name or a question's
priority rank, related fields), made total with the primary key. A cursor holds the last row's value of each term and
a fingerprint of the order, signed with the site's key: a client cannot forge a position, and a cursor read under
another order or from another list is refused rather than read wrongly.

REST framework's ``CursorPagination`` does not fit the API's lists: it seeks on the first ordering field alone (ties are
skipped by an offset kept in the cursor), takes plain field names only, and answers no ``count``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.core import signing
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Expression, F, OrderBy, Q, QuerySet
from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError

SALT = "wiki.api.keyset"
# Unreserved in a URL (RFC 3986), and never in the URL-safe base64 of the payload.
SEPARATOR = "."
ALIAS = "keyset_{}"


@dataclass(frozen=True)
class Term:
    """One term of the order: an expression, its direction and where its NULLs go (PostgreSQL's default unless the
    ordering says: last going up, first going down)."""

    expression: Any
    descending: bool
    nulls_first: bool

    def order_by(self, alias: str) -> OrderBy:
        return OrderBy(F(alias), descending=self.descending, nulls_first=self.nulls_first or None,
                       nulls_last=(not self.nulls_first) or None)

    def after(self, alias: str, value: Any) -> Q:
        """The rows this term puts after ``value``."""
        if value is None:
            # NULLs first: every value comes after them; NULLs last: nothing does.
            return Q(**{f"{alias}__isnull": False}) if self.nulls_first else Q(pk__in=[])
        beyond = Q(**{f"{alias}__{'lt' if self.descending else 'gt'}": value})
        return beyond if self.nulls_first else beyond | Q(**{f"{alias}__isnull": True})

    @staticmethod
    def equal(alias: str, value: Any) -> Q:
        return Q(**{f"{alias}__isnull": True}) if value is None else Q(**{alias: value})


@dataclass(frozen=True)
class KeysetPage:
    rows: list[Any]
    # The cursor of the page after this one; None on the last page.
    next_cursor: str | None


def order_terms(queryset: QuerySet[Any]) -> list[Term]:
    """The queryset's order as terms, ending with the primary key unless it is among them already."""
    query = queryset.query
    ordering: Sequence[Any] = query.order_by or (query.get_meta().ordering if query.default_ordering else None) or ()
    terms = [_term(item) for item in ordering]
    pk_names = {"pk", query.get_meta().pk.name}
    if not any(isinstance(term.expression, F) and getattr(term.expression, "name", None) in pk_names for term in terms):
        terms.append(Term(F("pk"), descending=False, nulls_first=False))
    return terms


def _term(item: Any) -> Term:
    if isinstance(item, str):
        name = item.removeprefix("-")
        descending = item.startswith("-")
        return Term(F(name), descending=descending, nulls_first=descending)
    if isinstance(item, OrderBy):
        nulls_first = bool(item.nulls_first) if (item.nulls_first or item.nulls_last) else item.descending
        return Term(item.expression, descending=item.descending, nulls_first=nulls_first)
    if isinstance(item, Expression | F):
        return Term(item, descending=False, nulls_first=False)
    raise TypeError(f"cannot seek on the ordering term {item!r}")


def fingerprint(queryset: QuerySet[Any], terms: list[Term]) -> str:
    """Names the list's model and order: a cursor is read under the order that made it, or not at all."""
    described = repr([queryset.model._meta.label, *((repr(t.expression), t.descending, t.nulls_first) for t in terms)])
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def keyset_page(queryset: QuerySet[Any], *, after: str | None, size: int) -> KeysetPage:
    """The ``size`` rows after the position ``after`` names (from the start without one), in one query."""
    terms = order_terms(queryset)
    aliases = [ALIAS.format(index) for index in range(len(terms))]
    order = fingerprint(queryset, terms)
    seeking = queryset.annotate(**{alias: term.expression for alias, term in zip(aliases, terms, strict=True)})
    seeking = seeking.order_by(*(term.order_by(alias) for alias, term in zip(aliases, terms, strict=True)))
    if after is not None:
        values = _read_cursor(after, order, [seeking.query.annotations[alias].output_field for alias in aliases])
        seeking = seeking.filter(_after(terms, aliases, values))
    rows = list(seeking[: size + 1])
    if len(rows) <= size:
        return KeysetPage(rows=rows, next_cursor=None)
    last = rows[size - 1]
    return KeysetPage(rows=rows[:size], next_cursor=make_cursor(order, [getattr(last, alias) for alias in aliases]))


def _after(terms: list[Term], aliases: list[str], values: list[Any]) -> Q:
    """Rows after the position: equal on the first terms and after it on the next one, for some number of terms."""
    after = Q(pk__in=[])
    equal = Q()
    for alias, term, value in zip(aliases, terms, values, strict=True):
        after |= equal & term.after(alias, value)
        equal &= Term.equal(alias, value)
    return after


# -- the cursor -------------------------------------------------------------------------------------------------------

def make_cursor(order: str, values: list[Any]) -> str:
    payload = json.dumps({"o": order, "v": [_plain(value) for value in values]}, separators=(",", ":"), ensure_ascii=False)
    return signing.Signer(salt=SALT, sep=SEPARATOR).sign(signing.b64_encode(payload.encode()).decode())


def _plain(value: Any) -> Any:
    """A value as JSON holds it; read back through its field's ``to_python`` (a timestamp to the microsecond)."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def _read_cursor(cursor: str, order: str, fields: list[Any]) -> list[Any]:
    try:
        payload = signing.Signer(salt=SALT, sep=SEPARATOR).unsign(cursor)
        data = json.loads(signing.b64_decode(payload.encode()))
    except (signing.BadSignature, ValueError):
        raise _refused(gettext("This cursor was not made by this wiki, or was changed: send the “next” link of a page as "
                               "it was given.")) from None
    if not isinstance(data, dict) or data.get("o") != order or not isinstance(data.get("v"), list) or \
            len(data["v"]) != len(fields):
        raise _refused(gettext("This cursor was made for another list or another order: walk the list in the order of "
                               "the page that gave it, or start again from its first page."))
    try:
        return [None if raw is None else field.to_python(raw) for field, raw in zip(fields, data["v"], strict=True)]
    except (DjangoValidationError, TypeError, ValueError):
        raise _refused(gettext("This cursor names a position this list cannot read: start again from its first "
                               "page.")) from None


def _refused(message: str) -> ValidationError:
    return ValidationError({"after": [message]}, code="invalid_cursor")
