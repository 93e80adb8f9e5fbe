"""The `arbiter` command line: one module per command group, each a thin layer of options and
printing over `pipelines.commands` (writes) and `pipelines.views` (reads).

    common       the store the command line names, the one-line errors, shared arguments
    options      options made from the input models' fields
    tournaments  tournament create, list, show, edit, tiebreaks, update-ratings
    players      player add, import, list, edit, remove, withdraw, reenter
    rounds       pair, pairings, pairing-report, result, results, bye, forbid, undo, restore,
                 truncations
    reports      standings, crosstable, log
    print        print (pairing lists, slips, cards, wall chart, standings, players as PDF/HTML)
    prizes       prizes (set the prize list, who gets what)
    registration registrations (approve, decline), check-in
    norms        norms (FIDE title norms)
    teams        team ..., lineup, and the team views of pair, standings and crosstable
    ingest       ingest, export
    checks       check (what FIDE or the EGD would send back)
    ratings      ratings run, show, schedule
    store        store init, info, copy, verify, backup; verify
    serve        serve, user ...
    batch        batch, demo

`COMMANDS` names each top-level command's module: a command's module is imported when that
command runs (or shows its own help), so `arbiter --help` or `arbiter result ...` does not pay
for what other commands need (polars, networkx, the web server). A new command goes in the
module of its group (decorated on that module's ``app``) and gets its line in `COMMANDS`.
"""

from __future__ import annotations

import functools
import importlib
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer import _click
from typer.core import TyperCommand, TyperGroup

__all__ = ["COMMANDS", "STATE", "app", "dash_results", "main"]


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a top-level command lives, and how `arbiter --help` lists it."""

    module: str
    panel: str
    help: str


EVENTS, ROUNDS, REPORTS, FEDERATION, SYSTEM = (
    "Tournaments",
    "Rounds and results",
    "Reports",
    "Federation",
    "Store and server",
)

COMMANDS: dict[str, Entry] = {
    "tournament": Entry("tournaments", EVENTS, "Create, list, show and edit tournaments."),
    "player": Entry("players", EVENTS, "Register and manage players."),
    "team": Entry("teams", EVENTS, "Teams of a team tournament."),
    "lineup": Entry("teams", EVENTS, "Set who plays a round for a team (roster positions, board 1 first)."),
    "registrations": Entry("registration", EVENTS, "Entries players made on the event's page: list them, `approve N` or `decline N`."),
    "check-in": Entry("registration", EVENTS, "Check players in before round 1 (the director, at any time before round 1 is paired)."),
    "forbid": Entry("rounds", EVENTS, "Never pair two players together (siblings, team mates), from the next round on."),
    "bye": Entry("rounds", EVENTS, "Give a player a requested bye (or record an absence) for a round not yet paired."),
    "pair": Entry("rounds", ROUNDS, "Pair the next round with the tournament's system (or --boards) and print it."),
    "pairings": Entry("rounds", ROUNDS, "Show a round's boards and results (--swap: exchange two boards first)."),
    "pairing-report": Entry("rounds", ROUNDS, "Go: OpenGotha's pairing check of a round (MMS gaps, same club or country, colours)."),
    "result": Entry("rounds", ROUNDS, "Enter (or --correct) the result of a board."),
    "results": Entry("rounds", ROUNDS, "Enter a round's results from a file (one bad line refuses the file)."),
    "undo": Entry("rounds", ROUNDS, "Archive the log back to before a round was paired (restore brings it back)."),
    "restore": Entry("rounds", ROUNDS, "Bring back the events of an undo (the latest, or --truncation N) whose cut point is the stream's head."),
    "truncations": Entry("rounds", ROUNDS, "Every undo of a tournament: id, versions and rounds it archived, restorable or not."),
    "standings": Entry("reports", REPORTS, "Standings: points, then the tie-break chain; remaining ties share a place."),
    "crosstable": Entry("reports", REPORTS, "The crosstable: per round opponent, colour and result, then points and tie-breaks."),
    "log": Entry("reports", REPORTS, "The tournament's events, one per line: position, version, type, who, how, payload."),
    "prizes": Entry("prizes", REPORTS, "Prize lists: `prizes T set FILE` sets them (TOML), `prizes T` shows who gets what."),
    "print": Entry("print", REPORTS, "Print pairing lists, result slips, board cards, wall chart, standings, players, prizes (PDF, HTML)."),
    "norms": Entry("norms", REPORTS, "Title norms (FIDE B.01 1.4): per player the games, the opponents' titles, federations and average, the performance, the norms made and the rounds left out to make them."),
    "check": Entry("checks", REPORTS, "Check a tournament as its rating body would before the file is uploaded. Exit 1 if anything is found."),
    "export": Entry("ingest", REPORTS, "Write a tournament as a federation file: TRF (FIDE), h9 (EGD), .ELO (WOF), .tou, XML."),
    "ingest": Entry("ingest", FEDERATION, "Ingest result files: each one atomically, each one once. Exit 1 if any file failed."),
    "ratings": Entry("ratings", FEDERATION, "Rating lists: compute, publish, inspect."),
    "schedule": Entry("ratings", FEDERATION, "Run the rating lists on a schedule (default 03:30 on the 1st of odd months)."),
    "store": Entry("store", SYSTEM, "The event store: create, migrate, copy between DuckDB and PostgreSQL, back up."),
    "verify": Entry("store", SYSTEM, "Recompute the log's hash chains (each stream's and the whole log's) and compare them with the stored ones. Exit 0 when the log is intact; exit 1 naming the first broken position when an event was deleted, moved, reordered or rewritten behind arbiter's back; exit 1 too naming each folder the log has published a list to that shows a list the log never published (a run killed between the swap and the event; the next run records it)."),
    "serve": Entry("serve", SYSTEM, "Serve live pairings, standings, crosstables and rating lists, and the API."),
    "user": Entry("serve", SYSTEM, "Accounts of the web server: officers and tournament directors."),
    "batch": Entry("batch", SYSTEM, "Run arbiter commands from a file in one process, in order, on this store."),
    "demo": Entry("batch", SYSTEM, "Generate a sample federation season, run it through the log and print standings."),
}  # fmt: skip
"""Every top-level command: its module in `pipelines.cli`, its panel and line in ``--help``
(the first line of the command's own help; a test holds them equal)."""

STATE: dict[str, str] = {}
"""What the global options set: the store (``--store``)."""


@functools.cache
def command_of(name: str) -> _click.Command:
    """The click command ``name``, its module imported now: only that command is built
    (typer reads the signature of each command it builds; `arbiter batch` runs many
    commands, each built once)."""
    from pipelines.cli.help import tidy

    app = importlib.import_module(f"pipelines.cli.{COMMANDS[name].module}").app
    command = _built(app, name)
    tidy(command)
    return command


def _built(app: typer.Typer, name: str) -> _click.Command:
    """The command or command group ``name`` of a module's ``app``, as `typer.main.get_group`
    builds it inside the module's group."""
    short, markup = app.pretty_exceptions_short, app.rich_markup_mode
    for info in app.registered_commands:
        assert info.callback is not None
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=short, rich_markup_mode=markup
            )
    for group in app.registered_groups:
        if group.name == name:
            return typer.main.get_group_from_info(
                group,
                pretty_exceptions_short=short,
                rich_markup_mode=markup,
                suggest_commands=app.suggest_commands,
            )
    raise KeyError(name)


class _Listed(TyperCommand):
    """A command as `arbiter --help` lists it, whose module is loaded only when it runs."""

    def __init__(self, name: str, entry: Entry) -> None:
        super().__init__(name, help=entry.help, short_help=entry.help, rich_help_panel=entry.panel)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: _click.Context | None = None,
        **extra: Any,
    ) -> _click.Context:
        return command_of(str(self.name)).make_context(info_name, args, parent=parent, **extra)


class _Commands(TyperGroup):
    """The top-level group: its commands from `COMMANDS`, each loaded when it runs."""

    def list_commands(self, ctx: _click.Context) -> list[str]:
        del ctx  # the same commands in every context
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        del ctx
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return self.commands.get(cmd_name)  # one registered on the root app itself
        return _Listed(cmd_name, entry)

    def invoke(self, ctx: _click.Context) -> Any:
        """As a group does, but Ctrl-C while a command's module loads (typer would end silently
        with 130) says "interrupted", as everywhere else."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            from pipelines.process.exits import report

            raise typer.Exit(report(exc)) from None

    def format_commands(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        """The commands by panel, in `COMMANDS`' order (plain text: `arbiter --help` loads no
        rich help renderer, and no command's module)."""
        del ctx
        panels: dict[str, list[tuple[str, str]]] = {}
        for name, entry in COMMANDS.items():
            panels.setdefault(entry.panel, []).append((name, entry.help))
        for panel, rows in panels.items():
            with formatter.section(panel):
                formatter.write_dl(rows)


app = typer.Typer(
    cls=_Commands,
    rich_markup_mode=None,
    help="arbiter: tournaments, results and rating lists for chess, go, othello and carrom.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


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
    from events.errors import UserError
    from events.provenance import Origin, default_actor, set_origin
    from events.text import excerpt, text_problem

    # The actor is printed on a line of its own by `arbiter log` and stored with every event:
    # a newline or an escape sequence in it would forge a line.
    problem = None if actor is None else text_problem(actor)
    if actor is not None and (problem is not None or not actor.strip()):
        source = "$ARBITER_USER" if "--as" not in _given_options(sys.argv[1:]) else "--as"
        raise UserError(f"{source} {problem or 'is empty'}: {excerpt(actor)}")
    if store:
        STATE["store"] = store
    set_origin(Origin(actor or default_actor(), "cli", _command_line(sys.argv[1:])))


_SECRET_OPTIONS = ("--store", "--as")


def _given_options(argv: list[str]) -> set[str]:
    """The global options on the command line (``--as x`` and ``--as=x`` alike)."""
    return {word.split("=", 1)[0] for word in argv if word.startswith("--")}


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


def main() -> None:
    """The ``arbiter`` command; errors outside a command end as inside one (`user_errors`)."""
    try:
        app(args=dash_results(sys.argv[1:]))
    except SystemExit as exc:
        if exc.code:  # a failure: was it a Ctrl-C typer caught and ended without a word?
            from events.errors import INTERRUPTED_EXIT_CODE
            from pipelines.process.exits import report, said_anything

            if exc.code == INTERRUPTED_EXIT_CODE and not said_anything():
                report(KeyboardInterrupt())
        raise
    except (Exception, KeyboardInterrupt) as exc:
        from decide.inputs import option_name
        from pipelines.process.exits import report

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
