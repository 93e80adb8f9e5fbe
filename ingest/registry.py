"""Player identity across files: the federation registry (streams ``player-<scheme>-<id>``).

A player with a federation id (FIDE id, EGD PIN, WOF id, FFG licence, AGA id) is that id's
registry player; the first file that names the id registers it. A player without any id is
matched by normalised name, country and birth year, and only when exactly one registry player
fits: the one with the same birth year, else the one of that name and country whose birth is
not known (a known, different birth year is another person); otherwise the player is
registered as a new ``local`` registry player, and the file's result says so. The registry
here is an in-memory view that a job loads once and then advances file by file; it never
writes to the store itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from events.names import normalise_name
from events.schema import (
    EventBase,
    FederationPlayerRegistered,
    FederationPlayerUpdated,
)
from events.store import Store
from ingest.conversion import ID_SCHEMES

__all__ = [
    "REGISTRY_KEY",
    "Registrant",
    "Registry",
    "Resolution",
    "is_placeholder_name",
    "registry_stream",
]

REGISTRY_KEY = "registry"
"""``PlayerRegistered.ids`` key naming the registry stream of a player matched by name."""

STREAM_PREFIX = "player-"


def registry_stream(scheme: str, federation_id: str) -> str:
    return f"{STREAM_PREFIX}{scheme}-{federation_id}"


def is_placeholder_name(name: str) -> bool:
    """Names that converters invent for players a file does not name (``#123``, ``??????``)."""
    return not name.strip("?# 0123456789,")


def _country(value: str | None) -> str:
    return (value or "").strip().upper()


def birth_year(birth: str | None) -> str | None:
    """The year of a birth date as files write it (``1990``, ``1990/05/04``, ``04.05.1990``).

    >>> birth_year("1990/05/04"), birth_year("04.05.1990"), birth_year(""), birth_year(None)
    ('1990', '1990', None, None)
    """
    match = re.search(r"\d{4}", birth or "")
    return match.group() if match else None


class Registrant(Protocol):
    """What the registry knows a file's player by (a `PlayerRegistered` is one)."""

    @property
    def player(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def federation(self) -> str | None: ...
    @property
    def birth(self) -> str | None: ...
    @property
    def sex(self) -> str | None: ...
    @property
    def fide_id(self) -> str | None: ...
    @property
    def ids(self) -> Mapping[str, str]: ...


@dataclass(slots=True)
class Resolution:
    """One file's players linked to the registry, and the registry events it needs."""

    links: dict[int, str] = field(default_factory=dict)
    """Player number -> registry stream, for the players linked by name (no federation id):
    their registration records the stream under ``ids[REGISTRY_KEY]``. A player with an id
    is that id's registry player already."""
    events: list[tuple[str, int, EventBase]] = field(default_factory=list)
    """``(stream id, stream version, event)`` to append with the file."""
    notes: list[str] = field(default_factory=list)
    matched: int = 0
    new: int = 0


@dataclass(slots=True)
class Registry:
    versions: dict[str, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    births: dict[str, str | None] = field(default_factory=dict)
    """Registry stream → birth year, when its registration gave one."""
    by_name: dict[tuple[str, str], set[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store) -> Registry:
        """Everything the store's registry streams say, in log order."""
        registry = cls()
        frame = store.read_frame(stream_prefix=STREAM_PREFIX)
        for stream, version, kind, payload in frame.select(
            "stream_id", "stream_version", "event_type", "payload"
        ).iter_rows():
            data = json.loads(payload)
            registry.versions[stream] = version
            if kind == "FederationPlayerRegistered":
                registry.births[stream] = birth_year(data.get("birth"))
            if kind in {"FederationPlayerRegistered", "FederationPlayerUpdated"}:
                registry._index(stream, data.get("name"), data.get("country"))
        return registry

    def _index(self, stream: str, name: str | None, country: str | None) -> None:
        if not name or is_placeholder_name(name):
            return
        if stream in self.names:  # renamed: drop the old key (rare, so a scan is fine)
            for streams in self.by_name.values():
                streams.discard(stream)
        self.names[stream] = name
        self.by_name.setdefault((normalise_name(name), _country(country)), set()).add(stream)

    def _add(self, res: Resolution, stream: str, event: EventBase) -> None:
        version = self.versions.get(stream, -1) + 1
        self.versions[stream] = version
        res.events.append((stream, version, event))

    def _ensure(self, res: Resolution, scheme: str, fid: str, p: Registrant) -> None:
        stream = registry_stream(scheme, fid)
        named = not is_placeholder_name(p.name)
        if stream not in self.versions:
            self.births[stream] = birth_year(p.birth)
            self._add(
                res,
                stream,
                FederationPlayerRegistered(
                    scheme=scheme,
                    federation_id=fid,
                    name=p.name if named else "",
                    country=p.federation,
                    birth=p.birth,
                    sex=p.sex,
                ),
            )
        elif named and not self.names.get(stream):
            self._add(res, stream, FederationPlayerUpdated(name=p.name, country=p.federation))
        else:
            return
        if named:
            self._index(stream, p.name, p.federation)

    def _candidates(self, found: list[str], year: str | None) -> list[str]:
        """The registry players one of ``found`` (same name and country) can be: those born
        in ``year`` when one is, else those whose birth is not known; all when ``year`` is."""
        if year is None:
            return found
        same = [s for s in found if self.births.get(s) == year]
        return same or [s for s in found if self.births.get(s) is None]

    def resolve(self, players: Sequence[Registrant], file_key: str) -> Resolution:
        """Link ``players`` to registry players, registering the ones not seen before.

        ``file_key`` makes the ids of new ``local`` players unique (the file's sha256 prefix).
        """
        res = Resolution()
        for p in players:
            ids = [(ID_SCHEMES[k], v) for k, v in p.ids.items() if k in ID_SCHEMES and v]
            if p.fide_id:
                ids.insert(0, ("fide", p.fide_id))
            if ids:
                for scheme, fid in ids:
                    self._ensure(res, scheme, fid, p)
                continue
            if is_placeholder_name(p.name):
                continue  # nobody to identify: a name the file does not give
            key = (normalise_name(p.name), _country(p.federation))
            found = self._candidates(sorted(self.by_name.get(key, ())), birth_year(p.birth))
            if len(found) == 1:
                res.matched += 1
                stream = found[0]
            else:
                res.new += 1
                local = f"{file_key}-{p.player}"
                stream = registry_stream("local", local)
                self._ensure(res, "local", local, p)
                why = "no registry player" if not found else f"{len(found)} registry players"
                res.notes.append(
                    f"player {p.player} '{p.name}' ({p.federation or 'no country'}) has no "
                    f"federation id and matches {why}: registered as new ({stream})"
                )
            res.links[p.player] = stream
        return res
