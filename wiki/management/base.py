"""The wiki's management commands speak English.

Django runs a command in ``LANGUAGE_CODE``, which is Chinese here, so the messages of forms, validators and
services would come out in Chinese among the command's own English lines.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import translation


class WikiCommand(BaseCommand):
    """A command whose output, its errors included, is in English."""

    def execute(self, *args: Any, **options: Any) -> str | None:
        with translation.override("en"):
            return super().execute(*args, **options)
