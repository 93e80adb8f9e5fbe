"""`arbiter tournament ...`: create, list, show, edit, tie-breaks."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from decide.inputs import EventChanges, TournamentInput
from pipelines.cli.common import (
    FormatOpt,
    TournamentArg,
    codes,
    err,
    open_store,
    user_errors,
)
from pipelines.cli.options import Fields, model_options
from pipelines.commands import players, tournaments
from pipelines.commands.base import load
from pipelines.views.output import Format, emit
from pipelines.views.tournament import (
    event_data_row,
    event_settings_row,
    tournament_summaries,
)

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""
tournament_app = typer.Typer(help="Create, list, show and edit tournaments.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")


@tournament_app.command("create")
@user_errors
@model_options(TournamentInput)
def tournament_create(*, fields: Fields) -> None:
    """Create a tournament; prints its id as the last line."""
    t = TournamentInput.check(fields)
    with open_store() as store:
        tid = tournaments.create(store, t)
    err.print(f"created {t.system.value} {t.game.value} tournament '{t.name}'", markup=False)
    sys.stdout.write(tid + "\n")


@tournament_app.command("list")
@user_errors
def tournament_list(fmt: FormatOpt = Format.TEXT) -> None:
    """List the tournaments in the store."""
    with open_store() as store:
        rows = tournament_summaries(store)
    emit(rows, fmt)


@tournament_app.command("tiebreaks")
@user_errors
def tournament_tiebreaks(
    tournament: TournamentArg,
    chain: Annotated[str, typer.Argument(help="Tie-break chain, e.g. 'BH/C1,BH,SB'.")],
) -> None:
    """Change a tournament's tie-break chain."""
    with open_store() as store:
        tournaments.set_tiebreaks(store, tournament, codes(chain))
    err.print(f"{tournament}: tie-breaks {','.join(codes(chain))}", markup=False)


@tournament_app.command("edit")
@user_errors
@model_options(EventChanges)
def tournament_edit(tournament: TournamentArg, *, fields: Fields) -> None:
    """Change the event's data (an event in the log, shown by `arbiter log`)."""
    with open_store() as store:
        changed = tournaments.edit(store, tournament, fields)
    err.print(f"{tournament}: set {changed}", markup=False)


@tournament_app.command("show")
@user_errors
def tournament_show(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """The event's data: name, dates, place, arbiters, time control, round dates; as text,
    then its settings: scoring, tie-breaks, pairing, registration, check-in window."""
    with open_store() as store:
        state = load(store, tournament).state
    row = event_data_row(state)
    if fmt is Format.TEXT:  # then every setting (registration, check-in, tie-breaks, scoring)
        for key, value in {**row, **event_settings_row(state)}.items():
            sys.stdout.write(f"{key:<16} {value}\n")
        return
    emit([row], fmt)


@tournament_app.command("update-ratings")
@user_errors
def tournament_update_ratings(
    tournament: TournamentArg,
    list_name: Annotated[
        str | None,
        typer.Option(
            "--list",
            help="The imported list to read (`arbiter ratings lists`); default: chess the "
            "FIDE list of the event's rating type, go the EGD's and the AGA's.",
        ),
    ] = None,
    date: Annotated[
        str | None,
        typer.Option(
            help="Read the list dated on or before this day (YYYY-MM-DD); default: the latest."
        ),
    ] = None,
) -> None:
    """Before round 1 is paired, set every player's rating from the imported rating list.

    Chess: the rating from the FIDE list by FIDE id. Go: rank and GoR from the EGD list by EGD
    PIN, the AGA rating (and the rank, when the EGD gives none) from the AGA list by AGA id.
    Prints one line per changed player (old → new), then each player left unchanged and why
    (no id, not on the list), then the count. Refused once round 1 is paired.
    """
    from events.validate import calendar_date

    at = None if date is None else calendar_date("date", date)
    with open_store() as store:
        done = players.update_ratings(store, tournament, list_name=list_name, at_or_before=at)
    for change in done.changed:
        typer.echo(str(change))
    for same in done.unchanged:
        typer.echo(str(same))
    err.print(
        f"{tournament}: {len(done.changed)} player(s) updated, {len(done.unchanged)} "
        f"unchanged, from {' and '.join(done.lists)}",
        markup=False,
    )
