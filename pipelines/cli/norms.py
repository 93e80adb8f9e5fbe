"""Title norms on the command line: who made a GM, IM, WGM or WIM norm (FIDE B.01 1.4)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pipelines.cli.common import TournamentArg, open_store, user_errors
from pipelines.commands.base import load
from pipelines.views.norms import norms_html, norms_rows, norms_text_rows, norms_title
from pipelines.views.output import Format, PageFormat, emit
from projections.norms import norm_report

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("norms")
@user_errors
def norms(
    tournament: TournamentArg,
    fmt: Annotated[
        PageFormat, typer.Option("--format", "-f", case_sensitive=False, help="Output format.")
    ] = PageFormat.TEXT,
    exempt: Annotated[
        bool,
        typer.Option(
            "--federation-exempt",
            help="B.01 1.4.3a-c: a national championship's final, a national team championship "
            "or a zonal (the foreign-opponent rules 1.4.3 and 1.4.4 are waived).",
        ),
    ] = False,
) -> None:
    """Title norms (FIDE B.01 1.4): per player the games, the opponents' titles, federations
    and average, the performance, the norms made and the rounds left out to make them."""
    with open_store() as store:
        state = load(store, tournament).state
    rows = norms_rows(state, norm_report(state, exempt=exempt))
    if fmt is PageFormat.HTML:
        sys.stdout.write(norms_html(state, rows))
        return
    if fmt is PageFormat.JSON:
        emit(rows, Format.JSON)
        return
    if fmt is PageFormat.TEXT:
        sys.stdout.write(norms_title(state) + "\n")
    emit(norms_text_rows(rows), Format(fmt.value))
