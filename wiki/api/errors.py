"""One error shape for every 4xx answer: ``{"detail": str, "code": str, "errors": {field: [messages]},
"codes": {field: [codes]}}``.

This is also the one place where the services' errors become API errors (:func:`from_domain`): views call a
service and let what it raises through.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext
from django.views import defaults
from rest_framework import status
from rest_framework.exceptions import (
    APIException,
    ErrorDetail,
    NotAcceptable,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.response import Response
from rest_framework.views import exception_handler

from wiki.api.negotiation import available_media_types

# Messages of Django and REST framework that the wiki's catalogue words otherwise (its own catalogue comes before
# theirs): "请输入整数。" rather than "输入整数。", "不允许使用 DELETE 方法。" rather than "方法 “DELETE” 不被允许。". Named
# here so that they stay in it.
WORDED_BY_THE_WIKI = (
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Enter a whole number."),
)


class Conflict(APIException):
    """A 409 whose body carries more than the detail (both versions of an edited page)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The object changed since you read it.")
    default_code = "conflict"

    def __init__(self, detail: str, *, code: str, extra: dict[str, Any]) -> None:
        super().__init__(detail=detail, code=code)
        self.extra = extra


class Refusal(APIException):
    """A 400 whose body carries more than the detail (the entries of a file that were all refused, each with why)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, detail: str, *, code: str, extra: dict[str, Any]) -> None:
        super().__init__(detail=detail, code=code)
        self.extra = extra


class FindingConflict(APIException):
    """409: a finding dismissed already, or reopened while not dismissed."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class PageOutOfRange(NotFound):
    """404 ``not_found``: a page number past the list's last page. ``fields`` names the parameter in ``errors`` and
    ``codes``, as a 400 names those at fault, which tells it from an address that names nothing."""

    def __init__(self, detail: str, *, fields: Collection[str]) -> None:
        super().__init__(detail=detail)
        self.fields = tuple(fields)


class Gone(APIException):
    """410: the object was deleted, and nothing took its place."""

    status_code = status.HTTP_410_GONE
    default_detail = gettext_lazy("This was deleted.")
    default_code = "gone"


def _flatten(data: Any, prefix: str = "") -> dict[str, list[str]]:
    """Nested serializer errors become dotted field names (``citations.0.locator``)."""
    if isinstance(data, dict):
        out: dict[str, list[str]] = {}
        for key, value in data.items():
            out.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(data, list) and data and all(isinstance(item, (str, ErrorDetail)) for item in data):
        return {prefix or "non_field_errors": [str(item) for item in data]}
    if isinstance(data, list):
        out = {}
        for index, value in enumerate(data):
            out.update(_flatten(value, f"{prefix}.{index}" if prefix else str(index)))
        return out
    return {prefix or "non_field_errors": [str(data)]}


# A space after a full-width sentence end: DRF joins a message's sentences with one (a 429's "限流。 请在 3 秒后再试。"),
# which Chinese does not write.
_CJK_SENTENCE_GAP = re.compile(r"(?<=[。！？])[ \t]+")


def _one_line(messages: list[str]) -> str:
    """The messages in one line, apart by the language's clause separator; a full-width full stop gives way to it
    (Chinese writes “数字；标题”, not “数字。；标题”)."""
    separator = pgettext("clause separator", "; ")
    return separator.join(messages).replace("。" + separator, separator)


def _codes(codes: Any) -> set[str]:
    if isinstance(codes, str):
        return {codes}
    values = codes.values() if isinstance(codes, dict) else codes if isinstance(codes, list) else []
    return set().union(*(_codes(value) for value in values))


def _first_code(codes: Any) -> str:
    if isinstance(codes, str):
        return codes
    if isinstance(codes, dict):
        for value in codes.values():
            return _first_code(value)
    if isinstance(codes, list) and codes:
        return _first_code(codes[0])
    return "invalid"


def from_domain(exc: Exception) -> APIException | None:
    """The API error for an exception a service raises, or None when it is not one of theirs."""
    from wiki.api.conditional import PreconditionFailed
    from wiki.markdown import MarkdownTooComplex
    from wiki.references.errors import ReferencesRefused
    from wiki.services.changes import StaleEdit
    from wiki.services.claims import ClaimAlreadyRetired
    from wiki.services.findings import FindingAlreadyDismissed, FindingNotDismissed
    from wiki.services.pages import EditConflict, PageExists, UnknownBaseRevision
    from wiki.services.questions import QuestionDuplicate
    from wiki.services.source_import_undo import ImportUnchanging, ImportUndone, ImportUndoRefused
    from wiki.services.sources import SourceDeleted, SourceDuplicate

    if isinstance(exc, SourceDeleted):  # deleted or merged after the request found it: as if it had been before
        return Gone(" ".join(exc.messages))
    if isinstance(exc, (ImportUndone, ImportUnchanging, ImportUndoRefused)):
        return import_undo_conflict(exc)
    if isinstance(exc, DjangoValidationError):
        return from_django(exc)
    if isinstance(exc, MarkdownTooComplex):
        return ValidationError({"body": [ErrorDetail(str(exc), code="too_complex")]})
    if isinstance(exc, UnknownBaseRevision):
        return ValidationError({"base_revision": [ErrorDetail(
            gettext("The page has no revision %(number)s; its latest is %(latest)s.") % {"number": exc.base_number, "latest": exc.current.number},
            code="invalid")]})
    if isinstance(exc, EditConflict):
        theirs = exc.current
        if isinstance(exc, PageExists):
            detail, code = gettext("A page at “%(slug)s” exists already; edit it instead.") % {"slug": exc.page.slug}, "exists"
        else:
            detail = (gettext("The page was saved as revision %(theirs)s after revision %(base)s, which you edited.")
                      % {"theirs": theirs.number, "base": exc.base_number})
            code = "edit_conflict"
        return Conflict(
            detail,
            code=code,
            extra={
                "base_revision": exc.base_number,
                "current_revision": theirs.number,
                "yours": exc.mine,
                "theirs": {"title": theirs.title, "summary": theirs.summary, "body": theirs.body},
            },
        )
    if isinstance(exc, SourceDuplicate):
        return Conflict(gettext("This source exists already (%(reason)s): %(name)s.") % {"reason": exc.reason, "name": exc.source.short_name},
                        code="duplicate", extra={"existing": exc.source.slug, "missing": exc.missing})
    if isinstance(exc, StaleEdit):
        return PreconditionFailed()
    if isinstance(exc, QuestionDuplicate):
        return Conflict(gettext("This question is in the queue already, unresolved: #%(id)s “%(title)s”.")
                        % {"id": exc.question.pk, "title": exc.question.title},
                        code="duplicate", extra={"existing": exc.question.pk, "html_url": exc.question.get_absolute_url()})
    if isinstance(exc, ClaimAlreadyRetired):
        return Conflict(exc.message, code="already_retired", extra={})
    if isinstance(exc, FindingAlreadyDismissed):
        return FindingConflict(gettext("This finding was dismissed already; nothing was changed."), code="already_dismissed")
    if isinstance(exc, FindingNotDismissed):
        return FindingConflict(gettext("This finding is not dismissed; nothing was reopened."), code="not_dismissed")
    if isinstance(exc, ReferencesRefused):
        return ValidationError({"non_field_errors": [ErrorDetail(str(exc), code=exc.code)]})
    return None


def import_undo_conflict(refusal: Exception) -> Conflict:
    """409 for an import that cannot be undone (what :mod:`wiki.services.source_import_undo` refuses): undone already,
    nothing to undo, or its works in use, each use named."""
    from wiki.services.source_import_undo import ImportUndone, ImportUndoRefused

    assert isinstance(refusal, DjangoValidationError)
    uses = refusal.uses if isinstance(refusal, ImportUndoRefused) else []
    code = "already_undone" if isinstance(refusal, ImportUndone) else refusal.code or "in_use"
    return Conflict(" ".join(refusal.messages), code=code, extra={
        "uses": [{"work": use.work, "use": use.use} for use in uses],
        "more": isinstance(refusal, ImportUndoRefused) and refusal.more})


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    exc = from_domain(exc) or exc
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        errors = _flatten(response.data)
        label = pgettext("label separator", ": ")
        messages = [f"{field}{label}{text[0]}" if field != "non_field_errors" else text[0] for field, text in errors.items() if text]
        body: dict[str, Any] = {
            "detail": _one_line(messages) or gettext("Invalid input."),
            "code": _first_code(exc.get_codes()),
            "errors": errors,
            # each message's code, beside it: the first field's alone is ``code``
            "codes": _flatten(exc.get_codes()),
        }
        # The input is fine but for an object that exists already (a work classified, a contrast made, a page's
        # address): a conflict, as for a page or a source, not a 400; or it names something that is not there.
        if _codes(exc.get_codes()) == {"exists"}:
            response.status_code = status.HTTP_409_CONFLICT
        elif _codes(exc.get_codes()) == {"not_found"}:
            response.status_code = status.HTTP_404_NOT_FOUND
    else:
        assert isinstance(exc, APIException)  # DRF answers only those (Http404 and PermissionDenied converted above)
        detail = exc.detail
        code = getattr(detail, "code", None) or exc.default_code
        fields = getattr(exc, "fields", ())
        text = _CJK_SENTENCE_GAP.sub("", str(detail))
        body = {"detail": text, "code": code, "errors": {name: [text] for name in fields},
                "codes": {name: [code] for name in fields}}
        if isinstance(exc, NotAcceptable) and exc.available_renderers:
            # what the client may ask for instead, in Accept (or as ?format=)
            body["available"] = available_media_types(exc.available_renderers)
        if isinstance(exc, (Conflict, Refusal)):
            body.update(exc.extra)
            if "html_url" in body and context.get("request") is not None:  # absolute, as in every answer
                body["html_url"] = context["request"].build_absolute_uri(body["html_url"])
    response.data = body
    return response


def from_django(error: DjangoValidationError) -> ValidationError:
    """A model's ``full_clean`` error (raised inside a service) as the API's 400."""
    # Each message keeps its code (``rationale_required``, ``exists``), which clients branch on.
    if hasattr(error, "error_dict"):
        return ValidationError({
            ("non_field_errors" if name == "__all__" else name): _details(errors) for name, errors in error.error_dict.items()
        })
    return ValidationError({"non_field_errors": _details(error.error_list)})


def _details(errors: list[DjangoValidationError]) -> list[ErrorDetail]:
    return [ErrorDetail(str(message), code=error.code or "invalid") for error in errors for message in error]


def error_response(status_code: int, code: str, detail: str, *, fields: Collection[str] = ()) -> JsonResponse:
    """The API's error shape for an answer made outside DRF's views (Django's handlers, a middleware); ``fields``
    are the ones ``detail`` is about, each with it and ``code``."""
    return JsonResponse({"detail": detail, "code": code, "errors": {name: [detail] for name in fields},
                         "codes": {name: [code] for name in fields}}, status=status_code)


def fields_error_response(status_code: int, code: str, message: str, *, fields: Collection[str]) -> JsonResponse:
    """:func:`error_response` for one ``message`` about each of ``fields``, its detail naming them as a view's 400
    does (``field: message``)."""
    label = pgettext("label separator", ": ")
    return JsonResponse({"detail": _one_line([f"{name}{label}{message}" for name in fields]), "code": code,
                         "errors": {name: [message] for name in fields}, "codes": {name: [code] for name in fields}},
                        status=status_code)


def _api_or_html(request: HttpRequest, status_code: int, code: str, detail: str, html: Callable[..., HttpResponse],
                 **kwargs: Any) -> HttpResponse:
    if request.path.startswith("/api/"):
        return error_response(status_code, code, detail)
    return html(request, **kwargs)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 (a request refused before any view), as JSON under /api/; a body over the upload limit is a 413
    that names the limit."""
    if isinstance(exception, RequestDataTooBig):
        detail = gettext("The request is larger than the limit of %(limit)s MB; nothing was saved.") % {
            "limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)}
        return _api_or_html(request, 413, "too_large", detail, _too_large, message=detail)
    return _api_or_html(request, 400, "bad_request", gettext("The request cannot be read."), defaults.bad_request, exception=exception)


def _too_large(request: HttpRequest, *, message: str) -> HttpResponse:
    return render(request, "413.html", {"detail": message}, status=413)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500, as JSON under /api/: a client never has to read an HTML page."""
    return _api_or_html(request, 500, "server_error", gettext("Server error; it has been logged."), defaults.server_error)
