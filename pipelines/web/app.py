"""The `arbiter serve` application: `create_app(store_url)` wires the routes to one `Server`."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from decide.inputs import refusal_of
from events.errors import ArbiterError, NotFound, RetryableError
from events.validate import InvalidField
from pipelines.web import api, forms, public
from pipelines.web.gate import BodyLimits, Gate
from pipelines.web.hub import StoreAccess
from pipelines.web.idempotency import (
    FileKeys,
    Idempotency,
    Keys,
    MemoryKeys,
    SharedKeys,
    keys_file,
)
from pipelines.web.replay import Replay
from pipelines.web.server import Server, server_of
from pipelines.web.warmup import WarmingUp

log = logging.getLogger(__name__)

DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024
"""Bytes of one ingest upload request (all its files)."""
BUSY_RETRY_AFTER = 5
"""Seconds a client is asked to wait after 503 busy (another process held the store past the
bounded wait, ``$ARBITER_STORE_TIMEOUT``, default 10 s)."""
DEFAULT_MAX_BODY = 1024 * 1024
"""Bytes of any other request body (the largest JSON or form a write needs is a few KB)."""

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'"
    ),
}


class SecurityHeaders:
    """Adds `_SECURITY_HEADERS` to every response (a plain ASGI middleware: Starlette's
    BaseHTTPMiddleware costs about a millisecond a request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


def status_of(exc: ArbiterError) -> int:
    """The HTTP status of a refused command: 404 unknown object, 422 a value its field refuses
    (as for a request body of the wrong shape), 503 busy or unreachable store or a stream that
    kept moving (`RetryableError`: sent again, the request lands), else 400 (what the
    tournament's state does not allow: a real conflict)."""
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, InvalidField):
        return 422
    if isinstance(exc, RetryableError):
        return 503
    return 400


def _error(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api") or "text/html" not in request.headers.get("accept", ""):
        return JSONResponse({"error": message}, status_code=status)
    server = server_of(request)
    return server.templates.TemplateResponse(
        request,
        "error.html",
        {"viewer": server.viewer(request), "status": status, "message": message},
        status_code=status,
    )


def _started(server: Server) -> None:
    """`Server.start` in the background; a failure there ends the process (exit 1) with its
    one line in the log: a server that cannot read its log must not look alive."""
    try:
        server.start()
    except BaseException:
        log.exception("arbiter serve could not start")
        logging.shutdown()
        os._exit(1)


def _keys(server: Server) -> Keys:
    """Where the Idempotency-Key answers are kept: the shared database (PostgreSQL), a file
    beside a DuckDB store's, memory for a store in memory."""
    if server.shared is not None:
        return SharedKeys(server.shared.pool)
    if server.access.url in ("", ":memory:"):
        return MemoryKeys()
    return FileKeys(keys_file(server.access.url))


def create_app(
    store_url: str,
    *,
    lists_dir: Path | None = None,
    upload_limit: int = DEFAULT_UPLOAD_LIMIT,
    max_body: int = DEFAULT_MAX_BODY,
    public_url: str = "http://127.0.0.1:8000/",
) -> FastAPI:
    """The application; ``public_url`` (ending in '/') is the site's address in QR codes and
    links (`arbiter serve --public-url`), never the request's Host header."""
    server = Server(
        StoreAccess(store_url), lists_dir or Path("lists").resolve(), upload_limit, public_url
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        server.notifier.bind(asyncio.get_running_loop())
        await asyncio.to_thread(server.check_store)  # a store it cannot open stops it here
        warming = asyncio.create_task(asyncio.to_thread(_started, server))
        yield
        await warming
        await asyncio.to_thread(server.stop)
        if isinstance(keys, FileKeys):
            keys.close()

    # Swagger UI from the package's own copy (fastapi-offline): /api/docs works without the
    # internet and within the pages' Content-Security-Policy ('self' scripts only).
    app = FastAPIOffline(
        title="arbiter",
        summary="Live results, standings and rating lists; the API of directors and officers.",
        version="1",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        static_url="/api/docs/static",
    )
    app.state.server = server
    keys = _keys(server)
    app.add_middleware(Idempotency, keys=lambda: keys)  # inside the Gate: admitted, bounded
    app.add_middleware(Gate, limits=BodyLimits(max_body, upload_limit), refuse=_error)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Replay, generation=lambda: server.hub.generation)
    app.add_middleware(WarmingUp, ready=server.ready.is_set)
    app.include_router(public.router)
    app.include_router(forms.router)
    app.include_router(api.router)

    @app.get(
        "/health", summary="200 once the log is read (503 while warming up): for a load balancer"
    )
    def health() -> dict[str, object]:
        return {"ready": True, "position": server.hub.position}

    @app.exception_handler(ArbiterError)
    async def arbiter_error(request: Request, exc: ArbiterError) -> Response:
        status = status_of(exc)
        response = _error(request, status, str(exc))
        if status == 503:  # busy, away or moving: worth asking again shortly
            response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        response = _error(request, exc.status_code, str(exc.detail))
        for key, value in (exc.headers or {}).items():
            response.headers[key] = value
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return _error(request, 422, str(refusal_of(exc.errors(), skip=("body", "query", "path"))))

    return app
