"""The `arbiter` command line: one module per command group, each a thin layer of options and
printing over `pipelines.commands` (writes) and `pipelines.views` (reads).

    common       the app, its groups, the store option, the one-line errors
    options      options made from the input models' fields
    tournaments  tournament create, list, show, edit, tiebreaks
    players      player add, import, list, edit, remove, withdraw, reenter
    rounds       pair, pairings, pairing-report, result, results, bye, forbid, undo, restore,
                 truncations
    reports      standings, crosstable, log
    teams        team ..., lineup, and the team views of pair, standings and crosstable
    ingest       ingest, export
    ratings      ratings run, show, schedule
    store        store init, info, copy, verify, backup; verify
    serve        serve, user ...
    batch        batch, demo

A new command goes in the module of its group (a new group: a new module, imported below); it
parses its options, calls one command or view, and prints.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from pipelines.cli import (  # noqa: F401  (each registers its commands on the app)
    batch,
    ingest,
    players,
    ratings,
    reports,
    rounds,
    serve,
    store,
    teams,
    tournaments,
)
from pipelines.cli.common import app
from pipelines.process.exits import report

__all__ = ["app", "dash_results", "main"]


def main() -> None:
    """The ``arbiter`` command; errors outside a command end as inside one (`user_errors`)."""
    from pipelines.commands.inputs import option_name

    try:
        app(args=dash_results(sys.argv[1:]))
    except (Exception, KeyboardInterrupt) as exc:
        sys.exit(report(exc, naming=option_name))


_GLOBAL_WITH_VALUE = frozenset({"--store", "--as"})
_DASH_RESULTS = frozenset({"-+", "+-", "--"})


def dash_results(argv: Sequence[str]) -> list[str]:
    """``argv`` with a result written ``-+``, ``+-`` or ``--`` moved behind a ``--``.

    Click reads a word starting with a dash as an option (and ``--`` as the end of options),
    so ``arbiter result T 4 8 -+`` would fail; the word is moved to the end, after ``--``,
    where it can only be the RESULT argument. A command line that already has ``--`` is
    left as it is.

    >>> dash_results(["--store", "s.duckdb", "result", "t", "4", "8", "-+", "--correct"])
    ['--store', 's.duckdb', 'result', 't', '4', '8', '--correct', '--', '-+']
    >>> dash_results(["result", "t", "1", "2", "--"])
    ['result', 't', '1', '2', '--', '--']
    >>> dash_results(["result", "t", "1", "2", "--", "-+"])
    ['result', 't', '1', '2', '--', '-+']
    """
    words = list(argv)
    i = 0
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _GLOBAL_WITH_VALUE else 1
    if i >= len(words) or words[i] != "result":
        return words
    rest = words[i + 1 :]
    if "--" in rest and rest.index("--") == len(rest) - 2:
        return words  # already `... -- RESULT`
    dashed = [w for w in rest if w in _DASH_RESULTS]
    if len(dashed) != 1:
        return words
    rest.remove(dashed[0])
    return [*words[: i + 1], *rest, "--", dashed[0]]
