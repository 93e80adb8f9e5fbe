"""The deciders of a team event's commands: a team registered, a member added (registered by
the one registration rule, `decide.players.register`, the imported lists a required argument),
a line-up, a team's bye, teams kept apart, fictitious points (acceleration), a match forfeited,
and the team pairing of a round (`pair_round`, the engine a required argument, `TeamEngine`).

Each is pure: the tournament's state, its team state (`decide.team_state.team_state`), the
command; it returns the events or raises a `CommandError` before any exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from decide import players
from decide.base import new_event
from decide.errors import CommandError
from decide.inputs import PlayerInput
from decide.lists import Lists
from decide.pairing import engine_refused, next_round
from decide.state import TournamentState
from decide.team_state import TeamInfo, TeamsState, match_boards
from events.domain import Board, Colour, Outcome, System
from events.errors import PairingError, UserError, braced
from events.schema import (
    EventBase,
    LineupSet,
    PlayerRegistered,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TeamMatch,
    TeamMemberAdded,
    TeamRecord,
    TeamRegistered,
    TeamRoundPaired,
)

__all__ = [
    "TeamEngine",
    "TeamProposal",
    "accelerate",
    "add_member",
    "add_team",
    "forbid",
    "forfeit_match",
    "lineup",
    "pair_round",
    "set_lineup",
    "team_bye",
    "team_event",
    "team_named",
]


def team_event(state: TournamentState) -> None:
    """Refuse a team command in an event that is not a team tournament."""
    if not state.system.is_team:
        raise CommandError.naming(
            f"{braced(state.id)}: not a team tournament (system "
            f"{state.system.value}); create it with {{0}} team-swiss or team-roundrobin",
            "system",
        )


def team_named(state: TournamentState, teams: TeamsState, name: str) -> TeamInfo:
    """The team ``name`` names (its name, any case, or its number)."""
    found = teams.by_name(name)
    if found is None:
        known = ", ".join(t.name for t in teams.teams.values()) or "none yet"
        raise CommandError(f"{state.id}: no team '{name}' (teams: {known})")
    return found


def _not_paired(state: TournamentState, round_no: int) -> None:
    if round_no in state.rounds:
        raise CommandError(f"{state.id}: round {round_no} is already paired")
    if round_no > state.total_rounds:
        raise CommandError(f"{state.id}: round {round_no} > {state.total_rounds} rounds")


def add_team(
    state: TournamentState,
    teams: TeamsState,
    name: str,
    federation: str | None,
    nickname: str | None,
) -> TeamRegistered:
    """Register a team under a name no team has; its pairing number is the next free one.
    A team round robin's field is fixed once round 1 is paired."""
    team_event(state)
    if teams.by_name(name) is not None:
        raise CommandError(f"{state.id}: team '{name}' already exists")
    if state.rounds and state.system is System.TEAM_ROUNDROBIN:
        raise CommandError(f"{state.id}: a round robin's field is fixed once round 1 is paired")
    return new_event(
        TeamRegistered,
        state.id,
        team=max(teams.teams, default=0) + 1,
        name=name,
        federation=federation,
        nickname=nickname,
    )


def add_member(
    state: TournamentState,
    teams: TeamsState,
    team_name: str,
    board: int | None,
    player: PlayerInput | Mapping[str, Any],
    *,
    lists: Lists,
    force: bool,
    not_on_list: bool,
) -> tuple[PlayerRegistered, TeamMemberAdded]:
    """Register a player (`decide.players.register`: the imported lists read, as at every
    registration) and put him on a team's roster at ``board`` (1..roster + 1), else last."""
    team_event(state)
    team = team_named(state, teams, team_name)
    if board is not None and not 1 <= board <= len(team.members) + 1:
        raise CommandError(
            f"{state.id}: board {board} is outside 1..{len(team.members) + 1} "
            f"for {team.name}'s roster"
        )
    registered = players.register(
        state, player, lists=lists, force=force, not_on_list=not_on_list
    ).event
    member = new_event(
        TeamMemberAdded, state.id, team=team.number, player=registered.player, board=board
    )
    return registered, member


def set_lineup(
    state: TournamentState, teams: TeamsState, team_name: str, round_no: int, positions: list[int]
) -> LineupSet:
    """Who plays ``round_no`` for a team, by roster position, board 1 first: a round not yet
    paired, one player a board, each once, each on the roster. A line-up that leaves the
    roster's board order is allowed but flagged (``out_of_order``)."""
    team_event(state)
    team = team_named(state, teams, team_name)
    boards = state.settings.pairing_params.team.team_boards or 1
    _not_paired(state, round_no)
    if len(positions) != boards:
        raise CommandError(
            f"{state.id}: {team.name}'s line-up names {len(positions)} players for {boards} boards"
        )
    if len(set(positions)) != len(positions):
        raise CommandError(f"{state.id}: a player appears twice in {team.name}'s line-up")
    for position in positions:
        if not 1 <= position <= len(team.members):
            raise CommandError(
                f"{state.id}: {team.name} has no roster board {position} "
                f"(roster boards 1..{len(team.members)})"
            )
    return new_event(
        LineupSet,
        state.id,
        team=team.number,
        round=round_no,
        players=tuple(team.members[p - 1] for p in positions),
        out_of_order=positions != sorted(positions),
    )


def team_bye(
    state: TournamentState, teams: TeamsState, team_name: str, round_no: int, kind: str
) -> TeamRecord:
    """A team's requested bye for a round not yet paired (TRF ``240``): ``F``ull, ``H``alf or
    ``Z``ero."""
    team_event(state)
    team = team_named(state, teams, team_name)
    _not_paired(state, round_no)
    return new_event(
        TeamRecord, state.id, code="240", kind=kind, round=round_no, teams=(team.number,)
    )


def forbid(
    state: TournamentState, teams: TeamsState, names: list[str], first: int, last: int | None
) -> TeamRecord:
    """Teams (two or more) that must not meet from round ``first`` to ``last`` (default: the
    last round; TRF ``260``)."""
    team_event(state)
    numbers = tuple(team_named(state, teams, n).number for n in names)
    if len(set(numbers)) < 2:
        raise CommandError(f"{state.id}: name at least two different teams")
    return new_event(
        TeamRecord,
        state.id,
        code="260",
        round=first,
        last_round=last or state.total_rounds,
        teams=numbers,
    )


def accelerate(
    state: TournamentState,
    teams: TeamsState,
    names: list[str],
    first: int,
    last: int | None,
    match_points: float | None,
    game_points: float,
) -> list[TeamRecord]:
    """Fictitious points for teams in rounds ``first..last`` (TRF ``250``, C.04.6
    acceleration), rounds not yet paired, the points not negative: counted for pairing only,
    never in the standings. One record per team."""
    team_event(state)
    numbers = tuple(sorted({team_named(state, teams, n).number for n in names}))
    last = first if last is None else last
    total = state.total_rounds
    if not first <= last <= total:
        raise CommandError(f"{state.id}: rounds {first}..{last} are not within 1..{total}")
    paired = state.last_round
    if first <= paired:
        raise CommandError(
            f"{state.id}: round {paired} is already paired; accelerate from round {paired + 1} on"
        )
    if game_points < 0 or (match_points is not None and match_points < 0):
        raise CommandError(f"{state.id}: fictitious points cannot be negative")
    return [
        new_event(
            TeamRecord,
            state.id,
            code="250",
            round=first,
            last_round=last,
            teams=(n, n),
            match_points=match_points,
            game_points=game_points,
        )
        for n in numbers
    ]


FORFEITS = ("+-", "-+", "--")
"""A forfeited match (TRF ``330``): the team with White on board 1 wins, the other, neither."""


def forfeit_match(
    state: TournamentState, teams: TeamsState, round_no: int, match_no: int, kind: str
) -> list[EventBase]:
    """A whole match forfeited (TRF ``330``): ``+-`` the team with White on board 1 wins,
    ``-+`` the other, ``--`` both lose. Every board of the match gets the forfeit result (a
    correction where it had one)."""
    team_event(state)
    paired = teams.rounds.get(round_no)
    if paired is None:
        raise CommandError(f"{state.id}: round {round_no} is not paired")
    match = next((m for m in paired.matches if m.match == match_no), None)
    if match is None:
        raise CommandError(
            f"{state.id}: round {round_no} has no match {match_no} "
            f"(matches 1..{len(paired.matches)})"
        )
    if kind not in FORFEITS:
        raise CommandError(f"bad forfeit '{kind}': white, black or none (the team that wins)")
    events: list[EventBase] = [
        new_event(
            TeamRecord,
            state.id,
            code="330",
            kind=kind,
            round=round_no,
            teams=(match.white, match.black),
        )
    ]
    white_team = set(teams.teams[match.white].members)
    for board in match_boards(state, teams, round_no, match_no) or ():
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
    return events


# ------------------------------------------------------------------ the team pairing of a round


@dataclass(frozen=True, slots=True)
class TeamProposal:
    """What a team engine proposes for a round: the matches in order, each ``(first, second)``
    team numbers (the first-named team has White on board 1 unless ``colours`` says
    otherwise), the team with the pairing-allocated bye (or None), and the colour of the
    first-named team on each board, board 1 first (C.04.6; TRF record 352)."""

    pairs: tuple[tuple[int, int], ...]
    pab: int | None
    colours: tuple[Colour, ...]


TeamEngine = Callable[[TournamentState, TeamsState, int], TeamProposal]
"""The team pairing of round ``round_no`` of the state, given ``(state, teams, round_no)``: the
service's team Swiss (C.04.6) or team round robin. It raises `PairingError` (or a `UserError`)
when it cannot pair the round."""


def lineup(state: TournamentState, team: TeamInfo, round_no: int, boards: int) -> list[int]:
    """Who plays ``round_no`` for ``team``, board 1 first: its line-up for the round, else its
    members still in the event in roster order, the first ``boards`` of them; refused when
    they are fewer than the boards."""
    chosen = team.lineups.get(round_no)
    if chosen is None:
        chosen = tuple(m for m in team.members if state.players[m].active_in(round_no))[:boards]
    if len(chosen) < boards:
        raise CommandError(
            f"{state.id}: {team.name} has {len(chosen)} player(s) for {boards} boards in "
            f"round {round_no}; add members or set a line-up"
        )
    return list(chosen)


def _checked(
    state: TournamentState, teams: TeamsState, proposal: TeamProposal, boards: int
) -> None:
    """Refuse an engine's proposal that puts a team the event does not have, or a team twice,
    in the round, or whose board colours are not one a board."""
    seen: set[int] = set()
    named = [t for pair in proposal.pairs for t in pair]
    for team in [*named, *([] if proposal.pab is None else [proposal.pab])]:
        if team not in teams.teams:
            raise CommandError(f"{state.id}: the engine paired team {team}, which is not in it")
        if team in seen:
            raise CommandError(f"{state.id}: the engine put team {team} in two matches")
        seen.add(team)
    if len(proposal.colours) != boards:
        raise CommandError(
            f"{state.id}: the engine gave {len(proposal.colours)} board colours for {boards} boards"
        )


def pair_round(
    state: TournamentState, teams: TeamsState, *, engine: TeamEngine, bye: int | None
) -> list[EventBase]:
    """The next round of a team event paired by ``engine``: its boards (`RoundPaired`) then
    its team pairing (`TeamRoundPaired`), in that order, so that undoing the round takes both.

    The round after the last, once every board of the last has its result
    (`decide.pairing.next_round`); at least two teams; each team of a match plays with its
    line-up for the round, else its members still in the event in roster order, and needs a
    player for every board (`lineup`; the team with the pairing-allocated bye needs none).
    Match ``m``'s board ``i`` is the round's board ``(m - 1) * boards + i``. ``bye`` (a
    player's bye of an odd field) is refused: a team event's byes are its teams'."""
    team_event(state)
    round_no = next_round(state)
    if len(teams.teams) < 2:
        raise CommandError(f"{state.id}: register at least two teams before pairing")
    if bye is not None:
        raise CommandError.naming(
            f"{braced(state.id)}: {{0}} gives a player the bye; a team event's byes are its "
            "teams' (arbiter team bye)",
            "bye",
        )
    boards = state.settings.pairing_params.team.team_boards or 1
    try:
        proposal = engine(state, teams, round_no)
    except (UserError, PairingError) as exc:
        raise engine_refused(state, exc) from exc
    _checked(state, teams, proposal, boards)
    playing = {t for pair in proposal.pairs for t in pair}
    lineups = {t: lineup(state, teams.teams[t], round_no, boards) for t in sorted(playing)}
    matches = tuple(
        TeamMatch(
            match=m,
            white=first,
            black=second,
            white_players=tuple(lineups[first]),
            black_players=tuple(lineups[second]),
        )
        for m, (first, second) in enumerate(proposal.pairs, start=1)
    )
    board_list: list[Board] = []
    for match in matches:
        sides = zip(match.white_players, match.black_players, proposal.colours, strict=True)
        for i, (w, b, colour) in enumerate(sides, start=1):
            white, black = (w, b) if colour is Colour.WHITE else (b, w)
            number = (match.match - 1) * boards + i
            board_list.append(Board(board=number, white=white, black=black))
    return [
        RoundPaired(round=round_no, boards=tuple(board_list)),
        TeamRoundPaired(round=round_no, matches=matches, pab=proposal.pab, boards=boards),
    ]
