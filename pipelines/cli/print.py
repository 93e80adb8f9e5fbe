"""`arbiter print`: the paper an arbiter hands out, as PDF or printable HTML."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ingest.limits import display_path
from pipelines.cli.common import TournamentArg, err, open_store, user_errors
from pipelines.commands.base import CommandError, load
from pipelines.paper.documents import Doc, Document, build, round_documents, texts_of
from projections.standings import as_of

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"


class PrintFormat(StrEnum):
    PDF = "pdf"
    HTML = "html"


def _document(text: str) -> Doc:
    try:
        return Doc(text.strip().lower())
    except ValueError:
        known = ", ".join(d.value for d in Doc if d not in (Doc.NORM_CERTIFICATE, Doc.NORM_REPORT))
        raise CommandError(f"unknown document '{text}' (one of: {known})") from None


STDOUT = Path("-")
"""`-o -`: the document goes to standard output."""


def _write(path: Path, data: bytes, force: bool) -> None:
    """`data` to `path` through the one safe writer (`pipelines.process.files`): never half a
    file, never a link, a device, a FIFO or a folder replaced; `-` is standard output."""
    from pipelines.process.files import check_file_target, write_atomic

    if path == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    check_file_target(path)
    if path.exists() and not force:
        raise CommandError(f"{display_path(path)}: already exists (--force overwrites it)")
    if not path.parent.is_dir():
        raise CommandError(f"{display_path(path)}: no such folder '{display_path(path.parent)}'")
    write_atomic(path, data)


@app.command("print")
@user_errors
def print_document(
    tournament: TournamentArg,
    document: Annotated[
        str,
        typer.Argument(
            metavar="DOCUMENT",
            help="pairings, pairings-alpha, slips, cards, wallchart, standings, players or prizes.",
        ),
    ],
    round_no: Annotated[
        int | None,
        typer.Option(
            "--round",
            "-r",
            min=1,
            help="The round (default: the last paired round; wall chart and standings: "
            "the event as it was after this round).",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="The file to write (default: T-DOCUMENT-rN.pdf here; - for standard output).",
        ),
    ] = None,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.A4,
    fmt: Annotated[
        PrintFormat, typer.Option("--format", "-f", case_sensitive=False, help="PDF or HTML.")
    ] = PrintFormat.PDF,
    force: Annotated[bool, typer.Option(help="Overwrite the output file.")] = False,
) -> None:
    """Print pairing lists, result slips, board cards, wall chart, standings, players, prizes
    (PDF, HTML).

    The event's header and "page i of n" on every page; a board or a player's row is never
    split between pages; long tables repeat their header row."""
    kind = _document(document)
    per_round = kind in round_documents
    with open_store() as store:
        state = load(store, tournament, at_round=None if per_round else round_no).state
    if per_round:
        rnd = round_no or state.last_round
        if rnd not in state.rounds:
            last = state.last_round or "none"
            raise CommandError(f"{tournament}: round {rnd} is not paired (last paired: {last})")
        suffix = f"-r{rnd}"
    else:
        rnd = as_of(state).after
        suffix = "" if kind in (Doc.PLAYERS, Doc.CHECK_IN_CODES) else f"-r{rnd}"
    path = output or Path(f"{tournament}-{kind.value}{suffix}.{fmt.value}")
    doc = build(state, kind, rnd)
    write_document(doc, path, paper.value, fmt, force)
    say_written(tournament, doc, path)


def say_written(tournament: str, doc: Document, path: Path) -> None:
    """The line on standard error saying what was written where."""
    where = "standard output" if path == STDOUT else display_path(path)
    err.print(f"{tournament}: {doc.title} written to {where}", markup=False)


def write_document(doc: Document, path: Path, paper: str, fmt: PrintFormat, force: bool) -> None:
    """`doc` rendered as PDF or HTML on `paper`, written to `path` (refused when it exists,
    unless `force`)."""
    if fmt is PrintFormat.HTML:
        from pipelines.paper.html import to_html

        data = to_html(doc, paper).encode()
    else:
        from pipelines.paper.fonts import unprintable
        from pipelines.paper.pdf import to_pdf  # reportlab: loaded for this command only

        data = to_pdf(doc, paper)
        for text in unprintable(texts_of(doc)):
            err.print(
                f"{display_path(path)}: cannot print {text!r}: no font on this system has all "
                "its letters (each missing one is shown as ?)",
                markup=False,
            )
    _write(path, data, force)
