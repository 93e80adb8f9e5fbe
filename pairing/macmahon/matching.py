"""Maximum-weight perfect matching over exact integer weights.

Three engines find the same maximum weight; they differ in which matching they return when
several share it:

* ``"opengotha"`` (default): Gabow's algorithm in OpenGotha's vertex and edge order
  (:mod:`pairing.swiss.gabow`), so ties resolve as OpenGotha resolves them;
* ``"rustworkx"``: the networkx blossom algorithm in Rust, on 128-bit integers;
* ``"networkx"``: the pure-Python original.

All three run through the pairing engines' one matching entry point,
:func:`pairing.swiss.matching.solve`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pairing.macmahon.model import MacMahonError

__all__ = ["ENGINES", "max_weight_perfect_matching"]

ENGINES = ("opengotha", "rustworkx", "networkx")


def _edges(weights: Sequence[Sequence[int]], floor: int | None = 0) -> list[tuple[int, int, int]]:
    """The pairs ``(i, j, weight)``, ``i < j``, of weight above ``floor`` (None: every pair)."""
    n = len(weights)
    return [
        (i, j, weights[i][j])
        for i in range(n)
        for j in range(i + 1, n)
        if floor is None or weights[i][j] > floor
    ]


def max_weight_perfect_matching(
    weights: Sequence[Sequence[int]], *, engine: str = "opengotha"
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, covering every index, of maximum total weight.

    ``weights`` is a symmetric matrix of non-negative integers (0 forbids a pair).
    ``engine`` is ``"opengotha"`` (default), ``"rustworkx"`` or ``"networkx"``.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown matcher {engine!r}; expected one of {', '.join(ENGINES)}")
    # Imported here: ``pairing.swiss`` builds the Swiss models, which a go round never needs.
    from pairing.swiss.matching import solve

    n = len(weights)
    mates: list[tuple[int, int]] | None = None
    if engine == "opengotha":
        mates = solve(n, _edges(weights, floor=None), engine="gabow")
        # Gabow's search maximises weight, not size: with a forbidden pair (weight 0) it may
        # leave players unpaired. OpenGotha's costs are never 0, so this happens only with
        # hand-made weights, and then a maximum-cardinality blossom matcher decides.
        if 2 * len(mates) != n or any(weights[i][j] <= 0 for i, j in mates):
            mates = None
    if mates is None:
        blossom = "networkx" if engine == "networkx" else "rustworkx"
        mates = solve(n, _edges(weights), perfect=True, engine=blossom)
    pairs = sorted((min(a, b), max(a, b)) for a, b in mates)
    if 2 * len(pairs) != n:
        raise MacMahonError(f"no perfect matching of {n} players under the given constraints")
    return pairs
