"""``Idempotency-Key`` on the API's writes: a client whose connection dropped sends again and
gets the first answer (the IETF draft header, as Stripe and others use it).

A POST, PUT or PATCH under ``/api/`` with the header is run once per (client, key): the client
is its bearer token or session cookie (hashed), so two clients' keys never meet. The answer
(status, content type, body) is kept with a fingerprint of the request (method, path, query,
body); the same key again with the same request gets that answer, with ``Idempotency-Replayed:
true``, and nothing is run; with another request 422; while the first is still running 409.
An answer of 5xx is not kept (the request may be sent again and run). Answers are kept
`KEEP_SECONDS` (24 h): in the shared log's database with a PostgreSQL store (every server sees
them), in the server's memory with a DuckDB file (one server).

The middleware sits inside the `pipelines.web.gate.Gate`, so the request was admitted and its
body bounded before it is read here; the answer is kept before it is sent, so a client gone
meanwhile finds it when it asks again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg_pool import ConnectionPool
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pipelines.web.security import SESSION_COOKIE

__all__ = ["KEEP_SECONDS", "Idempotency", "Kept", "MemoryKeys", "SharedKeys"]

KEEP_SECONDS = 24 * 3600
HEADER = b"idempotency-key"
METHODS = frozenset({"POST", "PUT", "PATCH"})
MAX_KEY = 255
_SWEEP_EVERY = 100


@dataclass(frozen=True, slots=True)
class Kept:
    fingerprint: str
    status: int | None
    """None: the first request is still running."""
    content_type: str = ""
    body: bytes = b""


Claim = Literal["new"] | Kept


class MemoryKeys:
    """The answers in this process (DuckDB: one server)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], tuple[float, Kept]] = {}
        self._lock = threading.Lock()

    def claim(self, owner: str, key: str, fingerprint: str) -> Claim:
        with self._lock:
            now = time.time()
            if len(self._kept) % _SWEEP_EVERY == 0:
                self._kept = {k: v for k, v in self._kept.items() if v[0] > now - KEEP_SECONDS}
            found = self._kept.get((owner, key))
            if found is not None and found[0] > now - KEEP_SECONDS:
                return found[1]
            self._kept[(owner, key)] = (now, Kept(fingerprint, None))
            return "new"

    def keep(self, owner: str, key: str, kept: Kept) -> None:
        with self._lock:
            self._kept[(owner, key)] = (time.time(), kept)

    def release(self, owner: str, key: str) -> None:
        with self._lock:
            self._kept.pop((owner, key), None)


class SharedKeys:
    """The answers in the store's PostgreSQL database (``arbiter_web_idempotency``, made by
    `pipelines.web.shared.SharedTables`): every server on the log sees them."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self._pool = pool
        self._claims = 0

    def claim(self, owner: str, key: str, fingerprint: str) -> Claim:
        self._claims += 1
        with self._pool.connection() as con, con.transaction():
            if self._claims % _SWEEP_EVERY == 1:
                con.execute(
                    "DELETE FROM arbiter_web_idempotency "
                    "WHERE created < now() - make_interval(secs => %s)",
                    [KEEP_SECONDS],
                )
            made = con.execute(
                "INSERT INTO arbiter_web_idempotency (owner, key, fingerprint, created) "
                "VALUES (%s, %s, %s, now()) ON CONFLICT DO NOTHING RETURNING 1",
                [owner, key, fingerprint],
            ).fetchone()
            if made is not None:
                return "new"
            row = con.execute(
                "SELECT fingerprint, status, content_type, body FROM arbiter_web_idempotency "
                "WHERE owner = %s AND key = %s",
                [owner, key],
            ).fetchone()
        if row is None:  # released meanwhile: this one runs
            return self.claim(owner, key, fingerprint)
        return Kept(row[0], row[1], row[2] or "", bytes(row[3] or b""))

    def keep(self, owner: str, key: str, kept: Kept) -> None:
        with self._pool.connection() as con:
            con.execute(
                "UPDATE arbiter_web_idempotency SET status = %s, content_type = %s, body = %s "
                "WHERE owner = %s AND key = %s",
                [kept.status, kept.content_type, kept.body, owner, key],
            )

    def release(self, owner: str, key: str) -> None:
        with self._pool.connection() as con:
            con.execute(
                "DELETE FROM arbiter_web_idempotency WHERE owner = %s AND key = %s", [owner, key]
            )


Keys = MemoryKeys | SharedKeys


def _json(status: int, message: str) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps({"error": message}).encode()


class Idempotency:
    """ASGI middleware (see the module); ``keys()`` gives the server's store of answers."""

    def __init__(self, app: ASGIApp, keys: Callable[[], Keys]) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", [])) if scope["type"] == "http" else {}
        raw = headers.get(HEADER)
        if (
            raw is None
            or scope["method"] not in METHODS
            or not str(scope["path"]).startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        key = raw.decode("latin-1").strip()
        if not key or len(key) > MAX_KEY:
            await _answer(send, *_json(422, f"Idempotency-Key: give 1 to {MAX_KEY} characters"))
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its request was whole: nothing run
            body += message.get("body", b"")
            more = message.get("more_body", False)
        owner = _owner(headers)
        query = scope.get("query_string", b"")
        fingerprint = hashlib.sha256(
            b"\0".join([scope["method"].encode(), str(scope["path"]).encode(), query, body])
        ).hexdigest()
        keys = self.keys()
        claim = await asyncio.to_thread(keys.claim, owner, key, fingerprint)
        if isinstance(claim, Kept):
            if claim.fingerprint != fingerprint:
                await _answer(
                    send,
                    *_json(422, "Idempotency-Key was used with another request; use a new key"),
                )
            elif claim.status is None:
                await _answer(
                    send, *_json(409, "a request with this Idempotency-Key is still running")
                )
            else:
                await _answer(send, claim.status, claim.content_type, claim.body, replayed=True)
            return
        await self._run(scope, body, receive, send, keys, (owner, key, fingerprint))

    async def _run(
        self,
        scope: Scope,
        body: bytes,
        receive: Receive,
        send: Send,
        keys: Keys,
        claimed: tuple[str, str, str],
    ) -> None:
        owner, key, fp = claimed
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:  # the body was read here: what comes next is the client going away
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        start: Message | None = None
        chunks: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, replay, hold)
        except BaseException:
            await asyncio.to_thread(keys.release, owner, key)
            raise
        if start is None:
            await asyncio.to_thread(keys.release, owner, key)
            return
        status = int(start["status"])
        answer = b"".join(chunks)
        if status >= 500:
            await asyncio.to_thread(keys.release, owner, key)
        else:
            kind = dict(start.get("headers", [])).get(b"content-type", b"").decode("latin-1")
            await asyncio.to_thread(keys.keep, owner, key, Kept(fp, status, kind, answer))
        await send(start)
        await send({"type": "http.response.body", "body": answer})


def _owner(headers: dict[bytes, bytes]) -> str:
    """Whose key it is: the bearer token, else the session cookie (hashed)."""
    who = headers.get(b"authorization")
    if who is None:
        cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
        who = cookies.get(SESSION_COOKIE, "").encode()
    return hashlib.sha256(who).hexdigest()


async def _answer(
    send: Send, status: int, content_type: str, body: bytes, *, replayed: bool = False
) -> None:
    headers = [
        (b"content-type", content_type.encode("latin-1")),
        (b"content-length", str(len(body)).encode()),
    ]
    if replayed:
        headers.append((b"idempotency-replayed", b"true"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
