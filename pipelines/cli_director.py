"""The director's controls on the command line: event data, player edits, forbidden pairs,
hand-made pairings, board swaps, truncations.

Registered on the shared app by `pipelines.cli` (imported at its end). The commands are thin:
validation and events live in `pipelines.director`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from events.schema import RoundPaired
from events.store import Store
from pipelines import commands, director
from pipelines.cli_common import (
    FormatOpt,
    TournamentArg,
    app,
    err,
    open_store,
    player_app,
    tournament_app,
    user_errors,
)
from pipelines.views import tournament as views
from pipelines.views.output import Format, emit
from projections.state import TournamentState

__all__ = ["EventOpt", "dash_results", "pair_from_file", "show_round", "swap"]


class EventOpt:
    """The event-data options that `tournament create` and `tournament edit` share."""

    start = Annotated[str | None, typer.Option(help="First day, YYYY-MM-DD.")]
    end = Annotated[str | None, typer.Option(help="Last day, YYYY-MM-DD.")]
    place = Annotated[str | None, typer.Option(help="Where it is played (city, venue).")]
    federation = Annotated[
        str | None, typer.Option(help="Organising federation (chess: FIDE code such as NOR).")
    ]
    chief_arbiter = Annotated[str | None, typer.Option(help="'Surname, Firstname'.")]
    deputy_arbiter = Annotated[
        list[str] | None, typer.Option(help="A deputy chief arbiter (repeat for each).")
    ]
    time_control = Annotated[str | None, typer.Option(help="Free text, e.g. \"90'+30''\".")]
    rating_type = Annotated[
        str | None, typer.Option(help="Chess: the FIDE list it counts for: standard|rapid|blitz.")
    ]
    round_date = Annotated[
        list[str] | None,
        typer.Option(help="A round's date, ROUND=YYYY-MM-DD (repeat for each round)."),
    ]


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


# ------------------------------------------------------------------ event data


@tournament_app.command("edit")
@user_errors
def tournament_edit(
    tournament: TournamentArg,
    name: Annotated[str | None, typer.Option(help="New name.")] = None,
    start: EventOpt.start = None,
    end: EventOpt.end = None,
    place: EventOpt.place = None,
    federation: EventOpt.federation = None,
    chief_arbiter: EventOpt.chief_arbiter = None,
    deputy_arbiter: EventOpt.deputy_arbiter = None,
    time_control: EventOpt.time_control = None,
    rating_type: EventOpt.rating_type = None,
    round_date: EventOpt.round_date = None,
) -> None:
    """Change the event's data (an event in the log, shown by `arbiter log`)."""
    with open_store() as store:
        state = commands.load(store, tournament).state
        data = director.event_data(
            state.game,
            state.total_rounds,
            start=start,
            end=end,
            place=place,
            federation=federation,
            chief_arbiter=chief_arbiter,
            deputy_arbiters=deputy_arbiter,
            time_control=time_control,
            rating_type=rating_type,
            round_dates=round_date or (),
            current=director.current_data(state),
        )
        changed = director.edit_tournament(store, tournament, data, name)
    err.print(f"{tournament}: set {changed}", markup=False)


@tournament_app.command("show")
@user_errors
def tournament_show(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """The event's data: name, dates, place, arbiters, time control, round dates."""
    with open_store() as store:
        state = commands.load(store, tournament).state
    s = state.settings
    row = {
        "id": s.tournament_id,
        "name": s.name,
        "game": s.game.value,
        "system": s.system.value,
        "rounds": state.total_rounds,
        "start": s.start_date.isoformat() if s.start_date else "",
        "end": s.end_date.isoformat() if s.end_date else "",
        "place": s.city or "",
        "federation": s.federation or "",
        "chief_arbiter": s.chief_arbiter or "",
        "deputy_arbiters": "; ".join(s.deputy_arbiters),
        "time_control": s.time_control or "",
        "rating_type": s.pairing_params.rating.rating_type or "",
        "round_dates": ", ".join(f"{k}={v}" for k, v in sorted(s.round_dates.items())),
    }
    if fmt is Format.TEXT:
        for key, value in row.items():
            sys.stdout.write(f"{key:<16} {value}\n")
        return
    emit([row], fmt)


# ------------------------------------------------------------------ players


@player_app.command("edit")
@user_errors
def player_edit(
    tournament: TournamentArg,
    player: Annotated[int, typer.Argument(help="Player id.")],
    name: Annotated[str | None, typer.Option(help="'Surname, Firstname'.")] = None,
    rating: Annotated[int | None, typer.Option(min=0)] = None,
    federation: Annotated[str | None, typer.Option(help="Chess: FIDE code.")] = None,
    fide_id: Annotated[str | None, typer.Option()] = None,
    title: Annotated[str | None, typer.Option(help="Chess: GM, IM, WGM, FM, ...")] = None,
    club: Annotated[str | None, typer.Option()] = None,
    rank: Annotated[str | None, typer.Option(help="Go rank (only before round 1).")] = None,
    birth: Annotated[str | None, typer.Option(help="YYYY-MM-DD or YYYY.")] = None,
    sex: Annotated[str | None, typer.Option(help="m or f.")] = None,
) -> None:
    """Correct a registration; once round 1 is paired, what decided pairings stays fixed."""
    raw = {
        "name": name,
        "rating": rating,
        "federation": federation,
        "fide_id": fide_id,
        "title": title,
        "club": club,
        "rank": rank,
        "birth": birth,
        "sex": sex,
    }
    with open_store() as store:
        changed = director.edit_player(store, tournament, player, raw)
    err.print(f"player {player}: set {changed}", markup=False)


@player_app.command("remove")
@user_errors
def player_remove(
    tournament: TournamentArg,
    player: Annotated[int, typer.Argument(help="Player id.")],
) -> None:
    """Take back the registration of a player who was never paired."""
    with open_store() as store:
        name = director.remove_player(store, tournament, player)
    err.print(f"player {player} ({name}) removed", markup=False)


@app.command("forbid")
@user_errors
def forbid(
    tournament: TournamentArg,
    first: Annotated[int, typer.Argument(metavar="PLAYER", help="Player id.")],
    second: Annotated[int, typer.Argument(metavar="PLAYER", help="Player id.")],
) -> None:
    """Never pair two players together (siblings, team mates), from the next round on."""
    with open_store() as store:
        a, b, from_round = director.forbid(store, tournament, first, second)
    err.print(
        f"players {first} ({a}) and {second} ({b}) will not be paired together "
        f"from round {from_round} on",
        markup=False,
    )


# ------------------------------------------------------------------ rounds


def show_round(state: TournamentState, round_no: int, fmt: Format) -> None:
    """A round's boards; as text, then every player not paired and why (byes, absences,
    withdrawals), so the list shows the whole field."""
    emit(views.pairings_rows(state, round_no, fmt), fmt)
    if fmt is Format.TEXT:
        for row in views.not_paired_view(state, round_no):
            p = row["player"]
            sys.stdout.write(f"-      {p['name']} ({p['start_rank']}): {row['why']}\n")


def pair_from_file(store: Store, tournament: str, path: Path, force: bool) -> RoundPaired:
    """`pair --boards`: the round as given, checked; criteria broken are warnings."""
    event, broken = director.pair_by_hand(store, tournament, path, force=force)
    for line in broken:
        err.print(f"warning: {line}", markup=False)
    return event


def swap(store: Store, tournament: str, round_no: int | None, boards: tuple[int, int]) -> None:
    """`pairings --swap A B`."""
    state = commands.load(store, tournament).state
    rnd = round_no or state.last_round
    director.swap_boards(store, tournament, rnd, boards[0], boards[1])
    err.print(f"round {rnd}: boards {boards[0]} and {boards[1]} exchanged", markup=False)


# ------------------------------------------------------------------ truncations


@app.command("truncations")
@user_errors
def truncations(tournament: TournamentArg, fmt: FormatOpt = Format.TEXT) -> None:
    """Every undo of a tournament: id, versions and rounds it archived, restorable or not."""
    with open_store() as store:
        rows = director.truncations(store, tournament)
    if not rows:
        err.print(f"{tournament}: no undo yet", markup=False)
    emit(rows, fmt)
