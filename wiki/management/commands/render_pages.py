from typing import Any

from django.core.management.base import BaseCommand

from wiki.services.pages import pages_rerender


class Command(BaseCommand):
    help = "Renders every page's stored HTML again from its unchanged text (after an upgrade of the renderer)."

    def handle(self, *args: Any, **options: Any) -> None:
        changed = pages_rerender()
        self.stdout.write(f"{changed} page{'s' if changed != 1 else ''} rendered anew")
