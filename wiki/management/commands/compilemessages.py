"""``compilemessages`` without GNU gettext: the catalogues under ``locale/`` compiled with Babel.

Django's own command runs ``msgfmt``, which a fresh machine lacks; Babel reads and writes the same files.
A catalogue with a syntax error, or a message whose placeholders differ from its translation, stops it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


def catalogue_files() -> list[Path]:
    return sorted(path for root in settings.LOCALE_PATHS for path in Path(root).glob("*/LC_MESSAGES/*.po"))


def compile_catalogue(po_path: Path) -> int:
    """Writes the ``.mo`` beside ``po_path``; returns how many messages it holds. Fuzzy entries are left out."""
    with po_path.open("rb") as handle:
        catalogue = read_po(handle, locale=po_path.parent.parent.name, abort_invalid=True)
    problems = [f"{po_path}:{message.lineno}: {error}" for message, errors in catalogue.check() for error in errors]
    if problems:
        raise CommandError("\n".join(problems))
    with po_path.with_suffix(".mo").open("wb") as handle:
        write_mo(handle, catalogue, use_fuzzy=False)
    return sum(1 for message in catalogue if message.id and message.string and not message.fuzzy)


class Command(BaseCommand):
    help = "Compiles the translation catalogues (locale/*/LC_MESSAGES/*.po) to .mo files, with Babel."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--locale", "-l", action="append", default=[], help="Only these locales (default: all).")

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = set(options["locale"])
        for po_path in catalogue_files():
            if wanted and po_path.parent.parent.name not in wanted:
                continue
            count = compile_catalogue(po_path)
            if options["verbosity"]:
                self.stdout.write(f"{po_path.relative_to(settings.BASE_DIR)}: {count} messages")
