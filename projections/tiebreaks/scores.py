"""Score-based criteria of carrom (SoL, pairing.md 6.3) and othello: bucholz with retirements,
net score, total score, disc count.

Board scores come from `ResultRecorded.white_score/black_score` (carrom points, othello discs).
"""

from __future__ import annotations

from projections.tiebreaks.context import RoundKind, TiebreakContext
from projections.tiebreaks.spec import TiebreakSpec

Values = dict[int, float | None]


def _virtual_points(ctx: TiebreakContext) -> dict[int, float]:
    """SoL `trend` / `trend70`: what a retired player would have scored in the missed rounds.

    int(real points / played * factor * (current round - played)), where real points leave
    out the points won against the phantom but `played` counts that match.
    """
    policy = ctx.options.carrom.retirements
    if policy == "none":
        return {}
    factor = 0.7 if policy == "trend70" else 1.0
    out: dict[int, float] = {}
    for pid, pr in ctx.players.items():
        if pr.withdrawn_from is None or pr.withdrawn_from > ctx.through:
            continue
        matches = [v for v in pr.rounds if v.opponent is not None or v.kind is RoundKind.PAB]
        if not matches:
            continue
        real = sum(v.points for v in matches if v.opponent is not None)
        out[pid] = float(int(real / len(matches) * factor * (ctx.through - len(matches))))
    return out


def bucholz(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Σ of the opponents' points plus their virtual points; the phantom adds nothing."""
    virtual = _virtual_points(ctx)
    totals = {pid: pr.points + virtual.get(pid, 0.0) for pid, pr in ctx.players.items()}
    return {
        pid: sum(totals[v.opponent] for v in pr.rounds if v.opponent is not None)
        for pid, pr in ctx.players.items()
    }


def net_score(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Σ of own minus opponent's score per match; a win against the phantom counts its score."""
    return _own_scores(ctx, ctx.options.carrom.phantom_score, net=True)


def total_score(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Σ of own carrom points; a win against the phantom counts the phantom score (SoL)."""
    return _own_scores(ctx, ctx.options.carrom.phantom_score)


def disc_count(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Σ of own discs; a bye counts half the board, 32 discs (WOF)."""
    return _own_scores(ctx, BQ_UNPLAYED_DISCS)


def _own_scores(ctx: TiebreakContext, bye_score: float, net: bool = False) -> Values:
    """Σ of own board scores (less the opponent's with `net`); a PAB counts `bye_score`."""
    out: Values = {}
    for pid, pr in ctx.players.items():
        total = 0.0
        for v in pr.rounds:
            if v.kind is RoundKind.PAB:
                total += bye_score
            elif v.scores is not None:
                total += v.scores[0] - v.scores[1] if net else v.scores[0]
        out[pid] = total
    return out


BQ_OPPONENT_FACTOR = 6  # the WOC rules' weight of the opponents' points
BQ_UNPLAYED_DISCS = 32  # half the board, for a bye or a game against a withdrawn player


def brightwell(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    """Brightwell quotient (WOC rules): discs scored + 6 x the opponents' points.

    Games against opponents who withdrew, and each pairing-allocated bye, count instead as
    32 discs + 6 x the player's own points.
    """
    withdrawn = {
        pid
        for pid, pr in ctx.players.items()
        if pr.withdrawn_from is not None and pr.withdrawn_from <= ctx.through
    }
    out: Values = {}
    for pid, pr in ctx.players.items():
        unplayed = BQ_UNPLAYED_DISCS + BQ_OPPONENT_FACTOR * pr.points
        total = 0.0
        for v in pr.rounds:
            if v.kind is RoundKind.PAB or (v.opponent is not None and v.opponent in withdrawn):
                total += unplayed
            elif v.opponent is not None:
                discs = v.scores[0] if v.scores is not None else 0.0
                total += discs + BQ_OPPONENT_FACTOR * ctx.players[v.opponent].points
        out[pid] = total
    return out
