"""Whole responses for anonymous readers, from the cache, with ETag, Last-Modified and 304.

A reader's page is the same bytes for every anonymous reader of one language and time zone until the content
version moves, so it is rendered once per version and then served without touching the database.
Logged-in readers with the same permissions share a copy too, with their name and a CSRF token of
their own filled into its slots (``wiki.caching.readers``).

An anonymous reader's copy is also kept compressed (gzip, done once when it is stored), and served so to a browser
that accepts it: a phone reads a long page's 150 kB of HTML as some 30 kB, and the server spends nothing per request to
send it. The copies hold nothing of one reader (no CSRF token, no name), so compressing them discloses nothing.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone, translation
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from wiki.caching import readers, release, versions
from wiki.caching.local import copies
from wiki.preferences import colour_scheme

View = Callable[..., HttpResponseBase]
# (status, headers, content, content compressed or b"")
Stored = tuple[int, list[tuple[str, str]], bytes, bytes]
# As kept in this process's copies: a logged-in audience's content cut at its slots.
Kept = tuple[int, list[tuple[str, str]], "readers.Slotted", bytes]
HttpResponseT = TypeVar("HttpResponseT", bound=HttpResponseBase)
# Smaller than this, the gzip header and a round of inflating cost more than the bytes saved.
COMPRESS_MIN_BYTES = 1024
_VARY = ("Cookie", "Accept-Language")
_VARY_COMPRESSED = (*_VARY, "Accept-Encoding")
_COMPRESSIBLE = ("text/", "application/json", "application/xml", "application/atom+xml", "image/svg+xml",
                 "application/graphml+xml")
# Statuses that depend only on the content: a missing page with its backlinks is as cacheable as a page.
CACHEABLE_STATUSES = {200, 404}
# Set again on every response served from the cache.
_PER_RESPONSE_HEADERS = {"set-cookie", "date", "etag", "last-modified", "cache-control", "expires", "content-length"}


# Query parameters holding free text to search for: most texts are typed once, and a copy kept for each would let
# anyone fill the cache with copies (and push the pages everyone reads out). A text is kept once it is asked again.
FREE_TEXT_PARAMETERS = frozenset({"q"})
# How many searches a process remembers having answered once, the least recent forgotten first.
SEARCHES_REMEMBERED = 10_000


class _AskedBefore:
    """The searches this process answered once (a digest of each one's host and full path), so that the second asking
    of one is kept in the cache and later readers of it are served from there: a search asked by many is kept, one
    typed once is not, and made-up texts, however many, write nothing to the cache. Bounded, thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._lock = threading.Lock()

    def again(self, request: HttpRequest) -> bool:
        """True when this request was answered before in this process; remembers it otherwise."""
        digest = hashlib.blake2b(f"{request.get_host()} {request.get_full_path()}".encode(), digest_size=16).digest()
        with self._lock:
            if digest in self._seen:
                self._seen.move_to_end(digest)
                return True
            self._seen[digest] = None
            if len(self._seen) > self.size:
                self._seen.popitem(last=False)
            return False

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


asked_before = _AskedBefore(SEARCHES_REMEMBERED)
# Set on a request whose answer is not kept: its fragments are not kept either (``{% wikicache %}``).
_NOT_KEPT = "_wiki_not_kept"


def _kept(request: HttpRequest, reads: frozenset[str]) -> bool:
    """Whether the answer to ``request`` is kept, for a view that reads the query parameters ``reads``: not when it
    names another (one copy per made-up parameter would let anyone fill the cache with copies of one page), nor when
    it holds free text to search for that this process has not answered before."""
    if not reads.issuperset(request.GET):
        return False
    searches = any(value.strip() for name in FREE_TEXT_PARAMETERS for value in request.GET.getlist(name))
    return not searches or asked_before.again(request)


def keeps_fragments(request: HttpRequest) -> bool:
    """False while answering a request whose answer is not kept: fragments keyed by its query would not be read
    again either."""
    return not getattr(request, _NOT_KEPT, False)


def is_anonymous_read(request: HttpRequest) -> bool:
    """A GET or HEAD from someone not logged in; reading ``user`` loads no session when there is no cookie."""
    return request.method in ("GET", "HEAD") and not request.user.is_authenticated


def _origin(request: HttpRequest) -> str:
    """The scheme and host the request was sent to: a response may hold absolute addresses made from them (a
    comparison's CSV and JSON), which a reader of another host, or of HTTPS asking after one of plain HTTP, must not
    be given."""
    return f"{request.scheme}://{request.get_host()}"


def _zone() -> str:
    """The reader's time zone and the offset it has now, which every page's footer names: a page kept from before a
    clock change (summer time starting or ending) is neither served nor validated after it."""
    return f"{timezone.get_current_timezone_name()}{timezone.localtime():%z}"


def _key(request: HttpRequest, version: versions.ContentVersion, audience: str) -> str:
    path = hashlib.blake2b(f"{_origin(request)}{request.get_full_path()}".encode(), digest_size=16).hexdigest()
    return (f"wiki:response:{release.RELEASE}:{version.number}:{translation.get_language()}:"
            f"{_zone()}:{colour_scheme(request)}:{audience}:{path}")


def _etag(request: HttpRequest, version: versions.ContentVersion) -> str:
    # Per URL: the same release, version, language, time zone and its offset, colour scheme, scheme and host give the
    # same bytes for every anonymous reader.
    where = f"{_zone()} {_origin(request)}"
    place = hashlib.blake2b(where.encode(), digest_size=4).hexdigest()
    scheme = colour_scheme(request)
    return f'"{release.RELEASE}-{version.number:x}-{translation.get_language()}-{place}{"-" + scheme if scheme else ""}"'


def _compressed(response: HttpResponse) -> bytes:
    """The response's content gzipped, or b"" when it is too small or of a kind that does not compress (images
    other than SVG, archives). Deterministic (no time in the header): the same page gives the same bytes."""
    kind = response.get("Content-Type", "")
    if len(response.content) < COMPRESS_MIN_BYTES or not kind.startswith(_COMPRESSIBLE) or response.has_header("Content-Encoding"):
        return b""
    compressed = gzip.compress(response.content, compresslevel=6, mtime=0)
    return compressed if len(compressed) < len(response.content) else b""


def accepts_gzip(request: HttpRequest) -> bool:
    """True when the request's Accept-Encoding admits gzip: by name (or ``x-gzip``), else by ``*``, with a weight above
    0 (``gzip;q=0`` refuses it, whatever ``*`` says)."""
    weights: dict[str, float] = {}
    for coding in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        name, _, parameters = coding.partition(";")
        _, _, weight = parameters.partition("=")
        try:
            weights.setdefault(name.strip().lower(), float(weight) if weight.strip() else 1.0)
        except ValueError:
            weights.setdefault(name.strip().lower(), 0.0)
    for name in ("gzip", "x-gzip", "*"):
        if name in weights:
            return weights[name] > 0
    return False


def _validated(request: HttpRequest, response: HttpResponse, version: versions.ContentVersion,
               compressed: bytes = b"") -> HttpResponseBase:
    etag = _etag(request, version)
    if compressed and accepts_gzip(request):
        # One copy in two encodings: each has its own validator, as RFC 9110 (8.8.3) asks of a strong one.
        response.content = compressed
        response["Content-Encoding"] = "gzip"
        etag = f'{etag[:-1]}-gzip"'
    # The later of the last write and the release: a page is new to a client when either is.
    modified = max(int(version.changed_at.timestamp()), release.RELEASED_AT)
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
    # A logged-in reader, or one who chose a language, time zone or colours (cookies), gets another page; so does a
    # browser asking for another language, and, of a copy kept compressed too, one that does or does not accept gzip.
    patch_vary_headers(response, _VARY_COMPRESSED if compressed else _VARY)
    if response.status_code != 200:
        return response
    conditional = get_conditional_response(request, etag=etag, last_modified=modified, response=response)
    return conditional if conditional is not None else response


def _personal(request: HttpRequest, response: HttpResponse, shared: readers.Slotted | None = None) -> HttpResponse:
    """A logged-in reader's copy: their name and CSRF token in its slots (of ``shared``, the copy already cut at them,
    when given), kept by no shared cache on the way."""
    response.content = readers.fill_slots(request, response.content if shared is None else shared)
    return kept_by_no_one_else(response)


def kept_by_no_one_else(response: HttpResponseT) -> HttpResponseT:
    """``response`` marked as one reader's own, which no shared cache on the way may keep for another."""
    patch_cache_control(response, private=True, max_age=0, must_revalidate=True)
    patch_vary_headers(response, _VARY)
    return response


def _own(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """A page rendered for one logged-in reader (a message waiting, a query not kept): their watch buttons in its slots,
    which its cached fragments hold, and private as a shared copy filled for them is, since it holds their name and
    CSRF token too."""
    if not request.user.is_authenticated:
        return response
    if isinstance(response, HttpResponse) and not response.streaming:
        response.content = readers.fill_slots(request, response.content)
    return kept_by_no_one_else(response)


def cached_for_readers(*parameters: str) -> Callable[[View], View]:
    """Serves GET/HEAD from the cache, keyed by content version, language, time zone, colour scheme, audience, and
    the scheme, host and full path asked for.

    Anonymous readers get the stored bytes with validators (and 304s); logged-in readers with the same
    permissions share one copy, with their own name and CSRF token filled in (``wiki.caching.readers``).

    ``parameters`` are the query parameters the view reads (``@cached_for_readers("p")``). A request naming another,
    or holding free text to search for (``q``) that this process has not answered before, is answered as the view
    answers it, anonymous readers with validators, but neither it nor its fragments are kept.
    """
    if not all(isinstance(name, str) for name in parameters):
        raise TypeError('cached_for_readers takes the query parameters its view reads: @cached_for_readers("p")')
    reads = frozenset(parameters)

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            audience = readers.audience(request)
            if not _kept(request, reads):
                setattr(request, _NOT_KEPT, True)
                return _answered(request, _own(request, view(request, *args, **kwargs)), anonymous=audience == "")
            if audience is None:
                return _own(request, view(request, *args, **kwargs))
            return _from_cache(request, audience, lambda: view(request, *args, **kwargs))

        # a page to read answers GET and HEAD only, as the reading views that are not cached do
        return require_safe(wrapper)

    return decorator


def _answered(request: HttpRequest, response: HttpResponseBase, *, anonymous: bool) -> HttpResponseBase:
    """A response not kept in the cache; an anonymous reader's with the validators a kept one would have."""
    if anonymous and isinstance(response, HttpResponse) and _storable(request, response):
        return _validated(request, response, versions.for_request(request))
    return response


def _from_cache(request: HttpRequest, audience: str, render: Callable[[], HttpResponseBase]) -> HttpResponseBase:
    # A page that names its reader (the questions assigned to them) is kept for that reader alone.
    audience += readers.own_copy(request)
    version = versions.for_request(request)
    key = _key(request, version, audience)
    stored = cast("Stored | Kept | None", copies.get(key))
    if stored is None:
        stored = cache.get(key)
        if stored is not None:
            stored = _keep(key, stored, audience)
    if stored is not None:
        status, headers, content, compressed = stored
        if isinstance(content, readers.Slotted):
            hit = HttpResponse(status=status)
            for name, value in headers:
                hit[name] = value
            return _personal(request, hit, content)
        hit = HttpResponse(content, status=status)
        for name, value in headers:
            hit[name] = value
        return _validated(request, hit, version, compressed) if not audience else _personal(request, hit)
    if audience:
        readers.render_shared(request)
    response = render()
    if not isinstance(response, HttpResponse) or response.streaming:
        return response
    if _storable(request, response):
        headers = [(name, value) for name, value in response.items() if name.lower() not in _PER_RESPONSE_HEADERS]
        compressed = b"" if audience else _compressed(response)
        stored = (response.status_code, headers, response.content, compressed)
        cache.set(key, stored, settings.WIKI_CACHE_SECONDS)
        _keep(key, stored, audience)
        if not audience:
            return _validated(request, response, version, compressed)
    return _personal(request, response) if audience else response


def _keep(key: str, stored: Stored, audience: str) -> Stored | Kept:
    """``stored`` kept in this process's copies: a copy shared by logged-in readers cut at its slots, once."""
    status, headers, content, compressed = stored
    kept: Stored | Kept = (status, headers, readers.cut(content), compressed) if audience else stored
    copies.put(key, kept, len(content) + len(compressed))
    return kept


def _storable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Only what every reader of its audience would get alike: no cookie set, no message shown, not streamed."""
    if response.streaming or response.status_code not in CACHEABLE_STATUSES:
        return False
    if response.cookies or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False  # a CSRF token in the page belongs to one reader
    if getattr(getattr(request, "_messages", None), "used", False):
        return False
    return not response.has_header("Cache-Control") or "private" not in response["Cache-Control"]
