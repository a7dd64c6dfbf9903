"""The reader's language and time zone: chosen in the header or on the preferences page, kept in cookies and,
for a logged-in reader, in their profile, which every session of theirs reads on each request (it comes with the
cached account, ``wiki.caching.users``, so a choice made on one device reaches the others at their next request).
The colour scheme (light or dark, else the device's own) is kept on the device alone: a phone read at night and a
desktop by day are each set apart.

Django's LocaleMiddleware has already picked the cookie's language, else the browser's Accept-Language,
else Chinese; a logged-in reader's own choice comes before both. Times are shown in the reader's zone.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone, translation

from wiki.roles import Account, account

PREFERENCE_COOKIE_AGE = 365 * 24 * 60 * 60
API_PREFIX = "/api/"
COLOUR_SCHEMES = ("light", "dark")


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


# Areas the time zone database keeps for old names alone (US/Eastern, Canada/Pacific): left out of the zones offered
# where no zone.tab says which names are current.
_COMPATIBILITY_AREAS = ("Brazil/", "Canada/", "Chile/", "Etc/", "Mexico/", "US/")


def _zone_table() -> str | None:
    """The database's zone.tab, which lists its zones by country under their present names: the system's copy (in
    ``zoneinfo.TZPATH``), else the tzdata package's, which zoneinfo reads on a system without one."""
    for directory in zoneinfo.TZPATH:
        path = Path(directory) / "zone.tab"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return (resources.files("tzdata") / "zoneinfo" / "zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return None


@lru_cache(maxsize=1)
def offered_time_zone_names() -> frozenset[str]:
    """The zones a reader is offered: each of the database's zones under its present name, and UTC.

    Left out are the names kept for compatibility (PRC, ROC, Cuba, Eire, US/Eastern, Asia/Calcutta) and the Etc/
    zones, whose signs run against the usual reading (Etc/GMT+8 is eight hours behind UTC): in a list of hundreds
    either is easily picked for the place it is not. Every zone stays valid (``valid_time_zone``), so a reader who
    chose one of them keeps it (``wiki.forms.preferences.time_zone_choices``)."""
    names = time_zone_names()
    table = _zone_table()
    if table is None:
        current = {name for name in names if "/" in name and not name.startswith(_COMPATIBILITY_AREAS)}
    else:
        current = {line.split("\t")[2] for line in table.splitlines() if line and not line.startswith("#")}
    return frozenset((current & names) | {"UTC"})


def valid_language(code: str | None) -> str | None:
    return code if code and code in dict(settings.LANGUAGES) else None


def valid_time_zone(name: str | None) -> str | None:
    return name if name and name in time_zone_names() else None


def colour_scheme(request: HttpRequest) -> str:
    """The colour scheme chosen on this device, "light" or "dark"; empty to follow the device's own setting."""
    chosen = request.COOKIES.get(settings.COLOUR_SCHEME_COOKIE_NAME, "")
    return chosen if chosen in COLOUR_SCHEMES else ""


def colour_scheme_context(request: HttpRequest) -> dict[str, str]:
    """Context processor: ``colour_scheme``, which ``base.html`` sets on ``<html>``."""
    return {"colour_scheme": colour_scheme(request)}


class ReaderPreferencesMiddleware:
    """Activates the reader's language (a logged-in reader's profile first) and time zone for this request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        language = zone = None
        # Only a reader with a session can be logged in; others load no session here.
        user = account(request.user) if settings.SESSION_COOKIE_NAME in request.COOKIES else None
        if user is not None:
            language, zone = profile_choices(user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        zone = zone or valid_time_zone(request.COOKIES.get(settings.TIME_ZONE_COOKIE_NAME)) or settings.TIME_ZONE
        # The API speaks UTC to every script; people read their own zone.
        timezone.activate(zoneinfo.ZoneInfo("UTC" if request.path_info.startswith(API_PREFIX) else zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def remember(response: HttpResponseBase, *, language: str | None = None, time_zone: str | None = None,
             colour_scheme: str | None = None) -> None:
    """Keeps the choice in the browser's cookies, for readers logged in or not; an empty colour scheme forgets the
    one chosen before, so the device's own setting counts again."""
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                            samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
    if time_zone:
        response.set_cookie(settings.TIME_ZONE_COOKIE_NAME, time_zone, max_age=PREFERENCE_COOKIE_AGE,
                            samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
    if colour_scheme:
        response.set_cookie(settings.COLOUR_SCHEME_COOKIE_NAME, colour_scheme, max_age=PREFERENCE_COOKIE_AGE,
                            samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
    elif colour_scheme is not None:
        response.delete_cookie(settings.COLOUR_SCHEME_COOKIE_NAME, samesite="Lax")


def profile_choices(user: Account) -> tuple[str | None, str | None]:
    """The language and time zone in the reader's profile (None where they chose none), read with the cached
    account: no query."""
    from wiki.models import ReaderProfile

    try:
        profile = user.reader_profile
    except ReaderProfile.DoesNotExist:
        return None, None
    return valid_language(profile.language), valid_time_zone(profile.time_zone)
