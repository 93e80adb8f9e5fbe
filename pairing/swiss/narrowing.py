"""Exact narrowing of wide integer edge weights, computed on numpy arrays of 64-bit words.

A weight is read as digits in bit ranges; each range is packed into just the bits its digit
sum over a matching can reach, so every maximum-weight matching stays one (pairing.md 2.5).
The weights are held as rows of little-endian uint64 words, so each step is a few array
operations instead of a Python loop over the edges.

Weights built with subtractions (a field that charges a pair borrows from the fields above it)
hold long runs of ones that no digit range can narrow. :meth:`Narrowing.signed_weights` reads
them in non-adjacent form instead, as sums of signed powers of two, which are sparse again.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

__all__ = ["Narrowing"]

Words = NDArray[np.uint64]
_ALL = (1 << 64) - 1
# Above this many edges a digit's count bound skips the greedy vertex cover (a Python loop).
_GREEDY_COVER_EDGES = 4096


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


def _field(words: Words, lo: int, hi: int) -> Words:
    """Bits [lo, hi) of every row, as rows of words."""
    starts = range(lo, hi, 64)
    return np.stack([_chunk(words, s, min(64, hi - s)) for s in starts], axis=1)


def _max(digits: Words) -> int:
    """The largest row, as an int."""
    if digits.shape[1] == 1:
        return int(digits[:, 0].max())
    rows = digits
    for j in range(digits.shape[1] - 1, -1, -1):
        rows = rows[rows[:, j] == rows[:, j].max()]
    return _to_ints(rows[:1])[0]


def _place(packed: Words, digits: Words, position: int) -> None:
    for j in range(digits.shape[1]):
        index, offset = divmod(position + 64 * j, 64)
        chunk = digits[:, j]
        packed[:, index] |= chunk << np.uint64(offset)
        if offset:
            packed[:, index + 1] |= chunk >> np.uint64(64 - offset)


def _increment(words: Words, rows: NDArray[np.bool_]) -> Words:
    """``words`` plus one on the chosen rows (carrying through the words)."""
    out = words.copy()
    carry = rows.copy()
    for j in range(out.shape[1]):
        if not carry.any():
            break
        out[carry, j] += np.uint64(1)
        carry &= out[:, j] == 0
    return out


def _negated(words: Words, bits: int) -> Words:
    """Two's complement of each row modulo ``2**bits``."""
    out = _increment(~words, np.ones(words.shape[0], dtype=bool))
    top = bits - 64 * (words.shape[1] - 1)
    if top < 64:
        out[:, -1] &= np.uint64((1 << top) - 1)
    return out


def _spread(words: Words, spread: int) -> Words:
    """Each row shifted left by ``spread`` (below 64) bits, plus one; the top word has room."""
    out = words << np.uint64(spread)
    out[:, 1:] |= words[:, :-1] >> np.uint64(64 - spread)
    out[:, 0] |= np.uint64(1)
    return out


def _segments(mask: int, gap: int) -> list[tuple[int, int]]:
    """Bit ranges [lo, hi) of ``mask`` separated by at least ``gap`` zero bits."""
    segments: list[tuple[int, int]] = []
    position = 0
    while mask:
        zeros = (mask & -mask).bit_length() - 1
        mask >>= zeros
        position += zeros
        lo = segments.pop()[0] if segments and zeros < gap else position
        ones = (~mask & (mask + 1)).bit_length() - 1
        mask >>= ones
        position += ones
        segments.append((lo, position))
    return segments


class Narrowing:
    """The edges of one graph, ready to be narrowed several ways."""

    def __init__(self, edges: list[tuple[int, int, int]], spread: int = 0) -> None:
        """``spread``: narrow ``(w << spread) + 1`` instead of each weight ``w``."""
        self.edges = edges
        starts = [a for a, _, _ in edges]
        stops = [b for _, b, _ in edges]
        weights = [w for _, _, w in edges]
        bits = max(weights, default=0).bit_length() + spread
        self._words = _to_words(weights, max(1, (bits + 63) // 64))
        if spread:
            self._words = _spread(self._words, spread)
        ends = np.stack([np.array(starts, dtype=np.int64), np.array(stops, dtype=np.int64)], axis=1)
        # Vertices numbered by first appearance, as the matcher's own graphs number them.
        vertices, first, inverse = np.unique(ends, return_index=True, return_inverse=True)
        order = np.argsort(first)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        vertices = vertices[order]
        dense = rank[inverse.reshape(-1)].reshape(-1, 2)
        self._a, self._b = dense[:, 0], dense[:, 1]
        self.vertices: list[int] = vertices.tolist()
        self._vertices = len(vertices)
        self.pairs = len(vertices) // 2
        self._covers: dict[bytes, list[int]] = {}

    def ends(self) -> tuple[list[int], list[int]]:
        """Each edge's two ends as indices into :attr:`vertices`."""
        return self._a.tolist(), self._b.tolist()

    def narrow(
        self, low_bits: int = 0, tight: bool = False, deduplicate: bool = False
    ) -> list[tuple[int, int, int]] | None:
        """As :func:`pairing.swiss.matching.compress`."""
        weights = self.weights(low_bits, tight, deduplicate)
        if weights is None:
            return None
        return [(a, b, w) for (a, b, _), w in zip(self.edges, weights, strict=True)]

    def weights(
        self, low_bits: int = 0, tight: bool = False, deduplicate: bool = False
    ) -> list[int] | None:
        """The narrowed weights, by edge; None as :func:`pairing.swiss.matching.compress`.

        With ``deduplicate`` (implies ``tight``), a digit range equal on every edge to a more
        significant one is dropped: a matching's totals compare lexicographically by range,
        and the copy can only tie when its original ties.
        """
        if not self.edges:
            return []
        words = self._words
        lows: list[int] | None = None
        shift = 0
        if low_bits:
            bits = 64 * words.shape[1]
            for split in range(low_bits, low_bits + 64):
                low = _field(words, 0, split)
                negative = _chunk(words, split - 1, 1).astype(bool)
                size = np.where(negative[:, None], _negated(low, split), low)
                reach = self._bound(size)
                if 2 * reach < 1 << split:
                    break
            else:
                return None
            magnitudes = _to_ints(size)
            lows = [-m if n else m for m, n in zip(magnitudes, negative.tolist(), strict=True)]
            high = _field(words, split, bits + 1) if split < bits else None
            if high is None:
                words = negative.astype(np.uint64).reshape(-1, 1)
            else:
                words = _increment(high, negative)
            shift = reach.bit_length() + 2
        packed = _to_ints(
            self._pack_tight(words, deduplicate) if tight or deduplicate else self._pack(words)
        )
        if lows is None:
            return packed
        return [(h << shift) + lo for h, lo in zip(packed, lows, strict=True)]

    def signed_weights(self) -> list[int] | None:
        """The weights narrowed digit by digit in non-adjacent form (signed), by edge.

        Exact for any weights: two matchings compare as they did. None when there is nothing
        to narrow.
        """
        if not self.edges:
            return []
        values = _to_ints(self._words)
        plus, minus = zip(*(_non_adjacent(v) for v in values), strict=True)
        words = max(1, (max(values).bit_length() + 65) // 64)
        plus_words, minus_words = _to_words(list(plus), words), _to_words(list(minus), words)
        used = _mask(plus_words) | _mask(minus_words)
        positions = [k for k in range(used.bit_length()) if used >> k & 1]
        reach = {
            k: self._count_bound(_chunk(plus_words, k, 1).astype(bool))
            + self._count_bound(_chunk(minus_words, k, 1).astype(bool))
            for k in positions
        }
        layout = _signed_layout(positions, reach)
        if layout is None:
            return None
        narrowed = [0] * len(values)
        for lo, hi, new_lo in layout:
            gains = _to_ints(_field(plus_words, lo, hi + 1))
            costs = _to_ints(_field(minus_words, lo, hi + 1))
            narrowed = [
                w + ((g - c) << new_lo) for w, g, c in zip(narrowed, gains, costs, strict=True)
            ]
        return narrowed

    def _count_bound(self, chosen: NDArray[np.bool_]) -> int:
        """An upper bound on how many of the chosen edges one matching holds."""
        count = int(chosen.sum())
        if count <= 1:
            return count
        a, b = self._a[chosen], self._b[chosen]
        ends = min(
            int(np.count_nonzero(np.bincount(a, minlength=self._vertices))),
            int(np.count_nonzero(np.bincount(b, minlength=self._vertices))),
        )
        bound = min(self.pairs, count, ends)
        if bound > 2 and count <= _GREEDY_COVER_EDGES:
            bound = min(bound, len(self._cover(chosen)))
        return bound

    def _pack(self, words: Words) -> Words:
        parts: list[tuple[Words, int]] = []
        position = 0
        for lo, hi in _segments(_mask(words), self.pairs.bit_length()):
            digits = _field(words, lo, hi)
            used = int(digits.any(axis=1).sum())
            parts.append((digits, position))
            position += (min(self.pairs, used) * _max(digits)).bit_length()
        return _assemble(words.shape[0], parts, position)

    def tight_weights(self) -> Iterator[list[int]]:
        """The weights as given narrowed tight, then also deduplicated (as :meth:`weights`
        with ``tight``, then with ``deduplicate``), their digit ranges computed once."""
        if not self.edges:
            yield []
            return
        ranges = self._ranges_tight(self._words)
        yield _to_ints(_stacked(self._words.shape[0], ranges))
        yield _to_ints(_stacked(self._words.shape[0], _deduplicated(ranges)))

    def _pack_tight(self, words: Words, deduplicate: bool = False) -> Words:
        ranges = self._ranges_tight(words)
        return _stacked(words.shape[0], _deduplicated(ranges) if deduplicate else ranges)

    def _ranges_tight(self, words: Words) -> list[tuple[Words, int]]:
        """The digit ranges of the tight packing with their widths, lowest first."""
        mask = _mask(words)
        positions = [i for i in range(mask.bit_length()) if mask >> i & 1]
        ranges: list[tuple[Words, int]] = []
        lo = positions[0] if positions else 0
        hi = lo + 1
        bits = self.pairs.bit_length()
        for p in [*positions[1:], None]:
            digits = _field(words, lo, hi)
            bound = self._bound(digits)
            if p is not None and bits + (hi - lo) > p - lo and bound.bit_length() > p - lo:
                hi = p + 1
                continue
            ranges.append((digits, bound.bit_length()))
            if p is not None:
                lo, hi = p, p + 1
        return ranges

    def _bound(self, digits: Words) -> int:
        """An upper bound on a matching's digit sum: by its size, and by a vertex cover."""
        nonzero: NDArray[np.bool_] = np.any(digits, axis=1)
        count = int(nonzero.sum())
        if not count:
            return 0
        by_size = min(self.pairs, count) * _max(digits)
        cover = self._cover(nonzero)
        kept = digits[nonzero]
        a, b = self._a[nonzero], self._b[nonzero]
        if kept.shape[1] == 1:
            top = np.zeros(self._vertices, dtype=np.uint64)
            np.maximum.at(top, a, kept[:, 0])
            np.maximum.at(top, b, kept[:, 0])
            tops = top.tolist()
        else:
            tops = [0] * self._vertices
            for u, v, d in zip(a.tolist(), b.tolist(), _to_ints(kept), strict=True):
                tops[u] = max(tops[u], d)
                tops[v] = max(tops[v], d)
        return min(by_size, sum(tops[v] for v in cover))

    def _cover(self, nonzero: NDArray[np.bool_]) -> list[int]:
        """A greedy vertex cover of the chosen edges, higher degree first, in edge order."""
        key = np.packbits(nonzero).tobytes()
        cached = self._covers.get(key)
        if cached is not None:
            return cached
        a, b = self._a[nonzero], self._b[nonzero]
        degree = (
            np.bincount(a, minlength=self._vertices) + np.bincount(b, minlength=self._vertices)
        ).tolist()
        chosen = [False] * self._vertices
        for u, v in zip(a.tolist(), b.tolist(), strict=True):
            if not chosen[u] and not chosen[v]:
                chosen[u if degree[u] >= degree[v] else v] = True
        cover = [v for v in range(self._vertices) if chosen[v]]
        self._covers[key] = cover
        return cover


def _non_adjacent(value: int) -> tuple[int, int]:
    """The non-adjacent form of ``value``: bit masks ``plus``, ``minus`` with
    ``value == plus - minus`` and no two adjacent bits set in ``plus | minus``."""
    half = value >> 1
    triple = value + half
    changed = half ^ triple
    return triple & changed, half & changed


def _signed_layout(
    positions: list[int], reach: dict[int, int]
) -> list[tuple[int, int, int]] | None:
    """Segments ``(lo, hi, new_lo)`` of the signed digit positions and where each goes.

    ``reach[k]`` bounds how much the digit sum at position ``k`` can differ between two
    matchings. A position starts a new segment when everything below it cannot reach it;
    segments keep their inner layout and are stacked as tightly as those reaches allow, so
    every comparison of two matchings keeps its sign.
    """
    segments: list[list[int]] = []
    below = 0
    for k in positions:
        if below < 1 << k:
            segments.append([k, k])
        else:
            segments[-1][1] = k
        below += reach[k] << k
    layout: list[tuple[int, int, int]] = []
    stacked = 0
    for lo, hi in segments:
        spread = sum(reach[k] << (k - lo) for k in positions if lo <= k <= hi)
        new_lo = stacked.bit_length()
        layout.append((lo, hi, new_lo))
        stacked += spread << new_lo
    return layout


def _deduplicated(ranges: list[tuple[Words, int]]) -> list[tuple[Words, int]]:
    """``ranges`` less each one equal on every edge to a more significant one."""
    seen: set[bytes] = set()
    unique: list[tuple[Words, int]] = []
    for digits, width in reversed(ranges):
        key = np.ascontiguousarray(digits).tobytes()
        if key not in seen:
            seen.add(key)
            unique.append((digits, width))
    return unique[::-1]


def _stacked(rows: int, ranges: list[tuple[Words, int]]) -> Words:
    """The digit ranges side by side, lowest first, each in its width."""
    parts: list[tuple[Words, int]] = []
    position = 0
    for digits, width in ranges:
        parts.append((digits, position))
        position += width
    return _assemble(rows, parts, position)


def _mask(words: Words) -> int:
    return int.from_bytes(np.bitwise_or.reduce(words, axis=0).astype("<u8").tobytes(), "little")


def _assemble(rows: int, parts: list[tuple[Words, int]], width: int) -> Words:
    packed = np.zeros((rows, width // 64 + 3), dtype=np.uint64)
    for digits, position in parts:
        _place(packed, digits, position)
    return packed
