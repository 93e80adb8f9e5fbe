"""Plain-data views of the state for the read commands (the shapes of their JSON output)."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decide.state import TournamentState
from events.acceleration import baku_points
from events.domain import ByeKind, Game
from events.schema import TOURNAMENT_STREAM as STREAM_PREFIX
from pipelines.views.output import Format
from projections.crosstable import Crosstable, format_value
from projections.game_terms import board_result, komi_text
from projections.standings import StandingRow

if TYPE_CHECKING:
    from events.store import RecordedEvent, Store


def player_ref(state: TournamentState, pid: int, ranks: dict[int, int]) -> dict[str, Any]:
    p = state.players[pid]
    ref: dict[str, Any] = {"id": pid, "name": p.name, "start_rank": ranks[pid]}
    if state.game is Game.GO:
        ref["rank"] = p.rank
        ref["club"] = p.club
    return ref


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
            "paid": p.paid,
        }
        for p in ordered
    ]


def _seat(state: TournamentState, pid: int, ranks: dict[int, int], round_no: int) -> dict[str, Any]:
    """A player on a board as a round's listing shows him (chess-results' columns): pairing
    number, name, title, rating (go: rank and club) and his points before the round."""
    p = state.players[pid]
    seat = {
        **player_ref(state, pid, ranks),
        "title": p.title,
        "rating": p.rating,
        "points_before": state.points(pid, through_round=round_no - 1),
    }
    virtual = virtual_points(state, ranks[pid], round_no)
    if virtual:
        seat["virtual_points"] = virtual
    return seat


def virtual_points(state: TournamentState, number: int, round_no: int) -> float:
    """The Baku acceleration's virtual points of pairing number ``number`` in round
    ``round_no`` (0 when the event is not accelerated): shown with the pairings, never in the
    standings."""
    if state.settings.pairing_params.chess.acceleration != "baku":
        return 0
    win, draw = state.scoring.win, state.scoring.draw
    values = baku_points(number - 1, len(state.players), state.total_rounds, win, draw)
    return values[round_no - 1] if round_no <= len(values) else 0


def pairings_view(state: TournamentState, round_no: int) -> list[dict[str, Any]]:
    ranks = state.start_ranks()
    rnd = state.rounds[round_no]
    rows: list[dict[str, Any]] = []
    go = state.game is Game.GO
    for b in rnd.boards:
        row: dict[str, Any] = {
            "board": b.board,
            "white": _seat(state, b.white, ranks, round_no),
            "black": None if b.black is None else _seat(state, b.black, ranks, round_no),
            "result": board_result(state.game, b),
        }
        if go and b.black is not None:
            row["handicap"] = b.handicap
            row["komi"] = b.komi
        rows.append(row)
    return rows


def pairings_rows(state: TournamentState, round_no: int, fmt: Format) -> list[dict[str, Any]]:
    """A round's boards for `fmt`: JSON and CSV keep the data (CSV: go boards with ranks,
    clubs, handicap and komi in words); text shows what a director reads on the wall: each
    side's pairing number, title and name, rating (go: rank) and points before the round."""
    if fmt is Format.TEXT:
        return _pairings_text(state, round_no)
    rows = pairings_view(state, round_no)
    if fmt is not Format.JSON and state.settings.pairing_params.chess.acceleration:
        return [_with_virtual(row) for row in rows]
    if fmt is Format.JSON or state.game is not Game.GO:
        return rows
    out = []
    for row in rows:
        shown = dict(row)
        for side in ("white", "black"):
            ref = row[side]
            if ref is not None:
                p = state.players[ref["id"]]
                extra = ", ".join(x for x in (p.rank, p.club) if x)
                shown[side] = {**ref, "name": f"{p.name} ({extra})" if extra else p.name}
        if row["black"] is not None:
            shown["komi"] = komi_text(row.get("komi"))
        out.append(shown)
    return out


def _with_virtual(row: dict[str, Any]) -> dict[str, Any]:
    """A board whose players' names carry the Baku acceleration's virtual points (+1)."""
    return {
        **row,
        **{
            side: {**ref, "name": f"{ref['name']} (+{format_value(ref['virtual_points'])})"}
            for side in ("white", "black")
            if (ref := row[side]) is not None and ref.get("virtual_points")
        },
    }


def _pairings_text(state: TournamentState, round_no: int) -> list[dict[str, Any]]:
    """The text columns of a round: board, then each side's number, name (chess: with title;
    go: with club), rating (go: rank) and points before the round, and the result between
    them (a column name repeated for the second side ends in a space: the same heading)."""
    go = state.game is Game.GO
    strength = "rank" if go else "rating"
    out: list[dict[str, Any]] = []
    for board in pairings_view(state, round_no):
        row = _with_virtual(board)

        def side(ref: dict[str, Any] | None, tail: str) -> dict[str, Any]:
            if ref is None:
                return {f"no{tail}": "", f"name{tail}": "bye", f"{strength}{tail}": "",
                        f"pts{tail}": ""}  # fmt: skip
            p = state.players[ref["id"]]
            name = ref["name"]
            if go and p.club:
                name = f"{name} ({p.club})"
            elif not go and p.title:
                name = f"{p.title} {name}"
            value = p.rank if go else p.rating
            return {
                f"no{tail}": ref["start_rank"],
                f"name{tail}": name,
                f"{strength}{tail}": value or "",
                f"pts{tail}": format_value(ref["points_before"]),
            }

        white, black = side(row["white"], ""), side(row["black"], " ")
        shown: dict[str, Any] = {"board": row["board"]}
        shown |= {"no": white["no"], "white": white["name"], strength: white[strength]}
        shown |= {"pts": white["pts"], "result": row["result"] or ""}
        shown |= {"pts ": black["pts "], "black": black["name "]}
        shown |= {f"{strength} ": black[f"{strength} "], "no ": black["no "]}
        if go and row["black"] is not None:
            shown |= {"handicap": row.get("handicap") or 0, "komi": komi_text(row.get("komi"))}
        out.append(shown)
    return out


_NOT_PAIRED = {"half": "half-point bye", "full": "full-point bye", "zero": "zero-point bye"}


def not_paired_view(state: TournamentState, round_no: int) -> list[dict[str, Any]]:
    """The players a round does not pair, and why: requested byes, absences, withdrawals,
    late entries not yet entered (so that a round's list shows every player)."""
    ranks = state.start_ranks()
    paired = state.rounds[round_no].by_player
    left_out = [pid for pid in sorted(state.players, key=ranks.__getitem__) if pid not in paired]
    if not left_out:
        return []
    # The check-in rule (and the registration decider's input models) only when a round
    # leaves a player out.
    from decide.registration import NOT_CHECKED_IN, missed_check_in

    rows = []
    for pid in left_out:
        p = state.players[pid]
        kind = state.byes.get(round_no, {}).get(pid)
        if not p.active_in(round_no):
            what = f"withdrawn (from round {p.withdrawn_from})"
        elif kind is ByeKind.ZERO and round_no == 1 and missed_check_in(state, pid):
            what = NOT_CHECKED_IN
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
            "withdrawn_from": r.withdrawn_from,
        }
        for r in rows
    ]


def standings_text(
    rows: list[StandingRow], state: TournamentState | None = None
) -> list[dict[str, Any]]:
    """`standings_view` for a text table: the name as every table prints it (``Berg, Anna
    (withdrawn)``) in place of a ``withdrawn_from`` column. With the ``state``: chess shows
    each player's title, go his rank (grade) in place of the rating."""
    shown = []
    for r, row in zip(rows, standings_view(rows), strict=True):
        del row["withdrawn_from"]
        out = {**row, "player": {**row["player"], "name": r.shown_name}}
        if state is not None and r.player in state.players:
            p = state.players[r.player]
            if state.game is Game.GO:  # the rank column is the place: the go rank is a grade
                out = {
                    ("grade" if k == "rating" else k): (p.rank or "" if k == "rating" else v)
                    for k, v in out.items()
                }
            else:
                out = {"rank": out["rank"], "title": p.title or "", **out}
        shown.append(out)
    return shown


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
            "withdrawn_from": r.withdrawn_from,
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


_BOARD_NOTE = re.compile(r"^board (\d+): ")


def named_notes(state: TournamentState, round_no: int, notes: list[str]) -> list[str]:
    """`pair --explain` lines with the players of each board named:
    ``board 3 (Smith, Ann - Lee, Bo): ...``."""
    boards = {b.board: b for b in state.rounds[round_no].boards}
    out = []
    for line in notes:
        bye = next((b for b in boards.values() if b.black is None), None)
        if line.startswith("PAB: ") and bye is not None:
            out.append(f"PAB ({state.players[bye.white].name}): {line[5:]}")
            continue
        m = _BOARD_NOTE.match(line)
        b = boards.get(int(m.group(1))) if m else None
        if m is None or b is None:
            out.append(line)
            continue
        white = state.players[b.white].name
        who = white if b.black is None else f"{white} - {state.players[b.black].name}"
        out.append(f"board {b.board} ({who}): {line[m.end() :]}")
    return out


def tournament_summaries(store: Store) -> list[dict[str, Any]]:
    """One row per tournament, from the log in bulk (no per-tournament replay): the database
    counts each stream's events by type, and only the creation and edit payloads are read."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for stream, event_type, events in store.type_counts(STREAM_PREFIX):
        counts[stream][event_type] = events
    created: dict[str, dict[str, Any]] = {}
    renamed: dict[str, str] = {}
    for stream, event_type, payload in store.payloads(
        STREAM_PREFIX, ("TournamentCreated", "TournamentEdited")
    ):
        data = json.loads(payload)
        if event_type == "TournamentCreated":
            created[stream] = data
        elif data.get("name") is not None:  # `tournament edit --name`: the last name wins
            renamed[stream] = data["name"]
    rows = []
    for stream in sorted(created):
        t, n = created[stream], counts[stream]
        rounds, cycles = t.get("rounds"), t.get("cycles")
        rows.append(
            {
                "id": stream.removeprefix(STREAM_PREFIX),
                "name": renamed.get(stream, t.get("name")),
                "game": t.get("game"),
                "system": t.get("system"),
                "players": n["PlayerRegistered"] - n["PlayerRemoved"],
                "rounds_paired": n["RoundPaired"],
                "rounds": None if rounds is None or cycles is None else rounds * cycles,
            }
        )
    return rows


def event_data_row(state: TournamentState) -> dict[str, Any]:
    """`tournament show`: what the tournament is, and its event's data by the input fields'
    names (what `tournament create` and `tournament edit` take)."""
    from decide.inputs import EventDataInput  # the input models: only `tournament show`
    from decide.tournaments import current_data

    s = state.settings
    data = current_data(state)
    shown: dict[str, Any] = {
        "start": data.start_date.isoformat() if data.start_date else "",
        "end": data.end_date.isoformat() if data.end_date else "",
        "place": data.city or "",
        "federation": data.federation or "",
        "chief_arbiter": data.chief_arbiter or "",
        "deputy_arbiters": "; ".join(data.deputy_arbiters or ()),
        "time_control": data.time_control or "",
        "rating_type": data.rating_type or "",
        "round_dates": ", ".join(f"{k}={v}" for k, v in sorted(data.round_dates.items())),
    }
    assert tuple(shown) == EventDataInput.DATA_FIELDS
    return {
        "id": s.tournament_id,
        "name": s.name,
        "game": s.game.value,
        "system": s.system.value,
        "rounds": state.total_rounds,
        **shown,
    }


def event_settings_row(state: TournamentState) -> dict[str, str]:
    """`tournament show` as text, after the event's data: every setting that decides how it
    is run (pairing, scoring, tie-breaks, registration, check-in), as a director reads it."""
    s = state.settings
    score = s.scoring
    points = {
        "win": score.win,
        "draw": score.draw,
        "loss": score.loss,
        "forfeit win": score.win if score.forfeit_win is None else score.forfeit_win,
        "forfeit loss": score.forfeit_loss,
        "pairing bye": score.win if score.pairing_bye is None else score.pairing_bye,
        "full-point bye": score.win if score.full_bye is None else score.full_bye,
        "half-point bye": score.draw if score.half_bye is None else score.half_bye,
        "zero-point bye": score.zero_bye,
    }
    opens, closes = s.check_in_opens, s.check_in_closes
    params = s.pairing_params.model_dump()
    komi: dict[str, str] = {}
    if state.game is Game.GO:  # the boards' komi, by `GoSettings.komi_for` (the one rule)
        go = s.pairing_params.go
        even, handicap = komi_text(go.komi_for(0)), komi_text(go.komi_for(1))
        komi["komi"] = f"{even or '(none)'} even games, {handicap} handicap games"
        params = {k: v for k, v in params.items() if k not in ("komi", "handicap_komi")}
    return {
        "cycles": "double round robin" if s.cycles == 2 else "",
        **komi,
        "scoring": ", ".join(f"{k} {format_value(v)}" for k, v in points.items()),
        "tiebreaks": ", ".join(state.tiebreaks) or "(none)",
        "pairing": ", ".join(f"{k}={_setting(v)}" for k, v in params.items()),
        "registration": s.registration.value,
        "check_in": f"{opens:%Y-%m-%d %H:%M} to {closes:%Y-%m-%d %H:%M}"
        if opens is not None and closes is not None
        else "(none)",
    }


def _setting(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_setting(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return format_value(value)
    return str(value)
