"""The `arbiter` command line: thin typer commands over `pipelines.commands` and the views.

Commands of other areas live in their own modules (`pipelines.cli_*`), imported at the end so
that they register on the same app.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from pydantic import ValidationError

from events.domain import ByeKind, Game, Scoring, System
from events.errors import UserError
from events.params import CarromSettings, ChessSettings, GoSettings, PairingParams
from pipelines import commands, views
from pipelines.chess_rules import dutch_rules
from pipelines.cli_common import (
    FormatOpt,
    TournamentArg,
    app,
    err,
    open_store,
    player_app,
    tournament_app,
    user_errors,
)
from pipelines.exits import report
from pipelines.output import Format, PageFormat, emit
from projections import crosstable as xt
from projections import html
from projections.standings import standings as compute_standings

__all__ = ["app", "main"]

# ------------------------------------------------------------------ tournaments


def _scoring(text: str | None, game: Game) -> Scoring:
    if text is None:
        return Scoring.for_game_kind(game)
    wrong = UserError(f"--scoring wants win,draw,loss such as 3,1,0 (found '{text}')")
    try:
        parts = [float(x) for x in text.split(",")]
    except ValueError:
        raise wrong from None
    if len(parts) != 3:
        raise wrong
    try:
        return Scoring(win=parts[0], draw=parts[1], loss=parts[2])
    except ValidationError as exc:
        raise UserError.from_validation(exc, "--scoring") from None


def _codes(text: str | None) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


@tournament_app.command("create")
@user_errors
def tournament_create(
    name: Annotated[str, typer.Option(help="Tournament name.")],
    game: Annotated[Game, typer.Option(help="Game played.")] = Game.CHESS,
    system: Annotated[System, typer.Option(help="Pairing system.")] = System.ROUNDROBIN,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds (per cycle for round robin).")] = 5,
    double: Annotated[bool, typer.Option(help="Double round robin (two cycles).")] = False,
    scoring: Annotated[
        str | None, typer.Option(help="Points for win,draw,loss, e.g. 3,1,0.")
    ] = None,
    tiebreaks: Annotated[str | None, typer.Option(help="Tie-break chain, e.g. 'BH,SB'.")] = None,
    tournament_id: Annotated[
        str | None, typer.Option("--id", help="Explicit id instead of one made from the name.")
    ] = None,
    bar: Annotated[str | None, typer.Option(help="Mac-Mahon bar (go rank such as 4d).")] = None,
    floor: Annotated[
        str | None, typer.Option(help="Mac-Mahon floor (go rank such as 20k).")
    ] = None,
    komi: Annotated[float | None, typer.Option(help="Go: komi of even games.")] = None,
    initial_colour: Annotated[
        str | None,
        typer.Option(help="Swiss chess: colour of the top seed in round 1 (white/black)."),
    ] = None,
    pairing: Annotated[
        str | None,
        typer.Option(help="Carrom (SoL) Swiss method: serial, dazed, staggered or all."),
    ] = None,
    delay_top_players: Annotated[
        int | None, typer.Option(min=0, help="SoL: rounds that keep top-rated players apart.")
    ] = None,
    delay_compatriots: Annotated[
        int | None, typer.Option(min=0, help="SoL: rounds that pair compatriots last.")
    ] = None,
    phantom_score: Annotated[
        int | None, typer.Option(min=1, max=25, help="SoL: score of a win against the phantom.")
    ] = None,
    seeding: Annotated[
        str | None, typer.Option(help="Knockout seeding; 'standard' (1 v last) is supported.")
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(help="Chess Dutch: rules edition, 2025 (default) or 2017 (C.04.3 2017-2025)."),
    ] = None,
) -> None:
    """Create a tournament; prints its id as the last line."""
    from events.go import parse_rank

    params = PairingParams(
        chess=ChessSettings.model_validate(
            {
                "initial_colour": initial_colour,
                "rules": None if rules is None else dutch_rules(rules, game, system),
            }
        ),
        go=GoSettings(
            komi=komi,
            mm_bar=None if bar is None else parse_rank(bar),
            mm_floor=None if floor is None else parse_rank(floor),
        ),
        carrom=CarromSettings(
            couplings=pairing,
            delaytoppairing=delay_top_players,
            delaycompatriotpairing=delay_compatriots,
            phantomscore=phantom_score,
        ),
    )
    if seeding not in (None, "standard"):
        raise UserError(f"unknown --seeding '{seeding}' (supported: standard)")
    with open_store() as store:
        tid = commands.create_tournament(
            store,
            name=name,
            game=game,
            system=system,
            rounds=rounds,
            cycles=2 if double else 1,
            scoring=_scoring(scoring, game),
            tiebreaks=_codes(tiebreaks),
            tournament_id=tournament_id,
            pairing_params=params,
        )
    err.print(f"created {system.value} {game.value} tournament '{name}'", markup=False)
    sys.stdout.write(tid + "\n")


@tournament_app.command("list")
@user_errors
def tournament_list(fmt: FormatOpt = Format.TEXT) -> None:
    """List the tournaments in the store."""
    with open_store() as store:
        rows = commands.tournament_summaries(store)
    emit(rows, fmt)


@tournament_app.command("tiebreaks")
@user_errors
def tournament_tiebreaks(
    tournament: TournamentArg,
    chain: Annotated[str, typer.Argument(help="Tie-break chain, e.g. 'BH/C1,BH,SB'.")],
) -> None:
    """Change a tournament's tie-break chain."""
    with open_store() as store:
        commands.set_tiebreaks(store, tournament, _codes(chain))


# ------------------------------------------------------------------ players


@player_app.command("add")
@user_errors
def player_add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Option(help="'Surname, Firstname'.")],
    rating: Annotated[int | None, typer.Option(min=0)] = None,
    federation: Annotated[str | None, typer.Option(help="Country/federation code.")] = None,
    fide_id: Annotated[str | None, typer.Option()] = None,
    title: Annotated[str | None, typer.Option()] = None,
    club: Annotated[str | None, typer.Option()] = None,
    rank: Annotated[str | None, typer.Option(help="Go rank, e.g. 3d or 12k.")] = None,
    birth: Annotated[str | None, typer.Option(help="Birth date or year.")] = None,
    sex: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Register a player; prints the player's id."""
    with open_store() as store:
        pid = commands.add_player(
            store,
            tournament,
            name=name,
            rating=rating,
            federation=federation,
            fide_id=fide_id,
            title=title,
            club=club,
            rank=rank,
            birth=birth,
            sex=sex,
        )
    sys.stdout.write(f"{pid}\n")


@player_app.command("list")
@user_errors
def player_list(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """List the players by start rank."""
    with open_store() as store:
        state = commands.load(store, tournament).state
    emit(views.players_view(state), fmt)


@player_app.command("withdraw")
@user_errors
def player_withdraw(
    tournament: TournamentArg,
    player: Annotated[int, typer.Argument(help="Player id.")],
    from_round: Annotated[int | None, typer.Option(min=1, help="Default: the next round.")] = None,
) -> None:
    """Withdraw a player from the next round (or --from-round) on."""
    with open_store() as store:
        first = commands.withdraw(store, tournament, player, from_round)
    err.print(f"player {player} withdrawn from round {first}", markup=False)


@player_app.command("reenter")
@user_errors
def player_reenter(
    tournament: TournamentArg,
    player: Annotated[int, typer.Argument(help="Player id.")],
    from_round: Annotated[int | None, typer.Option(min=1)] = None,
) -> None:
    """Bring a withdrawn player back."""
    with open_store() as store:
        first = commands.reenter(store, tournament, player, from_round)
    err.print(f"player {player} back from round {first}", markup=False)


@app.command("bye")
@user_errors
def bye(
    tournament: TournamentArg,
    player: Annotated[int, typer.Argument(help="Player id.")],
    round_no: Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")],
    kind: Annotated[ByeKind, typer.Option(help="half, zero or full point bye.")] = ByeKind.HALF,
) -> None:
    """Give a player a requested bye (or record an absence) for a round not yet paired."""
    with open_store() as store:
        commands.grant_bye(store, tournament, player, round_no, kind)


# ------------------------------------------------------------------ rounds


@app.command("pair")
@user_errors
def pair(
    tournament: TournamentArg,
    fmt: FormatOpt = Format.TEXT,
    explain: Annotated[
        bool, typer.Option(help="Say, board by board, what decided the pairing (on stderr).")
    ] = False,
) -> None:
    """Pair the next round with the tournament's system and print it."""
    notes: list[str] | None = [] if explain else None
    with open_store() as store:
        event = commands.pair(store, tournament, notes)
        state = commands.load(store, tournament).state
    err.print(f"round {event.round} paired", markup=False)
    emit(views.pairings_view(state, event.round), fmt)
    for line in notes or []:
        err.print(line, markup=False)


@app.command("pairings")
@user_errors
def pairings(
    tournament: TournamentArg,
    round_no: Annotated[
        int | None, typer.Option("--round", "-r", min=1, help="Default: the last paired round.")
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Show a round's boards and results."""
    with open_store() as store:
        state = commands.load(store, tournament).state
    rnd = round_no or state.last_round
    if rnd not in state.rounds:
        raise commands.CommandError(
            f"{tournament}: round {rnd} is not paired (last paired round: "
            f"{state.last_round or 'none'})"
        )
    emit(views.pairings_view(state, rnd), fmt)


@app.command("pairing-report")
@user_errors
def pairing_report_command(
    tournament: TournamentArg,
    round_no: Annotated[
        int | None, typer.Option("--round", "-r", min=1, help="Default: the last paired round.")
    ] = None,
    handicap_above: Annotated[
        int, typer.Option(min=0, help="List handicap games with more stones than this.")
    ] = 0,
) -> None:
    """Go: OpenGotha's pairing check of a round (MMS gaps, same club or country, colours)."""
    from projections.pairing_report import pairing_report

    with open_store() as store:
        state = commands.load(store, tournament).state
    rnd = round_no or state.last_round
    if rnd not in state.rounds:
        raise commands.CommandError(f"{tournament}: round {rnd} is not paired")
    report = pairing_report(state, rnd, handicap_above)
    names = {pid: p.name for pid, p in state.players.items()}
    sys.stdout.write("\n".join(report.lines(names)) + "\n")


@app.command("result")
@user_errors
def result(
    tournament: TournamentArg,
    round_no: Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")],
    board: Annotated[int, typer.Argument(help="Board number.")],
    outcome: Annotated[
        str, typer.Argument(metavar="RESULT", help="1-0, 0-1, 1/2-1/2, +-, B+, 40-24, ...")
    ],
    correct: Annotated[bool, typer.Option(help="Replace a result already entered.")] = False,
) -> None:
    """Enter (or --correct) the result of a board."""
    with open_store() as store:
        commands.record_result(store, tournament, round_no, board, outcome, correct=correct)


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
) -> None:
    """Standings: points, then the tie-break chain; remaining ties share a place."""
    with open_store() as store:
        state = commands.load(store, tournament, at_round=at_round).state
    chain = _codes(tiebreaks) if tiebreaks is not None else None
    rows = compute_standings(state, chain)
    if fmt is PageFormat.HTML:
        sys.stdout.write(html.standings_html(state.settings.name, rows))
        return
    emit(views.standings_view(rows), Format(fmt.value))


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
        state = commands.load(store, tournament, at_round=at_round).state
    chain = _codes(tiebreaks) if tiebreaks is not None else None
    table = xt.crosstable(state, chain, order="rank" if sort else "start")
    match fmt:
        case PageFormat.HTML:
            sys.stdout.write(html.crosstable_html(table))
        case PageFormat.CSV:
            sys.stdout.write(xt.to_csv(table))
        case PageFormat.JSON:
            emit(views.crosstable_view(table), Format.JSON)
        case PageFormat.TEXT:
            sys.stdout.write(xt.to_text(table))


@app.command("log")
@user_errors
def log(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """The tournament's events, one per line: position, version, type, who, how, payload."""
    with open_store() as store:
        loaded = commands.load(store, tournament)
    rows = views.log_view(loaded.events)
    if fmt is Format.TEXT:
        for r in rows:
            sys.stdout.write(
                f"{r['position']:>8} v{r['version']:<5} {r['type']:<18} "
                f"{r['actor']} via {r['source']}  {r['payload']}\n"
            )
        return
    emit(rows, fmt)


@app.command("undo")
@user_errors
def undo(
    tournament: TournamentArg,
    round_no: Annotated[
        int, typer.Option("--round", "-r", min=1, help="First round to take back.")
    ],
    reason: Annotated[str | None, typer.Option(help="Why, for the archive record.")] = None,
) -> None:
    """Archive the log back to before a round was paired (restore brings it back)."""
    with open_store() as store:
        t = commands.undo(store, tournament, round_no, reason)
    err.print(
        f"archived {t.event_count} event(s) (versions {t.from_version}..{t.to_version}) "
        f"as truncation {t.truncation_id}; `arbiter restore {tournament}` brings them back",
        markup=False,
    )


@app.command("restore")
@user_errors
def restore(tournament: TournamentArg) -> None:
    """Bring back the events of the latest undo, if nothing was appended since."""
    with open_store() as store:
        t = commands.restore(store, tournament)
    err.print(f"restored {t.event_count} event(s) of truncation {t.truncation_id}", markup=False)


@app.command("demo")
@user_errors
def demo(
    out: Annotated[str, typer.Option(help="Folder for the demo's outputs.")] = "demo-output",
    seed: Annotated[int, typer.Option(help="Random seed of the generated season.")] = 2026,
) -> None:
    """Generate a sample federation season, run it through the log and print standings."""
    from pipelines.demo import run_demo

    with open_store() as store:
        run_demo(store, out, seed, console=err)


def main() -> None:
    """The ``arbiter`` command; errors outside a command end as inside one (`user_errors`)."""
    try:
        app()
    except (Exception, KeyboardInterrupt) as exc:
        sys.exit(report(exc))


# Command modules of other areas register on `app` when imported.
from pipelines import cli_ingest, cli_ratings, cli_serve, cli_store  # noqa: E402, F401
