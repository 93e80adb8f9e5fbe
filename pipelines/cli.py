"""The `arbiter` command line: thin typer commands over `pipelines.commands` and the views.

Commands of other areas live in their own modules (`pipelines.cli_*`), imported at the end so
that they register on the same app.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from events.domain import ByeKind, Game, Scoring, System
from events.errors import UserError
from events.params import CarromSettings, ChessSettings, GoSettings, PairingParams
from pipelines import commands, views
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
from pipelines.cli_director import EventOpt
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
        typer.Option(
            help="Carrom (SoL) method: swiss serial (default), dazed, staggered or all; "
            "round robin circle (default: always completes), seeds or all; knockout seeds."
        ),
    ] = None,
    draw_seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Carrom (SoL): seed of the random first-round draw of an unrated Swiss "
            "(round r draws with SEED*1000+r); default: fixed by the tournament's id.",
        ),
    ] = None,
    handicaps: Annotated[
        str | None,
        typer.Option(
            help="Go gopair: max (handicap games, default) or min (even games), "
            "as gopair's HANDICAPS directive."
        ),
    ] = None,
    early_adjustment: Annotated[
        bool | None,
        typer.Option(
            "--early-adjustment/--no-early-adjustment",
            help="Go gopair: the early-round adjustment (on by default; off is gopair's -ne).",
        ),
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
    # --- event data (pipelines.cli_director.EventOptions) ---
    start: EventOpt.start = None,
    end: EventOpt.end = None,
    place: EventOpt.place = None,
    federation: EventOpt.federation = None,
    chief_arbiter: EventOpt.chief_arbiter = None,
    deputy_arbiter: EventOpt.deputy_arbiter = None,
    time_control: EventOpt.time_control = None,
    rating_type: EventOpt.rating_type = None,
    round_date: EventOpt.round_date = None,
    boards: Annotated[
        int | None, typer.Option(min=1, max=64, help="Team events: boards per match.")
    ] = None,
    match_points: Annotated[
        str | None, typer.Option(help="Team events: match points win/draw/loss (default 2/1/0).")
    ] = None,
    team_type: Annotated[
        str | None, typer.Option(help="Team Swiss colour preferences: A (default), B or none.")
    ] = None,
    board_colours: Annotated[
        str | None, typer.Option(help="Team events: board colours of the first team (WBWB).")
    ] = None,
) -> None:
    """Create a tournament; prints its id as the last line."""
    from events.go import parse_rank
    from pipelines.director import event_data
    from pipelines.engines.chess_rules import dutch_rules

    data = event_data(
        game,
        rounds * (2 if double else 1),
        start=start,
        end=end,
        place=place,
        federation=federation,
        chief_arbiter=chief_arbiter,
        deputy_arbiters=deputy_arbiter,
        time_control=time_control,
        rating_type=rating_type,
        round_dates=round_date or (),
    )

    if handicaps is not None and handicaps.lower() not in ("max", "min"):
        raise UserError(f"--handicaps '{handicaps}': expected max (handicap games) or min (even)")
    try:
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
                gopair_handicaps=None if handicaps is None else handicaps.lower(),
                gopair_early_adjustment=early_adjustment,
            ),
            carrom=CarromSettings(
                couplings=pairing,
                delaytoppairing=delay_top_players,
                delaycompatriotpairing=delay_compatriots,
                phantomscore=phantom_score,
                draw_seed=draw_seed,
            ),
            team=cli_teams.team_settings(
                boards or (4 if system.is_team else None), match_points, team_type, board_colours
            ),
        )
    except ValidationError as exc:
        raise UserError.from_validation(exc, "tournament settings") from None
    if game is Game.CARROM:
        from pipelines.cli_games import check_carrom_method

        check_carrom_method(system, pairing)
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
            pairing_params=data.with_rating_type(params),
            event_data=data.created_fields(),
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
    err.print(f"{tournament}: tie-breaks {','.join(_codes(chain))}", markup=False)


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
    seed: Annotated[
        int | None,
        typer.Option(min=1, help="Seed position (knockout, SoL round robin; fixed start number)."),
    ] = None,
    aga_rating: Annotated[
        float | None,
        typer.Option(help="Go: AGA rating for gopair, e.g. 3.27 (dan) or -5.5 (kyu)."),
    ] = None,
    sex: Annotated[str | None, typer.Option(help="m or f.")] = None,
    force: Annotated[
        bool, typer.Option(help="Register although a player of that name and birth exists.")
    ] = False,
) -> None:
    """Register a player; prints the player's id."""
    from pipelines.director import add_player

    with open_store() as store:
        pid, note = add_player(
            store,
            tournament,
            force=force,
            name=name,
            rating=rating,
            federation=federation,
            fide_id=fide_id,
            title=title,
            club=club,
            rank=rank,
            birth=birth,
            sex=sex,
            pairing_number=seed,
            aga_rating=aga_rating,
        )
    err.print(f"registered player {pid} ({name}){'; ' + note if note else ''}", markup=False)
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
    err.print(f"player {player}: {kind.value}-point bye in round {round_no}", markup=False)


# ------------------------------------------------------------------ rounds


@app.command("pair")
@user_errors
def pair(
    tournament: TournamentArg,
    fmt: FormatOpt = Format.TEXT,
    explain: Annotated[
        bool, typer.Option(help="Say, board by board, what decided the pairing (on stderr).")
    ] = False,
    bye: Annotated[
        int | None,
        typer.Option(help="Go gopair: the player who gets the bye of an odd field (-bye)."),
    ] = None,
    boards: Annotated[
        Path | None,
        typer.Option(
            help="Pair the round by hand from this file (as `arbiter-pairings -p` writes it: "
            "the number of boards, then 'WHITE BLACK' start ranks, 'N 0' for the bye)."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option(help="With --boards: record it although it breaks absolute criteria.")
    ] = False,
) -> None:
    """Pair the next round with the tournament's system (or --boards) and print it."""
    notes: list[str] | None = [] if explain else None
    with open_store() as store:
        if boards is not None:
            event = cli_director.pair_from_file(store, tournament, boards, force)
        else:
            event = commands.pair(store, tournament, notes, bye=bye)
        loaded = commands.load(store, tournament)
    state = loaded.state
    err.print(f"round {event.round} paired", markup=False)
    if state.system.is_team:
        teams = cli_teams.team_state(e.event for e in loaded.events)
        cli_teams.show_team_round(teams, event.round, fmt)
        return
    cli_director.show_round(state, event.round, fmt)
    for line in views.named_notes(state, event.round, notes or []):
        err.print(line, markup=False)


@app.command("pairings")
@user_errors
def pairings(
    tournament: TournamentArg,
    round_no: Annotated[
        int | None, typer.Option("--round", "-r", min=1, help="Default: the last paired round.")
    ] = None,
    fmt: FormatOpt = Format.TEXT,
    swap: Annotated[
        tuple[int, int] | None,
        typer.Option(help="Exchange the players of two boards (no result yet), e.g. --swap 3 5."),
    ] = None,
) -> None:
    """Show a round's boards and results (--swap: exchange two boards first)."""
    with open_store() as store:
        if swap is not None:
            cli_director.swap(store, tournament, round_no, swap)
        state = commands.load(store, tournament).state
    rnd = round_no or state.last_round
    if rnd not in state.rounds:
        raise commands.CommandError(
            f"{tournament}: round {rnd} is not paired (last paired round: "
            f"{state.last_round or 'none'})"
        )
    cli_director.show_round(state, rnd, fmt)


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
    board: Annotated[str, typer.Argument(help="Board number; M.B (match, board) for teams.")],
    outcome: Annotated[
        str, typer.Argument(metavar="RESULT", help="1-0, 0-1, 1/2-1/2, +-, B+, 40-24, ...")
    ],
    correct: Annotated[bool, typer.Option(help="Replace a result already entered.")] = False,
) -> None:
    """Enter (or --correct) the result of a board."""
    board_no = cli_teams.board_spec(tournament, board)
    with open_store() as store:
        event = commands.record_result(
            store, tournament, round_no, board_no, outcome, correct=correct
        )
    done = "corrected" if correct else "recorded"
    err.print(f"round {round_no} board {board}: {event.outcome.value} {done}", markup=False)


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
        state = commands.load(store, tournament, at_round=at_round).state
    chain = _codes(tiebreaks) if tiebreaks is not None else None
    if state.has_teams and (state.system.is_team or not individual):
        cli_teams.team_standings_output(tournament, at_round, chain, fmt, players)
        return
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
    if state.has_teams:
        cli_teams.team_crosstable_output(tournament, at_round, fmt)
        return
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
        f"as truncation {t.truncation_id}; `arbiter restore {tournament} --truncation "
        f"{t.truncation_id}` brings them back",
        markup=False,
    )


@app.command("restore")
@user_errors
def restore(
    tournament: TournamentArg,
    truncation: Annotated[
        int | None,
        typer.Option(help="Truncation id (see `arbiter truncations`); default: the latest."),
    ] = None,
) -> None:
    """Bring back the events of an undo (the latest, or --truncation N) whose cut point is
    the stream's head."""
    from pipelines.director import restore as restore_truncation

    with open_store() as store:
        t = restore_truncation(store, tournament, truncation)
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
        app(args=dash_results(sys.argv[1:]))
    except (Exception, KeyboardInterrupt) as exc:
        sys.exit(report(exc))


# Command modules of other areas register on `app` when imported.
from pipelines import (  # noqa: E402, F401
    cli_director,
    cli_games,
    cli_ingest,
    cli_ratings,
    cli_serve,
    cli_store,
    cli_teams,
)
from pipelines.cli_director import dash_results  # noqa: E402
