"""Who is asking, and may he: bearer tokens, login sessions, CSRF tokens, the login rate limit.

* API clients send ``Authorization: Bearer <token>`` (the token `arbiter user add` printed);
  a bearer request carries no cookie authority, so it needs no CSRF token.
* Browsers log in with a password and get a session cookie (random, ``HttpOnly;
  SameSite=Strict``, and ``Secure`` over https: a browser sends no Secure cookie over plain
  http, the venue's network), held in this process's memory (`Sessions`: a restart logs
  everyone out); with a PostgreSQL store in the database instead, shared by every server
  (`pipelines.web.shared`).
* Every form (and every cookie-authenticated API write) must echo the CSRF token of its session
  (double submit: the ``arbiter_csrf`` cookie, HttpOnly, against the form field or the
  ``X-CSRF-Token`` header), and the token must be bound to that session: it is a random nonce
  and an HMAC, under the installation's secret (`pipelines.process.secret`), of the nonce and
  the session's id (no session: the empty id, for the login form and a player's own entry). A
  token and cookie taken from one session, or planted by whoever can set cookies on the
  venue's plain-http network, are refused in another. A missing, different or unbound token is
  403 and nothing is appended. Nothing of it needs a ``Secure`` cookie, so it works over http.
* A client address may try one account name at most `LOGIN_ATTEMPTS` times per `LOGIN_WINDOW`
  seconds, counted before the password is checked, then gets 429 until the window has passed.
  The address is the peer's, or the X-Forwarded-For of a proxy given with
  ``--forwarded-allow-ips`` (uvicorn rewrites it; no proxy is trusted by default). With a
  PostgreSQL store the attempts are counted in the database, so N servers give one limit.
* The account is looked up in the accounts projection on every request, so a revoked account
  stops working at once for writes (the write path syncs the projection first).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from pipelines.web.accounts import Account, Accounts

SESSION_COOKIE = "arbiter_session"
CSRF_COOKIE = "arbiter_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = 12 * 3600
LOGIN_ATTEMPTS = 5
LOGIN_WINDOW = 60.0


@dataclass(frozen=True, slots=True)
class Session:
    account: str
    created: int
    """The account's identity (:attr:`Account.created`): a revoked account re-created under
    the same name is another account, and this session is not his."""
    expires: float


class Sessions:
    """Login sessions by random id, in memory, each bound to one account's identity.

    ``accounts`` gives the accounts as the server knows them now (the hub's), so a session
    made for a name is bound to the account that holds the name at login.
    """

    def __init__(self, accounts: Callable[[], Accounts] | None = None) -> None:
        self._by_id: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._accounts = accounts

    def create(self, account: str | Account) -> str:
        account = bound_account(account, self._accounts)
        sid = secrets.token_urlsafe(32)
        with self._lock:
            now = time.time()
            self._by_id = {k: s for k, s in self._by_id.items() if s.expires > now}
            self._by_id[sid] = Session(account.name, account.created, now + SESSION_SECONDS)
        return sid

    def account(self, sid: str | None, accounts: Accounts) -> Account | None:
        if not sid:
            return None
        session = self._by_id.get(sid)
        if session is None or session.expires < time.time():
            return None
        acc = accounts.by_name.get(session.account)
        if acc is None or not acc.active or acc.created != session.created:
            # Revoked (or revoked and re-created: another account): the session ends for good.
            self.drop(sid)
            return None
        return acc

    def drop(self, sid: str | None) -> None:
        if sid:
            with self._lock:
                self._by_id.pop(sid, None)


def bound_account(account: str | Account, accounts: Callable[[], Accounts] | None) -> Account:
    """The account a new session is bound to: the one holding the name now."""
    if isinstance(account, Account):
        return account
    if accounts is None:
        raise ValueError("Sessions without accounts: create() needs the Account")
    found = accounts().by_name.get(account)
    if found is None or not found.active:
        raise ValueError(f"no active account {account!r}")
    return found


class LoginLimiter:
    """Login attempts per (client address, account name) in a sliding window.

    An attempt is counted when it begins, before its password is checked (`begin`), and forgotten
    with the others of its key when it succeeds: however many arrive at once, at most `attempts`
    of a key are checked per `window` seconds. The name is part of the key, so the users behind one
    address (a proxy that is not trusted, an office) do not share one limit.
    """

    def __init__(self, attempts: int = LOGIN_ATTEMPTS, window: float = LOGIN_WINDOW) -> None:
        self.attempts = attempts
        self.window = window
        self._tries: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def begin(self, client: str, name: str) -> int:
        """0: the attempt may be checked now (it counts as failed until `succeeded`); else the
        seconds until this client may try this name again."""
        key = (client, name)
        with self._lock:
            now = time.monotonic()
            if len(self._tries) > _KEYS_KEPT:
                self._forget(now)
            q = self._tries.setdefault(key, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.attempts:
                return int(q[0] + self.window - now) + 1
            q.append(now)
            return 0

    def succeeded(self, client: str, name: str) -> None:
        with self._lock:
            self._tries.pop((client, name), None)

    def _forget(self, now: float) -> None:
        self._tries = {k: q for k, q in self._tries.items() if q and q[-1] > now - self.window}


_KEYS_KEPT = 10_000
"""Keys past which the limiter drops those whose attempts are all older than the window."""


def new_csrf(key: bytes, session: str | None) -> str:
    """A CSRF token bound to ``session`` (the session cookie's id; None: no session)."""
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_csrf_mac(key, nonce, session)}"


def _csrf_mac(key: bytes, nonce: str, session: str | None) -> str:
    message = b"\0".join([b"csrf", nonce.encode(), (session or "").encode()])
    return base64.urlsafe_b64encode(hmac.new(key, message, hashlib.sha256).digest()[:24]).decode()


def csrf_bound(key: bytes, token: str | None, session: str | None) -> bool:
    """``token`` was made by `new_csrf` for this session."""
    nonce, dot, mac = (token or "").partition(".")
    if not (nonce and dot and mac):
        return False
    return hmac.compare_digest(mac.encode(), _csrf_mac(key, nonce, session).encode())


def csrf_ok(key: bytes, cookie: str | None, sent: str | None, session: str | None) -> bool:
    """The form (or header) echoes the cookie's token, and the token is bound to the session."""
    if not cookie or not sent:
        return False
    same = hmac.compare_digest(cookie.encode(), sent.encode())
    return same and csrf_bound(key, cookie, session)


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
