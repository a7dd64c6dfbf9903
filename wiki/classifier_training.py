"""The wiki's decisions as the classifier's training data, and a retrain that never installs worse weights.

Every classification an editor saves, accepting the suggestion or overriding it, is a labelled
example: the text the classifier reads about the work, the editor's mechanism, verdict and facts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from classifier.evaluate import HELDOUT_MANIFEST, load_heldout
from classifier.model import Weights, current_weights, forget_weights, weights_path
from classifier.taxonomy import Fact
from classifier.train import PROJECT_EXAMPLES, Example, Score, example_from, load_examples, score, train
from wiki.models import Classification
from wiki.suggestion_texts import suggestion_text, texts_about
from wiki.suggestions import suggestions_refresh

# An editor's decision about a work in this wiki outweighs a generic description.
WIKI_WEIGHT = 3.0


def wiki_examples() -> list[Example]:
    """One example per saved classification (four queries)."""
    classifications = list(Classification.objects.decisions())
    claims = texts_about({c.source_id for c in classifications})
    examples = []
    for c in classifications:
        text = suggestion_text(c.source, claims.get(c.source_id, []))
        if not text.strip():
            continue
        facts = {fact.value: getattr(c, fact.value) for fact in Fact}
        item = {"text": text, "subject": c.subject_name, "mechanism": c.mechanism, "verdict": c.verdict,
                "facts": facts}
        examples.append(example_from(item, origin="wiki", weight=WIKI_WEIGHT))
    return examples


@dataclass(frozen=True)
class Retraining:
    """What a retrain measured, whether it installed the new weights and whether it brought every stored suggestion
    up to date with them (not when they were installed elsewhere than the weights the wiki reads)."""

    measured_on: str
    before: Score
    after: Score
    installed: bool
    weights: Weights
    examples: int
    suggestions_refreshed: bool = False


def classifier_retrain(*, heldout_texts: Path | None = None, heldout_manifest: Path | None = None,
                       out: Path | None = None, force: bool = False) -> Retraining:
    """Fit weights on the project's examples plus the wiki's decisions and install them unless they score worse;
    installed as the weights the wiki reads, every stored suggestion is then brought up to date with them.

    They are measured on the frozen held-out set when its texts are at hand. Otherwise a fifth of the works is
    held back (:func:`validation_split`) and two fits on the other four fifths are set side by side on it: the
    project's examples alone ("before") and with the wiki's decisions ("after"). The installed weights saw
    every example, so scoring them on any part of the examples would flatter them.
    """
    examples = load_examples(PROJECT_EXAMPLES) + wiki_examples()
    installed = current_weights()
    version = installed.version + 1
    if heldout_texts is not None:
        manifest = heldout_manifest or HELDOUT_MANIFEST
        heldout = [example_from(item) for item in load_heldout(manifest, heldout_texts)]
        candidate = train(examples, version=version)
        before, after, measured_on = score(installed, heldout), score(candidate, heldout), "held-out set"
    else:
        held, rest = validation_split(examples)
        project_only = [e for e in rest if e.origin != "wiki"]
        before = score(train(project_only, version=version), held)
        after = score(train(rest, version=version), held)
        measured_on = "validation fifth of the works (both fitted without it; before: without the wiki's decisions)"
        candidate = train(examples, version=version)
    install = force or after.at_least(before)
    refreshed = False
    if install:
        target = out or weights_path()
        candidate.save(target)
        forget_weights()
        # Else the triage queue and reports would reclassify the works a hundred per request.
        if target.resolve() == weights_path().resolve():
            refreshed = suggestions_refresh(limit=None)
    return Retraining(measured_on, before, after, install, candidate, len(examples), suggestions_refreshed=refreshed)


def validation_split(examples: Sequence[Example]) -> tuple[list[Example], list[Example]]:
    """A fifth of the works held back, and the rest; every example about one work falls on the same side."""
    held: list[Example] = []
    rest: list[Example] = []
    for e in examples:
        work = (e.subject or e.text).casefold()
        side = held if hashlib.blake2b(work.encode(), digest_size=2).digest()[0] % 5 == 0 else rest
        side.append(e)
    return held, rest
