"""What every route shares: the store access, the projection hub, sessions, the write guard.

A write goes: find the account (bearer token, or session cookie plus CSRF token) and check its
role (`write_rule`) on the hub's accounts, before the body is read (`pipelines.web.gate`) and
again in the handler; open the store (DuckDB: for this request only), bring the projections up
to date and check again (so an account revoked a moment ago is refused), act as that account
(`events.provenance`: every event records it), call the same `pipelines.commands` function as
the CLI, sync the projections again (so the next page shows the write), close. A result or a
registration is decided on the hub's state of the tournament (`Server.command`) instead of a
replay of its whole stream; the append's version check guards it, and a stale state falls back
to the replay.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from fastapi import HTTPException, Request
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from events.provenance import Origin, set_origin
from events.store import Store
from pipelines.commands.base import Snapshot
from pipelines.process.secret import secret
from pipelines.web.accounts import Account
from pipelines.web.hub import Follower, Hub, StoreAccess, TournamentView
from pipelines.web.idempotency import new_key
from pipelines.web.pages import default_page
from pipelines.web.security import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    LoginLimiter,
    Sessions,
    bearer,
    csrf_bound,
    csrf_ok,
    new_csrf,
)
from pipelines.web.shared import SharedLimiter, SharedSessions, SharedTables

T = TypeVar("T")


TEMPLATES = Path(__file__).parent / "templates"

Rule = Callable[[Account], bool]


class Notifier:
    """Wakes the server-sent-event streams (on the event loop) when the follower synced."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._event = asyncio.Event()

    def changed(self, _: set[str]) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fire)

    def _fire(self) -> None:
        old, self._event = self._event, asyncio.Event()
        if old is not None:
            old.set()

    async def wait(self, timeout: float) -> None:
        event = self._event
        if event is None:
            await asyncio.sleep(timeout)
            return
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return


PUBLIC_WRITES = 20
PUBLIC_WINDOW = 600.0
"""At most 20 registrations (or 20 check-ins) from one address per event in 10 minutes."""


@dataclass
class Server:
    access: StoreAccess
    lists_dir: Path
    upload_limit: int
    public_url: str = "http://127.0.0.1:8000/"
    """The site's address as players reach it, ending in '/' (`arbiter serve --public-url`)."""
    hub: Hub = field(default_factory=Hub)
    sessions: Sessions | SharedSessions = field(init=False)
    limiter: LoginLimiter | SharedLimiter = field(default_factory=LoginLimiter)
    public_limiter: LoginLimiter | SharedLimiter = field(
        default_factory=lambda: LoginLimiter(PUBLIC_WRITES, PUBLIC_WINDOW)
    )
    shared: SharedTables | None = field(init=False, default=None)
    """PostgreSQL: the sessions and limits every server on the database shares."""
    notifier: Notifier = field(default_factory=Notifier)
    templates: Jinja2Templates = field(
        default_factory=lambda: Jinja2Templates(directory=str(TEMPLATES))
    )
    follower: Follower | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    """Set once the log is read (`start`); until then every request gets 503 (`warmup`)."""
    csrf_key: bytes = field(default_factory=secret)
    """The key of the CSRF tokens: the installation's secret, the same on every server."""

    def __post_init__(self) -> None:
        self.templates.env.globals["idempotency_key"] = new_key  # each form's hidden key
        accounts = lambda: self.hub.accounts  # noqa: E731
        if not self.access.is_server:
            self.sessions = Sessions(accounts)
            return
        # Several servers on one log: sessions and limits in its database, the same rules.
        self.shared = SharedTables(self.access.url)
        self.sessions = SharedSessions(self.shared, accounts)
        if isinstance(self.limiter, LoginLimiter):
            self.limiter = SharedLimiter(self.shared, "login", self.limiter)
        if isinstance(self.public_limiter, LoginLimiter):
            self.public_limiter = SharedLimiter(self.shared, "public", self.public_limiter)

    def check_store(self) -> None:
        """Open the store once (a wrong URL, a missing schema: refused before serving)."""
        with self.access.open():
            pass

    def start(self) -> None:
        """Read the log into the hub, then follow it; `ready` is set when done."""
        self.hub.warmers.append(lambda view: default_page(self.templates, view))
        with self.access.open() as store:
            self.hub.sync(store)
        self.hub.subscribe(self.notifier.changed)
        self.follower = Follower(self.hub, self.access)
        self.follower.start()
        self.ready.set()

    def stop(self) -> None:
        if self.follower is not None:
            self.follower.stop()
        if self.shared is not None:
            self.shared.close()
        self.access.close()

    def viewer(self, request: Request) -> Account | None:
        """The account of a request (bearer token or session), for reads; None: anonymous."""
        token = bearer(request.headers.get("authorization"))
        if token is not None:
            return self.hub.accounts.by_api_token(token)
        return self.sessions.account(request.cookies.get(SESSION_COOKIE), self.hub.accounts)

    def identify(self, request: HTTPConnection) -> Account:
        """The account of a write (bearer token or session), else 401; from the hub's accounts
        alone: no store opened, no body read."""
        token = bearer(request.headers.get("authorization"))
        if token is not None:
            account = self.hub.accounts.by_api_token(token)
            if account is None:
                raise HTTPException(401, "unknown or revoked API token")
            return account
        account = self.sessions.account(request.cookies.get(SESSION_COOKIE), self.hub.accounts)
        if account is None:
            raise HTTPException(401, "log in, or send an API token (Authorization: Bearer)")
        return account

    def admit(self, request: HTTPConnection) -> Account:
        """The account that may write to this path (`write_rule`), else 401 (nobody) or 403
        (not allowed): what `pipelines.web.gate` decides before the body is read."""
        account = self.identify(request)
        if not write_rule(request.scope["path"])(account):
            raise HTTPException(403, f"user {account.name} may not do this")
        return account

    def csrf_token(self, request: Request) -> str:
        """The CSRF token of a page's forms: the cookie's, when bound to the request's session
        (`pipelines.web.security`), else a new one (the page sets it as the cookie)."""
        kept = request.cookies.get(CSRF_COOKIE)
        session = request.cookies.get(SESSION_COOKIE)
        if kept and csrf_bound(self.csrf_key, kept, session):
            return kept
        return new_csrf(self.csrf_key, session)

    def check_csrf(self, request: Request, sent: str | None) -> None:
        """403 unless ``sent`` is the cookie's token and bound to the request's session."""
        cookie = request.cookies.get(CSRF_COOKIE)
        if not csrf_ok(self.csrf_key, cookie, sent, request.cookies.get(SESSION_COOKIE)):
            raise HTTPException(403, "missing or wrong CSRF token; reload the page")

    def authorize(self, request: Request, form_csrf: str | None = None) -> Account:
        """`admit`, and a session's write must echo its CSRF token (else 403)."""
        account = self.admit(request)
        if bearer(request.headers.get("authorization")) is None:
            sent = form_csrf if form_csrf is not None else request.headers.get(CSRF_HEADER)
            self.check_csrf(request, sent)
        return account

    @contextmanager
    def writing(
        self, request: Request, form_csrf: str | None = None
    ) -> Iterator[tuple[Store, Account]]:
        """An open store and the authorized account; events appended inside record it.

        Authorized twice: on the hub as it is (a refusal opens no store and takes no place in
        the DuckDB file's queue), then on the projections synced with the store (an account
        revoked a moment ago is refused)."""
        self.authorize(request, form_csrf)
        with self.access.open() as store:
            self.hub.sync(store)
            account = self.authorize(request, form_csrf)
            set_origin(Origin(account.name, "api", f"{request.method} {request.url.path}"))
            try:
                yield store, account
            finally:
                self.hub.sync(store)

    @contextmanager
    def public_writing(
        self, request: Request, what: str, form_csrf: str | None = None
    ) -> Iterator[Store]:
        """An open store for a write anyone may make (`open_write`): a form's CSRF token must
        match its cookie, and each address makes at most `PUBLIC_WRITES` of ``what`` per
        `PUBLIC_WINDOW` seconds (429 with Retry-After beyond). The events record the address."""
        if form_csrf is not None:
            self.check_csrf(request, form_csrf)
        client = request.client.host if request.client else "?"
        wait = self.public_limiter.begin(client, what)
        if wait:
            raise HTTPException(
                429, f"too many requests; try again in {wait} s", {"Retry-After": str(wait)}
            )
        with self.access.open() as store:
            self.hub.sync(store)
            set_origin(Origin(f"public@{client}", "web", f"{request.method} {request.url.path}"))
            try:
                yield store
            finally:
                self.hub.sync(store)

    def command(self, tournament_id: str, run: Callable[[Snapshot | None], T]) -> T:
        """`run(known)`: a command decided on the hub's state of the tournament (no replay of
        its stream). When the stream moved on meanwhile, the command itself decides again on
        the stream as stored (`pipelines.commands.base.decided_again`)."""
        return run(self.hub.snapshot(tournament_id))


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def tournament_view(request: Request, tournament_id: str) -> TournamentView:
    """The hub's view of a tournament, else 404."""
    view = server_of(request).hub.view(tournament_id)
    if view is None:
        raise HTTPException(404, f"unknown tournament '{tournament_id}'")
    return view


def director_of(tournament_id: str) -> Rule:
    return lambda account: account.may_direct(tournament_id)


def officer(account: Account) -> bool:
    return account.is_officer


def nobody(_: Account) -> bool:
    return False


def open_write(path: str) -> bool:
    """Writes that need no account, each with its own checks: the login and logout forms (the
    password, the CSRF token), and a player's own registration and check-in (the event's
    settings, a rate limit per address; `public_writing`)."""
    match path.strip("/").split("/"):
        case ["login"] | ["logout"]:
            return True
        case ["t", _, "register" | "check-in"]:
            return True
        case ["api", "tournaments", _, "registrations" | "check-ins"]:
            return True
    return False


def write_rule(path: str) -> Rule:
    """Who may write (POST, PATCH, DELETE) to `path`: every write route's rule, in one place
    (the README's table). A path not named here is nobody's: a new write route is refused
    until it has its rule."""
    match path.strip("/").split("/"):
        case ["api", "tournaments"] | ["api", "ingest"] | ["api", "ratings", "run"]:
            return officer
        case ["officer", _]:
            return officer
        case ["api", "tournaments", tid, *_] | ["t", tid, "manage", _]:
            return director_of(tid)
    return nobody
