"""What every command module shares: the typer app and its groups, the store option, the
error reporting (fields named by their options)."""

from __future__ import annotations

import functools
import logging
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, ParamSpec, TypeVar

import typer
from rich.console import Console

from events.provenance import Origin, default_actor, set_origin
from events.store import Store
from events.stores import default_store_url
from events.stores import open_store as open_store_at
from pipelines.commands.inputs import option_name
from pipelines.process.exits import report
from pipelines.views.output import Format

P = ParamSpec("P")
R = TypeVar("R")

# emoji=False: a place such as "file.ELO:100:1" must not print as an emoji (":100:").
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

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


def codes(text: str | None) -> list[str]:
    """A comma-separated list of codes (tie-breaks) as typed: ``BH/C1, BH,SB``."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


PlayerArg = Annotated[int, typer.Argument(metavar="PLAYER", help="Player id.")]
RoundArg = Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")]

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
    (`pipelines.process.exits.report`). No traceback unless ``ARBITER_DEBUG=1``.
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # typer's own exits and usage errors (exit 2)
        except (Exception, KeyboardInterrupt) as exc:
            raise typer.Exit(report(exc, naming=option_name)) from None

    return wrapper


def store_url() -> str:
    """The store the command line names (``--store``, ``$ARBITER_STORE``, the default)."""
    return _state.get("store") or default_store_url()


@contextmanager
def open_store() -> Iterator[Store]:
    # A command reports a lost server in one line; the driver's and the pool's own warnings
    # (an abandoned COPY, reconnect attempts) would repeat it.
    logging.getLogger("psycopg").setLevel(logging.CRITICAL)
    store = open_store_at(store_url())
    try:
        yield store
    finally:
        store.close()


_SECRET_OPTIONS = ("--store", "--as")


def _command_line(argv: list[str]) -> str:
    """The command as typed, without the values of --store and --as (a URL may hold a
    password), shortened to 300 characters."""
    words: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word in _SECRET_OPTIONS:
            skip = True
            continue
        if word.startswith(tuple(o + "=" for o in _SECRET_OPTIONS)):
            continue
        words.append(word)
    text = shlex.join(["arbiter", *words])
    return text if len(text) <= 300 else text[:299] + "…"


@app.callback()
def _main(
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            envvar="ARBITER_STORE",
            help="Event store: a DuckDB file (default ./arbiter.duckdb), :memory:, or a "
            "PostgreSQL URL for a shared log, e.g. postgresql://user@host/db or "
            "postgresql://user@/db?host=/run/postgresql (unix socket).",
        ),
    ] = None,
    actor: Annotated[
        str | None,
        typer.Option(
            "--as",
            envvar="ARBITER_USER",
            help="Who is acting, recorded with every event (default: the system user).",
        ),
    ] = None,
) -> None:
    if store:
        _state["store"] = store
    set_origin(Origin(actor or default_actor(), "cli", _command_line(sys.argv[1:])))
