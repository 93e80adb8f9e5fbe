"""Director commands of team events: teams, rosters, line-ups, the team pairing of a round.

Same contract as every command (`pipelines.commands.base`): read the stream once, validate,
append with the version read; every refusal is a `CommandError` before anything is appended.
A team member is registered by the one registration rule (`pipelines.commands.players`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decide import players as deciders
from decide.inputs import PlayerInput
from decide.state import TournamentState
from events.domain import Board, Colour, Outcome, System
from events.errors import PairingError, braced
from events.schema import (
    EventBase,
    LineupSet,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TeamMatch,
    TeamMemberAdded,
    TeamRecord,
    TeamRegistered,
    TeamRoundPaired,
)
from events.store import Store
from pairing.team import (
    ColourType,
    PrimaryScore,
    TeamRound,
    TeamSwissInput,
    board_colours,
    pair,
    pair_team_round_robin,
)
from pipelines.commands.base import CommandError, Loaded, append, decided_again, load, new_event
from pipelines.commands.lists import StoreLists
from projections.teams import TeamInfo, TeamsState, match_boards, team_entries, team_state

__all__ = [
    "accelerate_teams",
    "add_member",
    "add_team",
    "forbid_teams",
    "forfeit_match",
    "pair_teams",
    "set_lineup",
    "team_bye",
    "teams_of",
]


def teams_of(loaded: Loaded) -> TeamsState:
    return team_state(e.event for e in loaded.events)


def _team_event(loaded: Loaded) -> None:
    if not loaded.state.system.is_team:
        raise CommandError.naming(
            f"{braced(loaded.state.id)}: not a team tournament (system "
            f"{loaded.state.system.value}); create it with {{0}} team-swiss or team-roundrobin",
            "system",
        )


def _team(loaded: Loaded, teams: TeamsState, name: str) -> TeamInfo:
    found = teams.by_name(name)
    if found is None:
        known = ", ".join(t.name for t in teams.teams.values()) or "none yet"
        raise CommandError(f"{loaded.state.id}: no team '{name}' (teams: {known})")
    return found


@decided_again
def add_team(
    store: Store, tournament_id: str, name: str, federation: str | None, nickname: str | None
) -> int:
    """Register a team; its pairing number is the next free one."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    teams = teams_of(loaded)
    if teams.by_name(name) is not None:
        raise CommandError(f"{tournament_id}: team '{name}' already exists")
    if loaded.state.rounds and loaded.state.system is System.TEAM_ROUNDROBIN:
        raise CommandError(
            f"{tournament_id}: a round robin's field is fixed once round 1 is paired"
        )
    number = max(teams.teams, default=0) + 1
    event = new_event(
        TeamRegistered,
        tournament_id,
        team=number,
        name=name,
        federation=federation,
        nickname=nickname,
    )
    append(store, loaded, [event])
    return number


@decided_again
def add_member(
    store: Store,
    tournament_id: str,
    team_name: str,
    board: int | None,
    player: PlayerInput | Mapping[str, Any],
    *,
    force: bool = False,
    not_on_list: bool = False,
) -> int:
    """Register a player and put them on a team's roster (at ``board``, else last); the
    registration rule of every player (`decide.players.register`: the imported lists read)."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    team = _team(loaded, teams_of(loaded), team_name)
    if board is not None and not 1 <= board <= len(team.members) + 1:
        raise CommandError(
            f"{tournament_id}: board {board} is outside 1..{len(team.members) + 1} "
            f"for {team.name}'s roster"
        )
    registered = deciders.register(
        loaded.state, player, lists=StoreLists(store), force=force, not_on_list=not_on_list
    ).event
    member = new_event(
        TeamMemberAdded, tournament_id, team=team.number, player=registered.player, board=board
    )
    append(store, loaded, [registered, member])
    return registered.player


@decided_again
def set_lineup(
    store: Store, tournament_id: str, team_name: str, round_no: int, positions: list[int]
) -> tuple[list[int], bool]:
    """Set who plays ``round_no`` for a team, by roster position (board order), board 1 first.

    Returns the player ids and whether the line-up leaves the roster's board order (allowed,
    but flagged: a player may not play above a player listed before him on the roster).
    """
    loaded = load(store, tournament_id)
    _team_event(loaded)
    state = loaded.state
    team = _team(loaded, teams_of(loaded), team_name)
    boards = state.settings.pairing_params.team.team_boards or 1
    if round_no in state.rounds:
        raise CommandError(f"{tournament_id}: round {round_no} is already paired")
    if round_no > state.total_rounds:
        raise CommandError(f"{tournament_id}: round {round_no} > {state.total_rounds} rounds")
    if len(positions) != boards:
        raise CommandError(
            f"{tournament_id}: {team.name}'s line-up names {len(positions)} players "
            f"for {boards} boards"
        )
    if len(set(positions)) != len(positions):
        raise CommandError(f"{tournament_id}: a player appears twice in {team.name}'s line-up")
    for position in positions:
        if not 1 <= position <= len(team.members):
            raise CommandError(
                f"{tournament_id}: {team.name} has no roster board {position} "
                f"(roster boards 1..{len(team.members)})"
            )
    players = [team.members[p - 1] for p in positions]
    out_of_order = positions != sorted(positions)
    event = new_event(
        LineupSet,
        tournament_id,
        team=team.number,
        round=round_no,
        players=tuple(players),
        out_of_order=out_of_order,
    )
    append(store, loaded, [event])
    return players, out_of_order


def _request(state: TournamentState, teams: TeamsState, round_no: int) -> TeamSwissInput:
    settings = state.settings.pairing_params.team
    absent = {t for r in teams.records if r.code == "240" and r.round == round_no for t in r.teams}
    forbidden = {
        frozenset((a, b))
        for r in teams.records
        if r.code == "260" and (r.round or 1) <= round_no <= (r.last_round or r.round or round_no)
        for a in r.teams
        for b in r.teams
        if a < b
    }
    return TeamSwissInput(
        teams=team_entries(state, teams, round_no - 1),
        rounds_played=round_no - 1,
        total_rounds=state.total_rounds,
        initial_colour=state.settings.pairing_params.chess.initial_colour or Colour.WHITE,
        colour_type=ColourType(settings.team_type or "A"),
        primary=PrimaryScore(settings.team_primary or "MP"),
        secondary_for_colour=True if settings.team_secondary is None else settings.team_secondary,
        absent=frozenset(absent),
        forbidden=frozenset(forbidden),
    )


def _lineup(state: TournamentState, team: TeamInfo, round_no: int, boards: int) -> list[int]:
    chosen = team.lineups.get(round_no)
    if chosen is None:
        chosen = tuple(m for m in team.members if state.players[m].active_in(round_no))[:boards]
    if len(chosen) < boards:
        raise CommandError(
            f"{state.id}: {team.name} has {len(chosen)} player(s) for {boards} boards in "
            f"round {round_no}; add members or set a line-up"
        )
    return list(chosen)


def pair_teams(loaded: Loaded, round_no: int) -> list[EventBase]:
    """The boards of ``round_no`` and its team pairing: `RoundPaired` then `TeamRoundPaired`
    (in that order, so that ``undo`` to before the round takes both away)."""
    state = loaded.state
    teams = teams_of(loaded)
    if len(teams.teams) < 2:
        raise CommandError(f"{state.id}: register at least two teams before pairing")
    settings = state.settings.pairing_params.team
    boards = settings.team_boards or 1
    try:
        if state.system is System.TEAM_ROUNDROBIN:
            result: TeamRound = pair_team_round_robin(
                sorted(teams.teams), round_no, state.settings.cycles
            )
        else:
            result = pair(_request(state, teams, round_no))
    except PairingError as exc:
        raise CommandError(f"{state.id}: {exc}") from exc
    matches = tuple(
        TeamMatch(
            match=m,
            white=p.white,
            black=p.black,
            white_players=tuple(_lineup(state, teams.teams[p.white], round_no, boards)),
            black_players=tuple(_lineup(state, teams.teams[p.black], round_no, boards)),
        )
        for m, p in enumerate(result.pairs, start=1)
    )
    colours = board_colours(boards, Colour.WHITE, settings.team_board_colours)
    board_list: list[Board] = []
    for match in matches:
        white, black = match.white_players, match.black_players
        for i, (w, b, colour) in enumerate(zip(white, black, colours, strict=True), start=1):
            first, second = (w, b) if colour is Colour.WHITE else (b, w)
            number = (match.match - 1) * boards + i
            board_list.append(Board(board=number, white=first, black=second))
    return [
        RoundPaired(round=round_no, boards=tuple(board_list)),
        TeamRoundPaired(round=round_no, matches=matches, pab=result.pab, boards=boards),
    ]


@decided_again
def team_bye(store: Store, tournament_id: str, team_name: str, round_no: int, kind: str) -> None:
    """A team's requested bye for a round (TRF ``240``): ``F``ull, ``H``alf or ``Z``ero."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    team = _team(loaded, teams_of(loaded), team_name)
    if round_no in loaded.state.rounds:
        raise CommandError(f"{tournament_id}: round {round_no} is already paired")
    if round_no > loaded.state.total_rounds:
        raise CommandError(
            f"{tournament_id}: round {round_no} > {loaded.state.total_rounds} rounds"
        )
    event = new_event(
        TeamRecord, tournament_id, code="240", kind=kind, round=round_no, teams=(team.number,)
    )
    append(store, loaded, [event])


@decided_again
def forbid_teams(
    store: Store, tournament_id: str, names: list[str], first: int, last: int | None
) -> tuple[int, ...]:
    """Teams that must not meet from round ``first`` to ``last`` (TRF ``260``)."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    teams = teams_of(loaded)
    numbers = tuple(_team(loaded, teams, n).number for n in names)
    if len(set(numbers)) < 2:
        raise CommandError(f"{tournament_id}: name at least two different teams")
    event = new_event(
        TeamRecord,
        tournament_id,
        code="260",
        round=first,
        last_round=last or loaded.state.total_rounds,
        teams=numbers,
    )
    append(store, loaded, [event])
    return numbers


@decided_again
def accelerate_teams(
    store: Store,
    tournament_id: str,
    names: list[str],
    first: int,
    last: int | None,
    match_points: float | None,
    game_points: float,
) -> tuple[int, ...]:
    """Fictitious points for teams in rounds ``first..last`` (TRF ``250``, C.04.6 acceleration):
    counted for pairing only, never in the standings. One record per team."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    teams = teams_of(loaded)
    numbers = tuple(sorted({_team(loaded, teams, n).number for n in names}))
    last = first if last is None else last
    total = loaded.state.total_rounds
    if not first <= last <= total:
        raise CommandError(f"{tournament_id}: rounds {first}..{last} are not within 1..{total}")
    paired = loaded.state.last_round
    if first <= paired:
        raise CommandError(
            f"{tournament_id}: round {paired} is already paired; "
            f"accelerate from round {paired + 1} on"
        )
    if game_points < 0 or (match_points is not None and match_points < 0):
        raise CommandError(f"{tournament_id}: fictitious points cannot be negative")
    events = [
        new_event(
            TeamRecord,
            tournament_id,
            code="250",
            round=first,
            last_round=last,
            teams=(n, n),
            match_points=match_points,
            game_points=game_points,
        )
        for n in numbers
    ]
    append(store, loaded, events)
    return numbers


@decided_again
def forfeit_match(
    store: Store, tournament_id: str, round_no: int, match_no: int, kind: str
) -> None:
    """A whole match forfeited (TRF ``330``): ``+-`` the team with White on board 1 wins,
    ``-+`` the other, ``--`` both lose. Every board of the match gets the forfeit result."""
    loaded = load(store, tournament_id)
    _team_event(loaded)
    teams = teams_of(loaded)
    paired = teams.rounds.get(round_no)
    if paired is None:
        raise CommandError(f"{tournament_id}: round {round_no} is not paired")
    match = next((m for m in paired.matches if m.match == match_no), None)
    if match is None:
        raise CommandError(
            f"{tournament_id}: round {round_no} has no match {match_no} "
            f"(matches 1..{len(paired.matches)})"
        )
    if kind not in ("+-", "-+", "--"):
        raise CommandError(f"bad forfeit '{kind}': white, black or none (the team that wins)")
    events: list[EventBase] = [
        new_event(
            TeamRecord,
            tournament_id,
            code="330",
            kind=kind,
            round=round_no,
            teams=(match.white, match.black),
        )
    ]
    white_team = set(teams.teams[match.white].members)
    for board in match_boards(loaded.state, teams, round_no, match_no) or ():
        if board.black is None:
            continue
        white_side_won = kind == "+-" if board.white in white_team else kind == "-+"
        outcome = (
            Outcome.DOUBLE_FORFEIT
            if kind == "--"
            else Outcome.WHITE_WINS_FORFEIT
            if white_side_won
            else Outcome.BLACK_WINS_FORFEIT
        )
        known = board.outcome is not None and board.outcome.is_known
        cls = ResultCorrected if known else ResultRecorded
        events.append(cls(round=round_no, board=board.board, outcome=outcome))
    append(store, loaded, events)
