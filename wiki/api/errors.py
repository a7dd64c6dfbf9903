"""One error shape for every 4xx answer: ``{"detail": str, "code": str, "errors": {field: [messages]}}``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import status
from rest_framework.exceptions import APIException, ErrorDetail, NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler


class Conflict(APIException):
    """A 409 whose body carries more than the detail (both versions of an edited page)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The object changed since you read it."
    default_code = "conflict"

    def __init__(self, detail: str, *, code: str, extra: dict[str, Any]) -> None:
        super().__init__(detail=detail, code=code)
        self.extra = extra


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


def _first_code(codes: Any) -> str:
    if isinstance(codes, str):
        return codes
    if isinstance(codes, dict):
        for value in codes.values():
            return _first_code(value)
    if isinstance(codes, list) and codes:
        return _first_code(codes[0])
    return "invalid"


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        errors = _flatten(response.data)
        messages = [f"{field}: {text[0]}" if field != "non_field_errors" else text[0] for field, text in errors.items() if text]
        body: dict[str, Any] = {
            "detail": "; ".join(messages) or "Invalid input.",
            "code": _first_code(exc.get_codes()),
            "errors": errors,
        }
    else:
        assert isinstance(exc, APIException)  # DRF answers only those (Http404 and PermissionDenied converted above)
        detail = exc.detail
        body = {"detail": str(detail), "code": getattr(detail, "code", None) or exc.default_code, "errors": {}}
        if isinstance(exc, Conflict):
            body.update(exc.extra)
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
    return [ErrorDetail(message, code=error.code or "invalid") for error in errors for message in error]
