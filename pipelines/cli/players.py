"""`arbiter player ...`: register (one, or a CSV file's worth), list, edit, remove, withdraw,
re-enter."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from decide.inputs import PlayerChanges, PlayerInput
from pipelines.cli.common import (
    FormatOpt,
    PlayerArg,
    TournamentArg,
    err,
    open_store,
    player_of,
    user_errors,
)
from pipelines.cli.options import Fields, ForceOpt, NotOnListOpt, model_options
from pipelines.commands import files, players
from pipelines.commands.base import load
from pipelines.views.output import Format, emit
from pipelines.views.tournament import players_view

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""
player_app = typer.Typer(help="Register and manage players.", no_args_is_help=True)
app.add_typer(player_app, name="player")


@player_app.command("add")
@user_errors
@model_options(PlayerInput, optional=("name",))
def player_add(
    tournament: TournamentArg,
    force: ForceOpt = False,
    not_on_list: NotOnListOpt = False,
    *,
    fields: Fields,
) -> None:
    """Register a player; prints the player's id.

    With --fide-id the name, federation, title, sex, birth year and rating come from the
    latest imported FIDE list of the event's rating type (`arbiter ratings import`); with
    --egd-pin the name, country, club, rank (grade) and rating (GoR) from the latest EGD list;
    with --aga-id the name, club, AGA rating and its rank from the latest AGA list. An option
    given overrides the list's value. An id not on its list is refused, unless --not-on-list.
    """
    with open_store() as store:
        added = players.add(store, tournament, fields, force=force, not_on_list=not_on_list)
    said = f"registered player No. {added.number} ({added.name})"
    if not added.paired:
        said += " (until round 1 is paired, numbers change as players join)"
    err.print(f"{said}{'; ' + added.note if added.note else ''}", markup=False)
    sys.stdout.write(f"{added.player}\n")


@player_app.command("import")
@user_errors
def player_import(
    tournament: TournamentArg,
    file: Annotated[
        Path,
        typer.Argument(
            help="CSV with a header of registration fields: name (required unless an id "
            "column fills it from a list), " + ", ".join(files.COLUMNS[1:]) + ".",
            dir_okay=False,
        ),
    ],
    force: ForceOpt = False,
    not_on_list: NotOnListOpt = False,
) -> None:
    """Register a whole field from a CSV file (one bad line refuses the file); prints the ids.

    A row with a fide_id, egd_pin or aga_id is completed from the imported list as `player
    add` does; such a column alone is enough.
    """
    with open_store() as store:
        ids = files.import_players(store, tournament, file, force=force, not_on_list=not_on_list)
    err.print(f"registered {len(ids)} player(s) from {file}", markup=False)
    for pid in ids:
        typer.echo(pid)


@player_app.command("list")
@user_errors
def player_list(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """List the players by start rank."""
    with open_store() as store:
        state = load(store, tournament).state
    emit(players_view(state), fmt)


@player_app.command("edit")
@user_errors
@model_options(PlayerChanges)
def player_edit(tournament: TournamentArg, player: PlayerArg, *, fields: Fields) -> None:
    """Correct a registration; once round 1 is paired, what decided pairings stays fixed."""
    with open_store() as store:
        pid, said = player_of(store, tournament, player)
        changed = players.edit(store, tournament, pid, fields)
    err.print(f"player {said}: set {changed}", markup=False)


@player_app.command("remove")
@user_errors
def player_remove(tournament: TournamentArg, player: PlayerArg) -> None:
    """Take back the registration of a player who was never paired."""
    with open_store() as store:
        pid, said = player_of(store, tournament, player)
        name = players.remove(store, tournament, pid)
    err.print(f"player {said} ({name}) removed", markup=False)


FromRoundOpt = Annotated[int | None, typer.Option(min=1, help="Default: the next round.")]


@player_app.command("withdraw")
@user_errors
def player_withdraw(
    tournament: TournamentArg, player: PlayerArg, from_round: FromRoundOpt = None
) -> None:
    """Withdraw a player from the next round (or --from-round) on."""
    with open_store() as store:
        pid, said = player_of(store, tournament, player)
        first = players.withdraw(store, tournament, pid, from_round)
    err.print(f"player {said} withdrawn from round {first}", markup=False)


@player_app.command("reenter")
@user_errors
def player_reenter(
    tournament: TournamentArg, player: PlayerArg, from_round: FromRoundOpt = None
) -> None:
    """Bring a withdrawn player back."""
    with open_store() as store:
        pid, said = player_of(store, tournament, player)
        first = players.reenter(store, tournament, pid, from_round)
    err.print(f"player {said} back from round {first}", markup=False)
