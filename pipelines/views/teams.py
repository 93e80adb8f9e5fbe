"""The views of a team tournament, for every door: what ``arbiter standings``, ``crosstable``
and ``pair`` print of a team event and what ``arbiter serve`` publishes of it (the API's JSON,
the pages), built by these functions only.

`team_tables` ranks the teams once (the standings round, every team's history, the ranked
rows); the ``*_view`` functions turn that into the rows the JSON and the tables show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from decide.state import TournamentState
from events.team_results import TeamEntry
from projections.standings import AsOf
from projections.team_standings import TeamStanding, team_standings
from projections.teams import (
    BoardPrizeRow,
    TeamsState,
    standings_round,
    team_entries,
)

__all__ = [
    "TeamTables",
    "board_prizes_view",
    "match_scores",
    "team_as_of",
    "team_chain",
    "team_crosstable_cells",
    "team_crosstable_view",
    "team_round_view",
    "team_standings_view",
    "team_tables",
]


def team_chain(state: TournamentState) -> list[str]:
    """The team tie-breaks: the team settings' own chain (a go event with teams), else the
    tournament's."""
    own = state.settings.pairing_params.team.team_tiebreaks
    return own.split(",") if own else list(state.tiebreaks)


@dataclass(frozen=True)
class TeamTables:
    """A team tournament ranked after round `through` (the last round with every result in)."""

    through: int
    entries: tuple[TeamEntry, ...]
    """Every team's history through `through`."""
    ranked: list[TeamStanding]
    """The standings, in rank order."""
    as_of: AsOf
    """What the tables say they are after (``after round 3 of 7, round 4 in play``)."""

    @property
    def by_number(self) -> dict[int, TeamEntry]:
        return {e.number: e for e in self.entries}


def team_tables(
    state: TournamentState,
    teams: TeamsState,
    chain: Sequence[str] | None = None,
    through: int | None = None,
) -> TeamTables:
    """The teams ranked by the primary score (match points unless the settings say game
    points), then ``chain`` (default: `team_chain`), after ``through`` (default: the standings
    round, `projections.teams.standings_round`).

    :raises UnknownTeamTiebreak: a code of ``chain`` that team standings do not know.
    """
    shown = team_as_of(state, teams, through)
    entries = team_entries(state, teams, shown.after)
    primary = state.settings.pairing_params.team.team_primary or "MP"
    ranked = team_standings(entries, team_chain(state) if chain is None else chain, primary)
    return TeamTables(shown.after, entries, ranked, shown)


def team_as_of(state: TournamentState, teams: TeamsState, through: int | None = None) -> AsOf:
    """The round a team event's tables are after (default: the standings round, the last one
    with every result in) and the rounds in play."""
    after = standings_round(state, teams) if through is None else through
    last = state.last_round
    return AsOf(after, max(state.total_rounds, last), tuple(range(after + 1, last + 1)))


def team_standings_view(rows: Sequence[TeamStanding]) -> list[dict[str, Any]]:
    """The team standings' rows (``arbiter standings T --format json``)."""
    return [
        {
            "rank": r.rank,
            "team": {"number": r.number, "name": r.name},
            "played": r.played,
            "won": r.won,
            "drawn": r.drawn,
            "lost": r.lost,
            "match_points": float(r.match_points),
            "game_points": float(r.game_points),
            "tiebreaks": {k: float(v) for k, v in r.tiebreaks.items()},
        }
        for r in rows
    ]


def board_prizes_view(prizes: Sequence[BoardPrizeRow]) -> list[dict[str, Any]]:
    """The board prizes' rows (``arbiter standings T --players``)."""
    return [
        {
            "board": p.board,
            "player": {"id": p.player, "name": p.name},
            "team": p.team,
            "games": p.games,
            "points": p.points,
            "percentage": round(p.percentage, 1),
        }
        for p in prizes
    ]


def team_round_view(teams: TeamsState, round_no: int) -> list[dict[str, Any]]:
    """The matches of a team round, then the team that got the pairing-allocated bye (a row
    without a match number and without Black), as ``arbiter pair`` prints a team round."""
    paired = teams.rounds[round_no]
    names = {t.number: t.name for t in teams.teams.values()}
    rows: list[dict[str, Any]] = [
        {
            "match": m.match,
            "white": {"number": m.white, "name": names.get(m.white, "")},
            "black": {"number": m.black, "name": names.get(m.black, "")},
        }
        for m in paired.matches
    ]
    if paired.pab is not None:
        rows.append(
            {
                "match": None,
                "white": {"number": paired.pab, "name": names.get(paired.pab, "")},
                "black": None,
            }
        )
    return rows


def match_scores(tables: TeamTables, round_no: int) -> dict[int, Decimal]:
    """Each team's game points in round ``round_no`` (the PAB's included); none for a round
    after the tables' (a round in play)."""
    if not 1 <= round_no <= tables.through:
        return {}
    return {
        e.number: e.history[round_no - 1].game_points
        for e in tables.entries
        if len(e.history) >= round_no
    }


def team_crosstable_view(tables: TeamTables) -> list[dict[str, Any]]:
    """The crosstable by teams (``arbiter crosstable T --format json``): in standings order,
    per round the opponent team, board 1's colour, the match's kind and the points, then the
    match points and game points."""
    by_number = tables.by_number
    return [
        {
            "rank": r.rank,
            "number": r.number,
            "team": r.name,
            "rounds": [
                {
                    "round": k,
                    "opponent": h.opponent,
                    "colour": h.colour.value,
                    "result": h.kind.value,
                    "game_points": float(h.game_points),
                    "match_points": float(h.match_points),
                }
                for k, h in enumerate(by_number[r.number].history, start=1)
            ],
            "match_points": float(r.match_points),
            "game_points": float(r.game_points),
        }
        for r in tables.ranked
    ]


def team_crosstable_cells(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """`team_crosstable_view` as table cells (text, CSV, the crosstable page): a round is
    ``12w 3.5`` (opponent, board 1's colour, game points), or ``U 3`` without an opponent."""
    return [
        {
            "rank": row["rank"],
            "no": row["number"],
            "team": row["team"],
            **{
                f"r{c['round']}": (
                    f"{c['opponent']}{c['colour']} {c['game_points']:g}"
                    if c["opponent"]
                    else f"{c['result']} {c['game_points']:g}"
                )
                for c in row["rounds"]
            },
            "MP": f"{row['match_points']:g}",
            "GP": f"{row['game_points']:g}",
        }
        for row in rows
    ]
