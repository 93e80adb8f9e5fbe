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

from pairing.swiss.matching import max_weight_matching

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
    n = len(weights)
    if n == 0:
        return []
    if any(weights[r][c] is None for r, c in enumerate(mates)):
        return None
    top = max((abs(w) for row in weights for w in row if w is not None), default=0)
    hole = -(4 * (n + 2) * (top + 1))  # below any path of real weights
    w = [[hole if x is None else x for x in row] for row in weights]
    own = [w[r][c] for r, c in enumerate(mates)]
    # Shortest distances over the exchange arcs (column c' of row r to column c of row r:
    # length w[r][c'] - w[r][c]) from a source at every column; bounded by n rounds.
    dist = [0] * n
    for _ in range(n + 1):
        reach = [o + dist[c] for o, c in zip(own, mates, strict=True)]
        # per column: the shorter of its distance and every row's way into it
        closer = list(
            map(min, dist, *([d - x for x in row] for d, row in zip(reach, w, strict=True)))
        )
        if closer == dist:
            break
        dist = closer
    else:
        return None
    reach = [o + dist[c] for o, c in zip(own, mates, strict=True)]
    tight = [
        [x is not None and d - dist[c] == x for c, x in enumerate(row)]
        for d, row in zip(reach, weights, strict=True)
    ]
    return _decide(tight, list(mates), order)


def _decide(tight: list[list[bool]], mates: list[int], order: list[int]) -> list[int]:
    """Each row of ``order`` takes its first column among the perfect matchings of ``tight``
    that keep the earlier rows' choices; ``mates`` is one such matching (changed in place)."""
    n = len(mates)
    holder = [0] * n
    for r, c in enumerate(mates):
        holder[c] = r
    row_alive = [True] * n
    col_alive = [True] * n
    for i in order:
        columns = [c for c in range(n) if tight[i][c] and col_alive[c]]
        first = columns[0]
        if first != mates[i]:
            onward = _towards(tight, mates, row_alive, i)
            first = next(c for c in columns if onward[holder[c]] != -2)
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


def _towards(
    tight: list[list[bool]], mates: list[int], alive: list[bool], target: int
) -> list[int]:
    """For each row, the next row on a path to ``target`` (-1 at the target, -2 where no path
    leads), breadth first; rows pass an exchange on (r to s) when both are alive and r may
    take s's column."""
    n = len(mates)
    onward = [-2] * n
    onward[target] = -1
    seen = [False] * n
    seen[target] = True
    frontier = [target]
    while frontier:
        found = []
        for r in range(n):
            if seen[r] or not alive[r]:
                continue
            row = tight[r]
            step = next((s for s in frontier if alive[s] and row[mates[s]]), None)
            if step is not None:
                onward[r] = step
                found.append(r)
        for r in found:
            seen[r] = True
        frontier = found
    return onward
