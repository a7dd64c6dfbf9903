from pathlib import Path

import numpy as np
import pytest

from classifier.engine import analyse
from classifier.model import TRUE, LinearModel, Weights, current_weights
from classifier.taxonomy import Fact

TEXTS = [
    "We train the web agent with GRPO over multi-turn browser episodes rewarded by task success.",
    "我们提出一个评测基准，只评测现有模型，不训练任何模型。",
    "A prompting scaffold with a skill library; no parameter is updated.",
]


def _one_by_one(weights: Weights, text: str) -> dict[Fact, tuple[float, np.ndarray]]:
    features = analyse(text).features
    _, readings = weights.read(features.values(), features.words)
    return {fact: (model.probabilities(readings[fact])[TRUE], model.contribution_row(readings[fact], TRUE))
            for fact, model in weights.facts.items()}


@pytest.mark.parametrize("text", TEXTS)
def test_the_fact_models_read_as_one_matrix_score_as_each_model_alone(text: str) -> None:
    weights = current_weights()
    assert weights.fact_stack is not None
    features = analyse(text).features
    _, readings = weights.read(features.values(), features.words)
    stacked = weights.fact_scores(readings)
    for fact, (p, row) in _one_by_one(weights, text).items():
        assert stacked[fact][0] == pytest.approx(p, abs=1e-12)
        np.testing.assert_allclose(stacked[fact][1], row, atol=1e-12)


def _separate(weights: Weights) -> Weights:
    """The same weights with each fact model under a feature index of its own."""
    own = {fact: LinearModel(m.classes, m.features, m.weights, m.bias, m.temperature, dict(m.index))
           for fact, m in weights.facts.items()}
    return Weights(weights.version, weights.mechanism, own, weights.trained_on)


def test_fact_models_over_features_of_their_own_are_scored_one_by_one() -> None:
    weights = current_weights()
    separate = _separate(weights)
    assert separate.fact_stack is None
    features = analyse(TEXTS[0]).features
    _, readings = separate.read(features.values(), features.words)
    scores = separate.fact_scores(readings)
    for fact, (p, row) in _one_by_one(weights, TEXTS[0]).items():
        assert scores[fact][0] == pytest.approx(p, abs=1e-12)
        np.testing.assert_allclose(scores[fact][1], row, atol=1e-12)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("layout", ["table", "separate"])
def test_scoring_a_text_at_once_agrees_with_each_model_alone(text: str, layout: str) -> None:
    weights = current_weights() if layout == "table" else _separate(current_weights())
    assert (weights.table is not None) is (layout == "table")
    features = analyse(text).features
    scored = weights.score(features.values(), features.words)
    reading = scored.reading
    probabilities = weights.mechanism.probabilities(reading)
    assert scored.mechanism == pytest.approx(probabilities, abs=1e-12)
    for cls in weights.mechanism.classes:
        np.testing.assert_allclose(scored.class_row(cls), weights.mechanism.contribution_row(reading, cls),
                                   atol=1e-12)
    for fact, (p, row) in _one_by_one(current_weights(), text).items():
        assert scored.facts[fact] == pytest.approx(p, abs=1e-12)
        np.testing.assert_allclose(scored.fact_rows[fact], row, atol=1e-12)
        assert scored.fact_readings[fact].names == reading.names
    assert [reading.names[i] for i in reading.words] == [n for n in reading.names if n in features.words]


def _renumbered(weights: Weights, version: int) -> Weights:
    return Weights(version, weights.mechanism, weights.facts, weights.trained_on)


def test_weights_installed_by_another_process_are_read_on_the_next_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = current_weights()
    path = tmp_path / "weights.json"
    _renumbered(installed, 41).save(path)
    monkeypatch.setenv("CLASSIFIER_WEIGHTS", str(path))
    assert current_weights().version == 41
    assert current_weights() is current_weights()

    # Another process (``train_classifier``) installs new weights; nobody tells this one.
    _renumbered(installed, 42).save(path)
    assert current_weights().version == 42


def test_weights_already_read_stay_in_use_when_their_file_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "weights.json"
    _renumbered(current_weights(), 43).save(path)
    monkeypatch.setenv("CLASSIFIER_WEIGHTS", str(path))
    assert current_weights().version == 43
    path.unlink()
    assert current_weights().version == 43


def test_saving_weights_replaces_the_file_whole_or_leaves_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "weights.json"
    _renumbered(current_weights(), 44).save(path)
    before = path.read_bytes()

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("classifier.model.os.replace", full_disk)
    with pytest.raises(OSError):
        _renumbered(current_weights(), 45).save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["weights.json"]
