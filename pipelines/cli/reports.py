"""Reports on the command line: standings, the crosstable, the log."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from pipelines.cli.common import FormatOpt, TournamentArg, codes, err, open_store, user_errors
from pipelines.commands.base import load
from pipelines.views.output import Format, PageFormat, emit, flatten
from pipelines.views.tournament import crosstable_view, log_view, standings_text, standings_view
from projections import crosstable as xt
from projections import html
from projections.standings import as_of
from projections.standings import standings as compute_standings

if TYPE_CHECKING:
    from decide.state import TournamentState
    from events.store import Store

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
    rating_change: Annotated[
        bool,
        typer.Option(
            "--rating-change",
            help="Each player's rating change from this event: chess FIDE's (Ro, Rp, W, We, "
            "K, K·(W−We), change; ratings from the imported FIDE list in force at the start), "
            "go the EGF GoR change (from the imported EGD list), othello the WOF list's change "
            "(the list refit without and with the event).",
        ),
    ] = False,
) -> None:
    """Standings: points, then the tie-break chain; remaining ties share a place.

    Team events (and go events with teams) rank the teams: match points, game points, team
    tie-breaks."""
    with open_store() as store:
        state = load(store, tournament, at_round=at_round).state
        if rating_change:
            _rating_change_output(store, state, codes(tiebreaks) if tiebreaks else None, fmt)
            return
    chain = codes(tiebreaks) if tiebreaks is not None else None
    if state.has_teams and (state.system.is_team or not individual):
        from pipelines.cli.teams import team_standings_output  # networkx: team work only

        team_standings_output(tournament, at_round, chain, fmt, players)
        return
    rows = compute_standings(state, chain)
    after = _say_round_in_play(tournament, state)
    if fmt is PageFormat.HTML:
        sys.stdout.write(html.standings_html(f"{state.settings.name}: {after}", rows))
        return
    if fmt is PageFormat.TEXT:  # a withdrawn player marked by his name, as every table prints
        emit(standings_text(rows, state), Format.TEXT)
        return
    emit(standings_view(rows), Format(fmt.value))


def _say_round_in_play(tournament: str, state: TournamentState) -> str:
    """The round the standings are after; while a round is in play, said on stderr too (the
    tables count nothing of it yet)."""
    shown = as_of(state)
    if shown.in_play:
        err.print(f"{tournament}: {shown.caption}", markup=False)
    return shown.caption


def _rating_change_output(
    store: Store, state: TournamentState, chain: list[str] | None, fmt: PageFormat
) -> None:
    """`standings --rating-change`: the standings with each player's change from the event."""
    from pipelines.views.rating_change import change_rows, event_change  # polars: on demand

    change = event_change(store, state)
    rows = change_rows(change, compute_standings(state, chain), with_games=fmt is PageFormat.JSON)
    title = f"{state.settings.name}: rating change ({change.system})"
    if fmt is PageFormat.HTML:
        flat = [flatten(r) for r in rows]
        head = list(flat[0]) if flat else ["rank", "player"]
        body = [[r.get(c, "") for c in head] for r in flat]
        sys.stdout.write(html.page(title, head, body, name_col=1))
        return
    if fmt is PageFormat.TEXT:
        sys.stdout.write(f"{title}; ratings: {change.source}\n")
    emit(rows, Format(fmt.value))


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
    _say_round_in_play(tournament, state)
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
