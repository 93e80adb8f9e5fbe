"""What every command module shares: the typer app, the store option, the error reporting."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, ParamSpec, TypeVar

import typer
from rich.console import Console

from events.duckdb_store import DuckDBStore, default_store_path
from pipelines.exits import report
from pipelines.output import Format

P = ParamSpec("P")
R = TypeVar("R")

err = Console(stderr=True, highlight=False, soft_wrap=True)

app = typer.Typer(
    help="arbiter: tournaments, results and rating lists for chess, go, othello and carrom.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)
tournament_app = typer.Typer(help="Create and list tournaments.", no_args_is_help=True)
player_app = typer.Typer(help="Register and manage players.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")
app.add_typer(player_app, name="player")

_state: dict[str, str] = {}

FormatOpt = Annotated[
    Format, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
]
TournamentArg = Annotated[
    str, typer.Argument(help="Tournament id (see `arbiter tournament list`).")
]


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """End a command that raised in one line on stderr with the documented exit code.

    An `ArbiterError` prints its message and exits with its code (1 or 3); Ctrl-C prints
    "interrupted" (130); anything else is a bug: a "please report" line, exit 70
    (`pipelines.exits.report`). No traceback unless ``ARBITER_DEBUG=1``.
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # typer's own exits and usage errors (exit 2)
        except (Exception, KeyboardInterrupt) as exc:
            raise typer.Exit(report(exc)) from None

    return wrapper


@contextmanager
def open_store() -> Iterator[DuckDBStore]:
    store = DuckDBStore(_state.get("store") or default_store_path())
    try:
        yield store
    finally:
        store.close()


@app.callback()
def _main(
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            envvar="ARBITER_STORE",
            help="Event store: a DuckDB file (default ./arbiter.duckdb).",
        ),
    ] = None,
) -> None:
    if store:
        _state["store"] = store
