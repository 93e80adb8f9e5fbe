"""Exact narrowing of wide integer edge weights.

A weight is read as digits in bit ranges; each range is packed into just the bits its digit
sum over a matching can reach, so every maximum-weight matching stays one (pairing.md 2.5).

Weights built with subtractions (a field that charges a pair borrows from the fields above it)
hold long runs of ones that no digit range can narrow. :meth:`Narrowing.signed_weights` reads
them in non-adjacent form instead, as sums of signed powers of two, which are sparse again.

The rule is written once, on :class:`~pairing.swiss.rows.Rows`: Python ints for a small
bracket (no numpy import on ``arbiter-pairings``' start-up), numpy arrays of 64-bit words for
a large one (:mod:`pairing.swiss.rows_numpy`); both give the same weights, bit for bit.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from pairing.swiss.rows import IntRows, Rows

__all__ = ["Narrowing"]

# Above this many edges a digit's count bound skips the greedy vertex cover (a Python loop).
_GREEDY_COVER_EDGES = 4096
# Up to this many edges the rows are Python ints, above numpy arrays: a slow import, faster from
# some hundreds of edges on (a 100-player round 6 narrows at most 624; 500 players: thousands).
ARRAY_EDGES = 768


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

    def __init__(
        self, edges: list[tuple[int, int, int]], spread: int = 0, arrays: bool | None = None
    ) -> None:
        """``spread``: narrow ``(w << spread) + 1`` instead of each weight ``w``. ``arrays``:
        compute on numpy arrays (default: above :data:`ARRAY_EDGES` edges)."""
        self.edges = edges
        bits = max((w for _, _, w in edges), default=0).bit_length() + spread
        words = max(1, (bits + 63) // 64)
        if arrays is None:
            arrays = len(edges) > ARRAY_EDGES
        if arrays:
            from pairing.swiss.rows_numpy import ArrayRows  # numpy: only for a large bracket

            self._words: Rows = ArrayRows.of(edges, words)
        else:
            self._words = IntRows.of(edges, words)
        if spread:
            self._words = self._words.spread(spread)
        self.vertices: list[int] = self._words.vertices
        self.pairs = len(self.vertices) // 2
        self._covers: dict[Hashable, list[int]] = {}

    def ends(self) -> tuple[list[int], list[int]]:
        """Each edge's two ends as indices into :attr:`vertices`."""
        return self._words.ends()

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
            bits = 64 * words.words
            for split in range(low_bits, low_bits + 64):
                low = words.field(0, split)
                negative = words.field(split - 1, split)
                size = low.where(negative, low.negated(split))
                reach = self._bound(size)
                if 2 * reach < 1 << split:
                    break
            else:
                return None
            magnitudes = size.ints()
            signs = negative.ints()
            lows = [-m if n else m for m, n in zip(magnitudes, signs, strict=True)]
            # the part above the low field, borrowing one where the low field is negative
            words = words.field(split, bits + 1).increment(negative) if split < bits else negative
            shift = reach.bit_length() + 2
        packed = (
            self._pack_tight(words, deduplicate) if tight or deduplicate else self._pack(words)
        ).ints()
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
        values = self._words.ints()
        plus, minus = zip(*(_non_adjacent(v) for v in values), strict=True)
        words = max(1, (max(values).bit_length() + 65) // 64)
        plus_words = self._words.like(list(plus), words)
        minus_words = self._words.like(list(minus), words)
        used = plus_words.mask() | minus_words.mask()
        positions = [k for k in range(used.bit_length()) if used >> k & 1]
        reach = {
            k: self._count_bound(plus_words.field(k, k + 1))
            + self._count_bound(minus_words.field(k, k + 1))
            for k in positions
        }
        layout = _signed_layout(positions, reach)
        if layout is None:
            return None
        narrowed = [0] * len(values)
        for lo, hi, new_lo in layout:
            gains = plus_words.field(lo, hi + 1).ints()
            costs = minus_words.field(lo, hi + 1).ints()
            narrowed = [
                w + ((g - c) << new_lo) for w, g, c in zip(narrowed, gains, costs, strict=True)
            ]
        return narrowed

    def _count_bound(self, chosen: Rows) -> int:
        """An upper bound on how many of the chosen (flagged) edges one matching holds."""
        count = chosen.count()
        if count <= 1:
            return count
        bound = min(self.pairs, count, chosen.distinct_ends())
        if bound > 2 and count <= _GREEDY_COVER_EDGES:
            bound = min(bound, len(self._cover(chosen)))
        return bound

    def _pack(self, words: Rows) -> Rows:
        parts: list[tuple[Rows, int]] = []
        position = 0
        for lo, hi in _segments(words.mask(), self.pairs.bit_length()):
            digits = words.field(lo, hi)
            parts.append((digits, position))
            position += (min(self.pairs, digits.count()) * digits.max()).bit_length()
        return words.stacked(parts, position)

    def tight_weights(self) -> Iterator[list[int]]:
        """The weights as given narrowed tight, then also deduplicated (as :meth:`weights`
        with ``tight``, then with ``deduplicate``), their digit ranges computed once."""
        if not self.edges:
            yield []
            return
        ranges = self._ranges_tight(self._words)
        yield _stacked(self._words, ranges).ints()
        yield _stacked(self._words, _deduplicated(ranges)).ints()

    def _pack_tight(self, words: Rows, deduplicate: bool = False) -> Rows:
        ranges = self._ranges_tight(words)
        return _stacked(words, _deduplicated(ranges) if deduplicate else ranges)

    def _ranges_tight(self, words: Rows) -> list[tuple[Rows, int]]:
        """The digit ranges of the tight packing with their widths, lowest first."""
        mask = words.mask()
        positions = [i for i in range(mask.bit_length()) if mask >> i & 1]
        ranges: list[tuple[Rows, int]] = []
        lo = positions[0] if positions else 0
        hi = lo + 1
        bits = self.pairs.bit_length()
        for p in [*positions[1:], None]:
            digits = words.field(lo, hi)
            bound = self._bound(digits)
            if p is not None and bits + (hi - lo) > p - lo and bound.bit_length() > p - lo:
                hi = p + 1
                continue
            ranges.append((digits, bound.bit_length()))
            if p is not None:
                lo, hi = p, p + 1
        return ranges

    def _bound(self, digits: Rows) -> int:
        """An upper bound on a matching's digit sum: by its size, and by a vertex cover."""
        count = digits.count()
        if not count:
            return 0
        by_size = min(self.pairs, count) * digits.max()
        cover = self._cover(digits)
        tops = digits.vertex_max()
        return min(by_size, sum(tops[v] for v in cover))

    def _cover(self, chosen: Rows) -> list[int]:
        """A greedy vertex cover of the edges whose row is not zero, higher degree first, in
        edge order."""
        flags = chosen.nonzero()
        key = flags.key()
        cached = self._covers.get(key)
        if cached is not None:
            return cached
        degree = flags.degrees()
        picked = [False] * len(self.vertices)
        for u, v in zip(*flags.chosen_ends(), strict=True):
            if not picked[u] and not picked[v]:
                picked[u if degree[u] >= degree[v] else v] = True
        cover = [v for v in range(len(self.vertices)) if picked[v]]
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


def _deduplicated(ranges: list[tuple[Rows, int]]) -> list[tuple[Rows, int]]:
    """``ranges`` less each one equal on every edge to a more significant one."""
    seen: set[Hashable] = set()
    unique: list[tuple[Rows, int]] = []
    for digits, width in reversed(ranges):
        key = digits.key()
        if key not in seen:
            seen.add(key)
            unique.append((digits, width))
    return unique[::-1]


def _stacked(edges: Rows, ranges: list[tuple[Rows, int]]) -> Rows:
    """The digit ranges side by side, lowest first, each in its width."""
    parts: list[tuple[Rows, int]] = []
    position = 0
    for digits, width in ranges:
        parts.append((digits, position))
        position += width
    return edges.stacked(parts, position)
