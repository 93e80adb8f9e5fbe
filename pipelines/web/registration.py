"""A player's own registration and check-in: the event's pages (`/t/{id}/register`,
`/t/{id}/check-in`) and their API twins. Anyone may use them (`server.open_write`), within the
event's settings (`tournament edit --registration`, `--check-in`) and a rate limit per address;
they call the same commands as the director's doors (`pipelines.commands.registration`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from events.errors import ArbiterError
from pipelines.commands import registration
from pipelines.commands.inputs import PlayerInput
from pipelines.views.registration import check_in_view, requests_view
from pipelines.web.api import _json
from pipelines.web.forms import CsrfField, render
from pipelines.web.model_forms import form_fields, submitted
from pipelines.web.server import server_of, tournament_view

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["api"])

ENTRY_FORM = form_fields(
    PlayerInput, exclude=[f for f in PlayerInput.model_fields if f not in registration.ENTRY_FIELDS]
)
"""The registration form: the fields of a player's own entry, with the registration's help."""


def _register_page(
    request: Request, tournament_id: str, status: int = 200, **extra: Any
) -> HTMLResponse:
    view = tournament_view(request, tournament_id)
    return render(
        request,
        "register.html",
        status,
        s=view.summary(),
        mode=view.state.settings.registration.value,
        paired=bool(view.state.rounds),
        entry_form=[f for f in ENTRY_FORM if PlayerInput.asks(f.name, view.state.game)],
        **{"error": None, "notice": None, "given": {}, **extra},
    )


@router.get("/t/{tournament_id}/register", response_class=HTMLResponse)
async def register_form(request: Request, tournament_id: str) -> Response:
    return _register_page(request, tournament_id)


@router.post("/t/{tournament_id}/register", response_class=HTMLResponse)
async def register(request: Request, tournament_id: str) -> Response:
    tournament_view(request, tournament_id)
    form = await request.form()
    csrf = str(form.get("csrf_token") or "")
    fields = submitted(form, PlayerInput)

    def run() -> Response:
        server = server_of(request)
        try:
            with server.public_writing(request, f"register:{tournament_id}", csrf) as store:
                done = registration.request(store, tournament_id, fields)
        except ArbiterError as exc:
            return _register_page(request, tournament_id, 400, error=str(exc), given=fields)
        notice = (
            f"{done.name}: registered (player {done.player})"
            if done.player is not None
            else f"{done.name}: entry received (request {done.request}); the director will "
            "confirm it"
        )
        return _register_page(request, tournament_id, notice=notice)

    return await run_in_threadpool(run)


def _check_in_page(
    request: Request, tournament_id: str, status: int = 200, **extra: Any
) -> HTMLResponse:
    view = tournament_view(request, tournament_id)
    return render(
        request,
        "check_in.html",
        status,
        s=view.summary(),
        c=check_in_view(view.state),
        **{"error": None, "notice": None, **extra},
    )


@router.get("/t/{tournament_id}/check-in", response_class=HTMLResponse)
async def check_in_form(request: Request, tournament_id: str) -> Response:
    return _check_in_page(request, tournament_id)


@router.post("/t/{tournament_id}/check-in", response_class=HTMLResponse)
def check_in(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    player: Annotated[int, Form(ge=1)],
) -> Response:
    tournament_view(request, tournament_id)
    server = server_of(request)
    viewer = server.viewer(request)
    director = viewer is not None and viewer.may_direct(tournament_id)
    try:
        with server.public_writing(request, f"check-in:{tournament_id}", csrf_token) as store:
            done = registration.check_in(store, tournament_id, player, by_director=director)
    except ArbiterError as exc:
        return _check_in_page(request, tournament_id, 400, error=str(exc))
    name = tournament_view(request, tournament_id).state.players[player].name
    said = "checked in" if done else "was already checked in"
    return _check_in_page(request, tournament_id, notice=f"{name} {said}")


# ------------------------------------------------------------------ the API


@api.post(
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
    return _json({"request": done.request, "player": done.player, "status": status}, 201)


@api.get(
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


@api.post(
    "/tournaments/{tournament_id}/registrations/{number}/approve",
    summary="The director: register a waiting entry",
)
def api_approve(request: Request, tournament_id: str, number: int, force: bool = False) -> Response:
    with server_of(request).writing(request) as (store, _):
        pid = registration.approve(store, tournament_id, number, force=force)
    return _json({"request": number, "player": pid})


@api.post(
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


@api.post(
    "/tournaments/{tournament_id}/check-ins",
    status_code=201,
    summary="Check a player in before round 1: anyone inside the check-in window, the "
    "director (token) at any time before round 1 is paired",
)
def api_check_in(request: Request, tournament_id: str, body: CheckInIn) -> Response:
    tournament_view(request, tournament_id)
    server = server_of(request)
    if request.headers.get("authorization"):
        with server.writing(request) as (store, _):
            done = registration.check_in(store, tournament_id, body.player, by_director=True)
    else:
        with server.public_writing(request, f"check-in:{tournament_id}") as store:
            done = registration.check_in(store, tournament_id, body.player, by_director=False)
    return _json({"player": body.player, "checked_in": True, "already": not done}, 201)


@api.get("/tournaments/{tournament_id}/check-ins", summary="The check-in window and who is in")
def api_check_ins(request: Request, tournament_id: str) -> Response:
    return _json(check_in_view(tournament_view(request, tournament_id).state))
