"""Commands of each game's own parts: bulk registration and results, carrom (SoL) methods."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from events.domain import System
from events.errors import UserError
from pipelines.cli_common import TournamentArg, app, err, open_store, player_app, user_errors

__all__ = ["check_carrom_method"]


def check_carrom_method(system: System, method: str | None) -> None:
    """Refuse a SoL method the carrom system does not have, when the tournament is created."""
    from pairing.sol.model import SolParams

    allowed = {
        System.SWISS: "serial, dazed, staggered or all",
        System.ROUNDROBIN: "seeds, circle or all",
        System.KNOCKOUT: "seeds",
    }
    if system not in allowed:
        raise UserError("carrom is paired by SoL: --system swiss, roundrobin or knockout")
    if method is None:
        return
    try:
        SolParams.model_validate({"system": system.value, "couplings": method})
    except ValueError:
        raise UserError(
            f"--pairing '{method}' is not a carrom {system.value} method ({allowed[system]})"
        ) from None


@player_app.command("import")
@user_errors
def player_import(
    tournament: TournamentArg,
    file: Annotated[
        Path,
        typer.Argument(
            help="CSV with a header: name (required), rating, federation, fide_id, title, "
            "club, rank, aga_rating, birth, sex, seed.",
            dir_okay=False,
        ),
    ],
) -> None:
    """Register a whole field from a CSV file (one bad line refuses the file); prints the ids."""
    from pipelines.bulk import import_players

    with open_store() as store:
        ids = import_players(store, tournament, file)
    err.print(f"registered {len(ids)} player(s) from {file}", markup=False)
    for pid in ids:
        typer.echo(pid)


@app.command("results")
@user_errors
def results(
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
    from pipelines.bulk import record_results

    with open_store() as store:
        count = record_results(store, tournament, round_no, file, correct=correct)
    err.print(f"round {round_no}: {count} result(s) entered from {file}", markup=False)


@app.command("batch")
@user_errors
def batch(
    file: Annotated[
        Path,
        typer.Argument(
            help="arbiter commands, one a line ('arbiter' optional, shell quoting, '#' "
            "comments), e.g. 'pair oslo-open' then 'results oslo-open --round 1 --file r1.txt'.",
            dir_okay=False,
        ),
    ],
) -> None:
    """Run arbiter commands from a file in one process, in order, on this store.

    Each command prints what it would print alone; the first that fails stops the batch
    with its own exit status, after a line naming FILE:LINE. Every event records its own
    command line.
    """
    import shlex

    from typer._click.exceptions import ClickException

    from pipelines.bulk import BadLine
    from pipelines.cli_common import store_url

    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadLine(f"{file}: cannot read: {exc}") from None
    saved = sys.argv
    for number, line in enumerate(lines, start=1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise BadLine(f"{file}:{number}:1: {exc}") from None
        if words[:1] == ["arbiter"]:
            words = words[1:]
        if not words:
            continue
        if words[0] == "batch":
            raise BadLine(f"{file}:{number}:1: a batch cannot run another batch")
        sys.argv = ["arbiter", *words]
        try:
            code = app(["--store", store_url(), *words], standalone_mode=False)
        except ClickException as exc:
            err.print(f"{file}:{number}: {exc.format_message()}", markup=False)
            raise typer.Exit(2) from None
        finally:
            sys.argv = saved
        if code:
            err.print(f"{file}:{number}: stopped: `{line.strip()}` failed", markup=False)
            raise typer.Exit(code)
