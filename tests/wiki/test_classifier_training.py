import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from classifier import Mechanism, Verdict, classify
from classifier.engine import suggest
from classifier.model import Weights, forget_weights, weights_path
from classifier.train import PROJECT_EXAMPLES, Example, Score, load_examples, train
from tests.factories import make_classification, make_source
from wiki import classifier_training
from wiki.classifier_training import classifier_retrain, validation_split, wiki_examples
from wiki.models import StoredSuggestion
from wiki.suggestions import suggestions_refresh

TEXT = "Quillmate collects human ratings of assistant replies and trains a reward model from them."


@pytest.mark.django_db
def test_every_saved_classification_is_a_labelled_example() -> None:
    source = make_source(short_name="Quillmate", abstract=TEXT)
    make_classification(source, mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    example = next(e for e in wiki_examples() if e.subject == "Quillmate")
    assert example.mechanism is Mechanism.SFT_DISTILLATION
    assert TEXT in example.text
    assert example.origin == "wiki"


@pytest.fixture
def installed_weights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the weights, installed as the ones the wiki reads (CLASSIFIER_WEIGHTS) for the test only."""
    path = tmp_path / "installed-weights.json"
    shutil.copyfile(weights_path(), path)
    monkeypatch.setenv("CLASSIFIER_WEIGHTS", str(path))
    forget_weights()
    yield path
    forget_weights()


@pytest.mark.django_db
def test_retraining_from_the_wikis_decisions_changes_a_suggestion_the_editors_overrode(
        tmp_path: Path, installed_weights: Path) -> None:
    assert classify(TEXT, "Quillmate").mechanism is not Mechanism.SFT_DISTILLATION
    source = make_source(short_name="Quillmate", abstract=TEXT)
    make_classification(source, mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    suggestions_refresh(limit=None)
    stored = StoredSuggestion.objects.get(source=source, component=None)
    assert stored.mechanism != Mechanism.SFT_DISTILLATION
    result = classifier_retrain(out=installed_weights, force=True, **_one_work_heldout(tmp_path))
    assert result.installed and result.weights.trained_on["wiki"] >= 1
    retrained = Weights.from_dict(json.loads(installed_weights.read_text(encoding="utf-8")))
    assert suggest(TEXT, "Quillmate", weights=retrained).mechanism is Mechanism.SFT_DISTILLATION
    # Taken up at once: the stored suggestion is the new weights', not the one the queue would correct later.
    assert result.suggestions_refreshed
    stored.refresh_from_db()
    assert (stored.weights_version, stored.mechanism) == (retrained.version, Mechanism.SFT_DISTILLATION)


@pytest.mark.django_db
def test_train_classifier_refuses_worse_weights_and_keeps_the_installed_ones(tmp_path: Path) -> None:
    # Editors who call every work a harness would teach the classifier worse than it knows.
    for n in range(40):
        source = make_source(short_name=f"Agent{n}", abstract="We train the web agent with PPO in a browser "
                             "environment over many steps, rewarded by task success.")
        make_classification(source, mechanism="harness", verdict="not_strict", interactive_env=False,
                            multi_step=False, verifiable_reward=False, rl_update=False)
    heldout = _one_work_heldout(tmp_path)
    out = tmp_path / "weights.json"
    with pytest.raises(CommandError):
        call_command("train_classifier", "--out", str(out), "--heldout-texts", str(heldout["heldout_texts"]),
                     "--heldout-manifest", str(heldout["heldout_manifest"]))
    assert not out.exists()


def _one_work_heldout(tmp_path: Path) -> dict[str, Path]:
    """A frozen held-out set of one work, so that a retrain fits once."""
    texts = [{"id": "w", "name": "WebRunner", "text": "We train the WebRunner agent with PPO in a browser "
              "environment over many steps, rewarded by task success."}]
    blob = json.dumps(texts).encode("utf-8")
    (tmp_path / "texts.json").write_bytes(blob)
    manifest = {"texts_sha256": hashlib.sha256(blob).hexdigest(),
                "items": [{"id": "w", "lang": "en", "mechanism": "policy_gradient", "verdict": "strict"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return {"heldout_texts": tmp_path / "texts.json", "heldout_manifest": tmp_path / "manifest.json"}


def _example(subject: str, origin: str = "project") -> Example:
    return Example(f"{subject} is trained with PPO.", subject, Mechanism.POLICY_GRADIENT,
                   Verdict.STRICT, origin=origin)


def _work(example: Example) -> str:
    return (example.subject or example.text).casefold()


def test_the_validation_fifth_holds_back_whole_works() -> None:
    examples = [_example(f"Work{n}") for n in range(500)] + [_example(f"Work{n}", "wiki") for n in range(500)]
    held, rest = validation_split(examples)
    held_works = {e.subject for e in held}
    assert 0.15 < len(held_works) / 500 < 0.25
    assert not held_works & {e.subject for e in rest}  # a work's wiki decision never trains what is scored on it


@pytest.mark.django_db
def test_without_held_out_texts_before_and_after_are_both_fitted_without_the_fifth_they_are_scored_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = make_source(short_name="Quillmate", abstract=TEXT)
    make_classification(source, mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    fits: list[list[Example]] = []

    def recorded_train(examples: list[Example], *, version: int = 1) -> Weights:
        fits.append(list(examples))
        return train(examples[:40], version=version)  # the fits' inputs are what is checked here

    monkeypatch.setattr(classifier_training, "train", recorded_train)
    monkeypatch.setattr(classifier_training, "score", lambda weights, examples: Score(len(examples), 0, 0))
    result = classifier_retrain(out=tmp_path / "weights.json")

    held, _ = validation_split(load_examples(PROJECT_EXAMPLES) + wiki_examples())
    before, after, candidate = fits
    assert not {_work(e) for e in held} & {_work(e) for e in before + after}
    assert all(e.origin != "wiki" for e in before) and any(e.origin == "wiki" for e in after + candidate)
    assert len(candidate) == len(after) + len(held)
    assert result.installed and result.measured_on.startswith("validation fifth of the works")
