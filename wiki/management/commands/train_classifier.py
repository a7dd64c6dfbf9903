from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from classifier.evaluate import HELDOUT_MANIFEST
from config.env import env_str
from wiki.classifier_training import classifier_retrain


class Command(BaseCommand):
    help = ("Retrain the classifier from the wiki's saved classifications plus the project's examples; "
            "reports before/after and installs the new weights only if they score no worse.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--heldout-texts", default=env_str("CLASSIFIER_HELDOUT_TEXTS"),
                            help="the frozen held-out texts (else a validation fifth of the examples is used)")
        parser.add_argument("--heldout-manifest", default="",
                            help=f"the held-out labels (default: the newest frozen set, {HELDOUT_MANIFEST.name})")
        parser.add_argument("--out", default="", help="where to install the weights (default: the weights in use)")
        parser.add_argument("--force", action="store_true", help="install even if the new weights score worse")

    def handle(self, *args: Any, **options: Any) -> None:
        result = classifier_retrain(
            heldout_texts=Path(options["heldout_texts"]) if options["heldout_texts"] else None,
            heldout_manifest=Path(options["heldout_manifest"]) if options["heldout_manifest"] else None,
            out=Path(options["out"]) if options["out"] else None,
            force=options["force"],
        )
        self.stdout.write(f"{result.examples} examples ({result.weights.trained_on}); measured on the {result.measured_on}")
        self.stdout.write(f"before: {result.before}")
        self.stdout.write(f"after:  {result.after}")
        if not result.installed:
            raise CommandError("the new weights score worse; the installed weights are kept")
        self.stdout.write(f"installed weights v{result.weights.version}")
