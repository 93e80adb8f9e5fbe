"""Buchholz family (C.07 2023 art. 8, 9, 16): BH, FB, SB, AOB with cuts and unplayed rounds.

Each round of a participant contributes one value:

* a game played over the board: the opponent's *adjusted* score (`adjusted_scores`);
* any other round in a Swiss event: a dummy opponent whose score is the participant's own
  final score (art. 16.4) or, with the Kallithea 2009 option, a virtual opponent;
* in a round robin (pre-determined pairings), forfeits count as games against the scheduled
  opponent and a free round contributes nothing.

SB multiplies each value by the points the participant scored in that round. Cuts drop the
least significant values; a voluntarily unplayed round is cut first (art. 16.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from projections.tiebreaks.context import PlayerRounds, RoundKind, RoundView, TiebreakContext
from projections.tiebreaks.spec import TiebreakSpec

Values = dict[int, float | None]


@dataclass(frozen=True, slots=True)
class _Contribution:
    voluntary: bool
    score: float  # the (dummy) opponent's score
    value: float  # what enters the sum: score, or score times own points for SB


def adjusted_scores(ctx: TiebreakContext, fore: bool = False) -> dict[int, float]:
    """A participant's score as his opponents' Buchholz sees it (C.07 16.3).

    Rounds without an opponent that he did not play by choice, after his last round with a
    game, PAB, full-point bye or forfeit win, count as draws (nothing in a round robin).
    With `fore`, a participant paired in the final round has that round counted as a draw.
    """
    key = "ABH/F" if fore else "ABH"
    cached = ctx.cache.get(key)
    if cached is not None:
        return cached
    no_opponent = 0.0 if ctx.round_robin else ctx.draw
    kallithea = ctx.options.virtual_opponent == "kallithea" and not ctx.round_robin
    out: dict[int, float] = {}
    for pid, pr in ctx.players.items():
        last = pr.last_not_voluntary
        final = _final_round(ctx, pr) if fore else None
        if final is not None:
            last = ctx.total_rounds
        total = 0.0
        for v in pr.rounds:
            if final is not None and v is final:
                total += ctx.draw
            elif kallithea and not v.played and v.kind is not RoundKind.PENDING:
                total += ctx.draw  # FIDE 2009: every result by default is a draw for opponents
            elif v.round <= last or v.opponent is not None:
                total += v.points
            else:
                total += no_opponent
        out[pid] = total
    ctx.cache[key] = out
    return out


def _final_round(ctx: TiebreakContext, pr: PlayerRounds) -> RoundView | None:
    """The participant's final-round board when Fore Buchholz treats it as a draw."""
    if ctx.through < ctx.total_rounds or not pr.rounds:
        return None
    last = pr.rounds[-1]
    return last if last.round == ctx.total_rounds and last.opponent is not None else None


def _own_score(ctx: TiebreakContext, pr: PlayerRounds, fore: bool) -> float:
    final = _final_round(ctx, pr) if fore else None
    if final is None:
        return pr.points
    return pr.points - final.points + ctx.draw


def _virtual_score(ctx: TiebreakContext, pr: PlayerRounds, v: RoundView) -> float:
    """Kallithea 2009: score before the round, the reverse result, then draws."""
    before = sum(x.points for x in pr.rounds if x.round < v.round)
    scoring = ctx.scoring
    reverse = scoring.win + scoring.loss - min(max(v.points, scoring.loss), scoring.win)
    return before + reverse + ctx.draw * (ctx.through - v.round)


def _contributions(
    ctx: TiebreakContext, pr: PlayerRounds, sonneborn: bool, fore: bool
) -> list[_Contribution]:
    abh = adjusted_scores(ctx, fore)
    own = _own_score(ctx, pr, fore)
    final = _final_round(ctx, pr) if fore else None
    out: list[_Contribution] = []
    for v in pr.rounds:
        played = v.played or (v.opponent is not None and (ctx.round_robin or v is final))
        points = ctx.draw if v is final else v.points
        if played and v.opponent is not None:
            score, voluntary = abh[v.opponent], False
        elif ctx.round_robin:
            continue  # a free round of a round robin adds nothing
        elif ctx.options.virtual_opponent == "kallithea":
            score, voluntary = _virtual_score(ctx, pr, v), v.voluntary
        else:
            score, voluntary = own, v.voluntary
        out.append(_Contribution(voluntary, score, score * points if sonneborn else score))
    return out


def _cut(items: list[_Contribution], spec: TiebreakSpec, through: int) -> list[_Contribution]:
    low = min(spec.cut_low, through)
    high = min(spec.cut_high, through - low)
    items = list(items)
    for _ in range(low):
        if not items:
            break
        lowest = min(items, key=lambda c: (c.score, c.value))
        voluntary = min(items, key=lambda c: (not c.voluntary, c.score, c.value))
        # A voluntarily unplayed round goes first unless the lowest opponent weighs less.
        items.remove(lowest if lowest.value > voluntary.value else voluntary)
    for _ in range(high):
        if not items:
            break
        items.remove(max(items, key=lambda c: (c.score, c.value)))
    return items


def _family(ctx: TiebreakContext, spec: TiebreakSpec, sonneborn: bool, fore: bool) -> Values:
    return {
        pid: sum(c.value for c in _cut(_contributions(ctx, pr, sonneborn, fore), spec, ctx.through))
        for pid, pr in ctx.players.items()
    }


def buchholz(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return _family(ctx, spec, sonneborn=False, fore=False)


def fore_buchholz(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    """Buchholz with every final-round game counted as a draw (art. 8.3)."""
    return _family(ctx, spec, sonneborn=False, fore=True)


def sonneborn_berger(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return _family(ctx, spec, sonneborn=True, fore=False)


def average_of_buchholz(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Mean of the played opponents' (uncut) Buchholz, rounded half up to 0.01 (art. 9.4)."""
    bh = buchholz(ctx, TiebreakSpec("BH"))
    out: Values = {}
    for pid, pr in ctx.players.items():
        opps = [bh[v.opponent] for v in pr.rounds if v.played and v.opponent is not None]
        known = [x for x in opps if x is not None]
        if not known:
            out[pid] = None
            continue
        mean = Decimal(repr(sum(known))) / len(known)
        out[pid] = float(mean.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return out


def adjusted_score_values(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """ABH: the score each participant contributes to his opponents' Buchholz."""
    return dict(adjusted_scores(ctx))


def adjusted_fore_values(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return dict(adjusted_scores(ctx, fore=True))
