"""A server started on a database not migrated as far as the code answers every request 503, saying what to run,
rather than a 500 at the first table or column the code has and the database lacks (:mod:`wiki.schema_state`)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.translation import ngettext

from wiki.api.errors import error_response
from wiki.schema_state import MIGRATE_COMMAND, database_behind

API_PREFIX = "/api/"
# Seconds a client may wait before asking again: the time a migration usually takes.
RETRY_AFTER = 30


def unmigrated_answer(request: HttpRequest, unapplied: list[str]) -> HttpResponse:
    """The 503 for a database missing the migrations ``unapplied``: JSON under /api/, the wiki's page elsewhere."""
    count = len(unapplied)
    if request.path_info.startswith(API_PREFIX):
        detail = ngettext(
            "The database is not migrated as far as the code (%(count)s migration to apply): run “%(command)s”, then "
            "try again.",
            "The database is not migrated as far as the code (%(count)s migrations to apply): run “%(command)s”, then "
            "try again.", count) % {"count": count, "command": MIGRATE_COMMAND}
        response: HttpResponse = error_response(503, "database_not_migrated", detail)
    else:
        # Rendered without the request: nothing on the way (the reader, the session) may ask the database.
        html = render_to_string("503.html", {"command": MIGRATE_COMMAND, "count": count, "first": unapplied[0]})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    add_never_cache_headers(response)
    return response


class UnmigratedDatabaseMiddleware:
    """Answers 503 (:func:`unmigrated_answer`) while the database lacks migrations the code has. A database that
    cannot be asked is left to fail as it does otherwise: the health check reports it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            unapplied = database_behind()
        except Exception:  # noqa: BLE001 - not asked (the database is down): the request fails its own way, as before
            unapplied = []
        if unapplied:
            return unmigrated_answer(request, unapplied)
        return self.get_response(request)
