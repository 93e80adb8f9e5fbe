"""Rounds on the command line: pair, the pairings (and board swaps), results, byes, forbidden
pairs, undo and restore. Each command imports the service it calls (`arbiter result` does
not load the pairing, undo or file services)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from decide.state import TournamentState
from events.domain import ByeKind
from pipelines.cli.common import (
    FormatOpt,
    PlayerArg,
    RoundArg,
    TournamentArg,
    err,
    open_store,
    player_of,
    user_errors,
)
from pipelines.commands.base import CommandError, load
from pipelines.views.output import Format, emit
from pipelines.views.tournament import named_notes, not_paired_view, pairings_rows
from projections.game_terms import entered_result

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

RoundOpt = Annotated[
    int | None, typer.Option("--round", "-r", min=1, help="Default: the last paired round.")
]


def show_round(state: TournamentState, round_no: int, fmt: Format) -> None:
    """A round's boards; as text, then every player not paired and why (byes, absences,
    withdrawals), so the list shows the whole field."""
    emit(pairings_rows(state, round_no, fmt), fmt)
    if fmt is Format.TEXT:
        for row in not_paired_view(state, round_no):
            p = row["player"]
            sys.stdout.write(f"-      {p['name']} ({p['start_rank']}): {row['why']}\n")


def _paired_round(state: TournamentState, round_no: int | None) -> int:
    rnd = round_no or state.last_round
    if rnd not in state.rounds:
        raise CommandError(
            f"{state.id}: round {rnd} is not paired (last paired round: "
            f"{state.last_round or 'none'})"
        )
    return rnd


@app.command("pair")
@user_errors
def pair(
    tournament: TournamentArg,
    fmt: FormatOpt = Format.TEXT,
    explain: Annotated[
        bool, typer.Option(help="Say, board by board, what decided the pairing (on stderr).")
    ] = False,
    bye: Annotated[
        str | None,
        typer.Option(
            metavar="PLAYER",
            help="Go gopair: the player who gets the bye of an odd field (-bye): his pairing "
            "number (id:N his id).",
        ),
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
    from pipelines.commands import rounds

    with open_store() as store:
        if boards is not None:
            event, broken = rounds.pair_by_hand(store, tournament, boards, force=force)
            for line in broken:
                err.print(f"warning: {line}", markup=False)
        else:
            given = None if bye is None else player_of(store, tournament, bye)[0]
            event = rounds.pair(store, tournament, notes, bye=given)
        loaded = load(store, tournament)
    state = loaded.state
    err.print(f"round {event.round} paired", markup=False)
    if state.system.is_team:
        from pipelines.cli.teams import show_team_round, team_state  # networkx: team work only

        show_team_round(team_state(e.event for e in loaded.events), event.round, fmt)
        return
    show_round(state, event.round, fmt)
    for line in named_notes(state, event.round, notes or []):
        err.print(line, markup=False)


@app.command("pairings")
@user_errors
def pairings(
    tournament: TournamentArg,
    round_no: RoundOpt = None,
    fmt: FormatOpt = Format.TEXT,
    swap: Annotated[
        tuple[int, int] | None,
        typer.Option(help="Exchange the players of two boards (no result yet), e.g. --swap 3 5."),
    ] = None,
) -> None:
    """Show a round's boards and results (--swap: exchange two boards first)."""
    with open_store() as store:
        if swap is not None:
            from pipelines.commands import rounds

            rnd = round_no or load(store, tournament).state.last_round
            rounds.swap_boards(store, tournament, rnd, swap[0], swap[1])
            err.print(f"round {rnd}: boards {swap[0]} and {swap[1]} exchanged", markup=False)
        state = load(store, tournament).state
    show_round(state, _paired_round(state, round_no), fmt)


@app.command("pairing-report")
@user_errors
def pairing_report_command(
    tournament: TournamentArg,
    round_no: RoundOpt = None,
    handicap_above: Annotated[
        int, typer.Option(min=0, help="List handicap games with more stones than this.")
    ] = 0,
) -> None:
    """Go: OpenGotha's pairing check of a round (MMS gaps, same club or country, colours)."""
    from projections.pairing_report import pairing_report

    with open_store() as store:
        state = load(store, tournament).state
    rnd = round_no or state.last_round
    if rnd not in state.rounds:
        raise CommandError(f"{tournament}: round {rnd} is not paired")
    report = pairing_report(state, rnd, handicap_above)
    names = {pid: p.name for pid, p in state.players.items()}
    sys.stdout.write("\n".join(report.lines(names)) + "\n")


CorrectOpt = Annotated[bool, typer.Option(help="Replace a result already entered.")]


@app.command("result")
@user_errors
def result(
    tournament: TournamentArg,
    round_no: RoundArg,
    board: Annotated[str, typer.Argument(help="Board number; M.B (match, board) for teams.")],
    outcome: Annotated[
        str, typer.Argument(metavar="RESULT", help="1-0, 0-1, 1/2-1/2, +-, B+, 40-24, ...")
    ],
    correct: CorrectOpt = False,
) -> None:
    """Enter (or --correct) the result of a board."""
    entry = {"round": round_no, "board": board, "result": outcome, "correct": correct}
    from pipelines.commands import results

    with open_store() as store:
        event = results.record_one(store, tournament, entry)
        game = load(store, tournament).state.game
    done = "corrected" if correct else "recorded"
    shown = entered_result(game, event.outcome, event.white_score, event.black_score, event.how)
    where = f"{board} (board {event.board})" if "." in board else board
    err.print(f"round {round_no} board {where}: {shown} {done}", markup=False)


@app.command("results")
@user_errors
def results_from_file(
    tournament: TournamentArg,
    round_no: Annotated[int, typer.Option("--round", "-r", min=1, help="Round number.")],
    file: Annotated[
        Path,
        typer.Option(
            "--file",
            help="Lines 'BOARD RESULT' (e.g. '3 1-0', '4 B+', '2 25-7'); '#' starts a comment.",
            dir_okay=False,
        ),
    ],
    correct: Annotated[bool, typer.Option(help="Replace results already entered.")] = False,
) -> None:
    """Enter a round's results from a file (one bad line refuses the file)."""
    from pipelines.commands import files

    with open_store() as store:
        count = files.record_results(store, tournament, round_no, file, correct=correct)
    err.print(f"round {round_no}: {count} result(s) entered from {file}", markup=False)


@app.command("bye")
@user_errors
def bye(
    tournament: TournamentArg,
    player: PlayerArg,
    round_no: RoundArg,
    kind: Annotated[ByeKind, typer.Option(help="half, zero or full point bye.")] = ByeKind.HALF,
) -> None:
    """Give a player a requested bye (or record an absence) for a round not yet paired."""
    from pipelines.commands import rounds

    with open_store() as store:
        pid, said = player_of(store, tournament, player)
        rounds.grant_bye(store, tournament, {"player": pid, "round": round_no, "kind": kind})
    err.print(f"player {said}: {kind.value}-point bye in round {round_no}", markup=False)


@app.command("forbid")
@user_errors
def forbid(tournament: TournamentArg, first: PlayerArg, second: PlayerArg) -> None:
    """Never pair two players together (siblings, team mates), from the next round on."""
    from pipelines.commands import rounds

    with open_store() as store:
        one, said_one = player_of(store, tournament, first)
        two, said_two = player_of(store, tournament, second)
        a, b, from_round = rounds.forbid(store, tournament, one, two)
    err.print(
        f"players {said_one} ({a}) and {said_two} ({b}) will not be paired together "
        f"from round {from_round} on",
        markup=False,
    )


@app.command("undo")
@user_errors
def undo_command(
    tournament: TournamentArg,
    round_no: Annotated[
        int, typer.Option("--round", "-r", min=1, help="First round to take back.")
    ],
    reason: Annotated[str | None, typer.Option(help="Why, for the archive record.")] = None,
) -> None:
    """Archive the log back to before a round was paired (restore brings it back)."""
    from pipelines.commands import undo

    with open_store() as store:
        t = undo.undo(store, tournament, round_no, reason)
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
    from pipelines.commands import undo

    with open_store() as store:
        t = undo.restore(store, tournament, truncation)
    err.print(f"restored {t.event_count} event(s) of truncation {t.truncation_id}", markup=False)


@app.command("truncations")
@user_errors
def truncations(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """Every undo of a tournament: id, versions and rounds it archived, restorable or not."""
    from pipelines.commands import undo

    with open_store() as store:
        rows = undo.truncations(store, tournament)
    if not rows:
        err.print(f"{tournament}: no undo yet", markup=False)
    emit(rows, fmt)
