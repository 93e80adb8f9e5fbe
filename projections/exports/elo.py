"""Writer for World Othello Federation result files (``.ELO``, formats.md §7).

`elo_from_log` rebuilds the entries (``ingest.elo.records``) from a tournament stream: player
lines carry the log's points and disc totals; a board's line order and colour mark come from
the import's ``elo_colours`` metadata; a live tournament writes the black player first with
``B``, as Papp does. ``%Round`` comments are written unless the import had inferred the rounds
(the source had none).

A player registered without a WOF id is written as the WOF files write a player new to the
database (a live event's; an imported file's players are written as it had them): ``+``
before a provisional id, here ``PROVISIONAL_BASE`` + the player's number (the
block 900000..999999 holds no id in the archive, 1977-2026), so that every player keeps an id of
their own and two such players are never merged into one ``??????``; the reader takes such an
id back as no WOF id. A pairing bye is the WOF files' comment ``%ID had a bye`` after the round's
games. The format has no forfeit, no requested bye and no withdrawal: they are left out of the file,
and `elo_losses` says so, one line each.

`write_elo` follows Papp's layout: the four ``%%`` header lines, a blank line, then the
entries in order. Player lines are ``%_% [+]ID, fields...``; games with discs use Papp's
``%6ld (%02d)%c(%02d) %6ld B`` form, games without discs the old ``ID > ID`` form.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import date

from events.domain import ByeKind, Colour, Outcome
from events.store import RecordedEvent
from ingest.conversion import split_name
from ingest.elo.records import (
    ANONYMOUS,
    HEADER_KEYS,
    PROVISIONAL_BASE,
    UNKNOWN_ID,
    EloComment,
    EloEntry,
    EloFile,
    EloGame,
    EloHeader,
    EloPlayer,
    bye_text,
)
from ingest.elo.records import Outcome as EloOutcome
from projections.exports.log_view import view_of

__all__ = [
    "PROVISIONAL_BASE",
    "elo_from_log",
    "elo_losses",
    "render_elo",
    "to_ascii",
    "write_elo",
]


def to_ascii(text: str) -> str:
    """Plain ASCII: accents dropped (``WÅHLBERG`` → ``WAHLBERG``), other letters as ``?``.

    >>> to_ascii("Wåhlberg Ørsted")
    'Wahlberg ?rsted'
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.encode("ascii", "replace").decode("ascii")


def _id(wof_id: int | None) -> str:
    return UNKNOWN_ID if wof_id is None else str(wof_id)


def _player(player: EloPlayer) -> str:
    mark = "+" if player.new else " "
    text = f"%_% {mark}{_id(player.wof_id):>6}, " + ", ".join(player.fields)
    if player.comment:
        text += f" %{player.comment}"
    return text


def _game(game: EloGame) -> str:
    first = f"{_id(game.first):>6}"
    second = f"{_id(game.second):>6}"
    glyph = game.outcome.value
    if game.first_discs is not None and game.second_discs is not None:
        text = f"{first} ({game.first_discs:02d}){glyph}({game.second_discs:02d}) {second}"
    else:
        text = f"{first} {glyph} {second}"
    if game.first_colour is not None:
        text += f" {game.first_colour.value.upper()}"
    if game.comment:
        text += f" %{game.comment}"
    return text


def _entry(entry: EloEntry) -> str:
    if isinstance(entry, EloPlayer):
        return _player(entry)
    if isinstance(entry, EloGame):
        return _game(entry)
    return entry.text


def _header_values(header: EloHeader) -> tuple[str, ...]:
    return (header.tournament, header.country, header.date, header.sender)


def render_elo(elo: EloFile) -> str:
    """The file as text, LF line endings, a blank line after the header."""
    lines = [
        f"%%{key}: {value}"
        for key, value in zip(HEADER_KEYS, _header_values(elo.header), strict=True)
    ]
    lines.append("")
    previous: EloEntry | None = None
    for entry in elo.entries:
        # A blank line before each comment that follows data keeps rounds readable.
        if isinstance(entry, EloComment) and not isinstance(previous, EloComment | None):
            lines.append("")
        lines.append(_entry(entry))
        previous = entry
    return "\n".join(lines) + "\n"


def write_elo(elo: EloFile, *, ascii_only: bool = True) -> bytes:
    """Encoded file contents: plain ASCII by default (what the WOF expects), else UTF-8."""
    text = render_elo(elo)
    if ascii_only:
        return to_ascii(text).encode("ascii")
    return text.encode("utf-8")


_WHITE_SIDE: dict[Outcome, EloOutcome] = {
    Outcome.WHITE_WINS: EloOutcome.FIRST_WINS,
    Outcome.BLACK_WINS: EloOutcome.SECOND_WINS,
    Outcome.DRAW: EloOutcome.DRAW,
}
"""The played results; a forfeit has no ``.ELO`` form (`elo_losses`)."""
_FORFEITS = frozenset({Outcome.WHITE_WINS_FORFEIT, Outcome.BLACK_WINS_FORFEIT})
_MIRROR = {
    EloOutcome.FIRST_WINS: EloOutcome.SECOND_WINS,
    EloOutcome.SECOND_WINS: EloOutcome.FIRST_WINS,
    EloOutcome.DRAW: EloOutcome.DRAW,
}


def _wof_id(ids: dict[str, str]) -> int | None:
    value = ids.get("wof")
    return int(value) if value is not None and value.isdecimal() else None


def elo_losses(events: Sequence[RecordedEvent]) -> list[str]:
    """What the ``.ELO`` file of the stream cannot hold, one line each: a forfeited game, a
    requested (full, half or zero-point) bye, a withdrawal."""
    view = view_of(events)
    state = view.state
    names = {p.id: p.name for p in state.players.values()}
    forfeits = [
        f"round {r} board {b.board}: forfeit {names[b.white]} - {names[b.black]} is not "
        "written (the .ELO format has no forfeit)"
        for r in sorted(state.rounds)
        for b in state.rounds[r].boards
        if b.black is not None and b.outcome in _FORFEITS
    ]
    requested = [
        f"round {r}: {kind.value} bye of {names[pid]} is not written (the .ELO format has only "
        "the pairing bye)"
        for r in sorted(state.byes)
        for pid, kind in sorted(state.byes[r].items())
        if kind is not ByeKind.PAIRING
    ]
    withdrawn = [
        f"{p.name} withdrawn from round {p.withdrawn_from}: not written (the .ELO format has no "
        "withdrawal)"
        for p in view.players()
        if p.withdrawn_from is not None
    ]
    return forfeits + requested + withdrawn


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
    # A player without a WOF id: new to the database, with a provisional id (module doc).
    # An imported file's ``??????`` players stay as the file wrote them; its new players (``+``,
    # provisional id read back as none) are new players again.
    new = {
        pid
        for pid, wof in ids.items()
        if wof is None and (not source or view.player_meta.get(pid, {}).get("wof_new"))
    }
    ids.update({pid: PROVISIONAL_BASE + pid for pid in new})
    discs: dict[int, float] = {}
    games: list[EloEntry] = []
    for r in sorted(state.rounds):
        marks = str(view.round_meta.get(r, {}).get("elo_colours", ""))
        if source.get("rounds_stated", True):
            games.append(EloComment(f"%Round {r}"))
        byes: list[EloEntry] = []
        for index, b in enumerate(state.rounds[r].boards):
            bye_of = ids[b.white] if b.black is None else None
            if bye_of is not None:  # (an imported ?????? player has no bye: nothing to name)
                byes.append(EloComment(bye_text(bye_of)))
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
        games.extend(byes)
    for p in view.players():
        meta = view.player_meta.get(p.id, {})
        if meta.get("elo_listed") is False or p.name == ANONYMOUS:
            continue
        surname, first_name = split_name(p.name)
        # Fields are comma-separated: a comma inside a name ("Doe, Jane, JPN, 9.0") would
        # make a country and a score of its own.
        texts = (surname, first_name, p.federation or "")
        fields = [*(t.replace(",", " ") for t in texts), _number(state.points(p.id))]
        if p.id in discs:
            fields.append(_number(discs[p.id]))
            if p.rating:
                fields.append(str(p.rating))
        is_new = bool(meta.get("wof_new")) or p.id in new
        entries.append(EloPlayer(ids[p.id], is_new, tuple(fields)))
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
