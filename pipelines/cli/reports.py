"""Reports on the command line: standings, the crosstable, the log."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pipelines.cli.common import FormatOpt, TournamentArg, codes, open_store, user_errors
from pipelines.commands.base import load
from pipelines.views.output import Format, PageFormat, emit
from pipelines.views.tournament import crosstable_view, log_view, standings_view
from projections import crosstable as xt
from projections import html
from projections.standings import standings as compute_standings

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("standings")
@user_errors
def standings(
    tournament: TournamentArg,
    at_round: Annotated[
        int | None, typer.Option(min=0, help="Standings as they were after this round.")
    ] = None,
    tiebreaks: Annotated[
        str | None,
        typer.Option(help="Tie-break chain instead of the tournament's, e.g. 'BH/C1,BH,SB,DE'."),
    ] = None,
    fmt: Annotated[
        PageFormat, typer.Option("--format", "-f", case_sensitive=False, help="Output format.")
    ] = PageFormat.TEXT,
    players: Annotated[
        bool, typer.Option(help="Team events: the players' scores by board (board prizes).")
    ] = False,
    individual: Annotated[
        bool,
        typer.Option(
            help="An individual event with teams (OpenGotha): the players' standings, by the "
            "tournament's own criteria, instead of the teams'."
        ),
    ] = False,
) -> None:
    """Standings: points, then the tie-break chain; remaining ties share a place.

    Team events (and go events with teams) rank the teams: match points, game points, team
    tie-breaks."""
    with open_store() as store:
        state = load(store, tournament, at_round=at_round).state
    chain = codes(tiebreaks) if tiebreaks is not None else None
    if state.has_teams and (state.system.is_team or not individual):
        from pipelines.cli.teams import team_standings_output  # networkx: team work only

        team_standings_output(tournament, at_round, chain, fmt, players)
        return
    rows = compute_standings(state, chain)
    if fmt is PageFormat.HTML:
        sys.stdout.write(html.standings_html(state.settings.name, rows))
        return
    emit(standings_view(rows), Format(fmt.value))


@app.command("crosstable")
@user_errors
def crosstable(
    tournament: TournamentArg,
    at_round: Annotated[
        int | None, typer.Option(min=0, help="The crosstable as it was after this round.")
    ] = None,
    tiebreaks: Annotated[
        str | None, typer.Option(help="Tie-break columns instead of the tournament's chain.")
    ] = None,
    sort: Annotated[
        bool, typer.Option("--sorted", help="Order and number rows by rank (default: start rank).")
    ] = False,
    fmt: Annotated[
        PageFormat, typer.Option("--format", "-f", case_sensitive=False, help="Output format.")
    ] = PageFormat.TEXT,
) -> None:
    """The crosstable: per round opponent, colour and result, then points and tie-breaks."""
    with open_store() as store:
        state = load(store, tournament, at_round=at_round).state
    chain = codes(tiebreaks) if tiebreaks is not None else None
    if state.has_teams:
        from pipelines.cli.teams import team_crosstable_output  # networkx: team work only

        team_crosstable_output(tournament, at_round, fmt)
        return
    table = xt.crosstable(state, chain, order="rank" if sort else "start")
    match fmt:
        case PageFormat.HTML:
            sys.stdout.write(html.crosstable_html(table))
        case PageFormat.CSV:
            sys.stdout.write(xt.to_csv(table))
        case PageFormat.JSON:
            emit(crosstable_view(table), Format.JSON)
        case PageFormat.TEXT:
            sys.stdout.write(xt.to_text(table))


@app.command("log")
@user_errors
def log(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """The tournament's events, one per line: position, version, type, who, how, payload."""
    with open_store() as store:
        loaded = load(store, tournament)
    rows = log_view(loaded.events)
    if fmt is Format.TEXT:
        for r in rows:
            sys.stdout.write(
                f"{r['position']:>8} v{r['version']:<5} {r['type']:<18} "
                f"{r['actor']} via {r['source']}  {r['payload']}\n"
            )
        return
    emit(rows, fmt)
