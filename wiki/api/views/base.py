"""The view every address of the API is answered by."""

from __future__ import annotations

from typing import Any

from rest_framework import views
from rest_framework.request import Request


class WikiAPIView(views.APIView):
    """A method the address does not answer is 405 with ``Allow``, whoever sends it. REST framework authenticates,
    checks permissions and counts the request against the client's rate before it looks for the method's handler, so
    an anonymous ``DELETE`` of a list was told to log in (401) and a reader's was refused (403) for an address that
    takes no ``DELETE`` from anyone. OPTIONS (every view's) and HEAD (a GET's) are answered as before."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        method = (request.method or "").lower()
        if method not in self.http_method_names or not hasattr(self, method):
            self.http_method_not_allowed(request, *args, **kwargs)
        super().initial(request, *args, **kwargs)
