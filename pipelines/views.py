"""Plain-data views of the state for the read commands (the shapes of their JSON output)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.store import RecordedEvent
from projections.crosstable import Crosstable
from projections.standings import StandingRow
from projections.state import TournamentState


def player_ref(state: TournamentState, pid: int, ranks: dict[int, int]) -> dict[str, Any]:
    p = state.players[pid]
    return {"id": pid, "name": p.name, "start_rank": ranks[pid]}


def players_view(state: TournamentState) -> list[dict[str, Any]]:
    ranks = state.start_ranks()
    ordered = sorted(state.players.values(), key=lambda p: ranks[p.id])
    return [
        {
            "start_rank": ranks[p.id],
            "id": p.id,
            "name": p.name,
            "rating": p.rating,
            "federation": p.federation,
            "title": p.title,
            "fide_id": p.fide_id,
            "rank": p.rank,
            "withdrawn_from": p.withdrawn_from,
        }
        for p in ordered
    ]


def pairings_view(state: TournamentState, round_no: int) -> list[dict[str, Any]]:
    ranks = state.start_ranks()
    rnd = state.rounds[round_no]
    rows: list[dict[str, Any]] = []
    for b in rnd.boards:
        row: dict[str, Any] = {
            "board": b.board,
            "white": player_ref(state, b.white, ranks),
            "black": None if b.black is None else player_ref(state, b.black, ranks),
            "result": "bye" if b.black is None else (b.outcome.value if b.outcome else None),
        }
        if b.handicap or b.komi is not None:
            row["handicap"] = b.handicap
            row["komi"] = b.komi
        if b.white_score is not None or b.black_score is not None:
            row["scores"] = [b.white_score, b.black_score]
        rows.append(row)
    return rows


_NOT_PAIRED = {"half": "half-point bye", "full": "full-point bye", "zero": "zero-point bye"}


def not_paired_view(state: TournamentState, round_no: int) -> list[dict[str, Any]]:
    """The players a round does not pair, and why: requested byes, absences, withdrawals,
    late entries not yet entered (so that a round's list shows every player)."""
    ranks = state.start_ranks()
    paired = state.rounds[round_no].by_player
    rows = []
    for pid in sorted(state.players, key=ranks.__getitem__):
        if pid in paired:
            continue
        p = state.players[pid]
        kind = state.byes.get(round_no, {}).get(pid)
        if not p.active_in(round_no):
            what = f"withdrawn (from round {p.withdrawn_from})"
        elif kind is not None:
            what = _NOT_PAIRED.get(kind.value, kind.value)
        elif p.late_from is not None and round_no < p.late_from:
            what = "not yet entered"
        else:
            what = "absent"
        rows.append({"player": player_ref(state, pid, ranks), "why": what})
    return rows


def standings_view(rows: list[StandingRow]) -> list[dict[str, Any]]:
    return [
        {
            "rank": r.rank,
            "player": {"id": r.player, "name": r.name, "start_rank": r.start_rank},
            "rating": r.rating,
            "federation": r.federation,
            "points": r.points,
            "tiebreaks": r.tiebreaks,
        }
        for r in rows
    ]


def crosstable_view(table: Crosstable) -> list[dict[str, Any]]:
    return [
        {
            "number": r.number,
            "rank": r.rank,
            "player": {"id": r.player, "name": r.name, "start_rank": r.start_rank},
            "rating": r.rating,
            "federation": r.federation,
            "club": r.club,
            "rounds": [
                {
                    "round": c.round,
                    "opponent": c.opponent,
                    "colour": c.colour.value if c.colour else None,
                    "result": c.result,
                    "points": c.points,
                    **({"scores": list(c.scores)} if c.scores is not None else {}),
                }
                for c in r.cells
            ],
            "points": r.points,
            "tiebreaks": r.tiebreaks,
        }
        for r in table.rows
    ]


def _source(meta: dict[str, Any]) -> str:
    """Where an event came from, in a few words: ``cli``, ``file NAME (sha256 ab12…)``."""
    source = str(meta.get("source") or "-")
    if "sha256" in meta:
        name = Path(str(meta.get("file") or source)).name
        return f"file {name} (sha256 {str(meta['sha256'])[:12]})"
    return source


def log_view(events: list[RecordedEvent]) -> list[dict[str, Any]]:
    rows = []
    for e in events:
        meta = e.meta
        rows.append(
            {
                "position": e.position,
                "version": e.version,
                "type": e.event_type,
                "recorded_at": e.recorded_at.isoformat(timespec="seconds") + "Z",
                "actor": str(meta.get("actor") or "-"),
                "source": _source(meta),
                "command": meta.get("command"),
                "payload": e.event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True),
            }
        )
    return rows
