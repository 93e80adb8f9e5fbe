"""`arbiter check`: what a rating body would send back before a tournament's file is uploaded;
it registers on the shared app when imported."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated

import typer

from pipelines.cli.common import TournamentArg, err, open_store, user_errors
from pipelines.commands import base as commands
from pipelines.views.checks import Body, check

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


class CheckFormat(StrEnum):
    """``--format`` of ``check``."""

    TEXT = "text"
    JSON = "json"


@app.command("check")
@user_errors
def check_command(
    tournament: TournamentArg,
    body: Annotated[
        Body,
        typer.Option(
            "--for", case_sensitive=False, help="The rating body: fide (chess) or egd (go)."
        ),
    ],
    fmt: Annotated[
        CheckFormat,
        typer.Option("--format", "-f", case_sensitive=False, help="Output format."),
    ] = CheckFormat.TEXT,
) -> None:
    """Check a tournament as its rating body would before the file is uploaded. Exit 1 if
    anything is found.

    One line per finding, against the imported list in force at the event's start. FIDE: the
    event's rating type and start date; per player a missing FIDE id, an id not on the list of
    the event's rating type, a rating or a name other than the list's, no birth date or sex, a
    missing or unknown federation. EGD: a missing PIN, a PIN not on the EGD list, a grade
    other than the list's. With no such list imported it says so on stderr and checks only
    what needs no list. ``--format json``: one object per finding (player, name, field,
    problem).
    """
    with open_store() as store:
        loaded = commands.load(store, tournament)
        report = check(store, loaded.state, body)
    if report.note is not None:
        err.print(report.note, markup=False)
    if fmt is CheckFormat.JSON:
        rows = [f.as_dict() for f in report.findings]
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
    else:
        for finding in report.findings:
            sys.stdout.write(f"{tournament}: {finding}\n")
    against = "" if report.read is None else f" against {report.read}"
    err.print(
        f"{tournament}: {len(report.findings)} finding(s) for {body.value.upper()}{against}",
        markup=False,
    )
    if report.findings:
        raise typer.Exit(1)
