"""Browser work: login, the director's panel of his tournament, the officer's panel, and a
player's own registration and check-in pages (`/t/{id}/register`, `/t/{id}/check-in`: anyone
may use them, `server.open_write`, within the event's settings, `tournament edit
--registration`, `--check-in`, and a rate limit per address; their API twins are in `api.py`).

Every form carries the CSRF token; a refused command shows the CLI's one-line message on the
panel (status 400) and appends nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from decide.inputs import EventChanges, PlayerChanges, PlayerInput, TournamentInput
from events.domain import Outcome
from events.errors import ArbiterError
from events.validate import InvalidField
from pipelines.commands import players, prizes, registration, results, rounds, tournaments
from pipelines.commands import undo as undo_commands
from pipelines.commands.base import CommandError, load, player_named
from pipelines.views.prizes import toml_text
from pipelines.views.registration import check_in_view, requests_view
from pipelines.web.api import RatingRunIn, ingest_uploads, run_ratings
from pipelines.web.model_forms import form_fields, submitted
from pipelines.web.security import CSRF_COOKIE, SESSION_COOKIE, SESSION_SECONDS, new_csrf
from pipelines.web.server import server_of, tournament_view
from projections.crosstable import format_value

router = APIRouter(include_in_schema=False)

CsrfField = Annotated[str, Form()]


def set_cookie(
    request: Request, response: Response, name: str, value: str, max_age: int | None = None
) -> None:
    """A cookie of the site: HttpOnly, SameSite=Strict, and ``Secure`` when the request came
    over https (as uvicorn sees it: its own TLS, or a proxy trusted with
    ``--forwarded-allow-ips`` that says so in X-Forwarded-Proto). Over plain http a browser
    never sends a Secure cookie back, so the venue's network needs it without."""
    secure = request.url.scheme == "https"
    response.set_cookie(
        name, value, max_age=max_age, path="/", secure=secure, httponly=True, samesite="strict"
    )


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page with a form: the CSRF cookie is set when the browser has none bound to its
    session yet (`Server.csrf_token`)."""
    server = server_of(request)
    csrf = server.csrf_token(request)
    response = server.templates.TemplateResponse(
        request,
        template,
        {"viewer": server.viewer(request), "csrf": csrf, "fmt": format_value, **context},
        status_code=status,
    )
    if request.cookies.get(CSRF_COOKIE) != csrf:
        set_cookie(request, response, CSRF_COOKIE, csrf)
    return response


def numbered(request: Request, tournament_id: str, number: str) -> int:
    """The id of the player whose pairing number a form gave (the number its page shows), on
    the hub's state (synced by the write that asks); a number no player has is refused."""
    return player_named(tournament_view(request, tournament_id).state, number)


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


# ------------------------------------------------------------------ login


@router.get("/login", response_class=HTMLResponse)
async def login_form(request: Request, next: str | None = None) -> HTMLResponse:
    return render(request, "login.html", next=_safe_next(next), error=None)


@router.post("/login", response_class=HTMLResponse)
def login(
    request: Request,
    name: Annotated[str, Form(max_length=64)],
    password: Annotated[str, Form(max_length=1024)],
    csrf_token: CsrfField,
    next: Annotated[str, Form()] = "/",
) -> Response:
    server = server_of(request)
    server.check_csrf(request, csrf_token)
    client = request.client.host if request.client else "?"
    wait = server.limiter.begin(client, name)
    if wait:
        response = render(
            request, "login.html", 429, next=_safe_next(next),
            error=f"too many failed logins; try again in {wait} s",
        )  # fmt: skip
        response.headers["Retry-After"] = str(wait)
        return response
    account = server.hub.accounts.check_password(name, password)
    if account is None:
        return render(
            request, "login.html", 401, next=_safe_next(next), error="wrong name or password"
        )
    server.limiter.succeeded(client, name)
    target = _safe_next(next)
    if target == "/" and account.role == "director" and account.tournament:
        target = f"/t/{account.tournament}/manage"
    elif target == "/" and account.role == "officer":
        target = "/officer"
    redirect = RedirectResponse(target, 303)
    session = server.sessions.create(account.name)
    set_cookie(request, redirect, SESSION_COOKIE, session, SESSION_SECONDS)
    set_cookie(request, redirect, CSRF_COOKIE, new_csrf(server.csrf_key, session))
    return redirect


@router.post("/logout")
def logout(request: Request, csrf_token: CsrfField) -> Response:
    server_of(request).check_csrf(request, csrf_token)
    server_of(request).sessions.drop(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# ------------------------------------------------------------------ director's panel
#
# The panel's forms are made from the input models (`model_forms`) and call the same commands
# as the command line and the API, so a form refuses what they refuse, naming the field.

PLAYER_FORM = form_fields(PlayerChanges)
"""A registration: PlayerInput's fields, the name optional (an id on a list fills it)."""
EVENT_FORM = form_fields(EventChanges)
EDIT_FORM = form_fields(PlayerChanges)
PRIZES_EXAMPLE = """\
# The prize list, as prizes.toml (docs/prizes.md); Save sets it.
sharing = "equal"

[[prize]]
place = 1
amount = 100
"""


def _manage_page(
    request: Request, tournament_id: str, status: int = 200, **extra: Any
) -> HTMLResponse:
    view = tournament_view(request, tournament_id)
    last = view.state.last_round
    return render(
        request,
        "manage.html",
        status,
        view=view,
        s=view.summary(),
        round_no=last,
        boards=view.pairings(last) if last else [],
        outcomes=[o.value for o in Outcome if o is not Outcome.UNKNOWN],
        player_form=[f for f in PLAYER_FORM if PlayerChanges.asks(f.name, view.state.game)],
        event_form=EVENT_FORM,
        edit_form=[f for f in EDIT_FORM if PlayerChanges.asks(f.name, view.state.game)],
        **{
            "error": None,
            "notice": None,
            "prizes_text": toml_text(view.state.prizes) if view.state.prizes else PRIZES_EXAMPLE,
            "requests": [r for r in requests_view(view.state) if r["status"] == "waiting"],
            "check": check_in_view(view.state),
            "check_in_link": check_in_url(request, tournament_id),
            "check_in_qr": _qr(check_in_url(request, tournament_id)),
            **extra,
        },
    )


def check_in_url(request: Request, tournament_id: str) -> str:
    """The event's check-in page at the site's public address (never the Host header)."""
    return server_of(request).public_url + f"t/{quote(tournament_id)}/check-in"


def _qr(url: str) -> str:
    """The QR code of ``url`` as inline SVG (printed for the venue: it opens the check-in)."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=4, title=url))


@router.get("/t/{tournament_id}/manage", response_class=HTMLResponse)
async def manage(request: Request, tournament_id: str) -> Response:
    server = server_of(request)
    viewer = server.viewer(request)
    if viewer is None:
        return RedirectResponse(f"/login?next=/t/{tournament_id}/manage", 303)
    if not viewer.may_direct(tournament_id):
        raise HTTPException(403, f"user {viewer.name} does not direct {tournament_id}")
    return _manage_page(request, tournament_id)


def _act(
    request: Request,
    tournament_id: str,
    csrf: str,
    action: Any,
    done: str | list[str],
    **kept: Any,
) -> Response:
    """Run ``action`` on the store; the manage page with its notice (``done``, or the line the
    action put in that list), or with the refusal and the ``kept`` form values (a refused form
    keeps what was typed)."""
    server = server_of(request)
    try:
        with server.writing(request, csrf) as (store, _):
            action(store)
    except ArbiterError as exc:
        return _manage_page(request, tournament_id, 400, error=str(exc), **kept)
    return _manage_page(request, tournament_id, notice=done if isinstance(done, str) else done[0])


async def _form(request: Request) -> tuple[FormData, str]:
    form = await request.form()
    csrf = form.get("csrf_token")
    return form, csrf if isinstance(csrf, str) else ""


@router.post("/t/{tournament_id}/manage/pair", response_class=HTMLResponse)
def manage_pair(request: Request, tournament_id: str, csrf_token: CsrfField) -> Response:
    return _act(
        request, tournament_id, csrf_token,
        lambda store: rounds.pair(store, tournament_id), "next round paired",
    )  # fmt: skip


@router.post("/t/{tournament_id}/manage/result", response_class=HTMLResponse)
def manage_result(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    round_no: Annotated[int, Form(alias="round")],
    board: Annotated[int, Form()],
    result: Annotated[str, Form(max_length=20)] = "",
    correct: Annotated[bool, Form()] = False,
) -> Response:
    # The result list starts empty (a stray Enter records nothing): an empty result goes to the
    # command, which refuses it naming the field, on the panel as every other refusal.
    entry = {"round": round_no, "board": board, "result": result, "correct": correct}
    return _act(
        request, tournament_id, csrf_token,
        lambda store: server_of(request).command(
            tournament_id,
            lambda known: results.record_one(store, tournament_id, entry, known=known),
        ),
        f"round {round_no} board {board}: {result}",
    )  # fmt: skip


@router.post("/t/{tournament_id}/manage/player", response_class=HTMLResponse)
async def manage_player(request: Request, tournament_id: str) -> Response:
    form, csrf = await _form(request)
    fields = submitted(form, PlayerChanges)
    force = form.get("force") == "true"
    not_on_list = form.get("not_on_list") == "true"

    def add(store: Any) -> None:
        server_of(request).command(
            tournament_id,
            lambda known: players.add(
                store, tournament_id, fields, force=force, not_on_list=not_on_list, known=known
            ),
        )

    done = f"registered {fields.get('name') or 'the player'}"
    return await run_in_threadpool(_act, request, tournament_id, csrf, add, done)


@router.post("/t/{tournament_id}/manage/edit-player", response_class=HTMLResponse)
async def manage_edit_player(request: Request, tournament_id: str) -> Response:
    form, csrf = await _form(request)
    fields = submitted(form, PlayerChanges)
    number = str(form.get("player") or "").strip()

    def edit(store: Any) -> None:
        if not number.isdigit():
            raise InvalidField("player", f"'{number}' is not a pairing number")
        players.edit(store, tournament_id, numbered(request, tournament_id, number), fields)

    done = f"player No. {number} corrected"
    return await run_in_threadpool(_act, request, tournament_id, csrf, edit, done)


@router.post("/t/{tournament_id}/manage/event", response_class=HTMLResponse)
async def manage_event(request: Request, tournament_id: str) -> Response:
    form, csrf = await _form(request)
    fields = submitted(form, EventChanges)
    return await run_in_threadpool(
        _act, request, tournament_id, csrf,
        lambda store: tournaments.edit(store, tournament_id, fields), "event data saved",
    )  # fmt: skip


@router.post("/t/{tournament_id}/manage/prizes", response_class=HTMLResponse)
def manage_prizes(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    text: Annotated[str, Form(alias="prizes", max_length=200_000)] = "",
) -> Response:
    def set_list(store: Any) -> None:
        prizes.set_prizes(store, tournament_id, prizes.parse_table(text, "prize list"))

    return _act(request, tournament_id, csrf_token, set_list, "prize list set", prizes_text=text)


@router.post("/t/{tournament_id}/manage/approve", response_class=HTMLResponse)
def manage_approve(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    number: Annotated[int, Form(alias="request", ge=1)],
    force: Annotated[bool, Form()] = False,
    not_on_list: Annotated[bool, Form()] = False,
) -> Response:
    said: list[str] = []

    def approve(store: Any) -> None:
        pid = registration.approve(
            store, tournament_id, number, force=force, not_on_list=not_on_list
        )
        code = registration.check_in_code(tournament_id, pid)
        rank = load(store, tournament_id).state.start_ranks()[pid]
        said.append(f"request {number} registered as No. {rank} (check-in code {code})")

    return _act(request, tournament_id, csrf_token, approve, said)


@router.post("/t/{tournament_id}/manage/decline", response_class=HTMLResponse)
def manage_decline(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    number: Annotated[int, Form(alias="request", ge=1)],
    reason: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    return _act(
        request, tournament_id, csrf_token,
        lambda store: registration.decline(store, tournament_id, number, reason or None),
        f"request {number} declined",
    )  # fmt: skip


@router.post("/t/{tournament_id}/manage/check-in", response_class=HTMLResponse)
def manage_check_in(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    player: Annotated[int, Form(ge=1)],
) -> Response:
    def check_in(store: Any) -> None:
        pid = numbered(request, tournament_id, str(player))
        registration.check_in(store, tournament_id, pid, by_director=True)

    return _act(request, tournament_id, csrf_token, check_in, f"player No. {player} checked in")


@router.post("/t/{tournament_id}/manage/undo", response_class=HTMLResponse)
def manage_undo(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    round_no: Annotated[int, Form(alias="round")],
    confirm: Annotated[bool, Form()] = False,
) -> Response:
    def undo(store: Any) -> None:
        if not confirm:
            raise CommandError("tick 'I am sure' to take the rounds back")
        undo_commands.undo(store, tournament_id, round_no, None)

    return _act(request, tournament_id, csrf_token, undo, f"rounds from {round_no} taken back")


@router.post("/t/{tournament_id}/manage/restore", response_class=HTMLResponse)
def manage_restore(
    request: Request,
    tournament_id: str,
    csrf_token: CsrfField,
    confirm: Annotated[bool, Form()] = False,
) -> Response:
    def restore(store: Any) -> None:
        if not confirm:
            raise CommandError("tick 'I am sure' to restore")
        undo_commands.restore(store, tournament_id)

    return _act(request, tournament_id, csrf_token, restore, "restored")


# ------------------------------------------------------------------ officer's panel

TOURNAMENT_FORM = form_fields(TournamentInput)


def _officer(request: Request, status: int = 200, **extra: Any) -> HTMLResponse:
    context: dict[str, Any] = {"report": None, "error": None, "run": None, "created": None}
    return render(
        request, "officer.html", status, tournament_form=TOURNAMENT_FORM, **{**context, **extra}
    )


@router.get("/officer", response_class=HTMLResponse)
async def officer_page(request: Request) -> Response:
    viewer = server_of(request).viewer(request)
    if viewer is None:
        return RedirectResponse("/login?next=/officer", 303)
    if not viewer.is_officer:
        raise HTTPException(403, f"user {viewer.name} is not an officer")
    return _officer(request)


@router.post("/officer/ingest", response_class=HTMLResponse)
def officer_ingest(
    request: Request, csrf_token: CsrfField, files: Annotated[list[UploadFile], Form()]
) -> Response:
    try:
        report = ingest_uploads(request, files, csrf_token)
    except ArbiterError as exc:
        return _officer(request, 400, error=str(exc))
    return _officer(request, 200 if report.ok else 422, report=report.as_json())


@router.post("/officer/ratings", response_class=HTMLResponse)
def officer_ratings(
    request: Request,
    csrf_token: CsrfField,
    method: Annotated[str, Form(max_length=20)],
    as_of: Annotated[dt.date, Form()],
    publish: Annotated[bool, Form()] = False,
) -> Response:
    try:
        run = run_ratings(request, RatingRunIn(method=method, as_of=as_of, publish=publish),
                          csrf_token)  # fmt: skip
    except ArbiterError as exc:
        return _officer(request, 400, error=str(exc))
    return _officer(request, run=run)


def _create(request: Request, csrf: str, fields: dict[str, Any]) -> Response:
    server = server_of(request)
    try:
        with server.writing(request, csrf) as (store, _):
            tid = tournaments.create(store, fields)
    except ArbiterError as exc:
        return _officer(request, 400, error=str(exc))
    return _officer(request, created=tid)


@router.post("/officer/tournaments", response_class=HTMLResponse)
async def officer_create(request: Request) -> Response:
    form, csrf = await _form(request)
    return await run_in_threadpool(_create, request, csrf, submitted(form, TournamentInput))


# ------------------------------------------------------------------ a player's own pages

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
        state = tournament_view(request, tournament_id).state
        notice = (
            f"{done.name}: registered as No. {state.start_ranks().get(done.player)}"
            f"{'' if state.rounds else ' (until round 1 is paired, numbers follow the ratings)'}"
            f"; your check-in code is {done.code}: keep it, you type it to check in"
            if done.player is not None
            else f"{done.name}: entry received (request {done.request}); the director will "
            "confirm it and give you your check-in code"
        )
        return _register_page(request, tournament_id, notice=notice)

    return await run_in_threadpool(run)


def _check_in_page(
    request: Request, tournament_id: str, status: int = 200, **extra: Any
) -> HTMLResponse:
    view = tournament_view(request, tournament_id)
    viewer = server_of(request).viewer(request)
    return render(
        request,
        "check_in.html",
        status,
        s=view.summary(),
        c=check_in_view(view.state),
        director=viewer is not None and viewer.may_direct(tournament_id),
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
    code: Annotated[str, Form(max_length=32)] = "",
) -> Response:
    tournament_view(request, tournament_id)
    server = server_of(request)
    viewer = server.viewer(request)
    director = viewer is not None and viewer.may_direct(tournament_id)
    try:
        with server.public_writing(request, f"check-in:{tournament_id}", csrf_token) as store:
            pid = numbered(request, tournament_id, str(player))
            done = registration.check_in(store, tournament_id, pid, by_director=director, code=code)
    except ArbiterError as exc:
        return _check_in_page(request, tournament_id, 400, error=str(exc))
    name = tournament_view(request, tournament_id).state.players[pid].name
    said = "checked in" if done else "was already checked in"
    return _check_in_page(request, tournament_id, notice=f"{name} {said}")
