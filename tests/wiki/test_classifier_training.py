import hashlib
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from classifier import Mechanism, classify
from classifier.engine import suggest
from classifier.model import Weights
from tests.factories import make_classification, make_source
from wiki.classifier_training import classifier_retrain, wiki_examples

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


@pytest.mark.django_db
def test_retraining_from_the_wikis_decisions_changes_a_suggestion_the_editors_overrode(tmp_path: Path) -> None:
    assert classify(TEXT, "Quillmate").mechanism is not Mechanism.SFT_DISTILLATION
    source = make_source(short_name="Quillmate", abstract=TEXT)
    make_classification(source, mechanism="sft_distillation", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    out = tmp_path / "weights.json"
    result = classifier_retrain(out=out, force=True)
    assert result.installed and result.weights.trained_on["wiki"] >= 1
    retrained = Weights.from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert suggest(TEXT, "Quillmate", weights=retrained).mechanism is Mechanism.SFT_DISTILLATION


@pytest.mark.django_db
def test_train_classifier_refuses_worse_weights_and_keeps_the_installed_ones(tmp_path: Path) -> None:
    # Editors who call every work a harness would teach the classifier worse than it knows.
    for n in range(40):
        source = make_source(short_name=f"Agent{n}", abstract="We train the web agent with PPO in a browser "
                             "environment over many steps, rewarded by task success.")
        make_classification(source, mechanism="harness", verdict="not_strict", interactive_env=False,
                            multi_step=False, verifiable_reward=False, rl_update=False)
    texts = [{"id": "w", "name": "WebRunner", "text": "We train the WebRunner agent with PPO in a browser "
              "environment over many steps, rewarded by task success."}]
    blob = json.dumps(texts).encode("utf-8")
    (tmp_path / "texts.json").write_bytes(blob)
    manifest = {"texts_sha256": hashlib.sha256(blob).hexdigest(),
                "items": [{"id": "w", "lang": "en", "mechanism": "policy_gradient", "verdict": "strict"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    out = tmp_path / "weights.json"
    with pytest.raises(CommandError):
        call_command("train_classifier", "--out", str(out), "--heldout-texts", str(tmp_path / "texts.json"),
                     "--heldout-manifest", str(tmp_path / "manifest.json"))
    assert not out.exists()
