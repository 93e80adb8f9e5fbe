"""What a request must pass before its body is read: who sends it, and how large it is.

* A write (POST, PUT, PATCH, DELETE) to any path but the open ones (`open_write`: login, logout,
  a player's own registration and check-in) is decided on
  its bearer token or session cookie alone (`Server.admit`, on the hub's accounts): 401 without
  an account, 403 for an account without the right. Nothing of the body is read, no store is
  opened, no place is taken in the DuckDB file's queue. The handler checks again on the synced
  projections (revoked a moment ago) and checks the CSRF token.
* A body may have at most `BodyLimits.upload` bytes on the ingest uploads and `BodyLimits.body`
  elsewhere: a larger Content-Length is refused with 413 at once; a body that grows past the
  limit while it is read (chunked, or longer than it said) ends in 413 at the byte past it,
  before a handler acts.

A refusal before the whole body is read closes the connection (``Connection: close``), so the
rest of the body is never read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pipelines.web.security import bearer
from pipelines.web.server import open_write, server_of

UPLOAD_PATHS = frozenset({"/api/ingest", "/officer/ingest"})
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_CLOSE = (b"connection", b"close")
CATCH_UP = 1.0
"""Seconds an unknown API token waits for the follower to read the file's new events."""


@dataclass(frozen=True, slots=True)
class BodyLimits:
    body: int
    """Bytes of any request body but an upload (JSON, forms)."""
    upload: int
    """Bytes of an ingest upload request (all its files together)."""

    def of(self, path: str) -> int:
        return self.upload if path in UPLOAD_PATHS else self.body


class TooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body larger than the {limit} byte limit")


Refuse = Callable[[Request, int, str], Response]


class Gate:
    """ASGI middleware: admits a write and bounds its body before the body is read (see the
    module). `refuse(request, status, message)` makes the refusal (JSON or the error page)."""

    def __init__(self, app: ASGIApp, limits: BodyLimits, refuse: Refuse) -> None:
        self.app = app
        self.limits = limits
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        limit = self.limits.of(path)
        request = Request(scope)
        if scope["method"] in WRITE_METHODS and not open_write(path):
            try:
                await self._admit(request)
            except HTTPException as exc:
                await self._refuse(request, exc, scope, receive, send)
                return
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            await self._refuse(request, TooLarge(limit), scope, receive, send)
            return

        read = 0
        over = False

        async def counted() -> Message:
            nonlocal read, over
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    over = True
                    raise TooLarge(limit)
            return message

        started = False

        async def closing(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if over:
                    message["headers"] = [*message.get("headers", []), _CLOSE]
            await send(message)

        try:
            await self.app(scope, counted, closing)
        except TooLarge as exc:  # a reader that let it pass: refused here, if not yet answered
            if started:
                raise
            await self._refuse(request, exc, scope, receive, send)

    async def _admit(self, request: Request) -> None:
        """`Server.admit`; an API token it does not know yet, while the DuckDB file has events
        the follower has not read (a token `arbiter user add` made a moment ago), is asked
        again once they are read (at most `CATCH_UP` seconds; the file is not opened here)."""
        server = server_of(request)
        try:
            server.admit(request)
        except HTTPException as exc:
            if exc.status_code != 401 or bearer(request.headers.get("authorization")) is None:
                raise
            waited = 0.0
            while server.access.behind() and waited < CATCH_UP:
                await asyncio.sleep(0.05)
                waited += 0.05
            server.admit(request)

    async def _refuse(
        self, request: Request, exc: HTTPException, scope: Scope, receive: Receive, send: Send
    ) -> None:
        response = self.refuse(request, exc.status_code, str(exc.detail))
        response.headers["connection"] = "close"
        await response(scope, receive, send)
