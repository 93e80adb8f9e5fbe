"""Prizes on the command line: set the prize list (a TOML file), show who gets what."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import TournamentArg, err, open_store, user_errors
from pipelines.commands.base import CommandError, load
from pipelines.commands.prizes import read_table, set_prizes
from pipelines.views.output import Format, PageFormat, emit
from pipelines.views.prizes import awards, prizes_html, prizes_title, prizes_view

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("prizes")
@user_errors
def prizes(
    tournament: TournamentArg,
    action: Annotated[
        str | None, typer.Argument(metavar="[set FILE]", help="set: the prize list of FILE.")
    ] = None,
    file: Annotated[
        Path | None, typer.Argument(metavar="", help="The prize list (TOML, docs/prizes.md).")
    ] = None,
    fmt: Annotated[
        PageFormat, typer.Option("--format", "-f", case_sensitive=False, help="Output format.")
    ] = PageFormat.TEXT,
) -> None:
    """Prize lists: `prizes T set FILE` sets them (TOML), `prizes T` shows who gets what.

    Places and categories (rating, birth year or age, sex, federation), one prize per player
    (the larger), ties sharing money equally or by the Hort system; on the standings after the
    last paired round."""
    if action is not None:
        if action != "set" or file is None:
            raise CommandError(f"expected `prizes {tournament} set FILE` (found '{action}')")
        table = read_table(file)
        with open_store() as store:
            count = set_prizes(store, tournament, table)
        err.print(f"{tournament}: prize list set ({count} prizes, sharing {table.sharing})")
        return
    with open_store() as store:
        state = load(store, tournament).state
    given = awards(state)
    if fmt is PageFormat.HTML:
        sys.stdout.write(prizes_html(state, given))
        return
    if fmt is PageFormat.TEXT:
        sys.stdout.write(prizes_title(state) + "\n")
        rows = [
            {k: v for k, v in r.items() if k not in ("category", "currency", "places")}
            for r in prizes_view(state, given)
        ]
        emit(rows, Format.TEXT)
        return
    emit(prizes_view(state, given), Format(fmt.value))
