"""Anonymous GETs answered again from memory until the projection hub changes.

Every public page and its JSON twin is a function of the path, the query string and the hub's
state, so an anonymous visitor's repeated GET can get the very response the application gave
before. `Replay` keeps such responses, keyed by (path, query, hub generation), and sends them
again without FastAPI's routing, dependency solving and response objects (about half of a
request's cost on a busy 2-core box).

What is never kept: a request with a cookie, a bearer token or a conditional or range header
(its answer depends on who asks or what they hold); a response other than a complete 200 in
one body message (an error, a redirect, the server-sent-event stream); a response that sets a
cookie. The generation is read before the request is handled and the hub raises it only after
the new views are published, so a kept response is never older than its key.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PERSONAL = frozenset(
    (b"cookie", b"authorization", b"range", b"if-range", b"if-none-match", b"if-modified-since")
)
LIMIT = 512
"""Responses kept per generation at most (query strings are the visitor's to choose)."""

Key = tuple[str, bytes]


class Replay:
    """ASGI middleware: replays the kept response of an anonymous GET (see the module)."""

    def __init__(self, app: ASGIApp, generation: Callable[[], int]) -> None:
        self.app = app
        self.generation = generation
        self._kept_at = -1
        self._kept: dict[Key, tuple[Message, Message]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or any(name in PERSONAL for name, _ in scope["headers"])
        ):
            await self.app(scope, receive, send)
            return
        generation = self.generation()
        if generation != self._kept_at:
            self._kept_at, self._kept = generation, {}
        key: Key = (scope["path"], scope["query_string"])
        kept = self._kept.get(key)
        if kept is not None:
            await send({**kept[0]})
            await send({**kept[1]})
            return
        kept_for = self._kept
        start: Message | None = None

        async def keep(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                cookie = any(name == b"set-cookie" for name, _ in message.get("headers", []))
                start = message if message["status"] == 200 and not cookie else None
            elif message["type"] == "http.response.body" and start is not None:
                if not message.get("more_body", False) and len(kept_for) < LIMIT:
                    kept_for[key] = (start, message)
                start = None
            await send(message)

        await self.app(scope, receive, keep)
