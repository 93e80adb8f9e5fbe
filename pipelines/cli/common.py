"""What every command module shares: the store the command line names, the one-line errors
(fields named by their options), the common arguments."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar, cast

import typer

from events.stores import default_store_url
from events.stores import open_store as open_store_at
from pipelines.cli import STATE
from pipelines.process.exits import report
from pipelines.views.output import Format

if TYPE_CHECKING:
    from rich.console import Console

    from events.store import Store

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def _stderr_console() -> Console:
    from rich.console import Console

    # emoji=False: a place such as "file.ELO:100:1" must not print as an emoji (":100:").
    return Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


class _Stderr:
    """The stderr console, made when a command first needs rich: a line of printable text
    without markup (what most commands say there) is written as rich would write it, without
    loading rich (a tenth of a light command's start-up)."""

    def print(self, *objects: Any, markup: bool | None = None, **options: Any) -> None:
        if markup is False and not options and len(objects) == 1:
            text = objects[0]
            if isinstance(text, str) and text.isprintable():
                sys.stderr.write(text + "\n")
                return
        _stderr_console().print(*objects, markup=markup, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(_stderr_console(), name)


err = cast("Console", _Stderr())


def codes(text: str | None) -> list[str]:
    """A comma-separated list of codes (tie-breaks) as typed: ``BH/C1, BH,SB``."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


PlayerArg = Annotated[
    str,
    typer.Argument(
        metavar="PLAYER",
        help="The player's pairing number (start rank), as the listings show it; id:N names "
        "him by his id. Before round 1 is paired the numbers follow the field as it stands "
        "(by rating) and change as players are added.",
    ),
]


def player_of(store: Store, tournament: str, text: str) -> tuple[int, str]:
    """The id of the player PLAYER names (`pipelines.commands.base.player_named`), and how to
    say him in a message: by his pairing number, ``No. 4``."""
    from pipelines.commands.base import load, player_named

    state = load(store, tournament).state
    pid = player_named(state, text)
    rank = state.start_ranks().get(pid)
    return pid, f"No. {rank}" if rank is not None else f"id:{pid}"


RoundArg = Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")]


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
            from decide.inputs import option_name  # the input models: on failure

            raise typer.Exit(report(exc, naming=option_name)) from None

    return wrapper


def store_url() -> str:
    """The store the command line names (``--store``, ``$ARBITER_STORE``, the default)."""
    return STATE.get("store") or default_store_url()


_HELD: dict[str, Store | None] = {}
"""The stores `holding_store` keeps open across commands, by URL (None until one opens it)."""


@contextmanager
def open_store() -> Iterator[Store]:
    """The store the command line names, open for one command (or held: `holding_store`)."""
    # A command reports a lost server in one line; the driver's and the pool's own warnings
    # (an abandoned COPY, reconnect attempts) would repeat it.
    logging.getLogger("psycopg").setLevel(logging.CRITICAL)
    url = store_url()
    if url in _HELD:
        held = _HELD[url]
        if held is None:
            held = _HELD[url] = open_store_at(url)
        yield held
        return
    store = open_store_at(url)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def holding_store() -> Iterator[None]:
    """The commands run inside (`arbiter batch`'s lines) share one store, opened by the first
    that needs it and closed at the end, instead of opening the file (or connecting to the
    server) and checking its schema once each. Every command still commits on its own, and
    a long batch still gives way to other processes between two store operations
    (`events.recorders.duckdb.TURN`)."""
    url = store_url()
    if url in _HELD:
        yield
        return
    _HELD[url] = None
    try:
        yield
    finally:
        held = _HELD.pop(url)
        if held is not None:
            held.close()
