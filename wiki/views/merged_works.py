"""Comparisons and graphs asked for by a work's old address: a work merged into another answers where it lives now."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.http import HttpRequest, HttpResponsePermanentRedirect

from wiki.graph.build import SubjectRef, now_named


def works_query(request: HttpRequest, refs: Sequence[SubjectRef], *, path: str = "") -> str:
    """This request's address (or ``path``) with ``?works=`` naming ``refs``, its other parameters kept."""
    query = request.GET.copy()
    query.setlist("works", [",".join(map(str, refs))])
    return f"{path or request.path}?{query.urlencode()}"


def merged_works_redirect(
    request: HttpRequest, refs: Sequence[SubjectRef], url: Callable[[list[SubjectRef]], str] | None = None
) -> HttpResponsePermanentRedirect | None:
    """A permanent redirect to ``url`` of the works as named now (by default this address with ``?works=`` naming
    them), when one of ``refs`` was merged into another."""
    now = now_named(refs)
    if now is None:
        return None
    return HttpResponsePermanentRedirect(url(now) if url is not None else works_query(request, now))
