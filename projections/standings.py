"""Standings: points, then the tournament's tie-break chain; remaining ties share a place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from projections.state import TournamentState
from projections.tiebreaks import lookup


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int  # shared by players still tied after the whole chain
    player: int
    name: str
    start_rank: int
    rating: int | None
    federation: str | None
    points: float
    tiebreaks: dict[str, float | None]


def standings(
    state: TournamentState, tiebreaks: Sequence[str] | None = None, through_round: int | None = None
) -> list[StandingRow]:
    codes = list(state.tiebreaks if tiebreaks is None else tiebreaks)
    through = state.last_round if through_round is None else through_round
    values = {code: lookup(code).compute(state, through) for code in codes}
    starts = state.start_ranks()
    points = {pid: state.points(pid, through) for pid in state.players}

    def key(pid: int) -> tuple[float, ...]:
        # None (undefined) sorts below every defined value.
        chain = [v if (v := values[c][pid]) is not None else float("-inf") for c in codes]
        return (-points[pid], *(-x for x in chain))

    ordered = sorted(state.players, key=lambda pid: (key(pid), starts[pid]))
    rows: list[StandingRow] = []
    for i, pid in enumerate(ordered):
        tied = i > 0 and key(pid) == key(ordered[i - 1])
        rank = rows[-1].rank if tied else i + 1
        p = state.players[pid]
        rows.append(
            StandingRow(
                rank=rank,
                player=pid,
                name=p.name,
                start_rank=starts[pid],
                rating=p.rating,
                federation=p.federation,
                points=points[pid],
                tiebreaks={c: values[c][pid] for c in codes},
            )
        )
    return rows
