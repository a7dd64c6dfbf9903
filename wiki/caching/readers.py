"""Who a cached page may be served to, and the two spots of a page that belong to one reader.

Anonymous readers all get the same bytes. Logged-in readers with the same permissions get the same
page too, except for their name in the header, the CSRF token of its forms and the button that watches
or unwatches the page, work or question shown: a copy shared among them is rendered with a slot in each
of those places (the ``reader`` context processor, the ``watch_slot`` tag), and the slots are filled for
each request, the watch button from the cache (``wiki.caching.watches``), so no query is made for it. Each button is
rendered once per process with a slot for the token, and every slot of a response gets one token of the reader's.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.functional import SimpleLazyObject
from django.utils.html import escape

from wiki.caching import watches
from wiki.caching.values import cached_value


def slot(name: str) -> str:
    """The mark left in a shared copy where the reader's ``name`` or token goes: plain ASCII with nothing to escape, so
    it comes out of templates unchanged, and derived from the secret key, so that no text an editor writes can hold
    it (a page holding a mark anyone could type would show each reader their own CSRF token and name in it)."""
    return f"wiki-slot-{name}-{salted_hmac('wiki.caching.readers.slot', name).hexdigest()[:24]}"


NAME_SLOT = slot("reader-name")
CSRF_SLOT = slot("csrf-token")
WATCH_SLOT = slot("watch")
_WATCH_MARK = re.compile(rf"{WATCH_SLOT}-(page|source|question)-(\d+)".encode())
_NAME_MARK, _CSRF_MARK, _WATCH_PREFIX = NAME_SLOT.encode(), CSRF_SLOT.encode(), WATCH_SLOT.encode()
_ANY_MARK = re.compile(b"|".join(re.escape(mark) for mark in (_NAME_MARK, _CSRF_MARK)) + b"|" + _WATCH_MARK.pattern)
_SHARED = "_wiki_shared_copy"


def permissions_of(request: HttpRequest) -> str:
    """What the reader may do, as one string (empty for anonymous readers), read once per request."""
    found: str | None = getattr(request, "_wiki_permissions", None)
    if found is None:
        user = request.user
        if user.is_authenticated:
            # Group and permission changes move the content version, so this is never out of date; the superuser flag
            # is the account's own (a write to it moves the accounts version alone), read with the cached account.
            found = cached_value(request, "permissions", user.pk, user.is_superuser,
                                 build=lambda: ",".join(sorted(user.get_all_permissions())))
            if user.is_staff:
                found += ",staff"
        else:
            found = ""
        setattr(request, "_wiki_permissions", found)
    return found


def audience(request: HttpRequest) -> str | None:
    """The readers a GET's page is shared with: ``""`` for anonymous readers, a digest of the permissions for
    logged-in ones; ``None`` when the page is this reader's alone (a message waits to be shown)."""
    if request.method not in ("GET", "HEAD"):
        return None
    if not request.user.is_authenticated:
        return ""
    if request.COOKIES.get(CookieStorage.cookie_name) or "_messages" in request.session:
        return None
    # The slots' marks too: a copy rendered under another secret key (a key rotated, the old one a fallback) has
    # marks this process would not fill.
    return hashlib.blake2b(f"{permissions_of(request)}:{NAME_SLOT}".encode(), digest_size=8).hexdigest()


# Query parameter values that stand for the reader (``?assigned=me``): what a request naming one answers differs from
# one reader to the next, even among readers with the same permissions.
READER_VALUES = frozenset({("assigned", "me")})


def own_copy(request: HttpRequest) -> str:
    """``""`` when the request's answer is the same for every reader of its audience; else a part of the cache key
    naming this reader (a logged-in one: an anonymous reader asking is refused, and a refusal is not kept)."""
    if request.user.is_authenticated and any((name, value) in READER_VALUES
                                             for name, values in request.GET.lists() for value in values):
        return f":reader-{request.user.pk}"
    return ""


def render_shared(request: HttpRequest) -> None:
    """Templates rendered for this request leave the reader's slots in place."""
    setattr(request, _SHARED, True)


@dataclass(frozen=True)
class Slotted:
    """A shared copy cut at its slots: the text between them, and each slot's mark (``slots[i]`` comes after
    ``texts[i]``; one text more than slots)."""

    texts: tuple[bytes, ...]
    slots: tuple[bytes, ...]


def cut(content: bytes) -> Slotted:
    """``content`` cut at every slot of a reader's, read once for all the readers it is filled for."""
    texts: list[bytes] = []
    slots: list[bytes] = []
    start = 0
    for found in _ANY_MARK.finditer(content):
        texts.append(content[start:found.start()])
        slots.append(found[0])
        start = found.end()
    texts.append(content[start:])
    return Slotted(tuple(texts), tuple(slots))


def fill_slots(request: HttpRequest, content: bytes | Slotted) -> bytes:
    """The shared copy with this reader's name, a CSRF token of theirs and their watch buttons in its slots; or a page
    rendered for this reader alone, whose name is written in already, with the watch buttons and CSRF tokens its cached
    fragments left slots for (watch, or unwatch when they watch the item already; one token in every CSRF slot, the
    buttons' included)."""
    shared = content if isinstance(content, Slotted) else cut(content)
    if not shared.slots:
        return shared.texts[0]
    token = name = b""
    pieces = [shared.texts[0]]
    for mark, text in zip(shared.slots, shared.texts[1:], strict=True):
        if mark == _CSRF_MARK:
            token = token or get_token(request).encode()
            pieces.append(token)
        elif mark == _NAME_MARK:
            name = name or escape(request.user.get_username()).encode()
            pieces.append(name)
        else:
            token = token or get_token(request).encode()
            pieces.append(_watch_button(request, mark).replace(_CSRF_MARK, token))
        pieces.append(text)
    return b"".join(pieces)


def watch_mark(kind: str, object_id: int) -> str:
    """Where the watch button of a page (``kind`` "page"), work ("source") or question goes in a logged-in reader's
    page, shared copy or not: a page's fragments are cached with it (``{% wikicache %}``)."""
    return f"{WATCH_SLOT}-{kind}-{object_id}"


def _watch_button(request: HttpRequest, mark: bytes) -> bytes:
    """The logged-in reader's button for the item a watch slot's ``mark`` names, with a CSRF slot in it."""
    found = _WATCH_MARK.fullmatch(mark)
    assert found is not None  # a watch slot's mark, as cut or matched
    kind, object_id = found[1].decode(), int(found[2])
    return _button(translation.get_language(), get_script_prefix(), kind, object_id,
                   watches.is_watching(int(request.user.pk or 0), kind, object_id))


@lru_cache(maxsize=4096)
def _button(language: str | None, prefix: str, kind: str, object_id: int, watching: bool) -> bytes:
    """The watch button of one item, with a CSRF slot for the reader's token: the same bytes for every reader of a
    language (and address prefix, which its form's action holds), so it is rendered once per process."""
    context = {"kind": kind, "object_id": object_id, "csrf_token": CSRF_SLOT, "watching": watching}
    return render_to_string("includes/watch_button.html", context).strip().encode()


def reader(request: HttpRequest) -> dict[str, object]:
    """Context processor: ``reader_name``, and slots in place of it and the CSRF token on a shared copy;
    ``reader_is_editor``, from the permissions the page cache reads once a request (:func:`permissions_of`)."""
    is_editor = SimpleLazyObject(lambda: "wiki.change_page" in permissions_of(request).split(","))
    if getattr(request, _SHARED, False):
        return {"reader_name": NAME_SLOT, "csrf_token": CSRF_SLOT, "reader_is_editor": is_editor}
    return {"reader_name": SimpleLazyObject(lambda: request.user.get_username()), "reader_is_editor": is_editor}
