"""Typed helpers that read settings from the environment and fail loudly on a bad value."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# Keys published with the code (.env.example, the development default, Django's template): anyone can read them.
DEVELOPMENT_SECRET_KEY = "insecure-development-key-change-me"
PLACEHOLDER_SECRET_KEYS = frozenset({"change-me", "changeme", "secret", DEVELOPMENT_SECRET_KEY})
SECRET_KEY_MIN_LENGTH = 50


class AppServer:
    """Whether this process serves the wiki through an application server (gunicorn for `make serve`, or any WSGI or
    ASGI server): its entry points, config/wsgi.py and config/asgi.py, say so before the settings are read. manage.py
    (the development server of `make run`, the commands) and the tests read the settings without it."""

    running = False


def secret_key_refused(key: str, *, needed_because: str) -> None:
    """Raises when ``key`` cannot protect a deployment: empty, a published placeholder, or short or repetitive
    enough for ``check --deploy`` to call it weak (fewer than 50 characters or 5 distinct ones). ``needed_because``
    says, when the key is missing, why this process needs one."""
    how = 'e.g. python -c "import secrets; print(secrets.token_urlsafe(50))"'
    if not key:
        raise ImproperlyConfigured(f"{needed_because}: set DJANGO_SECRET_KEY to a long random value ({how}).")
    if key.strip().lower() in PLACEHOLDER_SECRET_KEYS or key.startswith("django-insecure-"):
        raise ImproperlyConfigured(f"DJANGO_SECRET_KEY is a published placeholder: set a long random value ({how}).")
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < 5:
        raise ImproperlyConfigured(f"DJANGO_SECRET_KEY is too weak: use at least {SECRET_KEY_MIN_LENGTH} random "
                                   f"characters ({how}).")
