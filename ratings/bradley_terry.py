"""Weighted Bradley–Terry maximum likelihood on a sparse comparison graph.

Players are integer indices ``0..n-1``. The model is P(i beats j) = σ(r_i − r_j) in natural
units; a game contributes ``w·[y·ln σ(r_a − r_b) + (1 − y)·ln σ(r_b − r_a)]`` with y ∈ {1, ½, 0}.

The MLE exists (up to one additive constant) exactly inside each strongly connected component
of the digraph "u took points from v" (a draw gives both edges). :func:`fit` runs Newton steps
whose Hessian is the weighted graph Laplacian; each step is solved by Jacobi-preconditioned
conjugate gradients on a CSR matrix of fixed pattern whose values are rewritten in place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import sparse
from scipy.sparse import csgraph

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PairTable:
    """Games aggregated per unordered pair ``lo < hi``."""

    lo: IntArray
    hi: IntArray
    weight: FloatArray
    """Σ w over the pair's games."""
    score_lo: FloatArray
    """Σ w·y from lo's point of view."""


@dataclass(frozen=True)
class Components:
    """Strongly connected components of the "took points from" digraph."""

    labels: IntArray
    sizes: IntArray
    """Size of each component, indexed by label."""


@dataclass(frozen=True)
class Solution:
    """A fitted rating vector and the solver's effort."""

    r: FloatArray
    """Natural-unit ratings; NaN for players outside the fitted set."""
    information: FloatArray
    """Σ_j w_ij·p_ij·(1 − p_ij) per player (the Laplacian diagonal); NaN outside the set."""
    newton_steps: int
    cg_iterations: int
    log_likelihood: float


def aggregate_pairs(
    a: IntArray, b: IntArray, score_a: FloatArray, weight: FloatArray, n_players: int
) -> PairTable:
    """Sum weights and weighted scores per unordered pair (games with a == b must be absent)."""
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    score_lo = np.where(a == lo, score_a, 1.0 - score_a) * weight
    key = lo * np.int64(n_players) + hi
    unique_keys, inverse = np.unique(key, return_inverse=True)
    total = _weighted_count(inverse, weight, unique_keys.size)
    score = _weighted_count(inverse, score_lo, unique_keys.size)
    return PairTable(
        lo=(unique_keys // n_players).astype(np.int64),
        hi=(unique_keys % n_players).astype(np.int64),
        weight=total,
        score_lo=score,
    )


def strong_components(pairs: PairTable, n_players: int) -> Components:
    """Components of the digraph with an edge u→v whenever u took points from v."""
    forward = pairs.score_lo > 0
    backward = pairs.score_lo < pairs.weight
    rows = np.concatenate([pairs.lo[forward], pairs.hi[backward]])
    cols = np.concatenate([pairs.hi[forward], pairs.lo[backward]])
    graph = sparse.csr_matrix(
        (np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n_players, n_players)
    )
    _, labels = csgraph.connected_components(graph, directed=True, connection="strong")
    labels = labels.astype(np.int64)
    return Components(labels=labels, sizes=np.bincount(labels).astype(np.int64))


def _weighted_count(index: IntArray, weights: FloatArray, n: int) -> FloatArray:
    """Sum of ``weights`` per index value, as float64 of length n."""
    return np.bincount(index, weights=weights, minlength=n).astype(np.float64, copy=False)


def _dot(x: FloatArray, y: FloatArray) -> float:
    """Inner product without BLAS: multi-threaded BLAS on busy shared CPUs made the real WOF
    fit several times slower (ratings.md §1.6), and these vectors are too short to gain."""
    return float(np.multiply(x, y).sum())


def _log_sigmoid(x: FloatArray) -> FloatArray:
    return -np.logaddexp(0.0, -x)


def _sigmoid(x: FloatArray) -> FloatArray:
    out: FloatArray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return out


class _Laplacian:
    """Weighted Laplacian with a fixed CSR pattern; :meth:`update` rewrites only the values."""

    def __init__(self, lo: IntArray, hi: IntArray, n: int) -> None:
        m = lo.size
        rows = np.concatenate([lo, hi, np.arange(n, dtype=np.int64)])
        cols = np.concatenate([hi, lo, np.arange(n, dtype=np.int64)])
        slots = np.arange(2 * m + n, dtype=np.float64)
        matrix = sparse.coo_matrix((slots, (rows, cols)), shape=(n, n)).tocsr()
        # After conversion each stored value is the slot it came from: the permutation from
        # our value vector (off-diagonals, then diagonal) to CSR storage order.
        self._order = matrix.data.astype(np.int64)
        self._values = np.empty(2 * m + n)
        self.matrix = matrix
        self._m = m

    def update(self, c: FloatArray, diagonal: FloatArray) -> None:
        m = self._m
        self._values[:m] = -c
        self._values[m : 2 * m] = -c
        self._values[2 * m :] = diagonal
        np.take(self._values, self._order, out=self.matrix.data)


def _pcg(
    matrix: sparse.csr_matrix, rhs: FloatArray, inv_diag: FloatArray, rtol: float, max_iter: int
) -> tuple[FloatArray, int]:
    """Jacobi-preconditioned CG from zero; works on the consistent singular Laplacian system."""
    x = np.zeros_like(rhs)
    r = rhs.copy()
    z = r * inv_diag
    p = z.copy()
    rz = _dot(r, z)
    target = rtol * float(np.sqrt(_dot(rhs, rhs)))
    for iteration in range(1, max_iter + 1):
        ap = matrix @ p
        pap = _dot(p, ap)
        if pap <= 0.0:
            return x, iteration
        alpha = rz / pap
        x += alpha * p
        r -= alpha * ap
        if float(np.sqrt(_dot(r, r))) <= target:
            return x, iteration
        z = r * inv_diag
        rz_next = _dot(r, z)
        p *= rz_next / rz
        p += z
        rz = rz_next
    return x, max_iter


def fit(
    pairs: PairTable,
    n_players: int,
    fitted: npt.NDArray[np.bool_],
    components: IntArray,
    *,
    tolerance: float = 1e-7,
    max_steps: int = 200,
    max_step_size: float = 2.0,
    decrement_tolerance: float = 1e-9,
) -> Solution:
    """Maximise the likelihood over the players marked ``fitted``.

    Only pairs whose two players are fitted and share a component enter the fit (a game
    between two components carries no information about their offset). The result is centred
    to mean 0 inside each component; anchoring is the caller's business.

    :param tolerance: stop when no rating moves by more than this (natural units).
    :param decrement_tolerance: stop when the Newton decrement g·Δ (twice the predicted
        log-likelihood gain, in nats) falls below this.
    """
    keep = fitted[pairs.lo] & fitted[pairs.hi] & (components[pairs.lo] == components[pairs.hi])
    index = np.full(n_players, -1, dtype=np.int64)
    members = np.flatnonzero(fitted)
    n = members.size
    index[members] = np.arange(n, dtype=np.int64)
    lo = index[pairs.lo[keep]]
    hi = index[pairs.hi[keep]]
    weight = pairs.weight[keep]
    score = pairs.score_lo[keep]
    lost = weight - score

    r = np.zeros(n)
    laplacian = _Laplacian(lo, hi, n)

    def log_likelihood(x: FloatArray) -> float:
        # ln σ(−d) = ln σ(d) − d, so one log-sigmoid serves both outcomes.
        d = x[lo] - x[hi]
        return _dot(weight, _log_sigmoid(d)) - _dot(lost, d)

    cg_total = 0
    steps = 0
    current = log_likelihood(r)
    g0_norm = 0.0
    for steps in range(1, max_steps + 1):
        d = r[lo] - r[hi]
        p = _sigmoid(d)
        residual = score - weight * p
        gradient = _weighted_count(lo, residual, n) - _weighted_count(hi, residual, n)
        c = weight * p * (1.0 - p)
        diagonal = _weighted_count(lo, c, n) + _weighted_count(hi, c, n)
        g_norm = float(np.sqrt(_dot(gradient, gradient)))
        if steps == 1:
            g0_norm = g_norm or 1.0
        if g_norm == 0.0:
            break
        laplacian.update(c, diagonal)
        inv_diag = 1.0 / np.maximum(diagonal, 1e-300)
        # Eisenstat-Walker forcing, floored: a linear rate of 1e-3 per step is plenty here.
        rtol = min(0.25, max(1e-3, float(np.sqrt(g_norm / g0_norm))))
        direction, iterations = _pcg(laplacian.matrix, gradient, inv_diag, rtol, 10 * n + 10)
        cg_total += iterations
        largest = float(np.max(np.abs(direction))) if n else 0.0
        if largest > max_step_size:
            direction *= max_step_size / largest
            largest = max_step_size
        slope = _dot(gradient, direction)
        if slope < decrement_tolerance:
            # Within round-off of the optimum: the likelihood can no longer tell steps apart.
            r = r + direction
            current = log_likelihood(r)
            break
        t = 1.0
        candidate = current
        for _ in range(40):
            trial = r + t * direction
            candidate = log_likelihood(trial)
            if candidate >= current + 1e-4 * t * slope:
                break
            t *= 0.5
        else:
            break
        r = trial
        current = candidate
        if t * largest < tolerance:
            break

    # Centre each component; the likelihood is invariant under per-component shifts.
    labels = components[members]
    _, local = np.unique(labels, return_inverse=True)
    sums = np.bincount(local, r)
    counts = np.bincount(local)
    r -= (sums / np.maximum(counts, 1))[local]

    d = r[lo] - r[hi]
    p = _sigmoid(d)
    c = weight * p * (1.0 - p)
    info = _weighted_count(lo, c, n) + _weighted_count(hi, c, n)

    full_r = np.full(n_players, np.nan)
    full_r[members] = r
    full_info = np.full(n_players, np.nan)
    full_info[members] = info
    return Solution(
        r=full_r,
        information=full_info,
        newton_steps=steps,
        cg_iterations=cg_total,
        log_likelihood=log_likelihood(r),
    )
