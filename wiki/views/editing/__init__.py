"""Editor screens. Anonymous users are sent to log in; logged-in readers get 403."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required, permission_required


def editor_required(perm: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        return login_required(permission_required(perm, raise_exception=True)(view))

    return decorate
