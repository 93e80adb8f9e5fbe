"""One person, one rating: players without a federation id across tournaments.

A player registered without any federation id has an id of their own in every tournament
(``local:<tournament>#<number>``), or the registry's ``local:`` id when ingest could link them.
A rating list counts such a player as one person when name, federation and birth year tell
who they are (names compared with :func:`events.names.normalise_name`):

* the same name, federation and birth year as exactly one player with a federation id: that
  player;
* else the same name, federation and birth year as other players without an id: one person
  (the smallest of their ids);
* a player whose birth year is not known, or the same name and federation as a player whose
  birth year is not known, or as two players with ids, or two such players in one tournament:
  the data cannot tell. The player stays apart and is **reported** as ambiguous, with the
  candidates; a federation officer settles it by giving the player's id.

Players whose name and federation nobody else shares are left alone and not reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import polars as pl

from events.names import matches, normalise_name

__all__ = [
    "LOCAL_PREFIX",
    "REPORT_SCHEMA",
    "People",
    "find_players",
    "has_federation_id",
    "people",
]

LOCAL_PREFIX = "local:"
"""Ids of players without a federation id start with this."""

REPORT_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "birth_year": pl.Int64(),
    "status": pl.Utf8(),
    "person": pl.Utf8(),
    "candidates": pl.Utf8(),
    "reason": pl.Utf8(),
}
"""One row per player without a federation id the rule merged (``status`` merged, into
``person``) or could not place (``status`` ambiguous, ``candidates`` the ids it could be)."""


def has_federation_id(player_id: str) -> bool:
    return not player_id.startswith(LOCAL_PREFIX)


@dataclass(frozen=True)
class People:
    """Who is who: ``alias`` → person id for every merged id, and the report."""

    alias: Mapping[str, str]
    report: pl.DataFrame
    """:data:`REPORT_SCHEMA`, sorted by status, then id."""

    def games(self, games: pl.DataFrame) -> pl.DataFrame:
        """``games`` with every merged id replaced by its person's."""
        if not self.alias:
            return games
        mapping = dict(self.alias)
        return games.with_columns(
            pl.col("player_a").replace(mapping),
            pl.col("player_b").replace(mapping),
        )

    def players(self, players: pl.DataFrame) -> pl.DataFrame:
        """``players`` without the merged ids (their person's row stays). The person keeps the
        earliest rating the merged ids' registrations gave when it has none of its own."""
        if not self.alias:
            return players
        merged = players.filter(pl.col("player_id").is_in(list(self.alias)))
        kept = players.filter(~pl.col("player_id").is_in(list(self.alias)))
        if "rating" not in players.columns:
            return kept
        inherited = (
            merged.with_columns(pl.col("player_id").replace(dict(self.alias)))
            .filter(pl.col("rating").is_not_null())
            .group_by("player_id", maintain_order=True)
            .agg(pl.col("rating").first().alias("_inherited"))
        )
        return (
            kept.join(inherited, on="player_id", how="left")
            .with_columns(pl.coalesce("rating", "_inherited").alias("rating"))
            .drop("_inherited")
        )


@dataclass(frozen=True, slots=True)
class _Player:
    player_id: str
    name: str | None
    country: str | None
    birth_year: int | None

    @property
    def key(self) -> tuple[str, str]:
        return normalise_name(self.name or ""), (self.country or "").strip().upper()


def _events(games: pl.DataFrame, ids: set[str]) -> dict[str, set[str]]:
    """The tournaments each of ``ids`` played in."""
    out: dict[str, set[str]] = defaultdict(set)
    wanted = pl.Series(sorted(ids), dtype=pl.Utf8)
    for column in ("player_a", "player_b"):
        rows = games.filter(pl.col(column).is_in(wanted.implode())).select(column, "event")
        for pid, event in rows.unique().iter_rows():
            out[pid].add(event)
    return out


def _report_row(
    p: _Player, status: str, person: str | None, candidates: Iterable[str], reason: str
) -> dict[str, object]:
    return {
        "player_id": p.player_id,
        "name": p.name,
        "country": p.country,
        "birth_year": p.birth_year,
        "status": status,
        "person": person,
        "candidates": ", ".join(sorted(candidates)),
        "reason": reason,
    }


def _place_group(
    group: list[_Player], events: Mapping[str, set[str]]
) -> tuple[dict[str, str], list[dict[str, object]]]:
    """One name and federation shared by several players, at least one without an id."""
    alias: dict[str, str] = {}
    rows: list[dict[str, object]] = []
    unknown = [p for p in group if p.birth_year is None]
    for p in group:
        if has_federation_id(p.player_id) or p.birth_year is None:
            continue
        same = [q for q in group if q.birth_year == p.birth_year]
        others = [q.player_id for q in group if q is not p]
        if unknown:
            rows.append(
                _report_row(
                    p, "ambiguous", None, others, "same name and federation, birth year unknown"
                )
            )
            continue
        fed = [q for q in same if has_federation_id(q.player_id)]
        if len(fed) > 1:
            rows.append(
                _report_row(
                    p, "ambiguous", None, [q.player_id for q in fed], "several federation ids"
                )
            )
            continue
        if not fed and len(same) == 1:
            continue  # same name, another birth year: another person, nothing to merge
        members = [q.player_id for q in same if not has_federation_id(q.player_id)]
        person = fed[0].player_id if fed else min(members)
        played = [events.get(m, set()) for m in {*members, person}]
        if sum(len(e) for e in played) != len(set().union(*played)):
            rows.append(
                _report_row(
                    p,
                    "ambiguous",
                    None,
                    [q.player_id for q in same if q is not p],
                    "two of them played in one tournament",
                )
            )
            continue
        if p.player_id != person:
            alias[p.player_id] = person
            rows.append(
                _report_row(p, "merged", person, [], "same name, federation and birth year")
            )
    for p in unknown:
        if not has_federation_id(p.player_id):
            others = [q.player_id for q in group if q is not p]
            rows.append(
                _report_row(p, "ambiguous", None, others, "birth year unknown: cannot tell")
            )
    return alias, rows


def people(games: pl.DataFrame, players: pl.DataFrame) -> People:
    """Place every player of ``players`` (player_id, name, country, birth_year) who has no
    federation id (see the module docstring); ``games`` tells who played where."""
    ids = players.get_column("player_id")
    if not ids.str.starts_with(LOCAL_PREFIX).any():
        return People({}, pl.DataFrame(schema=REPORT_SCHEMA))
    everyone = [
        _Player(*row)
        for row in players.select("player_id", "name", "country", "birth_year").iter_rows()
    ]
    groups: dict[tuple[str, str], list[_Player]] = defaultdict(list)
    for p in everyone:
        if p.name:
            groups[p.key].append(p)
    shared = [
        group
        for group in groups.values()
        if len(group) > 1 and not all(has_federation_id(p.player_id) for p in group)
    ]
    events = _events(games, {p.player_id for group in shared for p in group})
    alias: dict[str, str] = {}
    rows: list[dict[str, object]] = []
    for group in shared:
        group_alias, group_rows = _place_group(group, events)
        alias.update(group_alias)
        rows.extend(group_rows)
    report = pl.DataFrame(rows, schema=REPORT_SCHEMA).sort("status", "player_id")
    return People(alias, report)


def find_players(players: pl.DataFrame, query: str, scheme: str | None = None) -> pl.DataFrame:
    """The rows of ``players`` a user means by ``query``, sorted by name then id:

    * an id with its scheme (``fide:1503014``): that player;
    * a federation id alone (``1503014``): the player of the list's ``scheme`` with it, else
      every player with that number in any scheme;
    * else a name: every player whose name holds every word of ``query``, case, accents and
      punctuation ignored (:func:`events.names.matches`).
    """
    text = query.strip()
    if ":" in text:
        return players.filter(pl.col("player_id").str.to_lowercase() == text.lower())
    if text.isdecimal():
        if scheme is not None:
            own = players.filter(pl.col("player_id") == f"{scheme}:{text}")
            if own.height:
                return own
        numbered = players.filter(pl.col("player_id").str.ends_with(f":{text}"))
        if numbered.height:
            return numbered.sort("name", "player_id", nulls_last=True)
    names = players.get_column("name").to_list()
    hits = pl.Series([name is not None and matches(text, name) for name in names], dtype=pl.Boolean)
    return players.filter(hits).sort("name", "player_id", nulls_last=True)
