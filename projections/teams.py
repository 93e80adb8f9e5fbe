"""The views built on a team tournament's state (the fold of its team events,
`decide.team_state.team_state`, also importable from here): `team_source`
turns both into the aggregation input of `events.team_results`, from which the team Swiss,
the team standings, the board prizes and the crosstable by teams read.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from decide.state import Pairing, TournamentState
from decide.team_state import TeamInfo, TeamsState, board_order, match_boards, team_state
from events.domain import Colour, Outcome
from events.params import TeamSettings
from events.result_codes import ResultCode
from events.team_results import (
    Acceleration,
    Adjustment,
    BoardScoring,
    DeclaredForfeit,
    HistoryEntry,
    MatchScoring,
    Roster,
    TeamEntry,
    TeamSource,
    accelerate,
    team_histories,
)

__all__ = [
    "BoardPrizeRow",
    "TeamInfo",
    "TeamsState",
    "board_prizes",
    "match_boards",
    "match_scoring",
    "team_entries",
    "team_source",
    "team_state",
]


def _decimal(x: float) -> Decimal:
    return Decimal(str(x))


def match_scoring(settings: TeamSettings) -> MatchScoring:
    """Match points (``2/1/0`` by default) and the team PAB's points from the settings."""
    values = [Decimal(v) for v in (settings.team_match_points or "2/1/0").split("/")]
    win, draw, loss = (values + [Decimal(0)] * 3)[:3]
    pab_mp: Decimal | None = None
    pab_gp: Decimal | None = None
    if settings.team_pab_points:
        parts = settings.team_pab_points.split("/")
        pab_mp = Decimal(parts[0]) if parts[0] else None
        pab_gp = Decimal(parts[1]) if len(parts) > 1 and parts[1] else None
    return MatchScoring(win, draw, loss, pab_mp, pab_gp)


def _code(p: Pairing) -> ResultCode:
    if p.bye is not None:
        return ResultCode.for_bye(p.bye)
    if p.outcome is None or p.outcome is Outcome.UNKNOWN:
        return ResultCode.BLANK
    return ResultCode.for_outcome(p.outcome, white=p.colour is Colour.WHITE)


def team_source(state: TournamentState, teams: TeamsState, through_round: int) -> TeamSource:
    """The aggregation input of rounds 1..``through_round``."""
    settings = state.settings.pairing_params.team
    s = state.scoring
    rosters = [
        Roster(
            t.number,
            t.name,
            tuple(t.members),
            {r: board_order(teams, t.number, r) for r in range(1, through_round + 1)},
        )
        for t in sorted(teams.teams.values(), key=lambda t: t.number)
    ]
    rounds_of = {
        pid: tuple(
            HistoryEntry(opponent=p.opponent, colour=p.colour or Colour.NONE, result=_code(p))
            for p in state.pairings(pid, through_round)
        )
        for pid in state.players
    }
    records = teams.records
    return TeamSource(
        rosters=rosters,
        rounds_of=rounds_of,
        rounds_played=through_round,
        boards=settings.team_boards or 1,
        scoring=BoardScoring.of(s),
        match_scoring=match_scoring(settings),
        pab_teams={r: e.pab for r, e in teams.rounds.items() if e.pab is not None},
        forfeits=[
            DeclaredForfeit(r.kind, r.round or 0, r.teams[0], r.teams[1])
            for r in records
            if r.code == "330" and len(r.teams) == 2
        ],
        byes={(r.round or 0, team): r.kind for r in records if r.code == "240" for team in r.teams},
        adjustments=[
            Adjustment(
                r.kind or " ",
                None if r.match_points is None else _decimal(r.match_points),
                None if r.game_points is None else _decimal(r.game_points),
                r.round,
                r.teams,
            )
            for r in records
            if r.code == "299"
        ],
    )


def standings_round(state: TournamentState, teams: TeamsState) -> int:
    """The round team standings are shown after: the last paired round once every board of it
    has a result (or its match was declared forfeited), else the round before (a round in
    play would otherwise count every match without results as lost)."""
    last = state.last_round
    if last == 0:
        return 0
    forfeited = {
        team for r in teams.records if r.code == "330" and r.round == last for team in r.teams
    }
    member_team = {m: t.number for t in teams.teams.values() for m in t.members}
    for board in state.rounds[last].boards:
        if board.black is None or (board.outcome is not None and board.outcome.is_known):
            continue
        if member_team.get(board.white) in forfeited:
            continue
        return last - 1
    return last


def team_entries(
    state: TournamentState, teams: TeamsState, through_round: int
) -> tuple[TeamEntry, ...]:
    """Every team's history through ``through_round``, with its acceleration (``250``)."""
    return accelerate(
        team_histories(team_source(state, teams, through_round)),
        team_accelerations(teams),
        state.total_rounds,
    )


def team_accelerations(teams: TeamsState) -> list[Acceleration]:
    """The ``250`` records of the log."""
    return [
        Acceleration(
            None if r.match_points is None else _decimal(r.match_points),
            _decimal(r.game_points or 0),
            r.round or 1,
            r.last_round or r.round or 1,
            r.teams[0],
            r.teams[-1],
        )
        for r in teams.records
        if r.code == "250" and r.teams
    ]


@dataclass(frozen=True)
class BoardPrizeRow:
    """A player's score on one board of a team (board prizes)."""

    board: int
    team: str
    player: int
    name: str
    games: int
    points: float

    @property
    def percentage(self) -> float:
        return 100.0 * self.points / self.games if self.games else 0.0


def board_prizes(
    state: TournamentState, teams: TeamsState, through_round: int
) -> list[BoardPrizeRow]:
    """Individual scores by board number (a player's board is where the match placed them),
    best percentage first on each board."""
    tally: dict[tuple[int, int], list[float]] = {}
    for team in teams.teams.values():
        for r in range(1, through_round + 1):
            seated = [
                (pid, p)
                for pid in board_order(teams, team.number, r)
                if pid in state.players and (p := state.pairing(pid, r)).opponent is not None
            ]
            for board, (pid, p) in enumerate(seated, start=1):
                if p.points is None:
                    continue
                games_points = tally.setdefault((board, pid), [0, 0.0])
                games_points[0] += 1
                games_points[1] += p.points
    rows = [
        BoardPrizeRow(
            board,
            teams.teams[teams.team_of(pid) or 0].name if teams.team_of(pid) else "",
            pid,
            state.players[pid].name,
            int(games),
            points,
        )
        for (board, pid), (games, points) in tally.items()
    ]
    return sorted(rows, key=lambda r: (r.board, -r.percentage, -r.points, r.name))
