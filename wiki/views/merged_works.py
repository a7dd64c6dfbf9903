"""Comparisons and graphs asked for by a work's old address: a work merged into another answers where it lives now."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.http import HttpRequest, HttpResponsePermanentRedirect

from wiki.graph.build import SubjectRef, now_named


def works_query(request: HttpRequest, refs: Sequence[SubjectRef]) -> str:
    """This request's address with ``?works=`` naming ``refs``, its other parameters kept."""
    query = request.GET.copy()
    query.setlist("works", [",".join(map(str, refs))])
    return f"{request.path}?{query.urlencode()}"


def merged_works_redirect(
    request: HttpRequest, refs: Sequence[SubjectRef], url: Callable[[list[SubjectRef]], str]
) -> HttpResponsePermanentRedirect | None:
    """A permanent redirect to ``url`` of the works as named now, when one of ``refs`` was merged into another."""
    now = now_named(refs)
    return HttpResponsePermanentRedirect(url(now)) if now is not None else None
