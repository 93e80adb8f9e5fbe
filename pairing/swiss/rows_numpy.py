""":class:`~pairing.swiss.rows.Rows` as numpy arrays of little-endian 64-bit words, one array
row per edge: each step is a few array operations instead of a Python loop over the edges, for
the large brackets (numpy is a slow import: :mod:`pairing.swiss.narrowing` loads this module
only for them)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["ArrayRows"]

Words = NDArray[np.uint64]
Index = NDArray[np.int64]


def _to_words(values: list[int], words: int) -> Words:
    width = 8 * words
    raw = b"".join(v.to_bytes(width, "little") for v in values)
    return np.frombuffer(raw, dtype="<u8").reshape(len(values), words).astype(np.uint64)


def _to_ints(words: Words) -> list[int]:
    used = words.shape[1]
    while used > 1 and not words[:, used - 1].any():
        used -= 1
    if used == 1:
        return list(words[:, 0].tolist())
    if used == 2:
        high, low = words[:, 1].tolist(), words[:, 0].tolist()
        return [(h << 64) | lo for h, lo in zip(high, low, strict=True)]
    width = 8 * words.shape[1]
    raw = np.ascontiguousarray(words, dtype="<u8").tobytes()
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, len(raw), width)]


def _chunk(words: Words, lo: int, width: int) -> NDArray[np.uint64]:
    """Bits [lo, lo + width) of every row, width at most 64."""
    index, offset = divmod(lo, 64)
    if index >= words.shape[1]:
        return np.zeros(words.shape[0], dtype=np.uint64)
    chunk = words[:, index] >> np.uint64(offset)
    if offset and index + 1 < words.shape[1]:
        chunk |= words[:, index + 1] << np.uint64(64 - offset)
    if width < 64:
        chunk &= np.uint64((1 << width) - 1)
    return chunk


def _place(packed: Words, digits: Words, position: int) -> None:
    for j in range(digits.shape[1]):
        index, offset = divmod(position + 64 * j, 64)
        chunk = digits[:, j]
        packed[:, index] |= chunk << np.uint64(offset)
        if offset:
            packed[:, index + 1] |= chunk >> np.uint64(64 - offset)


class ArrayRows:
    """:class:`~pairing.swiss.rows.Rows` as an array of shape (edges, words)."""

    __slots__ = ("_a", "_b", "_vertices", "_w")

    def __init__(self, words: Words, a: Index, b: Index, vertices: list[int]) -> None:
        self._w = words
        self._a, self._b, self._vertices = a, b, vertices

    @classmethod
    def of(cls, edges: Sequence[tuple[int, int, int]], words: int) -> ArrayRows:
        """The weights of ``edges``, in ``words`` words."""
        starts = np.array([a for a, _, _ in edges], dtype=np.int64)
        stops = np.array([b for _, b, _ in edges], dtype=np.int64)
        ends = np.stack([starts, stops], axis=1)
        # Vertices numbered by first appearance, as the matcher's own graphs number them.
        vertices, first, inverse = np.unique(ends, return_index=True, return_inverse=True)
        order = np.argsort(first)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        dense = rank[inverse.reshape(-1)].reshape(-1, 2)
        weights = _to_words([w for _, _, w in edges], words)
        return cls(weights, dense[:, 0], dense[:, 1], vertices[order].tolist())

    @property
    def words(self) -> int:
        return int(self._w.shape[1])

    @property
    def vertices(self) -> list[int]:
        return self._vertices

    def _with(self, words: Words) -> ArrayRows:
        return ArrayRows(words, self._a, self._b, self._vertices)

    def like(self, values: list[int], words: int) -> ArrayRows:
        return self._with(_to_words(values, words))

    def field(self, lo: int, hi: int) -> ArrayRows:
        starts = range(lo, hi, 64)
        return self._with(np.stack([_chunk(self._w, s, min(64, hi - s)) for s in starts], axis=1))

    def ints(self) -> list[int]:
        return _to_ints(self._w)

    def mask(self) -> int:
        ored = np.bitwise_or.reduce(self._w, axis=0)
        return int.from_bytes(ored.astype("<u8").tobytes(), "little")

    def max(self) -> int:
        if self._w.shape[1] == 1:
            return int(self._w[:, 0].max())
        rows = self._w
        for j in range(rows.shape[1] - 1, -1, -1):
            rows = rows[rows[:, j] == rows[:, j].max()]
        return _to_ints(rows[:1])[0]

    def _flags(self) -> NDArray[np.bool_]:
        flags: NDArray[np.bool_] = np.any(self._w, axis=1)
        return flags

    def count(self) -> int:
        return int(self._flags().sum())

    def nonzero(self) -> ArrayRows:
        return self._with(self._flags().astype(np.uint64).reshape(-1, 1))

    def where(self, flags: ArrayRows, other: ArrayRows) -> ArrayRows:
        return self._with(np.where(flags._flags()[:, None], other._w, self._w))

    def increment(self, flags: ArrayRows) -> ArrayRows:
        out = self._w.copy()
        carry = flags._flags()
        for j in range(out.shape[1]):
            if not carry.any():
                break
            out[carry, j] += np.uint64(1)
            carry &= out[:, j] == 0
        return self._with(out)

    def negated(self, bits: int) -> ArrayRows:
        out = self._with(~self._w).increment(self._with(np.ones((len(self._w), 1), np.uint64)))._w
        top = bits - 64 * (out.shape[1] - 1)
        if top < 64:
            out[:, -1] &= np.uint64((1 << top) - 1)
        return self._with(out)

    def spread(self, spread: int) -> ArrayRows:
        out = self._w << np.uint64(spread)
        out[:, 1:] |= self._w[:, :-1] >> np.uint64(64 - spread)
        out[:, 0] |= np.uint64(1)
        return self._with(out)

    def key(self) -> Hashable:
        return np.ascontiguousarray(self._w).tobytes()

    def stacked(self, parts: Sequence[tuple[ArrayRows, int]], width: int) -> ArrayRows:
        packed = np.zeros((self._w.shape[0], width // 64 + 3), dtype=np.uint64)
        for digits, position in parts:
            _place(packed, digits._w, position)
        return self._with(packed)

    def ends(self) -> tuple[list[int], list[int]]:
        return self._a.tolist(), self._b.tolist()

    def chosen_ends(self) -> tuple[list[int], list[int]]:
        chosen = self._flags()
        return self._a[chosen].tolist(), self._b[chosen].tolist()

    def distinct_ends(self) -> int:
        chosen, vertices = self._flags(), len(self._vertices)
        return min(
            int(np.count_nonzero(np.bincount(self._a[chosen], minlength=vertices))),
            int(np.count_nonzero(np.bincount(self._b[chosen], minlength=vertices))),
        )

    def degrees(self) -> list[int]:
        chosen, vertices = self._flags(), len(self._vertices)
        a, b = self._a[chosen], self._b[chosen]
        degree = np.bincount(a, minlength=vertices) + np.bincount(b, minlength=vertices)
        return list(degree.tolist())

    def vertex_max(self) -> list[int]:
        chosen = self._flags()
        kept = self._w[chosen]
        a, b = self._a[chosen], self._b[chosen]
        if kept.shape[1] == 1:
            top = np.zeros(len(self._vertices), dtype=np.uint64)
            np.maximum.at(top, a, kept[:, 0])
            np.maximum.at(top, b, kept[:, 0])
            return list(top.tolist())
        tops = [0] * len(self._vertices)
        for u, v, d in zip(a.tolist(), b.tolist(), _to_ints(kept), strict=True):
            tops[u] = max(tops[u], d)
            tops[v] = max(tops[v], d)
        return tops
