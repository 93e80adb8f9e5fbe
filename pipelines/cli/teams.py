"""Team events on the command line: ``arbiter team add``, ``team member add``, ``lineup``,
and the team views that ``pair``, ``standings`` and ``crosstable`` show for team tournaments.

    arbiter tournament create --name "Oslo League" --system team-swiss --rounds 7 --boards 4
    arbiter team add oslo-league --name "SK Oslo" --federation NOR
    arbiter team member add oslo-league "SK Oslo" --name "Hansen, Ola" --rating 2350
    arbiter lineup oslo-league "SK Oslo" --round 3 1 2 4 5
    arbiter pair oslo-league
    arbiter result oslo-league 3 2.1 1-0          # round 3, match 2, board 1
    arbiter standings oslo-league --format json [--players]
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from decide.inputs import PlayerInput
from decide.state import TournamentState
from events.errors import UserError
from pipelines.cli.common import TournamentArg, err, open_store, user_errors
from pipelines.cli.options import Fields, ForceOpt, NotOnListOpt, model_options
from pipelines.commands import base as commands
from pipelines.views.output import Format, PageFormat, emit
from pipelines.views.teams import (
    board_prizes_view,
    team_crosstable_cells,
    team_crosstable_view,
    team_round_view,
    team_standings_view,
    team_tables,
)
from projections.teams import TeamsState, board_prizes, standings_round, team_state

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

__all__ = [
    "show_team_round",
    "team_crosstable_output",
    "team_standings_output",
    "team_state",
]

team_app = typer.Typer(help="Teams of a team tournament.", no_args_is_help=True)
member_app = typer.Typer(help="Team rosters.", no_args_is_help=True)
team_app.add_typer(member_app, name="member")
app.add_typer(team_app, name="team")


@team_app.command("add")
@user_errors
def team_add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Option(help="Team name.")],
    federation: Annotated[str | None, typer.Option(help="Federation (3 letters).")] = None,
    nickname: Annotated[str | None, typer.Option(help="Short name (TRF 310, 5 letters).")] = None,
) -> None:
    """Register a team; prints its pairing number."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    with open_store() as store:
        number = team_commands.add_team(store, tournament, name, federation, nickname)
    err.print(f"team {number}: {name}", markup=False)
    sys.stdout.write(f"{number}\n")


@member_app.command("add")
@user_errors
@model_options(PlayerInput, optional=("name",))
def member_add(
    tournament: TournamentArg,
    team: Annotated[str, typer.Argument(help="Team name or pairing number.")],
    board: Annotated[
        int | None, typer.Option(min=1, help="Roster position (board order); default: last.")
    ] = None,
    force: ForceOpt = False,
    not_on_list: NotOnListOpt = False,
    *,
    fields: Fields,
) -> None:
    """Register a player on a team's roster; prints the player's id."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    with open_store() as store:
        pid = team_commands.add_member(
            store, tournament, team, board, fields, force=force, not_on_list=not_on_list
        )
    sys.stdout.write(f"{pid}\n")


@team_app.command("bye")
@user_errors
def team_bye(
    tournament: TournamentArg,
    team: Annotated[str, typer.Argument(help="Team name or pairing number.")],
    round_no: Annotated[int, typer.Argument(metavar="ROUND", min=1, help="Round.")],
    kind: Annotated[str, typer.Option(help="full, half or zero (TRF 240 F/H/Z).")] = "zero",
) -> None:
    """A team's requested bye: it is not paired that round."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    code = {"full": "F", "half": "H", "zero": "Z"}.get(kind.lower())
    if code is None:
        raise UserError(f"--kind '{kind}': full, half or zero")
    with open_store() as store:
        team_commands.team_bye(store, tournament, team, round_no, code)


@team_app.command("forbid")
@user_errors
def team_forbid(
    tournament: TournamentArg,
    teams: Annotated[list[str], typer.Argument(help="Teams that must not meet.")],
    first: Annotated[int, typer.Option("--from", min=1, help="First round.")] = 1,
    last: Annotated[int | None, typer.Option("--to", min=1, help="Last round.")] = None,
) -> None:
    """Teams that must not meet each other (TRF 260; not in FIDE-rated events)."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    with open_store() as store:
        numbers = team_commands.forbid_teams(store, tournament, teams, first, last)
    sys.stdout.write(" ".join(map(str, numbers)) + "\n")


@team_app.command("accelerate")
@user_errors
def team_accelerate(
    tournament: TournamentArg,
    teams: Annotated[list[str], typer.Argument(help="Teams (names or numbers) to accelerate.")],
    first: Annotated[int, typer.Option("--from", min=1, help="First round.")] = 1,
    last: Annotated[
        int | None, typer.Option("--to", min=1, help="Last round (default: --from).")
    ] = None,
    match_points: Annotated[
        float | None, typer.Option(help="Fictitious match points per round.")
    ] = None,
    game_points: Annotated[float, typer.Option(help="Fictitious game points per round.")] = 0.0,
) -> None:
    """Accelerate teams (TRF 250, C.04.6): fictitious points counted for pairing in rounds
    --from..--to, never in the standings. Prints the teams' numbers."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    with open_store() as store:
        numbers = team_commands.accelerate_teams(
            store, tournament, teams, first, last, match_points, game_points
        )
    sys.stdout.write(" ".join(map(str, numbers)) + "\n")
    err.print(
        f"{tournament}: teams {', '.join(map(str, numbers))} accelerated in rounds "
        f"{first}..{first if last is None else last}",
        markup=False,
    )


@team_app.command("forfeit")
@user_errors
def team_forfeit(
    tournament: TournamentArg,
    round_no: Annotated[int, typer.Argument(metavar="ROUND", min=1, help="Round.")],
    match: Annotated[int, typer.Argument(min=1, help="Match number.")],
    winner: Annotated[
        str, typer.Argument(help="Who wins: white (the first-named team), black, or none.")
    ],
) -> None:
    """A whole match forfeited (TRF 330): every board gets the forfeit result."""
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    kind = {"white": "+-", "black": "-+", "none": "--"}.get(winner.lower(), winner)
    with open_store() as store:
        team_commands.forfeit_match(store, tournament, round_no, match, kind)


@app.command("lineup")
@user_errors
def lineup(
    tournament: TournamentArg,
    team: Annotated[str, typer.Argument(help="Team name or pairing number.")],
    positions: Annotated[
        list[int], typer.Argument(help="Roster positions playing boards 1, 2, … this round.")
    ],
    round_no: Annotated[int, typer.Option("--round", "-r", min=1, help="Round.")],
) -> None:
    """Set who plays a round for a team (roster positions, board 1 first).

    A line-up that does not keep the roster's order is accepted and flagged.
    """
    from pipelines.commands import teams as team_commands  # networkx: only for team work

    with open_store() as store:
        players, out_of_order = team_commands.set_lineup(
            store, tournament, team, round_no, positions
        )
    if out_of_order:
        err.print(
            f"warning: the line-up of {team} leaves the roster's board order "
            f"({' '.join(map(str, positions))})",
            markup=False,
        )
    sys.stdout.write(" ".join(map(str, players)) + "\n")


def _teams(tournament: str, at_round: int | None) -> tuple[TournamentState, TeamsState]:
    with open_store() as store:
        loaded = commands.load(store, tournament, at_round=at_round)
    teams = team_state((e.event for e in loaded.events), loaded.state.last_round)
    return loaded.state, teams


def team_standings_output(
    tournament: str,
    at_round: int | None,
    chain: list[str] | None,
    fmt: PageFormat,
    players: bool,
) -> None:
    """``standings`` of a team tournament: teams, or the board prizes with ``--players``."""
    state, teams = _teams(tournament, at_round)
    through = standings_round(state, teams)
    if through < state.last_round:
        err.print(
            f"{tournament}: after round {through} (round {state.last_round} in play)", markup=False
        )
    if players:
        prizes = board_prizes(state, teams, through)
        if fmt is PageFormat.HTML:
            from projections.html_teams import board_prizes_html

            sys.stdout.write(board_prizes_html(state.settings.name, prizes))
            return
        emit(board_prizes_view(prizes), Format(fmt.value))
        return
    table = team_tables(state, teams, chain, through).ranked
    if fmt is PageFormat.HTML:
        from projections.html_teams import team_standings_html

        sys.stdout.write(team_standings_html(state.settings.name, table))
        return
    emit(team_standings_view(table), Format(fmt.value))


def show_team_round(teams: TeamsState, round_no: int, fmt: Format) -> None:
    """The matches of a team round (the boards: ``arbiter pairings``)."""
    emit(team_round_view(teams, round_no), fmt)


def team_crosstable_output(tournament: str, at_round: int | None, fmt: PageFormat) -> None:
    """``crosstable`` of a team tournament: per round the opponent team, board 1's colour and
    the game points, then match points and game points (rows in standings order)."""
    state, teams = _teams(tournament, at_round)
    tables = team_tables(state, teams)
    if fmt is PageFormat.HTML:
        from projections.html_teams import team_crosstable_html

        sys.stdout.write(team_crosstable_html(state.settings.name, tables.ranked, tables.by_number))
        return
    rows = team_crosstable_view(tables)
    if fmt is PageFormat.JSON:
        emit(rows, Format.JSON)
        return
    emit(team_crosstable_cells(rows), Format(fmt.value))
