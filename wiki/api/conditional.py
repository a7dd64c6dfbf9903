"""Conditional requests on the API: ``If-None-Match``/``If-Modified-Since`` → 304, a stale ``If-Match`` → 412, an
edit without ``If-Match`` → 428.

Pages, sources and their lists take their validators from the models (:mod:`wiki.models.etags`); every other
read gets a strong ETag from its JSON body, set by :class:`ApiConditionalGetMiddleware`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, parse_etags, parse_http_date_safe
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.errors import error_response
from wiki.models.etags import Validator

API_PREFIX = "/api/"
R = TypeVar("R", bound=HttpResponse)


class PreconditionFailed(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = _("The object changed since you read it (If-Match): read it again and repeat your change.")
    default_code = "precondition_failed"


class ModifiedSince(PreconditionFailed):
    default_detail = _("The object changed after the date you sent (If-Unmodified-Since): read it again.")


def precondition_failed(request: HttpRequest | Request) -> PreconditionFailed:
    """The 412 naming the header that failed: If-Match when sent (it is checked first), else If-Unmodified-Since."""
    return PreconditionFailed() if request.headers.get("If-Match") else ModifiedSince()


class PreconditionRequired(APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = _("Send the ETag you read as If-Match, so that no one else's change is overwritten "
                       "(If-Match: * overwrites whatever is saved now).")
    default_code = "precondition_required"


class ExistsAlready(APIException):
    """412 for a write sent with an ``If-None-Match`` that the object's version matches: ``*`` (write only what does not
    exist yet) or the ETag of the version saved now. Not a :class:`PreconditionFailed`: no retry of a write that went
    through sends it, so it is never answered as done."""

    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = _("The object exists in the version If-None-Match names (or * was sent): nothing was changed.")
    default_code = "precondition_failed"


class MalformedPrecondition(APIException):
    """400 for a write's ``If-Match`` or ``If-None-Match`` that is no list of entity tags: a value that names no version
    is a mistake of the client's (RFC 9110 section 8.8.3's syntax), not a version that changed since, which a 412 would
    tell it and a retry after reading again would not mend."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "malformed_precondition"

    def __init__(self, header: str) -> None:
        super().__init__(_("%(header)s is not * nor a list of ETags in double quotes (\"…\" or W/\"…\", separated by "
                           "commas): send the ETag a read answered, as it was sent.") % {"header": header})


def _etags(request: Request, header: str) -> list[str]:
    """The tags of the request's ``header`` (``["*"]`` for ``*``), raising :class:`MalformedPrecondition` when a part
    of it is no entity tag: Django's reading drops such a part, which left an If-Match of ``abc`` naming no version."""
    value = request.headers.get(header, "").strip()
    tags = parse_etags(value)
    if tags != ["*"] and len(tags) != len([part for part in value.split(",") if part.strip()]):
        raise MalformedPrecondition(header)
    return tags


def check_if_none_match(request: Request, etag: str) -> None:
    """Raises :class:`ExistsAlready` when a write's ``If-None-Match`` is ``*`` or names ``etag`` (weakly compared,
    RFC 9110 section 13.1.2): the object exists, in that version, and the client asked to write only if it did not."""
    header = request.headers.get("If-None-Match", "").strip()
    if not header:
        return
    tags = _etags(request, "If-None-Match")
    if "*" in tags or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in tags}:
        raise ExistsAlready()


def check_if_unmodified_since(request: Request, last_modified: datetime | None) -> None:
    """Raises :class:`ModifiedSince` when a write's ``If-Unmodified-Since`` is a date before ``last_modified`` (to the
    second, as dates are sent), as RFC 9110 section 13.1.4 has it: ignored when ``If-Match`` is sent (which says more),
    when the date cannot be read, and when the object has no modification date."""
    header = request.headers.get("If-Unmodified-Since", "").strip()
    if not header or last_modified is None or request.headers.get("If-Match", "").strip():
        return
    since = parse_http_date_safe(header)
    if since is not None and int(last_modified.timestamp()) > since:
        raise ModifiedSince()


def representation_etag(data: object) -> str:
    """The strong ETag of a JSON representation, as the middleware computes it for a GET of the same object."""
    return f'"{hashlib.md5(JSONRenderer().render(data), usedforsecurity=False).hexdigest()}"'


def check_if_match(request: Request, etag: str, *, required: bool = False) -> bool:
    """Raises :class:`PreconditionFailed` when the request sends ``If-Match`` and none of its tags is ``etag``, and
    :class:`PreconditionRequired` when it sends none although ``required``.

    True when the request names this very version: the writer must then make sure, under its row lock, that it is
    still the saved one (someone may save between this check and the lock). ``*`` names whatever is saved."""
    header = request.headers.get("If-Match", "").strip()
    if not header:
        if required:
            raise PreconditionRequired()
        return False
    tags = _etags(request, "If-Match")
    if "*" in tags:
        return False
    if etag not in tags:
        raise PreconditionFailed()
    return True


PRECONDITION_HEADERS = ("If-Match", "If-None-Match", "If-Unmodified-Since")


def check_preconditions(request: Request, current: Callable[[], Validator | None], *, required: bool = False) -> bool:
    """A write's preconditions against the object's version now (``current``, read only when one is sent; None when
    there is none, as a watch not there): RFC 9110 section 13.2.2's order, If-Match (else If-Unmodified-Since), then
    If-None-Match, each a 412 that must change nothing; :class:`PreconditionRequired` when no If-Match is sent
    although ``required``.

    True when If-Match names this very version: the writer must then make sure, under its row lock, that it is still
    the saved one."""
    if not any(request.headers.get(name, "").strip() for name in PRECONDITION_HEADERS):
        if required:
            raise PreconditionRequired()
        return False
    for name in ("If-Match", "If-None-Match"):
        if request.headers.get(name, "").strip():
            _etags(request, name)  # a malformed one is a 400 whether or not the object is there
    validator = current()
    if validator is None:
        # Nothing there: no If-Match names it, not even ``*`` (section 13.1.1), and If-None-Match holds.
        if request.headers.get("If-Match", "").strip():
            raise PreconditionFailed()
        return False
    check_if_unmodified_since(request, validator.last_modified)
    named = check_if_match(request, validator.etag, required=required)
    check_if_none_match(request, validator.etag)
    return named


def precondition_on(request: Request) -> Callable[[str], None]:
    """The request's preconditions as a service checks them under its lock, against the ETag of the state it locked
    (of something with no date): :func:`check_preconditions` made then rather than before, when a write landing
    between the check and the lock would be lost to it."""

    def check(etag: str) -> None:
        check_preconditions(request, lambda: Validator(etag=etag, last_modified=None))

    return check


def undated(request: HttpRequest) -> HttpRequest:
    """The request as Django's conditional answers should read it for an object with no Last-Modified: without its
    ``If-Unmodified-Since``, which RFC 9110 section 13.1.4 has ignored then, where Django reads a missing date as a
    change after any date (a 412 even for a date years ahead)."""
    if "HTTP_IF_UNMODIFIED_SINCE" not in request.META:
        return request
    without = copy.copy(request)
    without.META = {name: value for name, value in request.META.items() if name != "HTTP_IF_UNMODIFIED_SINCE"}
    return without


def conditional_response(request: Request, headers: dict[str, str], build: Callable[[], R]) -> R | Response:
    """304 when the client holds the version the ``headers`` (ETag, Last-Modified) name, else what ``build``
    makes; both carry the headers."""
    modified = headers.get("Last-Modified")
    last_modified = parse_http_date_safe(modified) if modified else None
    response = get_conditional_response(
        request._request if last_modified is not None else undated(request._request),
        etag=headers.get("ETag"), last_modified=last_modified,
    )
    if response is not None and response.status_code == status.HTTP_412_PRECONDITION_FAILED:
        # If-Match or If-Unmodified-Since names another version: this one is not sent, nor a 304 that would tell
        # the client its copy is current.
        raise precondition_failed(request)
    answer: R | Response = Response(status=status.HTTP_304_NOT_MODIFIED) if response is not None else build()
    for name, value in headers.items():
        answer[name] = value
    return answer


def with_validator(response: Response, validator: Validator) -> Response:
    response["ETag"] = validator.etag
    if validator.last_modified is not None:
        response["Last-Modified"] = http_date(validator.last_modified.timestamp())
    return response


class ApiConditionalGetMiddleware(ConditionalGetMiddleware):
    """Django's conditional GET (ETag from the body, 304 on a match), for the API only: HTML views set their own."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not request.path.startswith(API_PREFIX):
            return response
        if response.status_code >= status.HTTP_400_BAD_REQUEST:
            # An error is no version of the resource: a client keeping ETags by address must not send one back.
            for header in ("ETag", "Last-Modified"):
                if response.has_header(header):
                    del response[header]
            return response
        if request.method == "GET" and response.status_code == 200:
            # The representation varies with the format asked for (JSON, the browsable API).
            patch_vary_headers(response, ["Accept"])
        dated = parse_http_date_safe(response["Last-Modified"]) if response.has_header("Last-Modified") else None
        answer = super().process_response(request if dated is not None else undated(request), response)
        if answer.status_code == status.HTTP_412_PRECONDITION_FAILED and answer is not response:
            # Django answers a failed If-Match with an empty HTML body; a client reads the API's one error shape.
            failed = precondition_failed(request)
            return error_response(failed.status_code, failed.default_code, str(failed.detail))
        return answer
