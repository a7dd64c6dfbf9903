"""The wiki's management commands speak English, and run only on a database migrated as far as the code.

Django runs a command in ``LANGUAGE_CODE``, which is Chinese here, so the messages of forms, validators and
services would come out in Chinese among the command's own English lines.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError
from django.utils import translation

from wiki.schema_state import MIGRATE_COMMAND, unapplied_migrations


class WikiCommand(BaseCommand):
    """A command whose output, its errors included, is in English.

    It stops with one line, before anything is changed, on a database it cannot reach or one not migrated as far as
    the code (after an upgrade, or a ``migrate wiki 0050``), where it would fail midway on a missing column; a command
    that migrates itself sets ``requires_migrated_database`` to False."""

    requires_migrated_database = True

    def execute(self, *args: Any, **options: Any) -> str | None:
        with translation.override("en"):
            if self.requires_migrated_database:
                self._check_database()
            return super().execute(*args, **options)

    def _check_database(self) -> None:
        try:
            unapplied = unapplied_migrations()
        except OperationalError as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise CommandError(f"the database cannot be reached: {reason}") from None
        if unapplied:
            raise CommandError(
                f"the database is not migrated as far as the code ({len(unapplied)} migration"
                f"{'' if len(unapplied) == 1 else 's'} to apply, first {unapplied[0]}): run `{MIGRATE_COMMAND}` "
                "(or `manage.py migrate`) first; nothing was changed"
            )
