"""The fitted model: regularised logistic regression, one for the mechanism and one per rubric fact, over
the features of ``classifier.features``, read with numpy.

Weights live in a versioned JSON file (``classifier/data/weights.json`` unless
``CLASSIFIER_WEIGHTS`` names another); ``python -m classifier.train`` fits them (``classifier.fit``) and writes it.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Container
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, repeat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from classifier.taxonomy import Fact

Array = npt.NDArray[np.float64]
DEFAULT_WEIGHTS = Path(__file__).parent / "data" / "weights.json"
TRUE, FALSE = "true", "false"


@dataclass(frozen=True)
class Reading:
    """One text's features as a model's columns: the names it knows, their column numbers and values, and where
    among them the words sit (the features the reading was asked to mark)."""

    names: tuple[str, ...]
    columns: npt.NDArray[np.int64]
    values: Array
    words: tuple[int, ...]
    position: dict[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", dict(zip(self.names, range(len(self.names)), strict=True)))

    def weight_of(self, row: Array | list[float], name: str) -> float:
        """``name``'s entry in ``row`` (one value per feature of the reading), 0 for a feature it lacks."""
        i = self.position.get(name)
        return 0.0 if i is None else float(row[i])


@dataclass(frozen=True)
class Scored:
    """One text's features through the fitted models at once: the mechanism's and the facts' calibrated
    probabilities, and what each feature of the reading adds to them (``LinearModel.contribution_row``), as
    Python numbers: a text has a few dozen features, and plain Python reads so few numbers faster than
    numpy's machinery does."""

    reading: Reading
    mechanism: dict[str, float]
    facts: dict[Fact, float]
    # Each fact model's reading (the mechanism's, where they share their features) and, per feature of it,
    # the feature's addition to true over the mean of true and false.
    fact_readings: dict[Fact, Reading]
    fact_rows: dict[Fact, list[float]]
    # Each feature's addition to each class's score over the mean of the classes (features × classes).
    contributions: Array
    classes: tuple[str, ...]

    def class_row(self, cls: str) -> list[float]:
        """Each feature's addition to ``cls``'s score over the mean of the classes."""
        row: list[float] = self.contributions[:, self.classes.index(cls)].tolist()
        return row


@dataclass(frozen=True)
class LinearModel:
    """Softmax regression: ``classes`` × ``features`` weights, a bias per class
    and a temperature fitted on held-back examples (calibration)."""

    classes: tuple[str, ...]
    features: tuple[str, ...]
    weights: Array
    bias: Array
    temperature: float = 1.0
    # The column of each feature; models over the same features share one.
    index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.index:
            object.__setattr__(self, "index", {name: i for i, name in enumerate(self.features)})

    @cached_property
    def centred(self) -> Array:
        """Each class's weights less the mean over the classes (for contributions)."""
        centred: Array = self.weights - self.weights.mean(axis=0, keepdims=True)
        return centred

    def read(self, x: dict[str, float], words: Container[str] = ()) -> Reading:
        """``x`` as this model's columns, marking where the features among ``words`` sit."""
        # Looked up with ``map`` and sifted only when some feature is unknown: a text has a few dozen.
        columns = list(map(self.index.get, x, repeat(-1)))
        names, values = tuple(x), list(x.values())
        if -1 in columns:
            known = [column >= 0 for column in columns]
            names = tuple(compress(names, known))
            columns, values = list(compress(columns, known)), list(compress(values, known))
        return Reading(
            names,
            np.array(columns, dtype=np.int64),
            np.array(values, dtype=np.float64),
            tuple(compress(range(len(names)), map(words.__contains__, names))),
        )

    def probabilities(self, reading: Reading) -> dict[str, float]:
        z = (self.bias + self.weights[:, reading.columns] @ reading.values) / self.temperature
        e = np.exp(z - z.max())
        return dict(zip(self.classes, (e / e.sum()).tolist(), strict=True))

    def contribution_row(self, reading: Reading, cls: str) -> Array:
        """What each of the reading's features adds to ``cls``'s score over the mean of the classes."""
        row: Array = self.centred[self.classes.index(cls), reading.columns] * reading.values
        return row

    def to_dict(self, *, features: bool = True) -> dict[str, Any]:
        """The model as JSON data; without its feature names when another model's stand for them."""
        return {
            "classes": list(self.classes),
            **({"features": list(self.features)} if features else {}),
            "weights": [[round(float(w), 5) for w in row] for row in self.weights],
            "bias": [round(float(b), 5) for b in self.bias],
            "temperature": round(self.temperature, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, like: LinearModel | None = None) -> LinearModel:
        """The model ``data`` holds; one over the same features as ``like`` (or that names none of its own)
        shares its feature index."""
        features = tuple(data["features"]) if "features" in data else like.features if like else ()
        index: dict[str, int] = {}
        if like is not None and like.features == features:
            features, index = like.features, like.index
        return cls(
            tuple(data["classes"]),
            features,
            np.array(data["weights"], dtype=np.float64).reshape(len(data["classes"]), len(features)),
            np.array(data["bias"], dtype=np.float64),
            float(data.get("temperature", 1.0)),
            index,
        )


@dataclass(frozen=True)
class FactStack:
    """True/false fact models over one set of features, as a matrix: per fact, the true class's weights
    less the false one's, the same for the biases, and the temperature."""

    facts: tuple[Fact, ...]
    difference: Array
    bias: Array
    temperature: Array


@dataclass(frozen=True)
class Weights:
    """Everything ``classify`` needs from training: the models and their provenance."""

    version: int
    mechanism: LinearModel
    facts: dict[Fact, LinearModel]
    trained_on: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "trained_on": self.trained_on,
            "mechanism": self.mechanism.to_dict(),
            # A fact model over the mechanism model's features does not list them again.
            "facts": {fact.value: model.to_dict(features=model.features != self.mechanism.features)
                      for fact, model in self.facts.items()},
        }

    @cached_property
    def fact_stack(self) -> FactStack | None:
        """The fact models as one matrix, when each is a true/false model over the mechanism model's features."""
        models = list(self.facts.values())
        if not models or any(m.index is not self.mechanism.index or sorted(m.classes) != [FALSE, TRUE] for m in models):
            return None
        true = [m.classes.index(TRUE) for m in models]
        return FactStack(
            tuple(self.facts),
            np.stack([m.weights[t] - m.weights[1 - t] for m, t in zip(models, true, strict=True)]),
            np.array([m.bias[t] - m.bias[1 - t] for m, t in zip(models, true, strict=True)]),
            np.array([m.temperature for m in models]),
        )

    def fact_scores(self, readings: dict[Fact, Reading]) -> dict[Fact, tuple[float, Array]]:
        """Each fact's calibrated probability of being true, and what each feature of its reading adds to true
        over the mean of true and false (``LinearModel.probabilities`` and ``contribution_row``, for the four
        facts at once when they share the mechanism model's features)."""
        stack = self.fact_stack
        shared = next(iter(readings.values()), None)
        if stack is None or shared is None or any(reading is not shared for reading in readings.values()):
            return {fact: (model.probabilities(readings[fact])[TRUE], model.contribution_row(readings[fact], TRUE))
                    for fact, model in self.facts.items()}
        # Two classes: the softmax of (true, false) is the logistic of their difference.
        terms = stack.difference[:, shared.columns] * shared.values
        z = (terms.sum(axis=1) + stack.bias) / stack.temperature
        p = 0.5 * (1.0 + np.tanh(0.5 * z))
        half = 0.5 * terms
        return {fact: (float(p[i]), half[i]) for i, fact in enumerate(stack.facts)}

    @cached_property
    def table(self) -> Array | None:
        """One row a feature, its weights side by side: what it adds to each mechanism over the mechanism
        model's mean, then to each fact's true over the mean of true and false (half the difference); a text's
        few dozen rows lie together in memory. None unless the fact models read the mechanism model's features."""
        stack = self.fact_stack
        if stack is None:
            return None
        return np.ascontiguousarray(np.hstack([self.mechanism.centred.T, 0.5 * stack.difference.T]))

    @cached_property
    def _biases(self) -> tuple[list[float], list[float], list[float]]:
        """The mechanism model's biases, and each fact model's bias and temperature, as Python numbers."""
        stack = self.fact_stack
        assert stack is not None
        return self.mechanism.bias.tolist(), stack.bias.tolist(), stack.temperature.tolist()

    def score(self, x: dict[str, float], words: Container[str] = ()) -> Scored:
        """``x`` through the mechanism model and the fact models (``read``, ``LinearModel.probabilities``,
        ``fact_scores``), reading each of its features' row of ``table`` once."""
        reading, readings = self.read(x, words)
        model, table, stack = self.mechanism, self.table, self.fact_stack
        if table is None or stack is None:
            scores = self.fact_scores(readings)
            return Scored(
                reading, model.probabilities(reading), {fact: p for fact, (p, _) in scores.items()}, readings,
                {fact: row.tolist() for fact, (_, row) in scores.items()},
                (model.centred[:, reading.columns] * reading.values).T, model.classes,
            )
        k = len(model.classes)
        block = table[reading.columns] * reading.values[:, np.newaxis]
        sums = block.sum(axis=0).tolist()
        bias, fact_bias, fact_temperature = self._biases
        # Each class's score less the same sum for every class (the features' mean weight): the softmax is
        # unchanged.
        z = [(b + s) / model.temperature for b, s in zip(bias, sums[:k], strict=True)]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        mechanism = dict(zip(model.classes, [v / total for v in e], strict=True))
        # Two classes: the softmax of (true, false) is the logistic of their difference, twice the halves summed.
        facts = {
            fact: 0.5 * (1.0 + math.tanh(0.5 * (2.0 * s + b) / t))
            for fact, s, b, t in zip(stack.facts, sums[k:], fact_bias, fact_temperature, strict=True)
        }
        rows = block[:, k:].T.tolist()
        return Scored(reading, mechanism, facts, readings, dict(zip(stack.facts, rows, strict=True)), block[:, :k],
                      model.classes)

    def read(self, x: dict[str, float], words: Container[str] = ()) -> tuple[Reading, dict[Fact, Reading]]:
        """``x`` as the mechanism model's columns and each fact model's, read once per set of features."""
        mechanism = self.mechanism.read(x, words)
        facts = {fact: mechanism if model.index is self.mechanism.index else model.read(x, words)
                 for fact, model in self.facts.items()}
        return mechanism, facts

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weights:
        mechanism = LinearModel.from_dict(data["mechanism"])
        return cls(
            int(data["version"]),
            mechanism,
            {Fact(key): LinearModel.from_dict(model, like=mechanism) for key, model in data["facts"].items()},
            {str(k): int(v) for k, v in data.get("trained_on", {}).items()},
        )

    def save(self, path: Path) -> None:
        """Written beside ``path`` and renamed over it, so a process reading it meanwhile reads the old file or
        the new one, never half of one."""
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(json.dumps(self.to_dict(), ensure_ascii=False, indent=None) + "\n")
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


_CACHE: dict[str, tuple[Path, tuple[int, int, int], Weights]] = {}


def _weights_setting() -> str:
    """``CLASSIFIER_WEIGHTS``, or "" for the default file."""
    return os.environ.get("CLASSIFIER_WEIGHTS") or ""


def weights_path() -> Path:
    return Path(_weights_setting() or DEFAULT_WEIGHTS)


def _stamp(path: Path) -> tuple[int, int, int]:
    status = os.stat(path)
    return status.st_ino, status.st_mtime_ns, status.st_size


def current_weights() -> Weights:
    """The installed weights, read again when their file changes (new weights installed by another process).

    This is on every call: one ``stat`` of the file, the path built once per setting. Should the file go, the
    weights already read stay in use.
    """
    key = _weights_setting()
    cached = _CACHE.get(key)
    if cached is not None:
        path, stamp, weights = cached
        try:
            if _stamp(path) == stamp:
                return weights
        except OSError:
            return weights
    else:
        path = weights_path()
    stamp = _stamp(path)
    weights = Weights.from_dict(json.loads(path.read_text(encoding="utf-8")))
    _CACHE[key] = (path, stamp, weights)
    return weights


def forget_weights() -> None:
    """Read the weights file again on next use."""
    _CACHE.clear()
