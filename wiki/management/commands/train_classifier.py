from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from classifier.evaluate import HELDOUT_MANIFEST, ChecksumError
from classifier.model import weights_path
from config.env import env_str
from wiki.classifier_training import classifier_retrain
from wiki.management.base import WikiCommand
from wiki.management.files import check_writable, read_json, write_errors


class Command(WikiCommand):
    help = ("Retrain the classifier from the wiki's saved classifications plus the project's examples; "
            "reports before/after and installs the new weights only if they score no worse.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--heldout-texts", default=env_str("CLASSIFIER_HELDOUT_TEXTS"), metavar="FILE",
                            help="the frozen held-out texts, to measure on (default: CLASSIFIER_HELDOUT_TEXTS; "
                                 "without them, a fifth of the works held back from two fits is used)")
        parser.add_argument("--heldout-manifest", default="", metavar="FILE",
                            help=f"the held-out labels, read with --heldout-texts (default: the newest frozen set, "
                                 f"{HELDOUT_MANIFEST.name})")
        parser.add_argument("--out", default="", metavar="FILE",
                            help="where to install the weights (default: the weights in use, CLASSIFIER_WEIGHTS)")
        parser.add_argument("--force", action="store_true", help="install even if the new weights score worse")

    def handle(self, *args: Any, **options: Any) -> None:
        heldout_texts = Path(options["heldout_texts"]) if options["heldout_texts"] else None
        heldout_manifest = Path(options["heldout_manifest"]) if options["heldout_manifest"] else None
        out = Path(options["out"]) if options["out"] else None
        # Checked before the minutes of training, not after.
        if heldout_texts is not None:
            read_json(heldout_texts)
            read_json(heldout_manifest or HELDOUT_MANIFEST)
        target = out or weights_path()
        check_writable(target)
        try:
            result = classifier_retrain(heldout_texts=heldout_texts, heldout_manifest=heldout_manifest, out=out,
                                        force=options["force"])
        except ChecksumError as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            if error.filename != str(target):
                raise
            raise write_errors(target, error) from None
        self.stdout.write(f"{result.examples} examples ({result.weights.trained_on}); measured on the {result.measured_on}")
        self.stdout.write(f"before: {result.before}")
        self.stdout.write(f"after:  {result.after}")
        if not result.installed:
            raise CommandError("the new weights score worse; the installed weights are kept")
        self.stdout.write(f"installed weights v{result.weights.version}")
        if result.suggestions_refreshed:
            self.stdout.write("stored suggestions up to date")
