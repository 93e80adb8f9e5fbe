"""Algorithm::Pair::Best 1.036: exhaustive search over a sliding window of pairs.

The items come sorted (gopair: by rating). Each item keeps its candidates sorted by its own
cached score of them (a stable sort, so ties keep the item order). A window search starts at
the first unpaired item, tries at most ``2·depth - 1`` unpaired candidates at each depth and
keeps the first best total (strictly greater wins); only the window's first pair is kept and
the window slides on, except for the last window which is kept whole. Greedy, not global.

Scores are read from the perspective of the earlier item (the cache may be asymmetric after
gopair's early-round adjustment). They are floats on purpose: the running total is added to and
subtracted from in the library's order, so that rounding breaks exact ties as it does in Perl.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["pick", "sorted_candidates"]

ScoreTable = Sequence[Sequence[float]]


def sorted_candidates(scores: ScoreTable) -> list[list[int]]:
    """For each item, every item (itself included) by descending score, ties in item order."""
    return [_by_score(row) for row in scores]


def _by_score(row: Sequence[float]) -> list[int]:
    return sorted(range(len(row)), key=lambda j: -row[j])


class _Search:
    def __init__(self, scores: ScoreTable, candidates: list[list[int]], opp: list[int | None]):
        self.scores = scores
        self.candidates = candidates
        self.opp = opp
        self.best_score: float | None = None
        self.best: list[int] = []
        self.current: list[int] = []
        self.total = 0.0

    def first_unpaired(self) -> int | None:
        return next((i for i, o in enumerate(self.opp) if o is None), None)

    def run(self, me: int, depth: int) -> None:
        self.current.append(me)
        tried = 0
        cands = self.candidates[me]
        index = 0
        while tried < 2 * depth - 1:
            while index < len(cands) and (self.opp[cands[index]] is not None or cands[index] == me):
                index += 1
            if index >= len(cands):
                break
            other = cands[index]
            index += 1
            tried += 1
            score = self.scores[me][other]
            self.total += score
            # every score is <= 0, so a partial total not above the best can never beat it
            # (only a strictly greater total replaces the best; same result as the library)
            if self.best_score is None or self.total > self.best_score:
                self.opp[me], self.opp[other] = other, me
                self.current.append(other)
                if depth > 1:
                    following = self.first_unpaired()
                    if following is not None:
                        self.run(following, depth - 1)
                elif self.best_score is None or self.total > self.best_score:
                    self.best_score = self.total
                    self.best = list(self.current)
                self.current.pop()
                self.opp[other] = None
            self.total -= score
        self.current.pop()
        self.opp[me] = None


def pick(scores: ScoreTable, candidates: list[list[int]], window: int) -> list[tuple[int, int]]:
    """Pairs of item indices in the order they were fixed (gopair's board order).

    With an odd number of items the last unpaired one is left out, as the library does.
    """
    n = len(scores)
    opp: list[int | None] = [None] * n
    pairs: list[tuple[int, int]] = []
    while True:
        free = [i for i in range(n) if opp[i] is None][: 2 * window]
        depth = len(free) // 2
        if depth == 0:
            return pairs
        search = _Search(scores, candidates, opp)
        search.run(free[0], depth)
        top = list(zip(search.best[0::2], search.best[1::2], strict=True))
        done = 2 * (len(top) + len(pairs)) >= n - n % 2 or len(top) < window
        for a, b in top if done else top[:1]:
            opp[a], opp[b] = b, a
            pairs.append((a, b))
