"""One bracket of the Dubov system: its weights and the steps of Article 3.2.

The bracket holds every player still to pair: the residents (the highest score left) and all
the others, who may upfloat. One maximum-weight matching over them weighs, most significant
first (Article 2):

=============  ===============================================================
1              a pair (the whole round can be completed, C4)
b              two residents meet (fewest upfloaters, C5)
SD             the score difference of a resident and its upfloater (C6)
b              both colour preferences can be granted (C7)
b              the upfloater is not a maximum upfloater (C8, not in the last round)
UF             the upfloats of a maximum upfloater (C9, not in the last round)
b              the upfloater did not upfloat in the previous round (C10)
b + 2          room for the choices of Article 3.2 (generation order)
=============  ===============================================================

``b`` bits count the residents; ``SD`` and ``UF`` give each distinct score difference and
upfloat count its own field. Then the choices of Article 3.2 are fixed one at a time, each by
raising a few edges in the lowest field and solving again: which upfloaters (3.2.2, in the
order of 4.2), the G1/G2 re-composition (3.2.4, shifters in the order of 4.3), and the
opponent of each G1 player in the order of the transpositions (3.2.5, 4.4).

A removed edge stays removed: later steps raise only the edges still there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pairing.dubov.players import DubovPlayer
from pairing.swiss.matching import Matcher
from pairing.swiss.model import Colour

__all__ = ["DubovBracket"]


def _field_shifts(values: Iterable[int], largest_first: bool) -> tuple[int, dict[int, int]]:
    """A bit field per distinct value, wide enough to count its occurrences; the total width."""
    counts = Counter(values)
    shifts: dict[int, int] = {}
    total = 0
    for value in sorted(counts, reverse=largest_first):
        shifts[value] = total
        total += counts[value].bit_length()
    return total, shifts


class DubovBracket:
    """The players still to pair (ranking order) and the matcher deciding the top bracket."""

    def __init__(
        self,
        players: list[DubovPlayer],
        blocked: dict[int, set[int]],
        first_round: bool,
        last_round: bool,
    ) -> None:
        """``blocked[tpn]``: the TPNs the player may not meet (C1, C3, prohibited pairs)."""
        self.players = players
        top = players[0].rank_score
        self.resident = [p.rank_score == top for p in players]
        self.first_round = first_round
        self.last_round = last_round
        self.residents = [i for i, r in enumerate(self.resident) if r]
        self.lower = [i for i, r in enumerate(self.resident) if not r]
        self.bits = len(self.residents).bit_length()
        self.sd_bits, self.sd_shift = _field_shifts(
            (top - players[i].rank_score for i in self.lower), largest_first=True
        )
        self.uf_bits, self.uf_shift = _field_shifts(
            (players[i].upfloats for i in self.lower if players[i].maximum_upfloater),
            largest_first=False,
        )
        size = len(players)
        self.room = self.bits + 2
        """Width of the lowest field, where the steps of Article 3.2 raise edges."""
        pair_shift = self._tail_shift() + self.room
        self.stored = self._weights(blocked, 1 << pair_shift)
        self.matcher = Matcher(size)
        self.matcher.load([list(row) for row in self.stored])
        # Every edge holds the pair bit (C4); the criteria only on edges with a resident.
        self.matcher.set_completion(pair_shift, [False] * size, self.room)
        self.matcher.focus(list(range(size)), core=self.residents)
        self.fixed = [False] * size
        self.max_weight = 1 << (pair_shift + 3)
        self.mates = self.matcher.solve()
        self.g1: list[int] = []
        self.g2: list[int] = []

    def _weights(self, blocked: dict[int, set[int]], pair: int) -> list[list[int]]:
        """The weight matrix: the pair bit alone between non-residents, every criterion on
        the edges of residents, 0 where two players may not meet."""
        players = self.players
        size = len(players)
        index = {p.number: i for i, p in enumerate(players)}
        rows: list[list[int]] = []
        for i, p in enumerate(players):
            row = [pair] * size
            row[i] = 0
            for number in blocked.get(p.number, ()):
                j = index.get(number)
                if j is not None:
                    row[j] = 0
            rows.append(row)
        for i in self.residents:
            for j in range(size):
                if rows[i][j]:
                    high, low = (i, j) if i < j else (j, i)
                    rows[i][j] = rows[j][i] = self._weight(high, low)
        return rows

    def complete(self) -> bool:
        """Every player of the bracket is paired (C4)."""
        return all(m != v for v, m in enumerate(self.mates))

    # ------------------------------------------------------------------ weights

    def _tail_shift(self) -> int:
        """Width of the fields below the pair bit, the room for Article 3.2 excluded."""
        b = self.bits
        width = b + self.sd_bits + b
        if not self.last_round:
            width += b + self.uf_bits
            if not self.first_round:
                width += b
        return width

    def _weight(self, i: int, j: int) -> int:
        """The weight of pairing ``i`` with the lower-ranked ``j`` (who may meet)."""
        high, low = self.players[i], self.players[j]
        b = self.bits
        resident, upfloater = self.resident[i], not self.resident[j]
        w = (1 << b) | (resident and not upfloater)
        w <<= self.sd_bits
        if resident and upfloater:
            w += 1 << self.sd_shift[high.rank_score - low.rank_score]
        w = (w << b) | (resident and high.preference is not low.preference)
        if not self.last_round:
            w = (w << b) | (resident and upfloater and not low.maximum_upfloater)
            w <<= self.uf_bits
            if resident and upfloater and low.maximum_upfloater:
                w += 1 << self.uf_shift[low.upfloats]
            if not self.first_round:
                w = (w << b) | (resident and upfloater and not low.upfloated_last_round)
        return w << self.room

    # ------------------------------------------------------------------ edge edits

    def _raise(self, v: int, others: Iterable[int], amount: int, step: int = 0) -> None:
        """Add ``amount`` (then ``amount + step``, ...) to the edges from ``v`` to ``others``."""
        for u in others:
            w = self.stored[v][u]
            if w:
                w += amount
                self.stored[v][u] = self.stored[u][v] = w
                if not (self.fixed[v] or self.fixed[u]):
                    self.matcher.set(v, u, w)
            amount += step

    def _remove(self, v: int, others: Iterable[int]) -> None:
        """Remove the edges from ``v`` to ``others`` for good."""
        for u in others:
            if u != v:
                self.stored[v][u] = self.stored[u][v] = 0
                if not (self.fixed[v] or self.fixed[u]):
                    self.matcher.set(v, u, 0)

    def _solve(self) -> None:
        self.mates = self.matcher.solve()

    # ------------------------------------------------------------------ Article 3.2

    def choose_upfloaters(self) -> None:
        """3.2.1-3.2.2: as many upfloaters as C5 needs, the first ones in the order of 4.2
        (score descending, then TPN) that pair as well as any."""
        players, resident = self.players, self.resident
        needed = sum(resident[self.mates[i]] for i in self.lower)
        candidates = sorted(self.lower, key=lambda i: (-players[i].score, players[i].number))
        for i in candidates:
            if not needed:
                break
            if not resident[self.mates[i]]:
                self._raise(i, self.residents, 1)
                self._solve()
                self._raise(i, self.residents, -1)
            if resident[self.mates[i]]:
                needed -= 1
                self._remove(i, candidates)

    def split(self) -> None:
        """3.2.3: G1 holds the players with a preference for White (in round 1 the first half
        of the bracket), G2 the others."""
        members = self.residents + [i for i in self.lower if self.resident[self.mates[i]]]
        # The upfloaters are chosen: the other players leave the bracket, and the matcher
        # pairs them only to complete the round.
        member_set = set(members)
        for r in self.residents:
            self._remove(r, [i for i in self.lower if i not in member_set])
        self.matcher.focus(members, core=self.residents)
        if self.first_round:
            self.g1 = members[: len(members) // 2]
        else:
            self.g1 = [i for i in members if self.players[i].preference is Colour.WHITE]
        chosen = set(self.g1)
        self.g2 = [i for i in members if i not in chosen]

    def _sort_groups(self) -> None:
        """4.3.2: White seekers by ARO then TPN, Black seekers by TPN."""
        players = self.players
        self.g1.sort(key=lambda i: (players[i].aro, players[i].number))
        self.g2.sort(key=lambda i: players[i].number)

    def _shift(self, source: list[int], target: list[int]) -> None:
        """Move to ``target`` as many players of ``source`` as the matching pairs inside
        ``source``, the first ones in the order of 4.3.3 (from the middle outwards) that can."""
        inside = set(source)
        exchanges = sum(self.mates[i] in inside for i in source)
        middle = (len(source) - 1) / 2
        order = sorted(
            range(len(source)), key=lambda k: (abs(k - middle), -k if k <= middle else k)
        )
        for v in [source[k] for k in order]:
            if not exchanges:
                return
            if self.mates[v] not in set(source):
                self._raise(v, list(source), 1)
                self._solve()
                self._raise(v, list(source), -1)
            if self.mates[v] in set(source):
                exchanges -= 1
                self._remove(v, target)
                source.remove(v)
                target.append(v)

    def recompose(self) -> None:
        """3.2.4: shift players from the smaller group (G1 on a tie) that must meet each other,
        then from the larger group until the sizes are equal."""
        g1, g2 = list(self.g1), list(self.g2)
        for v in g1:
            self._raise(v, g2, 2)
        self._solve()
        self._sort_groups()
        if len(self.g1) <= len(self.g2):
            self._shift(self.g1, self.g2)
        else:
            self._shift(self.g2, self.g1)
        self._sort_groups()
        if len(self.g1) <= len(self.g2):
            self._shift(self.g2, self.g1)
        else:
            self._shift(self.g1, self.g2)
        for v in g1:
            self._raise(v, g2, -2)

    def transpose(self) -> list[tuple[int, int]]:
        """3.2.5: S1 (G1 by ARO then TPN) meets the first transposition of G2 (4.4: by TPN)
        that pairs legally, player by player; the bracket's pairs (higher-ranked first)."""
        self._sort_groups()
        for v in self.g1:
            self._raise(v, reversed(self.g2), 0, step=1)
            self._solve()
            mate = self.mates[v]
            self.matcher.finalize_pair(v, mate, self.max_weight)
            self.fixed[v] = self.fixed[mate] = True
        pairs: list[tuple[int, int]] = []
        for v, mate in enumerate(self.mates):
            if v < mate and (self.resident[v] or self.resident[mate]):
                pairs.append((v, mate))
        return pairs
