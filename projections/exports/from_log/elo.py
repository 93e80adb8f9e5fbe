"""A tournament stream → a WOF ``.ELO`` file (records for ``projections.exports.elo``).

Player lines carry the log's points and disc totals. A board's line order and colour mark come
from the import's ``elo_colours`` metadata; a live tournament writes the black player first
with ``B``, as Papp does. ``%Round`` comments are written unless the import had inferred the
rounds (the source had none).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from events.domain import Outcome
from events.store import RecordedEvent
from ingest.elo import Colour, EloComment, EloEntry, EloFile, EloGame, EloHeader, EloPlayer
from ingest.elo import Outcome as EloOutcome
from ingest.events_common import split_name
from ingest.events_elo import ANONYMOUS
from projections.exports.from_log.common import view_of

__all__ = ["elo_from_log"]

_WHITE_SIDE: dict[Outcome, EloOutcome] = {
    Outcome.WHITE_WINS: EloOutcome.FIRST_WINS,
    Outcome.WHITE_WINS_FORFEIT: EloOutcome.FIRST_WINS,
    Outcome.BLACK_WINS: EloOutcome.SECOND_WINS,
    Outcome.BLACK_WINS_FORFEIT: EloOutcome.SECOND_WINS,
    Outcome.DRAW: EloOutcome.DRAW,
}
_MIRROR = {
    EloOutcome.FIRST_WINS: EloOutcome.SECOND_WINS,
    EloOutcome.SECOND_WINS: EloOutcome.FIRST_WINS,
    EloOutcome.DRAW: EloOutcome.DRAW,
}


def _wof_id(ids: dict[str, str]) -> int | None:
    value = ids.get("wof")
    return int(value) if value is not None and value.isdecimal() else None


def _dates(start: date, end: date | None) -> str:
    text = f"{start:%d/%m/%Y}"
    return text if end is None or end == start else f"{text} - {end:%d/%m/%Y}"


def _number(value: float) -> str:
    return f"{value:g}"


def elo_from_log(events: Sequence[RecordedEvent]) -> EloFile:
    view = view_of(events)
    state = view.state
    source = view.created_meta.get("elo", {})
    settings = state.settings
    start = settings.start_date or events[0].recorded_at.date()
    entries: list[EloEntry] = []
    ids = {p.id: _wof_id(p.ids) for p in state.players.values()}
    discs: dict[int, float] = {}
    games: list[EloEntry] = []
    for r in sorted(state.rounds):
        marks = str(view.round_meta.get(r, {}).get("elo_colours", ""))
        if source.get("rounds_stated", True):
            games.append(EloComment(f"%Round {r}"))
        for index, b in enumerate(state.rounds[r].boards):
            if b.black is None or b.outcome is None or b.outcome not in _WHITE_SIDE:
                continue
            mark = marks[index] if index < len(marks) else "B"
            for pid, score in ((b.white, b.white_score), (b.black, b.black_score)):
                if score is not None:
                    discs[pid] = discs.get(pid, 0.0) + score
            outcome = _WHITE_SIDE[b.outcome]
            first, second = b.white, b.black
            d1, d2 = b.white_score, b.black_score
            if mark == "B":
                first, second, d1, d2 = second, first, d2, d1
                outcome = _MIRROR[outcome]
            colour = {"B": Colour.BLACK, "W": Colour.WHITE}.get(mark)
            with_discs = d1 is not None and d2 is not None
            games.append(
                EloGame(
                    ids[first],
                    ids[second],
                    outcome,
                    int(d1) if with_discs and d1 is not None else None,
                    int(d2) if with_discs and d2 is not None else None,
                    colour,
                    r,
                )
            )
    for p in view.players():
        meta = view.player_meta.get(p.id, {})
        if meta.get("elo_listed") is False or p.name == ANONYMOUS:
            continue
        surname, first_name = split_name(p.name)
        fields = [surname, first_name, p.federation or "", _number(state.points(p.id))]
        if p.id in discs:
            fields.append(_number(discs[p.id]))
            if p.rating:
                fields.append(str(p.rating))
        entries.append(EloPlayer(ids[p.id], bool(meta.get("wof_new")), tuple(fields)))
    entries.extend(games)
    header = EloHeader(
        tournament=settings.name,
        country=settings.federation or "",
        date=str(source.get("date") or _dates(start, settings.end_date)),
        sender=str(source.get("sender") or "arbiter"),
    )
    return EloFile.model_construct(
        path="",
        name=str(source.get("name") or settings.tournament_id),
        letter=str(source.get("letter") or ""),
        start=start,
        end=settings.end_date,
        header=header,
        entries=tuple(entries),
    )
