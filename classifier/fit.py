"""Fitting the models of :mod:`classifier.model`: L2-regularised softmax regression over sparse rows of
features, taken to its optimum by L-BFGS (SciPy), and a temperature chosen on held-back examples.

Only ``python -m classifier.train`` and the wiki's retrain use this module: classifying reads fitted weights
and never imports SciPy.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy import sparse
from scipy.optimize import minimize

Array = npt.NDArray[np.float64]
# L-BFGS stops when a step lowers the loss by less than this share of it, or when no gradient entry is larger
# than GRADIENT_TOLERANCE: on the project's examples that is some 70–120 steps, the loss within 1e-7 of its
# optimum, where plain gradient descent took 600 steps to come within 1e-3.
LOSS_TOLERANCE = 1e-9
GRADIENT_TOLERANCE = 1e-7
MAX_STEPS = 2000


def feature_matrix(rows: list[dict[str, float]], vocabulary: list[str]) -> sparse.csr_matrix:
    """``rows`` (each a text's features and values) as a sparse matrix over ``vocabulary``'s columns; a feature
    outside the vocabulary is left out."""
    index = {name: i for i, name in enumerate(vocabulary)}
    r, c, v = [], [], []
    for number, row in enumerate(rows):
        for name, value in row.items():
            column = index.get(name)
            if column is not None:
                r.append(number)
                c.append(column)
                v.append(value)
    return sparse.csr_matrix((np.array(v, dtype=np.float64), (np.array(r, dtype=np.int64), np.array(c, dtype=np.int64))),
                             shape=(len(rows), len(vocabulary)))


def fit_softmax(
    x: sparse.csr_matrix, y: npt.NDArray[np.int64], n_classes: int, *, sample_weight: Array, l2: float,
) -> tuple[Array, Array]:
    """Weights (classes × features) and biases minimising the weighted mean log-loss of ``x``'s rows labelled ``y``
    plus ``l2 / 2n`` times the squared weights (the biases go unpenalised)."""
    n, d = x.shape
    xt = x.T.tocsr()
    share = sample_weight / sample_weight.sum()
    target = np.eye(n_classes)[y]

    def loss_and_gradient(theta: Array) -> tuple[float, Array]:
        w, b = theta[: n_classes * d].reshape(n_classes, d), theta[n_classes * d:]
        z = np.asarray(x @ w.T) + b
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = -float((share * (log_p * target).sum(axis=1)).sum()) + l2 / (2 * n) * float((w * w).sum())
        g = (np.exp(log_p) - target) * share[:, None]
        gw = np.asarray(xt @ g).T + l2 * w / n
        return loss, np.concatenate([gw.ravel(), g.sum(axis=0)])

    found = minimize(loss_and_gradient, np.zeros(n_classes * d + n_classes), jac=True, method="L-BFGS-B",
                     options={"maxiter": MAX_STEPS, "ftol": LOSS_TOLERANCE, "gtol": GRADIENT_TOLERANCE})
    theta: Array = found.x
    return theta[: n_classes * d].reshape(n_classes, d).copy(), theta[n_classes * d:].copy()


def logits(x: sparse.csr_matrix, w: Array, b: Array) -> Array:
    """Each row's score per class."""
    return np.asarray(x @ w.T) + b


def fit_temperature(scores: Array, y: npt.NDArray[np.int64]) -> float:
    """The temperature that minimises the log-loss of held-back ``scores``."""
    best, best_loss = 1.0, float("inf")
    for t in np.linspace(0.4, 4.0, 37):
        z = scores / t
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = float(-logp[np.arange(len(y)), y].mean())
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best
