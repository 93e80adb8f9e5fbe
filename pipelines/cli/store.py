"""`arbiter store ...`: create or migrate a store, copy a log between stores, verify, back up."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import err, open_store, store_url, user_errors
from pipelines.views.output import Format

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

store_app = typer.Typer(
    help="The event store: create, migrate, copy between DuckDB and PostgreSQL, back up.",
    no_args_is_help=True,
)
app.add_typer(store_app, name="store")

FormatOpt = Annotated[
    Format, typer.Option("--format", "-f", help="text or json.", case_sensitive=False)
]


def _print_summary(label: str, summary: dict[str, object]) -> None:
    err.print(
        f"{label}: {summary['events']} events in {summary['streams']} streams, "
        f"{summary['archived']} archived in {summary['truncations']} truncation(s), "
        f"head position {summary['head_position']}, epoch {summary['epoch']}, "
        f"events sha256 {str(summary['events_sha256'])[:16]}…",
        markup=False,
    )


@store_app.command("init")
@user_errors
def store_init() -> None:
    """Create the store's schema, or migrate it to this arbiter's version (idempotent).

    A DuckDB file is created on first use anyway; a PostgreSQL database needs this once, run
    by a user allowed to create tables.
    """
    from events.stores import init_store

    url = store_url()
    before, after = init_store(url)
    with open_store() as store:
        shown = store.url
    if before == after:
        err.print(f"store {shown} is at schema version {after}; nothing to do", markup=False)
    elif before == 0:
        err.print(f"created the store {shown} (schema version {after})", markup=False)
    else:
        err.print(f"migrated the store {shown} from version {before} to {after}", markup=False)


@store_app.command("info")
@user_errors
def store_info(fmt: FormatOpt = Format.TEXT) -> None:
    """What the store holds: events, streams, archive, counters and digests."""
    from events.transfer import summarise

    with open_store() as store:
        summary = summarise(store.export_image()).as_json()
        summary = {"store": store.url, **summary}
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        return
    for key, value in summary.items():
        sys.stdout.write(f"{key:<20} {value}\n")


@store_app.command("copy")
@user_errors
def store_copy(
    source: Annotated[str, typer.Argument(help="Store to copy from (file, or postgresql://…).")],
    destination: Annotated[
        str, typer.Argument(help="Empty store to copy into; created when it does not exist.")
    ],
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Copy a whole log (archive and truncations included) into an empty store, then verify.

    Positions, versions, event ids, payload bytes and recording times are kept, so the copy
    continues exactly where the source would. DuckDB ↔ PostgreSQL in either direction.
    """
    from events.stores import init_store
    from events.stores import open_store as open_at
    from events.transfer import copy_log

    init_store(destination)
    with open_at(source) as src, open_at(destination) as dst:
        before, after = copy_log(src, dst)
        names = (src.url, dst.url)
    if fmt is Format.JSON:
        result = {"source": before.as_json(), "copy": after.as_json(), "equal": before == after}
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        _print_summary(names[0], before.as_json())
        _print_summary(names[1], after.as_json())
    if before != after:
        err.print("error: the copy differs from the source", markup=False)
        raise typer.Exit(1)
    err.print(f"copied and verified: {before.events} events, logs equal", markup=False)


@store_app.command("verify")
@user_errors
def store_verify(
    first: Annotated[str, typer.Argument(help="A store.")],
    second: Annotated[str, typer.Argument(help="The store it should equal.")],
) -> None:
    """Prove two stores hold the same log: events, versions, payload hashes, archive,
    truncations and counters. Exit 1 naming the first differences when they do not."""
    from events.stores import open_store as open_at
    from events.transfer import differences, summarise

    with open_at(first) as a, open_at(second) as b:
        image_a, image_b = a.export_image(), b.export_image()
        names = (a.url, b.url)
    _print_summary(names[0], summarise(image_a).as_json())
    _print_summary(names[1], summarise(image_b).as_json())
    problems = differences(image_a, image_b)
    for line in problems:
        err.print(f"differs: {line}", markup=False)
    if problems:
        raise typer.Exit(1)
    err.print("logs equal", markup=False)


@store_app.command("backup")
@user_errors
def store_backup(
    path: Annotated[Path, typer.Argument(help="New DuckDB file to write.")],
) -> None:
    """Write one consistent DuckDB file of the whole store (archive included).

    Caches are left out: they are rebuilt from the log. Restore by pointing --store at the
    file, or `arbiter store copy BACKUP postgresql://…`.
    """
    from events.transfer import backup_log

    with open_store() as store:
        summary = backup_log(store, path)
    err.print(
        f"backup written to {path}: {summary.events} events, {summary.archived} archived, "
        f"events sha256 {summary.events_sha256[:16]}…",
        markup=False,
    )


@app.command("verify")
@user_errors
def verify_log(fmt: FormatOpt = Format.TEXT) -> None:
    """Recompute the log's hash chains (each stream's and the whole log's) and compare them
    with the stored ones. Exit 0 when the log is intact; exit 1 naming the first broken
    position when an event was deleted, moved, reordered or rewritten behind arbiter's back;
    exit 1 too naming each folder the log has published a list to that shows a list the log
    never published (a run killed between the swap and the event; the next run records it).
    """
    import time

    from events.chain import VERIFY_BATCH, ChainHead, verify_scan
    from pipelines.jobs.list_folders import disagreements

    started = time.perf_counter()
    with open_store() as store:
        with store.chain_scan(VERIFY_BATCH) as scan:
            broken = verify_scan(scan)
        head = store.chain_head()
        shown = store.url
        unpublished = disagreements(store) if broken is None else []
    seconds = time.perf_counter() - started
    if fmt is Format.JSON:
        result = {
            "store": shown,
            "intact": broken is None,
            "broken_position": broken.position if broken else None,
            "reason": broken.reason if broken else None,
            "events": scan.events,
            "archived": scan.archived,
            "chain_head": head.as_json() if broken is None else ChainHead(0, "").as_json(),
            "seconds": round(seconds, 3),
            "unpublished_lists": [str(d.folder) for d in unpublished],
        }
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    if broken is not None:
        err.print(f"error: {shown}: {broken}", markup=False)
        raise typer.Exit(1)
    for one in unpublished:
        err.print(
            f"error: {one.describe()}; the next 'arbiter ratings run' records it", markup=False
        )
    if unpublished:
        raise typer.Exit(1)
    if fmt is Format.TEXT:
        sys.stdout.write(
            f"log intact: {scan.events} events, {scan.archived} archived, "
            f"chain head at position {head.position}: {head.hash}\n"
        )
