"""The reader's language and time zone: chosen in the header or on the preferences page, kept in cookies and,
for a logged-in reader, in their profile (copied into the session at login, so no request reads it again).

Django's LocaleMiddleware has already picked the cookie's language, else the browser's Accept-Language,
else Chinese; a logged-in reader's own choice comes before both. Times are shown in the reader's zone.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone, translation

from wiki.roles import Account

LANGUAGE_SESSION_KEY = "wiki_language"
TIME_ZONE_SESSION_KEY = "wiki_time_zone"
PREFERENCE_COOKIE_AGE = 365 * 24 * 60 * 60
API_PREFIX = "/api/"


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid_language(code: str | None) -> str | None:
    return code if code and code in dict(settings.LANGUAGES) else None


def valid_time_zone(name: str | None) -> str | None:
    return name if name and name in time_zone_names() else None


class ReaderPreferencesMiddleware:
    """Activates the reader's language (a logged-in reader's profile first) and time zone for this request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        language = zone = None
        # Only a reader with a session has a profile's choice in it; others load no session here.
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            language = valid_language(request.session.get(LANGUAGE_SESSION_KEY))
            zone = valid_time_zone(request.session.get(TIME_ZONE_SESSION_KEY))
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


def remember(response: HttpResponseBase, *, language: str | None = None, time_zone: str | None = None) -> None:
    """Keeps the choice in the browser's cookies, for readers logged in or not."""
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                            samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
    if time_zone:
        response.set_cookie(settings.TIME_ZONE_COOKIE_NAME, time_zone, max_age=PREFERENCE_COOKIE_AGE,
                            samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)


def load_into_session(sender: Any, *, request: HttpRequest, user: Account, **kwargs: Any) -> None:
    """Connected to ``user_logged_in``: the profile's choices travel in the session from now on."""
    from wiki.models import ReaderProfile

    profile = ReaderProfile.objects.filter(user=user).only("language", "time_zone").first()
    if profile is None:
        return
    if profile.language:
        request.session[LANGUAGE_SESSION_KEY] = profile.language
    if profile.time_zone:
        request.session[TIME_ZONE_SESSION_KEY] = profile.time_zone
