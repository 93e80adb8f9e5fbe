"""`arbiter batch` (commands from a file, in one process) and `arbiter demo`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import err, holding_store, open_store, store_url, user_errors
from pipelines.commands.files import BadLine

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("demo")
@user_errors
def demo(
    out: Annotated[str, typer.Option(help="Folder for the demo's outputs.")] = "demo-output",
    seed: Annotated[int, typer.Option(help="Random seed of the generated season.")] = 2026,
) -> None:
    """Generate a sample federation season, run it through the log and print standings."""
    from pipelines.jobs.demo import run_demo

    with open_store() as store:
        run_demo(store, out, seed, console=err)


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
    from pipelines.cli import app as root  # the whole command line (this module is part of it)

    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadLine(f"{file}: cannot read: {exc}") from None
    with holding_store():
        _run_lines(file, lines, root)


def _run_lines(file: Path, lines: list[str], root: typer.Typer) -> None:
    """Each line as the command line it would be, in order; the first failure stops."""
    import shlex

    from typer._click.exceptions import ClickException

    from pipelines.cli import dash_results

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
            # a result written -+, +- or -- is read as on the command line (after a --)
            args = dash_results(["--store", store_url(), *words])
            code = root(args, standalone_mode=False)
        except ClickException as exc:
            err.print(f"{file}:{number}: {exc.format_message()}", markup=False)
            raise typer.Exit(2) from None
        finally:
            sys.argv = saved
        if code:
            err.print(f"{file}:{number}: stopped: `{line.strip()}` failed", markup=False)
            raise typer.Exit(code)
