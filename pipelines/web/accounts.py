"""Web accounts: officers and tournament directors, kept as events in the ``accounts`` stream.

Accounts live in the log like everything else (`AccountCreated`, `AccountPasswordSet`,
`AccountRevoked`), so every server on a shared PostgreSQL log, and the CLI, see the same
accounts, and who created or revoked one is on record. The log never holds a secret: an API
token is shown once and stored as its sha256 (it is 256 random bits, so a fast hash is
enough); a password is stored as an argon2id hash.

Roles: an **officer** ingests result files and runs and publishes rating lists; a **director**
registers players, pairs, enters results and undoes rounds of one tournament.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from typing import Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from events.errors import NotFound, UserError
from events.provenance import current_origin
from events.schema import (
    TOURNAMENT_STREAM,
    AccountCreated,
    AccountPasswordSet,
    AccountRevoked,
    Event,
)
from events.store import NewEvent, RecordedEvent, Store

__all__ = [
    "ACCOUNTS_STREAM",
    "Account",
    "Accounts",
    "add_user",
    "revoke_user",
    "set_password",
    "token_digest",
]

ACCOUNTS_STREAM = "accounts"
Role = Literal["officer", "director"]
_hasher = PasswordHasher()
# Verifying against this keeps a login for an unknown name as slow as for a known one.
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))


class AccountError(UserError):
    """An account command the accounts do not allow (unknown name, missing tournament ...)."""


class UnknownAccount(AccountError, NotFound):
    """No account has this name."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    role: Role
    tournament: str | None
    token_sha256: str
    password_hash: str | None = None
    active: bool = True
    created: int = -1
    """Position of its ``AccountCreated`` in the ``accounts`` stream: the account's identity.
    An account re-created under the same name is another account (sessions bind to this)."""

    def may_direct(self, tournament_id: str) -> bool:
        return self.active and self.role == "director" and self.tournament == tournament_id

    @property
    def is_officer(self) -> bool:
        return self.active and self.role == "officer"


class Accounts:
    """The accounts as of a log position: folded from the ``accounts`` stream's events."""

    def __init__(self) -> None:
        self.by_name: dict[str, Account] = {}
        self.by_token: dict[str, str] = {}
        self.version = -1

    def apply(self, event: Event) -> None:
        match event:
            case AccountCreated():
                old = self.by_name.get(event.name)
                if old is not None:
                    self.by_token.pop(old.token_sha256, None)
                self.by_name[event.name] = Account(
                    event.name,
                    event.role,
                    event.tournament,
                    event.token_sha256,
                    created=self.version + 1,
                )
                self.by_token[event.token_sha256] = event.name
            case AccountPasswordSet():
                acc = self.by_name.get(event.name)
                if acc is not None:
                    self.by_name[event.name] = replace(acc, password_hash=event.password_hash)
            case AccountRevoked():
                acc = self.by_name.get(event.name)
                if acc is not None:
                    self.by_name[event.name] = replace(acc, active=False)
                    self.by_token.pop(acc.token_sha256, None)
            case _:
                return
        self.version += 1

    @classmethod
    def fold(cls, events: list[RecordedEvent]) -> Accounts:
        accounts = cls()
        for e in events:
            accounts.apply(e.event)
        return accounts

    def by_api_token(self, token: str) -> Account | None:
        name = self.by_token.get(token_digest(token))
        acc = self.by_name.get(name) if name is not None else None
        return acc if acc is not None and acc.active else None

    def check_password(self, name: str, password: str) -> Account | None:
        """The active account when the password is right, else None (same cost either way)."""
        acc = self.by_name.get(name)
        stored = acc.password_hash if acc is not None and acc.active else None
        try:
            _hasher.verify(stored or _DUMMY_HASH, password)
        except (VerificationError, InvalidHashError):
            return None
        return acc if stored is not None else None


def _load(store: Store) -> tuple[Accounts, int]:
    events = store.read_stream(ACCOUNTS_STREAM)
    return Accounts.fold(events), (events[-1].version if events else -1)


def _append(
    store: Store, event: AccountCreated | AccountPasswordSet | AccountRevoked, v: int
) -> None:
    meta = current_origin().metadata()
    store.append(ACCOUNTS_STREAM, [NewEvent(event, metadata=meta)], v)


def add_user(store: Store, name: str, role: Role, tournament: str | None) -> str:
    """Create (or re-create, with a new token) an account; returns its API token."""
    if role == "director" and not tournament:
        raise AccountError(f"user {name}: a director needs --tournament (the event he runs)")
    if role == "officer" and tournament:
        raise AccountError(f"user {name}: an officer is not tied to a tournament")
    if tournament is not None and store.stream_version(TOURNAMENT_STREAM + tournament) < 0:
        raise AccountError(f"user {name}: unknown tournament '{tournament}'")
    accounts, version = _load(store)
    old = accounts.by_name.get(name)
    if old is not None and old.active:
        raise AccountError(f"user {name} already exists (revoke it first to re-create it)")
    token = "arb_" + secrets.token_urlsafe(32)
    try:
        event = AccountCreated(
            name=name, role=role, tournament=tournament, token_sha256=token_digest(token)
        )
    except ValueError as exc:
        raise AccountError(
            f"user name '{name}': use 1-64 letters, digits, '_', '.', '@' or '-'"
        ) from exc
    _append(store, event, version)
    return token


def set_password(store: Store, name: str, password: str) -> None:
    if len(password) < 8:
        raise AccountError(f"user {name}: the password needs at least 8 characters")
    accounts, version = _load(store)
    acc = accounts.by_name.get(name)
    if acc is None or not acc.active:
        raise UnknownAccount(f"no active user '{name}'")
    _append(store, AccountPasswordSet(name=name, password_hash=_hasher.hash(password)), version)


def revoke_user(store: Store, name: str) -> None:
    accounts, version = _load(store)
    acc = accounts.by_name.get(name)
    if acc is None or not acc.active:
        raise UnknownAccount(f"no active user '{name}'")
    _append(store, AccountRevoked(name=name), version)


def list_users(store: Store) -> list[dict[str, object]]:
    accounts, _ = _load(store)
    return [
        {"name": a.name, "role": a.role, "tournament": a.tournament, "active": a.active,
         "password": a.password_hash is not None}
        for a in sorted(accounts.by_name.values(), key=lambda a: a.name)
    ]  # fmt: skip
