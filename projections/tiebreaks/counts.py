"""Tie-breaks counted from a participant's own rounds (C.07 art. 7, 10): WIN, WON, BPG, BWG,
REP, VUR, PS, KS, STD."""

from __future__ import annotations

from collections.abc import Callable

from events.domain import Colour
from projections.tiebreaks.context import RoundKind, RoundView, TiebreakContext
from projections.tiebreaks.spec import TiebreakSpec

Values = dict[int, float | None]


def _count(ctx: TiebreakContext, keep: Callable[[TiebreakContext, RoundView], bool]) -> Values:
    return {
        pid: float(sum(1 for v in pr.rounds if keep(ctx, v))) for pid, pr in ctx.players.items()
    }


def _is_win(ctx: TiebreakContext, v: RoundView) -> bool:
    return v.points == ctx.win


def wins(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """WIN: rounds scored as a win, played or not."""
    return _count(ctx, _is_win)


def games_won(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """WON: games won over the board."""
    return _count(ctx, lambda c, v: v.played and _is_win(c, v))


def black_games(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """BPG: games played with black."""
    return _count(ctx, lambda _c, v: v.played and v.colour is Colour.BLACK)


def black_wins(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """BWG: games won with black."""
    return _count(ctx, lambda c, v: v.played and v.colour is Colour.BLACK and _is_win(c, v))


def rounds_elected_to_play(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """REP (formerly GE): games played, pairing-allocated byes and other rounds scored as wins."""
    return _count(ctx, lambda c, v: v.played or v.kind is RoundKind.PAB or _is_win(c, v))


def voluntary_unplayed(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """VUR: half- and zero-point byes, absences and forfeit losses."""
    return _count(ctx, lambda _c, v: v.voluntary and v.kind is not RoundKind.PENDING)


def progressive(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    """PS: sum of the running score after each round; `/Cn` drops the first n rounds."""
    out: Values = {}
    for pid, pr in ctx.players.items():
        running = total = 0.0
        for v in pr.rounds:
            running += v.points
            if v.round > spec.cut_low:
                total += running
        out[pid] = total
    return out


def koya(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    """KS: points scored against opponents who reached the limit (default 50 % of the maximum).

    In a round robin the maximum counts the games each participant is scheduled to play: one
    free round per cycle with an odd field, and participants who never took part drop out.
    """
    percent = 50 if spec.limit_percent is None else spec.limit_percent
    games = ctx.through
    if ctx.round_robin:
        n = len(ctx.players)
        if n and ctx.through % n == 0:
            games -= ctx.through // n
        games -= sum(
            1
            for pr in ctx.players.values()
            if not any(v.opponent is not None or v.played for v in pr.rounds)
        )
    limit = ctx.win * games * percent / 100
    totals = {pid: pr.points for pid, pr in ctx.players.items()}
    return {
        pid: sum(
            v.points for v in pr.rounds if v.opponent is not None and totals[v.opponent] >= limit
        )
        for pid, pr in ctx.players.items()
    }


def standard_points(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """STD: the score under 1/½/0, whatever the event's scoring (a win scores above a draw)."""
    out: Values = {}
    for pid, pr in ctx.players.items():
        total = 0.0
        for v in pr.rounds:
            if v.points > ctx.draw:
                total += 1.0
            elif v.points == ctx.draw:
                total += 0.5
        out[pid] = total
    return out
