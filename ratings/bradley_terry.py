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


def win_probability(x: FloatArray) -> FloatArray:
    """The model's probability that a player ``x`` natural-log units stronger wins (a draw
    counts half): the logistic function the fit uses."""
    return _sigmoid(x)


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


@dataclass(frozen=True)
class _Games:
    """The pairs a fit uses, in the fitted players' own numbering 0..n-1."""

    lo: IntArray
    hi: IntArray
    weight: FloatArray
    score: FloatArray
    """Points of ``lo`` (weighted)."""
    lost: FloatArray
    """Points of ``hi`` (weighted)."""
    n: int

    def log_likelihood(self, x: FloatArray) -> float:
        # ln σ(−d) = ln σ(d) − d, so one log-sigmoid serves both outcomes.
        d = x[self.lo] - x[self.hi]
        return _dot(self.weight, _log_sigmoid(d)) - _dot(self.lost, d)

    def derivatives(self, x: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The gradient per player, the Hessian's edge weights c = W·p·(1 − p) per pair, and
        its diagonal Σc per player (the information)."""
        p = _sigmoid(x[self.lo] - x[self.hi])
        residual = self.score - self.weight * p
        gradient = _weighted_count(self.lo, residual, self.n) - _weighted_count(
            self.hi, residual, self.n
        )
        c = self.weight * p * (1.0 - p)
        diagonal = _weighted_count(self.lo, c, self.n) + _weighted_count(self.hi, c, self.n)
        return gradient, c, diagonal


def _restrict(
    pairs: PairTable, fitted: npt.NDArray[np.bool_], components: IntArray
) -> tuple[_Games, IntArray]:
    """The pairs whose two players are fitted and share a component, renumbered; and the
    fitted players' numbers (``members[i]`` is fitted player i)."""
    members = np.flatnonzero(fitted)
    index = np.full(fitted.size, -1, dtype=np.int64)
    index[members] = np.arange(members.size, dtype=np.int64)
    keep = fitted[pairs.lo] & fitted[pairs.hi] & (components[pairs.lo] == components[pairs.hi])
    weight = pairs.weight[keep]
    score = pairs.score_lo[keep]
    games = _Games(
        index[pairs.lo[keep]], index[pairs.hi[keep]], weight, score, weight - score, members.size
    )
    return games, members


@dataclass(frozen=True)
class _Newton:
    r: FloatArray
    steps: int
    cg_iterations: int


def _line_search(
    games: _Games, r: FloatArray, direction: FloatArray, current: float, slope: float
) -> tuple[float, FloatArray, float] | None:
    """Backtracking (Armijo) along ``direction``: (step, new point, its likelihood), or None
    when 40 halvings find no increase."""
    t = 1.0
    for _ in range(40):
        trial = r + t * direction
        candidate = games.log_likelihood(trial)
        if candidate >= current + 1e-4 * t * slope:
            return t, trial, candidate
        t *= 0.5
    return None


def _newton(
    games: _Games,
    *,
    tolerance: float,
    max_steps: int,
    max_step_size: float,
    decrement_tolerance: float,
) -> _Newton:
    """Inexact Newton from r = 0: Jacobi-preconditioned CG on the graph Laplacian, a capped
    step and a monotone line search (ratings.md §1.6)."""
    n = games.n
    r = np.zeros(n)
    laplacian = _Laplacian(games.lo, games.hi, n)
    cg_total = 0
    steps = 0
    current = games.log_likelihood(r)
    g0_norm = 0.0
    for steps in range(1, max_steps + 1):
        gradient, c, diagonal = games.derivatives(r)
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
            break
        found = _line_search(games, r, direction, current, slope)
        if found is None:
            break
        t, r, current = found
        if t * largest < tolerance:
            break
    return _Newton(r, steps, cg_total)


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
    games, members = _restrict(pairs, fitted, components)
    newton = _newton(
        games,
        tolerance=tolerance,
        max_steps=max_steps,
        max_step_size=max_step_size,
        decrement_tolerance=decrement_tolerance,
    )
    r = newton.r
    # Centre each component; the likelihood is invariant under per-component shifts.
    _, local = np.unique(components[members], return_inverse=True)
    r -= (np.bincount(local, r) / np.maximum(np.bincount(local), 1))[local]
    _, _, info = games.derivatives(r)

    full_r = np.full(n_players, np.nan)
    full_r[members] = r
    full_info = np.full(n_players, np.nan)
    full_info[members] = info
    return Solution(
        r=full_r,
        information=full_info,
        newton_steps=newton.steps,
        cg_iterations=newton.cg_iterations,
        log_likelihood=games.log_likelihood(r),
    )
