"""The JSON API: every public page's twin under ``/api``, and the writes of directors and
officers. Reads come from the projection hub; writes call the CLI's own command functions."""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
from collections.abc import Container
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, File, HTTPException, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from decide.inputs import (
    ByeInput,
    EventChanges,
    PlayerChanges,
    PlayerInput,
    Registering,
    ResultInput,
    TournamentInput,
)
from events.validate import calendar_date
from pipelines.commands import players, registration, results, rounds, tournaments
from pipelines.commands import prizes as prize_commands
from pipelines.commands import undo as undo_commands
from pipelines.commands.files import BadLine
from pipelines.views import prizes as prize_views
from pipelines.views.output import Format, render
from pipelines.views.registration import check_in_view, requests_view
from pipelines.web.hub import TournamentView, summaries_json
from pipelines.web.pages import player_card
from pipelines.web.server import server_of, tournament_view
from projections.game_terms import entered_result

router = APIRouter(prefix="/api", tags=["api"])

JSON = "application/json"


def _json(data: bytes | Any, status: int = 200) -> Response:
    if not isinstance(data, bytes):
        data = json.dumps(data, ensure_ascii=False, indent=2, default=str).encode()
    return Response(data, status_code=status, media_type=JSON)


# ------------------------------------------------------------------ reads


@router.get("/tournaments", summary="Every tournament (as `arbiter tournament list`, and more)")
async def tournament_list(request: Request) -> Response:
    return _json(summaries_json(server_of(request).hub))


@router.get("/tournaments/{tournament_id}", summary="One tournament: settings and rounds")
async def tournament(request: Request, tournament_id: str) -> Response:
    view = tournament_view(request, tournament_id)
    return _json({**view.summary(), "tiebreaks": list(view.state.tiebreaks)})


@router.get(
    "/tournaments/{tournament_id}/standings",
    summary="Standings: the same JSON as `arbiter standings --format json` (a team event: "
    "the teams')",
)
async def standings(request: Request, tournament_id: str) -> Response:
    return _json(tournament_view(request, tournament_id).standings_json())


@router.get(
    "/tournaments/{tournament_id}/rounds/{round_no}",
    summary="A round's boards and results: as `arbiter pairings --round N --format json`",
)
async def round_pairings(request: Request, tournament_id: str, round_no: int) -> Response:
    view = tournament_view(request, tournament_id)
    _paired(view, round_no, view.state.rounds)
    return _json(view.pairings_json(round_no))


def _paired(view: TournamentView, round_no: int, paired: Container[int]) -> None:
    """404 unless ``round_no`` is one of the ``paired`` rounds."""
    if round_no not in paired:
        raise HTTPException(
            404,
            f"{view.id}: round {round_no} is not paired (last paired round: "
            f"{view.state.last_round or 'none'})",
        )


@router.get(
    "/tournaments/{tournament_id}/rounds/{round_no}/matches",
    summary="A team round's matches, then the team with the pairing-allocated bye: as "
    "`arbiter pair --format json` prints a team round",
)
async def round_matches(request: Request, tournament_id: str, round_no: int) -> Response:
    view = tournament_view(request, tournament_id)
    if not view.is_team:
        raise HTTPException(404, f"{tournament_id}: not a team event; its rounds have boards only")
    _paired(view, round_no, view.teams().rounds)
    return _json(view.matches_json(round_no))


@router.get(
    "/tournaments/{tournament_id}/crosstable",
    summary="The crosstable, by rank (a team event: the same JSON as `arbiter crosstable "
    "--format json`)",
)
async def crosstable(request: Request, tournament_id: str) -> Response:
    return _json(tournament_view(request, tournament_id).crosstable_json())


@router.get(
    "/tournaments/{tournament_id}/prizes",
    summary="Who gets what: the same JSON as `arbiter prizes T --format json`",
)
async def prizes(request: Request, tournament_id: str) -> Response:
    view = tournament_view(request, tournament_id)
    given = prize_views.awards(view.state, None if view.is_team else view.standings())
    return _json(render(prize_views.prizes_view(view.state, given), Format.JSON).encode())


@router.get("/tournaments/{tournament_id}/players/{player_id}", summary="A player's card")
async def player(request: Request, tournament_id: str, player_id: int) -> Response:
    return _json(player_card(tournament_view(request, tournament_id), player_id))


@router.get("/ratings", summary="Published rating lists, newest first")
async def rating_lists(request: Request) -> Response:
    hub = server_of(request).hub
    return _json(
        [
            {
                "name": e.name,
                "method": e.method,
                "as_of": e.as_of.isoformat(),
                "players": e.players,
                "as_of_position": e.as_of_position,
            }
            for e in sorted(hub.lists, key=lambda e: (e.as_of, e.position), reverse=True)
        ]
    )


# ------------------------------------------------------------------ director writes
#
# The request bodies are the input models every door uses (`decide.inputs`); the
# commands check them with the tournament's own rules, so the API refuses what the command line
# refuses, naming the field (422), and what the tournament's state refuses (400).


class NewPlayer(PlayerInput, Registering):
    name: str | None = Field(  # type: ignore[assignment]
        None, description="'Surname, Firstname' (filled from the list for an id on it)."
    )


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=1000, description="first round to take back")
    reason: str | None = Field(None, max_length=500)
    confirm: bool = Field(description="must be true: the rounds' events go to the archive")


class RestoreIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    confirm: bool = Field(description="must be true")


def _confirmed(flag: bool) -> None:
    if not flag:
        raise HTTPException(400, 'set "confirm": true to do this')


def _given(body: BaseModel, *exclude: str) -> dict[str, Any]:
    """The fields the request gave (a field it left out is not set to its default)."""
    return body.model_dump(exclude_unset=True, exclude=set(exclude))


@router.post("/tournaments", status_code=201, summary="Officers: create a tournament")
def create_tournament(request: Request, body: TournamentInput) -> Response:
    with server_of(request).writing(request) as (store, _):
        tid = tournaments.create(store, _given(body))
    return _json({"id": tid}, 201)


@router.patch("/tournaments/{tournament_id}", summary="Change the event's data (and name)")
def edit_tournament(request: Request, tournament_id: str, body: EventChanges) -> Response:
    with server_of(request).writing(request) as (store, _):
        changed = tournaments.edit(store, tournament_id, _given(body))
    return _json({"changed": changed})


@router.post("/tournaments/{tournament_id}/players", status_code=201, summary="Register a player")
def add_player(request: Request, tournament_id: str, body: NewPlayer) -> Response:
    server = server_of(request)
    with server.writing(request) as (store, _):
        added = server.command(
            tournament_id,
            lambda known: players.add(
                store,
                tournament_id,
                _given(body, "force", "not_on_list"),
                force=body.force,
                not_on_list=body.not_on_list,
                known=known,
            ),
        )
    note = {"note": added.note} if added.note else {}
    return _json({"player": added.player, "number": added.number, **note}, 201)


class UpdateRatingsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    list: str | None = Field(None, description="the imported list to read; default: the game's")
    date: str | None = Field(None, description="the list dated on or before YYYY-MM-DD")


@router.post(
    "/tournaments/{tournament_id}/update-ratings",
    summary="Before round 1: every player's rating from the imported list",
)
def update_ratings(request: Request, tournament_id: str, body: UpdateRatingsIn) -> Response:
    at = None if body.date is None else calendar_date("date", body.date)
    with server_of(request).writing(request) as (store, _):
        done = players.update_ratings(store, tournament_id, list_name=body.list, at_or_before=at)
    return _json(
        {
            "lists": list(done.lists),
            "changed": [
                {"player": c.player, "name": c.name, "changes": c.changes} for c in done.changed
            ],
            "unchanged": [
                {"player": u.player, "name": u.name, "reason": u.reason} for u in done.unchanged
            ],
        }
    )


@router.patch("/tournaments/{tournament_id}/players/{player_id}", summary="Correct a registration")
def edit_player(
    request: Request, tournament_id: str, player_id: int, body: PlayerChanges
) -> Response:
    with server_of(request).writing(request) as (store, _):
        changed = players.edit(store, tournament_id, player_id, _given(body))
    return _json({"player": player_id, "changed": changed})


@router.delete(
    "/tournaments/{tournament_id}/players/{player_id}",
    summary="Take back the registration of a player never paired",
)
def remove_player(request: Request, tournament_id: str, player_id: int) -> Response:
    with server_of(request).writing(request) as (store, _):
        name = players.remove(store, tournament_id, player_id)
    return _json({"player": player_id, "name": name, "removed": True})


@router.post("/tournaments/{tournament_id}/byes", status_code=201, summary="A requested bye")
def grant_bye(request: Request, tournament_id: str, body: ByeInput) -> Response:
    with server_of(request).writing(request) as (store, _):
        bye = rounds.grant_bye(store, tournament_id, _given(body))
    return _json({"player": bye.player, "round": bye.round, "kind": bye.kind.value}, 201)


@router.post(
    "/tournaments/{tournament_id}/pair",
    status_code=201,
    summary="Pair the next round: its boards (a team event: its matches too, and the team with "
    "the pairing-allocated bye, as `arbiter pair` prints them)",
)
def pair(request: Request, tournament_id: str) -> Response:
    server = server_of(request)
    with server.writing(request) as (store, _):
        event = rounds.pair(store, tournament_id)
    view = tournament_view(request, tournament_id)
    paired: dict[str, Any] = {"round": event.round, "boards": view.pairings(event.round)}
    if event.round in view.teams().rounds:  # a team round (a go event with teams pairs players)
        paired["matches"] = view.matches(event.round)
    return _json(paired, 201)


@router.post(
    "/tournaments/{tournament_id}/results",
    status_code=201,
    summary="Enter or correct a result (board N, or M.B in a team event: the answer's "
    "board_number is the board changed)",
)
def result(request: Request, tournament_id: str, body: ResultInput) -> Response:
    server = server_of(request)
    with server.writing(request) as (store, _):
        event = server.command(
            tournament_id, lambda known: results.record_one(store, tournament_id, body, known=known)
        )
    game = tournament_view(request, tournament_id).state.game
    shown = entered_result(game, event.outcome, event.white_score, event.black_score, event.how)
    return _json(
        {"round": body.round, "board": body.board, "board_number": event.board, "result": shown,
         "event": event.type}, 201
    )  # fmt: skip


@router.put(
    "/tournaments/{tournament_id}/prizes",
    summary="Set the prize list: the keys of prizes.toml as JSON (docs/prizes.md); a new list "
    "replaces the earlier one",
)
def set_prizes(
    request: Request,
    tournament_id: str,
    body: Annotated[
        dict[str, Any],
        Body(
            description="The keys of prizes.toml (docs/prizes.md): sharing, round_to, "
            "currency, category (a list of objects), prize (a list of objects).",
            examples=[{"sharing": "equal", "prize": [{"place": 1, "amount": 1000}]}],
        ),
    ],
) -> Response:
    # The list is checked by the function the file and the form use, so every door refuses it
    # in the same words (``prize 1: amount: ...``).
    try:
        table = prize_commands.checked(body, "prizes")
    except BadLine as exc:
        raise HTTPException(422, str(exc)) from None
    with server_of(request).writing(request) as (store, _):
        count = prize_commands.set_prizes(store, tournament_id, table)
    return _json({"prizes": count, "sharing": table.sharing.value})


@router.post("/tournaments/{tournament_id}/undo", summary="Take rounds back (archived)")
def undo(request: Request, tournament_id: str, body: UndoIn) -> Response:
    with server_of(request).writing(request) as (store, _):
        _confirmed(body.confirm)
        t = undo_commands.undo(store, tournament_id, body.round, body.reason)
    return _json(truncation_json(t))


@router.post("/tournaments/{tournament_id}/restore", summary="Bring back the latest undo")
def restore(request: Request, tournament_id: str, body: RestoreIn) -> Response:
    with server_of(request).writing(request) as (store, _):
        _confirmed(body.confirm)
        t = undo_commands.restore(store, tournament_id)
    return _json(truncation_json(t))


def truncation_json(t: Any) -> dict[str, Any]:
    return {
        "truncation_id": t.truncation_id,
        "events": t.event_count,
        "from_version": t.from_version,
        "to_version": t.to_version,
    }


# ------------------------------------------------------------------ officer writes

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def save_upload(upload: UploadFile, folder: Path, limit: int) -> Path:
    """The upload as a file in `folder` (its own name, made safe), at most `limit` bytes.
    A name already taken in `folder` (two uploads called ``results.ELO``) goes to a numbered
    subfolder (``2/results.ELO``): both are kept and told apart."""
    name = _SAFE_NAME.sub("_", Path(upload.filename or "upload").name).lstrip(".") or "upload"
    path, n = folder / name, 1
    while path.exists():
        n += 1
        path = folder / str(n) / name
    path.parent.mkdir(exist_ok=True)
    size = 0
    with path.open("wb") as out:
        while chunk := upload.file.read(1 << 16):
            size += len(chunk)
            if size > limit:
                raise HTTPException(413, f"{name}: larger than the {limit} byte upload limit")
            out.write(chunk)
    return path


def ingest_uploads(request: Request, uploads: list[UploadFile], form_csrf: str | None) -> Any:
    from pipelines.jobs.ingest import IngestOptions, ingest

    server = server_of(request)
    with (
        tempfile.TemporaryDirectory(prefix="arbiter-upload-") as tmp,
        server.writing(request, form_csrf) as (store, account),
    ):
        paths = [save_upload(u, Path(tmp), server.upload_limit) for u in uploads]
        return ingest(store, paths, IngestOptions(actor=account.name, shown_from=Path(tmp)))


@router.post("/ingest", summary="Officers: ingest result files (each file atomic)")
def ingest_files(request: Request, files: Annotated[list[UploadFile], File()]) -> Response:
    report = ingest_uploads(request, files, None)
    return _json(report.as_json(), 200 if report.ok else 422)


class RatingRunIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    method: str = Field(description="wof, fide, egf or glicko2")
    as_of: dt.date
    game: str | None = None
    rating_type: str | None = Field(
        None,
        description="FIDE: the list's rating type, standard, rapid or blitz (as the command "
        "line's --rating-type; default standard); only tournaments rated for it count",
    )
    publish: bool = True
    late: list[str] = Field(
        default_factory=list,
        description="FIDE from imported lists: tournaments rated late though recorded before "
        "the list the run updates (as --late)",
    )
    not_late: list[str] = Field(
        default_factory=list,
        description="FIDE from imported lists: tournaments recorded after the list the run "
        "updates that it already took (as --not-late)",
    )


def run_ratings(request: Request, body: RatingRunIn, form_csrf: str | None) -> dict[str, Any]:
    from events.errors import UserError
    from pipelines.jobs.ratings import RunRequest, run_list
    from projections.games import GamesCache

    server = server_of(request)
    with server.writing(request, form_csrf) as (store, _):
        try:
            req = RunRequest.model_validate(
                {
                    "method": body.method,
                    "as_of": body.as_of,
                    "game": body.game,
                    "rating_type": body.rating_type.lower() if body.rating_type else None,
                    "publish": body.publish,
                    "late": tuple(body.late),
                    "not_late": tuple(body.not_late),
                    "output": server.lists_dir
                    / "-".join(
                        [body.method, *filter(None, [body.rating_type]), body.as_of.isoformat()]
                    ),
                }
            )
        except ValidationError as exc:  # the field named, not pydantic's closing link line
            raise UserError.from_validation(exc, "rating run") from None
        except ValueError as exc:
            raise UserError(f"rating run: {str(exc).splitlines()[-1].strip()}") from None
        with GamesCache.for_store(store) as cache:
            result = run_list(store, cache, req)
    return {
        "list": result.kind.name,
        "rating_type": result.kind.rating_type.value if result.kind.rating_type else None,
        "as_of": body.as_of.isoformat(),
        "players": result.players,
        "official": result.official,
        "games": result.games,
        "published": result.published,
        "diff": result.diff_counts,
        "compared_with": result.compared_with,
        "rated_late": [
            {"event": r.event, "ended": r.end.isoformat(), "reason": r.reason} for r in result.late
        ],
    }


@router.post("/ratings/run", summary="Officers: compute and publish a rating list")
def ratings_run(request: Request, body: RatingRunIn) -> Response:
    return _json(run_ratings(request, body, None))


# ---------------------------------------------------- a player's own entry and check-in
# Anyone may use these (`server.open_write`), within the event's settings and a rate limit per
# address; the director's approve and decline sit beside them.


@router.post(
    "/tournaments/{tournament_id}/registrations",
    status_code=201,
    summary="Anyone: a player's own entry (when the event's registration is open or by "
    "approval); the fields of a registration a player may give",
)
def api_register(request: Request, tournament_id: str, body: dict[str, Any]) -> Response:
    tournament_view(request, tournament_id)
    with server_of(request).public_writing(request, f"register:{tournament_id}") as store:
        done = registration.request(store, tournament_id, body)
    status = "registered" if done.player is not None else "waiting"
    ranks = tournament_view(request, tournament_id).state.start_ranks()
    body = {
        "request": done.request,
        "player": done.player,
        "start_rank": None if done.player is None else ranks.get(done.player),
        "status": status,
    }
    return _json({**body, "check_in_code": done.code}, 201)


@router.get(
    "/tournaments/{tournament_id}/registrations",
    summary="The entries players made: number, name, status (the director's token or session "
    "also sees the other fields)",
)
def api_registrations(request: Request, tournament_id: str) -> Response:
    view = tournament_view(request, tournament_id)
    viewer = server_of(request).viewer(request)
    private = viewer is not None and viewer.may_direct(tournament_id)
    return _json(requests_view(view.state, private=private))


class DeclineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str | None = Field(None, max_length=200)


@router.post(
    "/tournaments/{tournament_id}/registrations/{number}/approve",
    summary="The director: register a waiting entry",
)
def api_approve(
    request: Request,
    tournament_id: str,
    number: int,
    force: bool = False,
    not_on_list: bool = False,
) -> Response:
    with server_of(request).writing(request) as (store, _):
        pid = registration.approve(
            store, tournament_id, number, force=force, not_on_list=not_on_list
        )
    code = registration.check_in_code(tournament_id, pid)
    rank = tournament_view(request, tournament_id).state.start_ranks().get(pid)
    return _json({"request": number, "player": pid, "start_rank": rank, "check_in_code": code})


@router.post(
    "/tournaments/{tournament_id}/registrations/{number}/decline",
    summary="The director: decline a waiting entry",
)
def api_decline(request: Request, tournament_id: str, number: int, body: DeclineIn) -> Response:
    with server_of(request).writing(request) as (store, _):
        name = registration.decline(store, tournament_id, number, body.reason)
    return _json({"request": number, "name": name, "declined": True})


class CheckInIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=1, description="The player's id (as the player list gives it)")
    code: str | None = Field(
        None, max_length=32, description="The player's check-in code (his registration gave it)"
    )


@router.post(
    "/tournaments/{tournament_id}/check-ins",
    status_code=201,
    summary="Check a player in before round 1: anyone with the player's check-in code inside "
    "the check-in window, the director (token) at any time before round 1 is paired",
)
def api_check_in(request: Request, tournament_id: str, body: CheckInIn) -> Response:
    tournament_view(request, tournament_id)
    server = server_of(request)
    if request.headers.get("authorization"):
        with server.writing(request) as (store, _):
            done = registration.check_in(store, tournament_id, body.player, by_director=True)
    else:
        with server.public_writing(request, f"check-in:{tournament_id}") as store:
            done = registration.check_in(
                store, tournament_id, body.player, by_director=False, code=body.code
            )
    return _json({"player": body.player, "checked_in": True, "already": not done}, 201)


@router.get("/tournaments/{tournament_id}/check-ins", summary="The check-in window and who is in")
def api_check_ins(request: Request, tournament_id: str) -> Response:
    return _json(check_in_view(tournament_view(request, tournament_id).state))
