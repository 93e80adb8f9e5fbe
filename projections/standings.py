"""Standings: points, then the tournament's tie-break chain; remaining ties share a place.

Standings are those after the last complete round (`TournamentState.complete_round`): the games
of a round in play count for nothing yet, so pairing a round moves no value of the rounds before
it (`as_of` says which round the table is after, for every page that shows one).

The chain is applied in order. Ordinary tie-breaks are computed for everyone at once; a grouped
one (direct encounter) is computed inside each group still tied on points and the tie-breaks
before it. Undefined values (None) rank after every number.

A carrom knockout ranks as SoL ranks one (its competitors' knockout sorter: points, then the
seed position, then the rate): the chain's columns (SoL shows bucholz, net and total score) are
computed and shown, never ranked by, and no two players share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from decide.state import TournamentState
from events.domain import Game, System
from projections.tiebreaks import Tiebreak, TiebreakOptions, build_context, lookup

SortKey = tuple[tuple[int, float], ...]


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
    withdrawn_from: int | None = None
    """The first round the player no longer plays (withdrawn), else None."""

    @property
    def shown_name(self) -> str:
        """The name as every table prints it: a withdrawn player's marked."""
        return marked_name(self.name, self.withdrawn_from)


def marked_name(name: str, withdrawn_from: int | None) -> str:
    """``name``, with ``(withdrawn)`` after it when the player withdrew.

    >>> marked_name("Berg, Anna", None), marked_name("Berg, Anna", 4)
    ('Berg, Anna', 'Berg, Anna (withdrawn)')
    """
    return name if withdrawn_from is None else f"{name} (withdrawn)"


@dataclass(frozen=True, slots=True)
class AsOf:
    """Which round a standings table is after, and the paired rounds it leaves out."""

    after: int
    rounds: int  # the event's number of rounds
    in_play: tuple[int, ...] = ()  # paired rounds after `after`, still lacking results

    @property
    def caption(self) -> str:
        """``after round 1 of 2, round 2 in play``, as every table says it.

        >>> AsOf(1, 2, (2,)).caption
        'after round 1 of 2, round 2 in play'
        >>> AsOf(0, 9).caption, AsOf(3, 7, (4, 5)).caption
        ('before round 1 of 9', 'after round 3 of 7, rounds 4-5 in play')
        """
        head = f"after round {self.after}" if self.after else "before round 1"
        text = f"{head} of {self.rounds}"
        if len(self.in_play) == 1:
            text += f", round {self.in_play[0]} in play"
        elif self.in_play:
            text += f", rounds {self.in_play[0]}-{self.in_play[-1]} in play"
        return text


def as_of(state: TournamentState) -> AsOf:
    """The round the standings are after (the last complete one) and the rounds in play."""
    after, last = state.complete_round, state.last_round
    return AsOf(after, max(state.total_rounds, last), tuple(range(after + 1, last + 1)))


def _component(value: float | None, higher_is_better: bool) -> tuple[int, float]:
    if value is None:
        return (1, 0.0)
    return (0, -value if higher_is_better else value)


def _groups(players: Sequence[int], keys: dict[int, SortKey]) -> list[list[int]]:
    by_key: dict[SortKey, list[int]] = {}
    for pid in players:
        by_key.setdefault(keys[pid], []).append(pid)
    return [g for g in by_key.values() if len(g) > 1] + [g for g in by_key.values() if len(g) == 1]


def ranks_by_bracket(state: TournamentState) -> bool:
    """A carrom knockout: points, then the start rank (SoL's seed position, else the rate);
    its tie-break columns are shown only (SoL 5.26, ``_knockout_comp_sorter``)."""
    return state.game is Game.CARROM and state.system is System.KNOCKOUT


def standings(
    state: TournamentState,
    tiebreaks: Sequence[str] | None = None,
    through_round: int | None = None,
    options: TiebreakOptions | None = None,
) -> list[StandingRow]:
    """Rows in rank order after round `through_round` (default: the last complete round,
    `as_of`); an explicit round is taken as asked."""
    codes = list(state.tiebreaks if tiebreaks is None else tiebreaks)
    chain: list[Tiebreak] = [lookup(code) for code in codes]
    through = state.complete_round if through_round is None else through_round
    ctx = build_context(state, through, options)
    starts = state.start_ranks()
    points = {pid: pr.points for pid, pr in ctx.players.items()}
    # Go events rank by their placement criteria alone (MMS or NBW first), not by points.
    ranked_by_points = state.game is not Game.GO or not codes
    keys: dict[int, SortKey] = {
        pid: (_component(points[pid], True),) if ranked_by_points else () for pid in ctx.players
    }
    values: dict[str, dict[int, float | None]] = {}
    for code, tb in zip(codes, chain, strict=True):
        if tb.grouped:
            column = tb.evaluate(ctx, _groups(list(ctx.players), keys), starts)
        else:
            column = tb.evaluate(ctx)
        values[code] = column
        for pid in ctx.players:
            keys[pid] = (*keys[pid], _component(column.get(pid), tb.higher_is_better))

    if ranks_by_bracket(state):
        keys = {pid: (_component(points[pid], True), (0, starts[pid])) for pid in ctx.players}
    ordered = sorted(ctx.players, key=lambda pid: (keys[pid], starts[pid]))
    rows: list[StandingRow] = []
    for i, pid in enumerate(ordered):
        tied = i > 0 and keys[pid] == keys[ordered[i - 1]]
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
                tiebreaks={c: values[c].get(pid) for c in codes},
                withdrawn_from=p.withdrawn_from,
            )
        )
    return rows
