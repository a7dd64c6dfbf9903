from typing import Any

from wiki.management.base import WikiCommand
from wiki.services.pages import pages_rerender


class Command(WikiCommand):
    help = ("Renders every page's stored HTML again from its unchanged text, without a new revision (after an upgrade of "
            "the renderer); prints how many pages changed.")

    def handle(self, *args: Any, **options: Any) -> None:
        changed = pages_rerender()
        self.stdout.write(f"{changed} page{'s' if changed != 1 else ''} rendered anew")
