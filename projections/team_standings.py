"""Team standings: match points, game points and the team tie-breaks of FIDE C.07 (2024).

Tie-break codes (TRF-2026 ``202``/``212`` spelling):

* ``MP``, ``GP``: match points, game points (the one that is not primary is a tie-break);
* ``BH:MP``, ``BH:GP``: Buchholz, the opponents' match or game points;
* ``EMMSB``, ``EMGSB``, ``EGMSB``, ``EGGSB``: the Extended Sonneborn-Berger products, "opponent's
  total × own score against that opponent", with M/G naming first the opponent's total and
  then the own score (``EGGSB`` = game points × game points);
* ``DE``: direct encounter among the tied teams (match points between them);
* ``WON``: matches won.

Unplayed rounds (C.07 16.4): a round without an opponent (PAB, bye) counts as a virtual
opponent whose total equals the team's own, and the team's own score of that round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from events.errors import UserError
from events.team_results import DEFAULT_CHAIN, TEAM_TIEBREAKS, MatchKind, TeamEntry

__all__ = [
    "DEFAULT_CHAIN",
    "TEAM_TIEBREAKS",
    "TeamStanding",
    "UnknownTeamTiebreak",
    "team_standings",
]


class UnknownTeamTiebreak(UserError):
    """A tie-break code that team standings do not know."""


@dataclass(frozen=True)
class TeamStanding:
    """One row of the team standings."""

    rank: int
    number: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: Decimal
    game_points: Decimal
    tiebreaks: dict[str, Decimal] = field(default_factory=dict)


def _totals(teams: Sequence[TeamEntry]) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
    mp = {t.number: sum((h.match_points for h in t.history), Decimal(0)) for t in teams}
    gp = {t.number: sum((h.game_points for h in t.history), Decimal(0)) for t in teams}
    return mp, gp


def _value(
    code: str,
    team: TeamEntry,
    mp: Mapping[int, Decimal],
    gp: Mapping[int, Decimal],
) -> Decimal:
    own = team.number
    if code == "MP":
        return mp[own]
    if code == "GP":
        return gp[own]
    if code == "WON":
        return Decimal(
            sum(1 for h in team.history if h.kind in (MatchKind.WIN, MatchKind.FORFEIT_WIN))
        )
    if code in ("BH:MP", "BH:GP"):
        totals = mp if code == "BH:MP" else gp
        return sum(
            (totals.get(h.opponent or 0, totals[own]) for h in team.history),
            Decimal(0),
        )
    if code in ("EMMSB", "EMGSB", "EGMSB", "EGGSB"):
        theirs = mp if code[1] == "M" else gp
        total = Decimal(0)
        for h in team.history:
            mine = h.match_points if code[2] == "M" else h.game_points
            opponent = theirs.get(h.opponent or 0, theirs[own])
            total += opponent * mine
        return total
    raise UnknownTeamTiebreak(
        f"unknown team tie-break {code!r} (known: {', '.join(TEAM_TIEBREAKS)})"
    )


def _direct_encounter(group: Sequence[TeamEntry]) -> dict[int, Decimal]:
    """Match points scored against the other teams of the tied group (C.07 6.1, simplified:
    every team of the group must have met every other, else 0 for all)."""
    numbers = {t.number for t in group}
    met = {t.number: {h.opponent for h in t.history if h.opponent in numbers} for t in group}
    if any(met[n] != numbers - {n} for n in numbers):
        return dict.fromkeys(numbers, Decimal(0))
    return {
        t.number: sum((h.match_points for h in t.history if h.opponent in numbers), Decimal(0))
        for t in group
    }


def team_standings(
    teams: Sequence[TeamEntry],
    chain: Sequence[str] = DEFAULT_CHAIN,
    primary: str = "MP",
) -> list[TeamStanding]:
    """Teams ranked by the primary score, then ``chain``; equal on everything: same rank.

    :raises UnknownTeamTiebreak: for a code outside `TEAM_TIEBREAKS`.
    """
    for code in chain:
        if code.upper() not in TEAM_TIEBREAKS:
            raise UnknownTeamTiebreak(
                f"unknown team tie-break {code!r} (known: {', '.join(TEAM_TIEBREAKS)})"
            )
    codes = [c.upper() for c in chain]
    mp, gp = _totals(teams)
    first = "GP" if primary.upper() == "GP" else "MP"
    values = {
        t.number: {c: _value(c, t, mp, gp) for c in [first, *codes] if c != "DE"} for t in teams
    }
    if "DE" in codes:
        by_primary: dict[Decimal, list[TeamEntry]] = {}
        for t in teams:
            by_primary.setdefault(values[t.number][first], []).append(t)
        for group in by_primary.values():
            for number, value in _direct_encounter(group).items():
                values[number]["DE"] = value

    def key(t: TeamEntry) -> tuple[Decimal, ...]:
        return tuple(-values[t.number][c] for c in [first, *codes])

    ordered = sorted(teams, key=lambda t: (key(t), t.number))
    rows: list[TeamStanding] = []
    for i, t in enumerate(ordered):
        rank = rows[-1].rank if rows and key(ordered[i - 1]) == key(t) else i + 1
        kinds = [h.kind for h in t.history]
        rows.append(
            TeamStanding(
                rank=rank,
                number=t.number,
                name=t.name,
                played=sum(1 for h in t.history if h.opponent is not None),
                won=sum(1 for k in kinds if k in (MatchKind.WIN, MatchKind.FORFEIT_WIN)),
                drawn=sum(1 for k in kinds if k is MatchKind.DRAW),
                lost=sum(1 for k in kinds if k in (MatchKind.LOSS, MatchKind.FORFEIT_LOSS)),
                match_points=mp[t.number],
                game_points=gp[t.number],
                tiebreaks={c: values[t.number][c] for c in codes},
            )
        )
    return rows
