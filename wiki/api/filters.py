"""The API's filter backends: the FilterSets of :mod:`wiki.filters`, refusing unknown parameters, ``updated_after``,
and ordering."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db.models import CharField, F, QuerySet, TextField
from django.db.models.functions import Lower
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django_filters.rest_framework import DjangoFilterBackend
from django_stubs_ext import StrOrPromise
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend, OrderingFilter
from rest_framework.request import Request

from wiki.filters import NOT_YES_NO, yes_no
from wiki.models.sort_keys import key_path
from wiki.text.lists import joined

# The format, which every endpoint reads.
FORMAT = frozenset({"format"})
# What a list that pages reads: the page of results (by number or cursor) and its size.
PAGING = frozenset({"page", "after", "page_size"})
ORDERING = "ordering"
# Let through to one object's address, which reads none of them: a client may keep the list's parameters it came from.
COMMON_PARAMETERS = FORMAT | PAGING | {ORDERING}
UPDATED_AFTER = "updated_after"


class YesNoParameter(serializers.BooleanField):
    """A yes/no query parameter read as the filters read theirs (:func:`wiki.filters.yes_no`), not DRF's lenient
    spellings; left out it is left out (None), not false."""

    default_error_messages = {"invalid": NOT_YES_NO}
    default_empty_html = serializers.empty

    def to_internal_value(self, data: Any) -> bool:
        answer = yes_no(data)
        if answer is None:
            self.fail("invalid")
        return answer


def reject_unknown_parameters(request: Request, known: set[str] | frozenset[str]) -> None:
    """400 for a query parameter the endpoint does not read (``known``, and the format): a misspelt filter would
    otherwise answer everything, and ``ordering`` or ``page`` sent where nothing is ordered or paged would answer
    another order or page than the one asked for."""
    reads = set(known) | FORMAT
    unknown = sorted(set(request.query_params) - reads)
    if unknown:
        raise ValidationError(
            {name: [gettext("Unknown parameter; this endpoint reads %(known)s.") % {"known": joined(sorted(reads))}]
             for name in unknown},
            code="unknown_parameter",
        )


def list_parameters(view: Any) -> frozenset[str]:
    """What a list view reads besides its filters: the paging parameters when it pages, ``ordering`` when it orders."""
    ordered = getattr(view, "ordering_fields", None) and any(
        issubclass(backend, OrderingFilter) for backend in getattr(view, "filter_backends", ()))
    return (PAGING if getattr(view, "paginator", None) is not None else frozenset()) | ({ORDERING} if ordered else frozenset())


def reject_repeated_parameters(request: Request) -> None:
    """400 for ``?year=2023&year=2024``: every parameter takes one value (several works are named with commas), and
    reading only the last would answer a question the client did not ask."""
    repeated = sorted(name for name, values in request.query_params.lists() if len(values) > 1)
    if repeated:
        raise ValidationError({name: [gettext("Send this parameter once; it takes one value.")] for name in repeated},
                              code="repeated_parameter")


def reject_empty_parameters(request: Request, *, may_be_blank: frozenset[str] = frozenset()) -> None:
    """400 for ``?kind=``: DRF and django-filter read an empty value as no filter, which the schema's patterns and
    enums refuse; ``may_be_blank`` names the parameters whose schema allows an empty string."""
    empty = sorted(name for name, values in request.query_params.lists()
                   if name not in may_be_blank and any(value == "" for value in values))
    if empty:
        raise ValidationError({name: [gettext("Leave the parameter out rather than sending it empty.")] for name in empty},
                              code="blank")


def reject_unreadable_parameters(request: Request, known: set[str] | frozenset[str], *,
                                 may_be_blank: frozenset[str] = frozenset()) -> None:
    """The three refusals every list applies before reading its parameters: a name it does not read, a parameter sent
    twice, an empty value (but those in ``may_be_blank``)."""
    reject_unknown_parameters(request, known)
    reject_repeated_parameters(request)
    reject_empty_parameters(request, may_be_blank=may_be_blank)


def query_parameters(request: Request, serializer_class: type[serializers.Serializer], *,  # type: ignore[type-arg]
                     may_be_blank: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The query parameters of a view that has no filterset, read by ``serializer_class``: unknown names, empty
    values (but those in ``may_be_blank``) and values the serializer refuses are 400s, as with filtersets."""
    reject_unreadable_parameters(request, set(serializer_class().fields), may_be_blank=may_be_blank)
    params = serializer_class(data=request.query_params)
    params.is_valid(raise_exception=True)
    return dict(params.validated_data)


class StrictFilterBackend(DjangoFilterBackend):
    """django-filter's backend (a value a filter cannot read is a 400), refusing unknown and empty parameters too."""

    # django-filter's stubs take Django's HttpRequest; under DRF the backend is given DRF's Request.
    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:  # type: ignore[override]
        filterset_class = self.get_filterset_class(view, queryset)
        if getattr(view, "action", None) in ("list", None):
            known = set(filterset_class.base_filters) if filterset_class else set()
            reject_unreadable_parameters(request, known | UpdatedAfterFilter.parameters(queryset.model) | list_parameters(view))
        return super().filter_queryset(request, queryset, view)


def read_updated_after(request: Request) -> datetime | None:
    """The moment ``?updated_after=`` names, None when it is not sent; a value that is no date and time is a 400."""
    if UPDATED_AFTER not in request.query_params:
        return None
    # A time without an offset is read in the wiki's own zone, as its readers write times; the API's answers are in
    # UTC with their offset, which is read as it says.
    field = serializers.DateTimeField(default_timezone=ZoneInfo(settings.TIME_ZONE))
    try:
        moment: datetime = field.run_validation(request.query_params[UPDATED_AFTER])
    except ValidationError as error:
        raise ValidationError({UPDATED_AFTER: error.detail}) from None
    except OverflowError:
        # the first hours of year 1 in a zone ahead of UTC are before any time Python holds (DRF checks them unguarded)
        raise ValidationError({UPDATED_AFTER: [field.error_messages["overflow"]]}, code="overflow") from None
    return moment


def updated_after_help(changed: StrOrPromise) -> StrOrPromise:
    """The schema's description of ``updated_after``, ``changed`` saying what it keeps."""
    return format_lazy(gettext_lazy("ISO 8601: only {changed}, so that a mirror reads what changed since its last walk. "
                                    "With an offset (`2025-03-01T08:00:00Z`, `…+08:00`) it is read as it says; without "
                                    "one, in the wiki's time zone ({zone}). A value that is no date and time is a 400."),
                       changed=changed, zone=settings.TIME_ZONE)


class UpdatedAfterFilter(BaseFilterBackend):
    """``?updated_after=<ISO 8601>``: the items changed after that moment, on the lists whose items have an
    ``updated_at``, which the database moves also when what an item shows lives in other rows (migration 0050: a
    claim's citations, a question's links, a page or work renamed); a model's QuerySet may say more of what changing
    is (``changed_after``: a work and its classifications, a classification or a contrast and its works)."""

    @staticmethod
    def parameters(model: type[Any]) -> set[str]:
        try:
            model._meta.get_field("updated_at")
        except FieldDoesNotExist:
            return set()
        return {UPDATED_AFTER}

    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:
        if getattr(view, "action", None) not in ("list", None) or UPDATED_AFTER not in request.query_params \
                or not self.parameters(queryset.model):
            return queryset
        moment = read_updated_after(request)
        changed_after = getattr(queryset, "changed_after", None)
        return changed_after(moment) if changed_after else queryset.filter(updated_at__gt=moment)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        from drf_spectacular.plumbing import get_view_model

        model = get_view_model(view)  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
        if model is None or not self.parameters(model):
            return []
        return [{
            "name": UPDATED_AFTER, "required": False, "in": "query",
            "description": updated_after_help(gettext(
                "the items changed after this moment (their `updated_at` later than it, which moves with whatever the "
                "item shows, its citations, links and the names of the pages and works it names included; a work also "
                "when one of its classifications changed, a classification or a contrast when one of its works did); "
                "deleted items leave the list, and `/api/v1/changes/` (with the same `updated_after`) says which")),
            "schema": {"type": "string", "format": "date-time"},
        }]


class StrictOrderingFilter(OrderingFilter):
    """``?ordering=`` that answers 400 for a field it cannot order by, rather than silently keeping the default."""

    def remove_invalid_fields(self, queryset: QuerySet[Any], fields: Iterable[str], view: Any, request: Any) -> list[str]:
        valid = {name for name, _label in self.get_valid_fields(queryset, view, {"request": request})}
        unknown = [term for term in fields if term.lstrip("-") not in valid]
        if unknown:
            raise ValidationError(
                {self.ordering_param: [gettext("Cannot order by %(unknown)s; choose from %(valid)s (prefix - for descending).")
                                       % {"unknown": joined(unknown), "valid": joined(sorted(valid))}]},
                code="invalid_choice",
            )
        return list(fields)

    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:
        ordering = self.get_ordering(request, queryset, view)
        if not ordering:
            return queryset
        ranks: dict[str, Callable[[], Any]] = getattr(view, "ordering_ranks", {})
        terms = [_ranked(ranks[term.lstrip("-")](), term) if isinstance(term, str) and term.lstrip("-") in ranks
                 else _order_term(queryset, term) for term in ordering]
        # Rows equal on every term asked for (works of one year) would come in any order, page by page: a client walking
        # the pages would see some twice and miss others. The primary key settles the order.
        if not any(isinstance(term, str) and term.lstrip("-") in {"pk", "id"} for term in ordering):
            terms.append("pk")
        return queryset.order_by(*terms)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        fields = getattr(view, "ordering_fields", None)
        if isinstance(fields, (list, tuple)):
            field = "-?(" + "|".join(fields) + ")"
            for parameter in parameters:
                described = gettext("Comma-separated fields to order by, `-` first for descending: %(fields)s. Any other "
                                    "field is refused (400).") % {"fields": ", ".join(fields)}
                notes = getattr(view, "ordering_notes", None)
                parameter["description"] = f"{described} {notes}" if notes else described
                parameter["schema"]["pattern"] = f"^{field}(,{field})*$"
        return parameters


def _ranked(rank: Any, term: str) -> Any:
    return rank.desc() if term.startswith("-") else rank.asc()


def _order_term(queryset: QuerySet[Any], term: Any) -> Any:
    """One term of an ordering as readers expect it: a name (a title, a short name, here or through a relation:
    ``page__title``) by its sort key, as the HTML lists order (``wiki.text.sort_keys``: 策略梯度 among the Cs, case
    aside); another text field case-insensitively; a nullable field with its empty values last both ways (``-year``:
    newest first, then the undated works), where PostgreSQL puts NULLs first in descending order. A view's own default
    ordering may be expressions: kept as they are."""
    if not isinstance(term, str):
        return term
    name = term.lstrip("-")
    if (key := key_path(queryset.model, name)) is not None:
        return f"-{key}" if term.startswith("-") else key
    try:
        field = queryset.model._meta.get_field(name)
    except FieldDoesNotExist:
        return term
    text = isinstance(field, (CharField, TextField)) and not field.choices
    if not text and not field.null:
        return term
    expression = Lower(name) if text else F(name)
    return expression.desc(nulls_last=True) if term.startswith("-") else expression.asc(nulls_last=True)
