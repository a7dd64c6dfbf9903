"""Pages that vary with the reader's cookie are marked their own when their view says nothing of caching."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import has_vary_header

from wiki.caching.responses import kept_by_no_one_else


class PrivatePagesMiddleware:
    """A response to a reader who sent cookies (a session, a CSRF token) or is given one, that varies with them
    (``Vary: Cookie``) and carries no ``Cache-Control``, is marked as a logged-in reader's cached page is
    (:func:`wiki.caching.responses.kept_by_no_one_else`): a page's history, a claim, the changes list or an edit form
    holds the reader's name and CSRF token, and a shared cache on the way (a proxy that keeps what it is not told not
    to) must not hand it to another reader. What a reader without cookies is sent (an anonymous API read) is everyone's
    alike and is left as it is. Listed before the session middleware, it sees the response after the session and CSRF
    middleware have added their ``Vary``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (not response.has_header("Cache-Control") and (request.COOKIES or response.cookies)
                and has_vary_header(response, "Cookie")):
            return kept_by_no_one_else(response)
        return response
