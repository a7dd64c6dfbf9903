"""The HTML lists' paginator: Django's, reading a page number below 1 as the first page."""

from __future__ import annotations

from typing import Any

from django.core import paginator


class Paginator(paginator.Paginator):  # type: ignore[type-arg]
    """Django's ``get_page`` shows the last page for ``?p=0`` or ``?p=-1`` (a number too small is "empty", as one too
    large is); a reader who asks for page 0 meant the start."""

    def get_page(self, number: Any) -> paginator.Page:  # type: ignore[type-arg]
        try:
            if int(number) < 1:
                number = 1
        except (TypeError, ValueError):
            pass
        return super().get_page(number)
