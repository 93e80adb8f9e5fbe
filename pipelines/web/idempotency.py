"""``Idempotency-Key`` on the writes: a client whose connection dropped sends again and gets
the first answer (the IETF draft header, as Stripe and others use it).

A POST, PUT or PATCH under ``/api/`` with the header, or a form of the site (every form but
login and logout) with its hidden ``idempotency_key`` field (each rendered form has a new one,
`new_key`), is run once per (client, key): the client is its bearer token, else its session
cookie, else its CSRF cookie (a visitor's own entry or check-in; hashed), so two clients' keys
never meet. The answer (status, content type, the Location and Retry-After headers, body) is
kept with a fingerprint of the request (method, path, query, body); the same key again with the
same request gets that answer, with ``Idempotency-Replayed: true``, and nothing is run; with
another request 422; while the first is still running 409. An answer of 5xx or 429 is not
kept (the request may be sent again and run). Answers are kept `KEEP_SECONDS` (24 h): in the
shared log's database with a PostgreSQL store (every server sees them), in a DuckDB file beside
a DuckDB store's (`FileKeys`: a restart keeps them; the store's own file is the CLI's too, and
is held only for a request).

The middleware sits inside the `pipelines.web.gate.Gate`, so the request was admitted and its
body bounded before it is read here; the answer is kept before it is sent, so a client gone
meanwhile finds it when it asks again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs

import duckdb
import psycopg
from psycopg_pool import ConnectionPool
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pipelines.web.security import CSRF_COOKIE, SESSION_COOKIE

__all__ = [
    "KEEP_SECONDS",
    "FileKeys",
    "Idempotency",
    "Kept",
    "MemoryKeys",
    "SharedKeys",
    "keys_file",
    "new_key",
]

KEEP_SECONDS = 24 * 3600
HEADER = b"idempotency-key"
FIELD = "idempotency_key"
"""The forms' hidden field that carries the key."""
METHODS = frozenset({"POST", "PUT", "PATCH"})
MAX_KEY = 255
KEPT_HEADERS = frozenset({"location", "retry-after"})
"""The headers of an answer kept with it (a form's redirect); never a cookie."""
_SWEEP_EVERY = 100
_UNKEYED_FORMS = frozenset({"/login", "/logout"})
_MULTIPART_FIELD = re.compile(
    rb'name="idempotency_key"\r\n(?:[^\r\n]*\r\n)*?\r\n([^\r\n]{1,255})\r\n'
)


def new_key() -> str:
    """A new key for a rendered form's hidden field."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True, slots=True)
class Kept:
    fingerprint: str
    status: int | None
    """None: the first request is still running."""
    content_type: str = ""
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    """The `KEPT_HEADERS` of the answer."""

    def headers_text(self) -> str:
        return json.dumps([list(h) for h in self.headers])


def _headers(text: str | None) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in json.loads(text or "[]"))


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
                "SELECT fingerprint, status, content_type, body, headers "
                "FROM arbiter_web_idempotency WHERE owner = %s AND key = %s",
                [owner, key],
            ).fetchone()
        if row is None:  # released meanwhile: this one runs
            return self.claim(owner, key, fingerprint)
        return Kept(row[0], row[1], row[2] or "", bytes(row[3] or b""), _headers(row[4]))

    def keep(self, owner: str, key: str, kept: Kept) -> None:
        with self._pool.connection() as con:
            con.execute(
                "UPDATE arbiter_web_idempotency "
                "SET status = %s, content_type = %s, body = %s, headers = %s "
                "WHERE owner = %s AND key = %s",
                [kept.status, kept.content_type, kept.body, kept.headers_text(), owner, key],
            )

    def release(self, owner: str, key: str) -> None:
        with self._pool.connection() as con:
            con.execute(
                "DELETE FROM arbiter_web_idempotency WHERE owner = %s AND key = %s", [owner, key]
            )


def keys_file(store_path: str) -> Path:
    """Where a DuckDB store's answers are kept: beside its file (``arbiter.duckdb`` →
    ``arbiter.idempotency.duckdb``)."""
    path = Path(store_path)
    return path.with_name(f"{path.stem}.idempotency.duckdb")


_FILE_TABLE = """
CREATE TABLE IF NOT EXISTS idempotency (
    owner VARCHAR NOT NULL,
    key VARCHAR NOT NULL,
    fingerprint VARCHAR NOT NULL,
    created DOUBLE NOT NULL,
    status INTEGER,
    content_type VARCHAR,
    headers VARCHAR,
    body BLOB,
    PRIMARY KEY (owner, key)
)
"""


class FileKeys:
    """The answers in a DuckDB file of their own beside a DuckDB store (`keys_file`), open
    while the server runs (a DuckDB store has one server), so a restart keeps them."""

    def __init__(self, path: Path, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while True:  # a server stopping a moment ago may still hold it
            try:
                self._con = duckdb.connect(str(path))
                break
            except duckdb.IOException:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)
        self._con.execute(_FILE_TABLE)
        self._lock = threading.Lock()
        self._claims = 0

    def claim(self, owner: str, key: str, fingerprint: str) -> Claim:
        with self._lock:
            now = time.time()
            self._claims += 1
            if self._claims % _SWEEP_EVERY == 1:
                self._con.execute("DELETE FROM idempotency WHERE created < ?", [now - KEEP_SECONDS])
            row = self._con.execute(
                "SELECT fingerprint, status, content_type, body, headers, created "
                "FROM idempotency WHERE owner = ? AND key = ?",
                [owner, key],
            ).fetchone()
            if row is not None and row[5] > now - KEEP_SECONDS:
                return Kept(row[0], row[1], row[2] or "", bytes(row[3] or b""), _headers(row[4]))
            self._con.execute(
                "INSERT OR REPLACE INTO idempotency (owner, key, fingerprint, created) "
                "VALUES (?, ?, ?, ?)",
                [owner, key, fingerprint, now],
            )
            return "new"

    def keep(self, owner: str, key: str, kept: Kept) -> None:
        with self._lock:
            self._con.execute(
                "UPDATE idempotency SET status = ?, content_type = ?, body = ?, headers = ? "
                "WHERE owner = ? AND key = ?",
                [kept.status, kept.content_type, kept.body, kept.headers_text(), owner, key],
            )

    def release(self, owner: str, key: str) -> None:
        with self._lock:
            self._con.execute("DELETE FROM idempotency WHERE owner = ? AND key = ?", [owner, key])

    def close(self) -> None:
        with self._lock:
            self._con.close()


Keys = MemoryKeys | SharedKeys | FileKeys


def _json(status: int, message: str) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps({"error": message}).encode()


class Idempotency:
    """ASGI middleware (see the module); ``keys()`` gives the server's store of answers."""

    def __init__(self, app: ASGIApp, keys: Callable[[], Keys]) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", [])) if scope["type"] == "http" else {}
        if scope["type"] != "http" or scope["method"] not in METHODS:
            await self.app(scope, receive, send)
            return
        path = str(scope["path"])
        raw = headers.get(HEADER)
        api = path.startswith("/api/")
        if (api and raw is None) or (not api and path in _UNKEYED_FORMS):
            await self.app(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its request was whole: nothing run
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if raw is not None:
            key: str | None = raw.decode("latin-1").strip()
            if not key or len(key) > MAX_KEY:
                await _answer(send, *_json(422, f"Idempotency-Key: give 1 to {MAX_KEY} characters"))
                return
        else:
            key = _form_key(headers.get(b"content-type", b""), body)
        if key is None:  # a form without the field (an old page, a script): run as sent
            await self.app(scope, _once(body, receive), send)
            return
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
                await _answer(
                    send, claim.status, claim.content_type, claim.body,
                    replayed=True, kept=claim.headers,
                )  # fmt: skip
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
        replay = _once(body, receive)
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
        if status >= 500 or status == 429:  # busy or too many: worth sending again
            await asyncio.to_thread(keys.release, owner, key)
        else:
            said = [(k.decode("latin-1").lower(), v.decode("latin-1"))
                    for k, v in start.get("headers", [])]  # fmt: skip
            kind = dict(said).get("content-type", "")
            kept = tuple((k, v) for k, v in said if k in KEPT_HEADERS)
            await asyncio.to_thread(keys.keep, owner, key, Kept(fp, status, kind, answer, kept))
        await send(start)
        await send({"type": "http.response.body", "body": answer})


def _once(body: bytes, receive: Receive) -> Receive:
    """The request's body, read here, handed on; then what comes next (the client going
    away)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _form_key(content_type: bytes, body: bytes) -> str | None:
    """The hidden `FIELD` of a form's body (URL-encoded or multipart), if it has one."""
    if content_type.startswith(b"application/x-www-form-urlencoded"):
        found = parse_qs(body.decode("latin-1"), max_num_fields=1000).get(FIELD)
        value = found[-1].strip() if found else ""
    elif content_type.startswith(b"multipart/form-data"):
        match = _MULTIPART_FIELD.search(body)
        value = match[1].decode("latin-1").strip() if match else ""
    else:
        return None
    return value if 0 < len(value) <= MAX_KEY else None


def _owner(headers: dict[bytes, bytes]) -> str:
    """Whose key it is: the bearer token, else the session cookie, else the CSRF cookie of
    a visitor's form (hashed)."""
    who = headers.get(b"authorization")
    if who is None:
        cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
        who = (cookies.get(SESSION_COOKIE) or "csrf:" + cookies.get(CSRF_COOKIE, "")).encode()
    return hashlib.sha256(who).hexdigest()


async def _answer(
    send: Send,
    status: int,
    content_type: str,
    body: bytes,
    *,
    replayed: bool = False,
    kept: tuple[tuple[str, str], ...] = (),
) -> None:
    headers = [
        (b"content-type", content_type.encode("latin-1")),
        (b"content-length", str(len(body)).encode()),
        *((k.encode("latin-1"), v.encode("latin-1")) for k, v in kept),
    ]
    if replayed:
        headers.append((b"idempotency-replayed", b"true"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
