"""The lexicographic choice among the optimal assignments of a square assignment problem.

The Dutch engines give each S1 player, higher players first, the highest S2 player that some
optimal pairing still allows (pairing.md 2.5). Re-solving a matching for each player finds that
one player at a time. Here the whole sequence comes from one optimal assignment:

1. dual values that prove it optimal, from shortest paths over its exchange arcs (exact
   integers; a negative cycle means it was not optimal, and nothing is decided);
2. the optimal assignments are then exactly the perfect matchings of the *tight* edges (whose
   weight equals the sum of the duals at their ends), by complementary slackness;
3. a row may take a tight column iff that column is its own or the column's holder can pass
   the exchange back to the row along tight edges (an alternating cycle); the row takes the
   first such column, the cycle turns, and the row and its column leave the problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pairing.swiss.matching import max_weight_matching

if TYPE_CHECKING:
    import numpy as np

__all__ = ["best_assignment", "lexicographic_assignment"]


def best_assignment(weights: list[list[int | None]]) -> list[int] | None:
    """A maximum-weight perfect assignment, row to column (``weights[r][c]``, None: no edge);
    None when there is no perfect one."""
    n = len(weights)
    if n == 0:
        return []
    top = max((abs(w) for row in weights for w in row if w is not None), default=0)
    # Each pair is worth more than the real weights of any two assignments can differ by:
    # the most pairs first, all weights positive.
    lift = (2 * n + 2) * (top + 1)
    edges = [
        (r, n + c, w + lift)
        for r, row in enumerate(weights)
        for c, w in enumerate(row)
        if w is not None
    ]
    found = max_weight_matching(edges)
    if len(found) != 2 * n:
        return None
    return [found[r] - n for r in range(n)]


def lexicographic_assignment(
    weights: list[list[int | None]], mates: list[int], order: list[int]
) -> list[int] | None:
    """Each row of ``order`` in turn takes the first column (lowest index) that an optimal
    assignment still gives it; the final assignment (row to column).

    ``weights[r][c]`` is the weight of row ``r`` with column ``c`` (None: no edge); ``mates``
    a perfect assignment, row to column, that should be a maximum; None when it is not (its
    exchange arcs have a negative cycle). Rows not in ``order`` only follow the others.
    """
    import numpy as np  # a slow import: only when a bracket needs the assignments

    n = len(weights)
    if n == 0:
        return []
    has = np.array([[w is not None for w in row] for row in weights], dtype=bool)
    top = max((abs(w) for row in weights for w in row if w is not None), default=0)
    hole = -(4 * (n + 2) * (top + 1))  # below any path of real weights
    w = np.array([[hole if x is None else x for x in row] for row in weights], dtype=object)
    mate = np.array(mates, dtype=np.intp)
    own = w[np.arange(n), mate]
    if not has[np.arange(n), mate].all():
        return None
    # Shortest distances over the exchange arcs (column c' of row r to column c of row r:
    # length w[r][c'] - w[r][c]) from a source at every column; bounded by n rounds.
    dist = np.zeros(n, dtype=object)
    for _ in range(n + 1):
        reach = own + dist[mate]
        closer = np.minimum(dist, (reach[:, None] - w).min(axis=0))
        if (closer == dist).all():
            break
        dist = closer
    else:
        return None
    reach = own + dist[mate]
    tight = has & ((reach[:, None] - dist[None, :]) == w).astype(bool)
    return _decide(tight, [int(c) for c in mate], order)


def _decide(tight: np.ndarray, mates: list[int], order: list[int]) -> list[int]:
    """Each row of ``order`` takes its first column among the perfect matchings of ``tight``
    that keep the earlier rows' choices; ``mates`` is one such matching (changed in place)."""
    import numpy as np

    n = len(mates)
    holder = [0] * n
    for r, c in enumerate(mates):
        holder[c] = r
    row_alive = np.ones(n, dtype=bool)
    col_alive = np.ones(n, dtype=bool)
    for i in order:
        columns = np.flatnonzero(tight[i] & col_alive)
        first = int(columns[0])
        if first != mates[i]:
            # Rows that can pass an exchange on to row i: r -> s when r may take s's column.
            arcs = tight[:, mates] & row_alive[:, None] & row_alive[None, :]
            onward = _towards(arcs, i)
            first = next(int(c) for c in columns if onward[holder[c]] != -2)
            if first != mates[i]:
                # The cycle turns: each row on the path takes the next one's column.
                r = holder[first]
                while r != i:
                    s = onward[r]
                    mates[r] = mates[s]
                    holder[mates[r]] = r
                    r = s
                mates[i] = first
                holder[first] = i
        row_alive[i] = False
        col_alive[mates[i]] = False
    return mates


def _towards(arcs: np.ndarray, target: int) -> list[int]:
    """For each row, the next row on a path of ``arcs`` to ``target`` (-1 at the target,
    -2 where no path leads)."""
    import numpy as np

    n = len(arcs)
    onward = [-2] * n
    onward[target] = -1
    seen = np.zeros(n, dtype=bool)
    seen[target] = True
    frontier = np.array([target], dtype=np.intp)
    while len(frontier):
        into = arcs[:, frontier]
        found = np.flatnonzero(into.any(axis=1) & ~seen)
        for r in found:
            onward[int(r)] = int(frontier[int(np.argmax(into[r]))])
        seen[found] = True
        frontier = found
    return onward
