"""`arbiter serve` answers at once: while the server reads the log (its projections and page
caches build in the background, `Server.start`), every request gets 503 with ``Retry-After``:
a short page that reloads itself for a browser, one JSON line for the API and other clients.
A log of 400,000 events takes half a minute to read; a port that stays silent that long looks
like a dead server to people, proxies and health checks alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["MESSAGE", "RETRY_AFTER", "WarmingUp"]

MESSAGE = "warming up: the server is reading the log; retry in a few seconds"
RETRY_AFTER = 2
"""Seconds a client is asked to wait (the page reloads itself after as many)."""

_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{RETRY_AFTER}">
<title>arbiter: warming up</title></head>
<body><h1>Warming up</h1><p>The server is reading the log. This page reloads itself in
{RETRY_AFTER} seconds.</p></body></html>
""".encode()


class WarmingUp:
    """ASGI middleware: 503 and ``Retry-After`` until ``ready()``, then out of the way."""

    def __init__(self, app: ASGIApp, ready: Callable[[], bool]) -> None:
        self.app = app
        self.ready = ready

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.ready():
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        accept = dict(scope["headers"]).get(b"accept", b"").decode("latin-1")
        if path.startswith("/api") or "text/html" not in accept:
            body, kind = json.dumps({"error": MESSAGE}).encode(), b"application/json"
        else:
            body, kind = _PAGE, b"text/html; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", kind),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(RETRY_AFTER).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
