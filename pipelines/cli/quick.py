"""The light commands in their plain forms, run without building typer's command (issue 47).

Typer builds a command when it runs: it reads the function's signature, makes a click command
and a pydantic `TypeAdapter` per parameter, and parses the line with them (0.006-0.008 s of
CPU for ``arbiter standings T``, pydantic being loaded already for the event models: about a
thirtieth of the command). A director's most frequent lines are plain, and `plain` reads them
here:

    [--store S] [--as A] standings T
    [--store S] [--as A] pairings T
    [--store S] [--as A] result T ROUND BOARD RESULT [--correct]
    [--store S] [--as A] player add T --name NAME [--force]

(``--store=S`` and ``--as=A`` too, the global options read from ``$ARBITER_STORE`` and
``$ARBITER_USER`` when not given, as typer reads them). The same functions then run as typer
would call them: the global options' callback, then the command with the values typer would
pass. Anything else (another option, ``--help``, a word that starts with a dash, a round that
is not a plain number, an option given twice, a missing or extra argument) returns None, and
typer reads the line, so its help, its usage errors and their exit codes are typer's own.
"""

from __future__ import annotations

import os
import re
from functools import partial

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["plain"]

_GLOBALS = {"--store": "ARBITER_STORE", "--as": "ARBITER_USER"}
_NUMBER = re.compile(r"[1-9][0-9]{0,5}\Z")
"""A round as every reader of an int reads it alike (no sign, no blank, no underscore)."""


def plain(argv: list[str]) -> Callable[[], None] | None:
    """The command line ``argv`` (after `pipelines.cli.dash_results`) as a call, when it is
    one of the plain forms above; None otherwise."""
    given: dict[str, str] = {}
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name, eq, value = argv[i].partition("=")
        if name not in _GLOBALS or name in given:
            return None
        if not eq:
            if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                return None
            value = argv[i + 1]
            i += 1
        given[name] = value
        i += 1
    command = _command(argv[i:])
    if command is None:
        return None
    store, actor = (given.get(o, os.environ.get(v) or None) for o, v in _GLOBALS.items())

    def run() -> None:
        from pipelines.cli import _main

        _main(store=store, actor=actor)
        command()

    return run


def _command(words: list[str]) -> Callable[[], None] | None:
    """The light command ``words`` names, with its arguments, or None."""
    flags = [w for w in words if w.startswith("-")]
    if len(set(flags)) != len(flags):
        return None
    args = [w for w in words if not w.startswith("-")]
    match args, flags:
        case ["standings", tournament], []:
            return partial(_standings, tournament)
        case ["pairings", tournament], []:
            return partial(_pairings, tournament)
        case ["result", tournament, round_no, board, outcome], [] | ["--correct"]:
            if not _NUMBER.match(round_no):
                return None
            return partial(_result, tournament, int(round_no), board, outcome, bool(flags))
    return _player_add(words)


def _player_add(words: list[str]) -> Callable[[], None] | None:
    """``player add T --name NAME [--force]`` (``--name=NAME`` too), in any order after
    ``player add``, as typer reads them."""
    if words[:2] != ["player", "add"]:
        return None
    rest = words[2:]
    tournament: str | None = None
    name: str | None = None
    force = False
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--force" and not force:
            force = True
        elif word.startswith("--name=") and name is None:
            name = word.removeprefix("--name=")
        elif word == "--name" and name is None and i + 1 < len(rest):
            name = rest[i + 1]
            if name.startswith("-"):
                return None
            i += 1
        elif not word.startswith("-") and tournament is None:
            tournament = word
        else:
            return None
        i += 1
    if tournament is None or not name:
        return None
    return partial(_player_add_run, tournament, name, force)


# The commands, called as typer calls them (each module imported when its command runs).


def _standings(tournament: str) -> None:
    from pipelines.cli import reports

    reports.standings(tournament)


def _pairings(tournament: str) -> None:
    from pipelines.cli import rounds

    rounds.pairings(tournament)


def _result(tournament: str, round_no: int, board: str, outcome: str, correct: bool) -> None:
    from pipelines.cli import rounds

    rounds.result(tournament, round_no, board, outcome, correct)


def _player_add_run(tournament: str, name: str, force: bool) -> None:
    from pipelines.cli import players

    players.player_add(tournament, force=force, name=name)
