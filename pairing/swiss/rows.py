"""The edge data :class:`~pairing.swiss.narrowing.Narrowing` computes on, and its plain-Python
form: one wide unsigned integer per edge (a weight, a digit range of it, a 0/1 flag), with the
edges' two ends.

Two forms hold the same values and give the same results, bit for bit: :class:`IntRows` here
(Python ints and lists, no import cost: a small bracket's few hundred edges narrow at once),
and :class:`pairing.swiss.rows_numpy.ArrayRows` (numpy arrays of 64-bit words: a large
bracket's many thousands). A row keeps the number of 64-bit words it is laid out in, as the
array form's shape does: the narrowing reads that width, and an increment wraps at it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, Self

__all__ = ["IntRows", "Rows"]


class Rows(Protocol):
    """One unsigned integer per edge, in edge order, in :attr:`words` 64-bit words; every
    rows object made from another keeps its edges' ends."""

    @property
    def words(self) -> int:
        """64-bit words per row."""
        ...

    @property
    def vertices(self) -> list[int]:
        """The edges' vertices, numbered by first appearance (``a``, ``b`` of the first
        edge, then of the second ...), as the matcher's own graphs number them."""
        ...

    def like(self, values: list[int], words: int) -> Self:
        """Rows of ``values`` in ``words`` words, on the same edges."""
        ...

    def field(self, lo: int, hi: int) -> Self:
        """Bits [lo, hi) of every row, in ``ceil((hi - lo) / 64)`` words."""
        ...

    def ints(self) -> list[int]:
        """The rows as ints."""
        ...

    def mask(self) -> int:
        """The bitwise or of every row."""
        ...

    def max(self) -> int:
        """The largest row."""
        ...

    def count(self) -> int:
        """How many rows are not zero."""
        ...

    def nonzero(self) -> Self:
        """1 where a row is not zero, else 0 (a flag per edge), in one word."""
        ...

    def where(self, flags: Self, other: Self) -> Self:
        """``other``'s row where ``flags`` is set, this one's elsewhere (``other``'s words)."""
        ...

    def increment(self, flags: Self) -> Self:
        """Plus one on the flagged rows, modulo the width of the words."""
        ...

    def negated(self, bits: int) -> Self:
        """Two's complement of each row modulo ``2**bits`` (``bits`` at most the width)."""
        ...

    def spread(self, spread: int) -> Self:
        """Each row shifted left by ``spread`` (below 64) bits, plus one; the top word has
        room."""
        ...

    def key(self) -> Hashable:
        """Equal for rows of the same values in the same number of words."""
        ...

    def stacked(self, parts: Sequence[tuple[Self, int]], width: int) -> Self:
        """The ``(rows, position)`` parts shifted to their positions and or-ed together, in
        ``width // 64 + 3`` words (this object gives only the edges)."""
        ...

    def ends(self) -> tuple[list[int], list[int]]:
        """Each edge's two ends as indices into :attr:`vertices`."""
        ...

    def chosen_ends(self) -> tuple[list[int], list[int]]:
        """The two ends of each edge whose row is not zero, in edge order."""
        ...

    def distinct_ends(self) -> int:
        """Over the edges whose row is not zero: the fewer of their distinct first ends and
        their distinct second ends."""
        ...

    def degrees(self) -> list[int]:
        """Per vertex, how many edges whose row is not zero meet it."""
        ...

    def vertex_max(self) -> list[int]:
        """Per vertex, the largest row of the edges meeting it (0 without one)."""
        ...


class IntRows:
    """:class:`Rows` as a list of Python ints."""

    __slots__ = ("_a", "_b", "_values", "_vertices", "_words")

    def __init__(
        self, values: list[int], words: int, a: list[int], b: list[int], vertices: list[int]
    ) -> None:
        self._values = values
        self._words = words
        self._a, self._b, self._vertices = a, b, vertices

    @classmethod
    def of(cls, edges: Sequence[tuple[int, int, int]], words: int) -> IntRows:
        """The weights of ``edges``, in ``words`` words."""
        index: dict[int, int] = {}
        a, b = [], []
        for u, v, _ in edges:
            a.append(index.setdefault(u, len(index)))
            b.append(index.setdefault(v, len(index)))
        return cls([w for _, _, w in edges], words, a, b, list(index))

    @property
    def words(self) -> int:
        return self._words

    @property
    def vertices(self) -> list[int]:
        return self._vertices

    def like(self, values: list[int], words: int) -> IntRows:
        return IntRows(values, words, self._a, self._b, self._vertices)

    def field(self, lo: int, hi: int) -> IntRows:
        low = (1 << (hi - lo)) - 1
        return self.like([v >> lo & low for v in self._values], -(-(hi - lo) // 64))

    def ints(self) -> list[int]:
        return list(self._values)

    def mask(self) -> int:
        mask = 0
        for v in self._values:
            mask |= v
        return mask

    def max(self) -> int:
        return max(self._values)

    def count(self) -> int:
        return sum(1 for v in self._values if v)

    def nonzero(self) -> IntRows:
        return self.like([1 if v else 0 for v in self._values], 1)

    def where(self, flags: IntRows, other: IntRows) -> IntRows:
        chosen = zip(flags._values, other._values, self._values, strict=True)
        return other.like([o if f else s for f, o, s in chosen], other._words)

    def increment(self, flags: IntRows) -> IntRows:
        wrap = (1 << 64 * self._words) - 1
        values = [
            (v + 1) & wrap if f else v for v, f in zip(self._values, flags._values, strict=True)
        ]
        return self.like(values, self._words)

    def negated(self, bits: int) -> IntRows:
        low = (1 << bits) - 1
        return self.like([-v & low for v in self._values], self._words)

    def spread(self, spread: int) -> IntRows:
        return self.like([v << spread | 1 for v in self._values], self._words)

    def key(self) -> Hashable:
        return (self._words, tuple(self._values))

    def stacked(self, parts: Sequence[tuple[IntRows, int]], width: int) -> IntRows:
        values = [0] * len(self._values)
        for rows, position in parts:
            for i, d in enumerate(rows._values):
                if d:  # digit ranges are mostly zero
                    values[i] |= d << position
        return self.like(values, width // 64 + 3)

    def ends(self) -> tuple[list[int], list[int]]:
        return list(self._a), list(self._b)

    def chosen_ends(self) -> tuple[list[int], list[int]]:
        a = [u for u, v in zip(self._a, self._values, strict=True) if v]
        b = [u for u, v in zip(self._b, self._values, strict=True) if v]
        return a, b

    def distinct_ends(self) -> int:
        a, b = self.chosen_ends()
        return min(len(set(a)), len(set(b)))

    def degrees(self) -> list[int]:
        degree = [0] * len(self._vertices)
        for u, v, value in zip(self._a, self._b, self._values, strict=True):
            if value:
                degree[u] += 1
                degree[v] += 1
        return degree

    def vertex_max(self) -> list[int]:
        top = [0] * len(self._vertices)
        for u, v, value in zip(self._a, self._b, self._values, strict=True):
            if value:  # comparisons, not max(): a third of the time on a round's brackets
                if value > top[u]:  # noqa: PLR1730
                    top[u] = value
                if value > top[v]:  # noqa: PLR1730
                    top[v] = value
        return top
