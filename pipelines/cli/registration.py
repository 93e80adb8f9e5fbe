"""Self-registration and check-in, the director's side: list, approve or decline the entries
players made on the event's page; tick players in before round 1."""

from __future__ import annotations

from typing import Annotated

import typer

from pipelines.cli.common import FormatOpt, TournamentArg, err, open_store, player_of, user_errors
from pipelines.cli.options import ForceOpt, NotOnListOpt
from pipelines.commands import registration
from pipelines.commands.base import CommandError, load
from pipelines.views.output import Format, emit
from pipelines.views.registration import check_in_view, requests_view

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("registrations")
@user_errors
def registrations(
    tournament: TournamentArg,
    action: Annotated[
        str | None,
        typer.Argument(metavar="[approve N | decline N]", help="approve or decline request N."),
    ] = None,
    number: Annotated[int | None, typer.Argument(metavar="", min=1)] = None,
    force: ForceOpt = False,
    not_on_list: NotOnListOpt = False,
    reason: Annotated[
        str | None, typer.Option(help="Why a request is declined (shown to the director).")
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Entries players made on the event's page: list them, `approve N` or `decline N`.

    Players enter themselves at /t/T/register when `tournament edit T --registration` is open
    (registered at once) or approval (waiting here)."""
    if action is None:
        with open_store() as store:
            state = load(store, tournament).state
        emit(requests_view(state), fmt)
        return
    if action not in ("approve", "decline") or number is None:
        raise CommandError(
            f"expected `registrations {tournament} approve N` or `... decline N` (found '{action}')"
        )
    with open_store() as store:
        if action == "approve":
            pid = registration.approve(
                store, tournament, number, force=force, not_on_list=not_on_list
            )
            code = registration.check_in_code(tournament, pid)
            rank = load(store, tournament).state.start_ranks()[pid]
            err.print(
                f"{tournament}: request {number} registered as No. {rank} (check-in code {code})",
                markup=False,
            )
        else:
            name = registration.decline(store, tournament, number, reason)
            err.print(f"{tournament}: request {number} ({name}) declined", markup=False)


@app.command("check-in")
@user_errors
def check_in(
    tournament: TournamentArg,
    players: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PLAYER ...]",
            help="Players to tick in (pairing numbers; id:N an id); none: list who is in.",
        ),
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Check players in before round 1 (the director, at any time before round 1 is paired).

    With `tournament edit T --check-in FROM/TO` set, round 1 leaves out every player not checked
    in (a zero-point absence, listed as 'not checked in'); players check in themselves at
    /t/T/check-in inside the window, with the check-in code their registration gave them
    (`arbiter print T check-in-codes` lists every player's)."""
    with open_store() as store:
        if not players:
            view = check_in_view(load(store, tournament).state)
            if view["opens"] is None:
                err.print(f"{tournament}: no check-in set (tournament edit --check-in FROM/TO)")
            else:
                err.print(f"{tournament}: check-in {view['opens']} to {view['closes']}")
            emit(view["players"], fmt)
            return
        for written in players:
            pid, said = player_of(store, tournament, written)
            done = registration.check_in(store, tournament, pid, by_director=True)
            err.print(
                f"player {said} {'checked in' if done else 'was already checked in'}",
                markup=False,
            )
