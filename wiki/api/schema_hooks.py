"""What every operation may answer besides its own responses, added to the whole schema once (a drf-spectacular
postprocessing hook): the shared error responses and the headers the API sends, as components each operation refers
to, and the conditional headers every read takes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
BODY_METHODS = frozenset({"post", "put", "patch"})
# Reads answering Last-Modified as well as an ETag (the others' dates would not show an item leaving a list); their
# writes read If-Unmodified-Since.
DATED_READS = frozenset({"/api/v1/pages/{slug}/", "/api/v1/sources/{slug}/"})


def _error(description: StrOrPromise) -> dict[str, Any]:
    return {"description": description, "content": ERROR_CONTENT}


RESPONSES: dict[str, dict[str, Any]] = {
    "Error": _error(gettext_lazy("Any other error, in the one error shape (`detail`, `code`, `errors`): 405 for a method the address "
                                 "does not take, 5xx for a failure on the server.")),
    "NotAcceptable": {"description": gettext_lazy("The Accept header accepts no format this address answers in (`not_acceptable`; "
                                                  "a media type it gives `q=0` is one it refuses): `available` lists those there are."),
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NotAcceptableError"}}}},
    "PreconditionFailed": _error(gettext_lazy("If-Match or If-Unmodified-Since names another version than the one saved, or a "
                                              "write's If-None-Match names the one saved or is `*` (`precondition_failed`): nothing "
                                              "is sent or written.")),
    "TooLarge": _error(gettext_lazy("The body is larger than the limit (`too_large`, 16 MB): nothing was saved.")),
    "UnsupportedMediaType": _error(gettext_lazy("The body is not JSON (`unsupported_media_type`): send Content-Type: application/json.")),
}


def _header(description: StrOrPromise, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "schema": schema}


HEADERS: dict[str, dict[str, Any]] = {
    "ETag": _header(gettext_lazy("The version of the object or list (a strong validator): send it back as If-None-Match to read it "
                                 "again (304 while unchanged), or as If-Match to change it."), {"type": "string"}),
    "Last-Modified": _header(gettext_lazy("When the object last changed, for If-Modified-Since (or If-Unmodified-Since on a write)."),
                             {"type": "string"}),
    "Location": _header(gettext_lazy("The address (absolute) of the object: the one created, or where the one asked for is now."),
                        {"type": "string", "format": "uri"}),
    "WWW-Authenticate": _header(gettext_lazy("The challenges of the credentials the API reads: `Token` and `Bearer` (the same key "
                                             "either way)."), {"type": "string"}),
    "Retry-After": _header(gettext_lazy("Seconds to wait before the next request."), {"type": "integer"}),
    "RateLimit-Limit": _header(gettext_lazy("Requests the client may send in the window (IETF draft RateLimit headers)."), {"type": "integer"}),
    "RateLimit-Remaining": _header(gettext_lazy("Requests left in the window."), {"type": "integer"}),
    "RateLimit-Reset": _header(gettext_lazy("Seconds until the window ends and the budget is whole again."), {"type": "integer"}),
    "RateLimit-Policy": _header(gettext_lazy("The limit and the window's length in seconds, as `600;w=60`."), {"type": "string"}),
}
BUDGET = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")

PRECONDITION_PARAMETERS = [
    {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
     "description": gettext_lazy("An ETag (or several, or `*`): when the answer's ETag is not among them, the answer is 412.")},
    {"in": "header", "name": "If-Modified-Since", "required": False, "schema": {"type": "string"},
     "description": gettext_lazy("An HTTP date: while the object is not newer, the answer is 304 (objects with Last-Modified).")},
    {"in": "header", "name": "If-Unmodified-Since", "required": False, "schema": {"type": "string"},
     "description": gettext_lazy("An HTTP date: when the object changed after it, the answer is 412 (objects with Last-Modified; "
                                 "the others ignore it).")},
]


# A write to an object with Last-Modified takes the date read as its precondition, as RFC 9110 has it.
UNMODIFIED_SINCE_WRITE = {
    "in": "header", "name": "If-Unmodified-Since", "required": False, "schema": {"type": "string"},
    "description": gettext_lazy("The Last-Modified you read (an HTTP date): when the object changed after it, nothing is written and "
                                "the answer is 412. Ignored when If-Match is sent, or when it is no HTTP date."),
}

# Every write that reads If-Match reads If-None-Match after it, as RFC 9110 orders them
# (wiki.api.conditional.check_preconditions).
NONE_MATCH_WRITE = {
    "in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
    "description": gettext_lazy("`*`, or the ETag of a version: when the object exists (`*`) or is in that version now (compared "
                                "weakly), nothing is written and the answer is 412."),
}


def _ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def _add_headers(response: dict[str, Any], *names: str) -> None:
    if "$ref" in response:
        return
    headers = response.setdefault("headers", {})
    for name in names:
        headers.setdefault(name, _ref("headers", name))


def _declare(path: str, method: str, operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation["responses"]
    responses.setdefault("406", _ref("responses", "NotAcceptable"))
    if method in BODY_METHODS and "requestBody" in operation:
        responses.setdefault("413", _ref("responses", "TooLarge"))
        if "application/json" in operation["requestBody"].get("content", {}):
            responses.setdefault("415", _ref("responses", "UnsupportedMediaType"))
    if method == "get":
        responses.setdefault("412", _ref("responses", "PreconditionFailed"))
        named = {parameter.get("name") for parameter in operation.get("parameters", [])}
        operation.setdefault("parameters", []).extend(p for p in PRECONDITION_PARAMETERS if p["name"] not in named)
    # an edit of such an object, or an action posted to it (a page's move)
    dated_write = (method in ("put", "patch") and path in DATED_READS) or (
        method == "post" and any(path.startswith(read) and path != read for read in DATED_READS))
    named = {parameter.get("name") for parameter in operation.get("parameters", [])}
    if dated_write and UNMODIFIED_SINCE_WRITE["name"] not in named:
        operation.setdefault("parameters", []).append(UNMODIFIED_SINCE_WRITE)
    if method != "get" and "If-Match" in named and NONE_MATCH_WRITE["name"] not in named:
        operation.setdefault("parameters", []).append(NONE_MATCH_WRITE)
    responses.setdefault("default", _ref("responses", "Error"))
    for code, response in responses.items():
        if code.startswith("2"):
            validators = ("ETag", "Last-Modified") if method == "get" and path in DATED_READS else ("ETag",)
            # an action on an object read with its ETag answers the object's new version (a finding's, its state's)
            answers_version = method in ("get", "put", "patch") or code == "201" or (method == "post" and "If-Match" in named)
            _add_headers(response, *(validators if answers_version else ()),
                         *(("Location",) if code == "201" else ()), *BUDGET)
        elif code == "304":
            _add_headers(response, "ETag", *(("Last-Modified",) if path in DATED_READS else ()))
        elif code == "401":
            _add_headers(response, "WWW-Authenticate")
        elif code in ("301", "308"):
            _add_headers(response, "Location")
        elif code == "429":
            _add_headers(response, "Retry-After", *BUDGET)
            response["description"] = gettext_lazy("Too many requests: wait Retry-After seconds (the RateLimit headers say the budget).")


def _not_acceptable_error(error: dict[str, Any]) -> dict[str, Any]:
    """The error shape with the media types the address answers in (``available``), which a 406 adds."""
    available = {"type": "array", "items": {"type": "string"},
                 "description": gettext_lazy("The media types this address answers in, to send in Accept (the first is the default).")}
    return {**error, "description": gettext_lazy("The error shape of a 406, naming the formats the address answers in."),
            "properties": {**error["properties"], "available": available},
            "required": [*error.get("required", []), "available"]}


# The parts of an import's report that a file whose every entry was refused answers too (without the import's record).
REPORTED_ENTRIES = ("format", "created", "duplicate", "refused")


def _import_refused_error(error: dict[str, Any], report: dict[str, Any]) -> dict[str, Any]:
    """The error shape with the report's entries (each refused one with its line and why), which an import's 400
    ``all_refused`` adds; a generated client reads them from it as from the report."""
    return {**error, "description": gettext_lazy("The error shape of an import whose every entry was refused (`all_refused`): the "
                                                 "report's entries, each refused one with its line and reason; nothing was imported."),
            "properties": {**error["properties"], **{name: report["properties"][name] for name in REPORTED_ENTRIES}},
            "required": [*error.get("required", []), *REPORTED_ENTRIES]}


def declare_shared_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: see the module's docstring."""
    components = result.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["NotAcceptableError"] = _not_acceptable_error(schemas["Error"])
    if "ImportReport" in schemas:
        schemas["ImportRefusedError"] = _import_refused_error(schemas["Error"], schemas["ImportReport"])
    components.setdefault("responses", {}).update(RESPONSES)
    components.setdefault("headers", {}).update(HEADERS)
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                _declare(path, method, operation)
    return result
