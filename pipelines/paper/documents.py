"""The printed documents as plain data: what each one shows, read from the views the other
commands print (`pipelines.views.tournament`, the standings and the crosstable). Nothing here
computes a rule; the renderers (`pdf`, `html`) only lay it out."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from decide.state import TournamentState
from events.domain import Game
from events.errors import UserError
from events.results import jigo_possible
from pipelines.views.tournament import (
    event_data_row,
    not_paired_view,
    pairings_view,
    players_view,
    standings_text,
)
from projections import crosstable as xt
from projections.game_terms import komi_text
from projections.standings import as_of
from projections.standings import standings as compute_standings

__all__ = [
    "Card",
    "Doc",
    "Document",
    "Slip",
    "Table",
    "build",
    "details_of",
    "round_documents",
    "texts_of",
]


class Doc(StrEnum):
    """The documents `arbiter print` makes."""

    PAIRINGS = "pairings"
    PAIRINGS_ALPHA = "pairings-alpha"
    SLIPS = "slips"
    CARDS = "cards"
    WALLCHART = "wallchart"
    STANDINGS = "standings"
    PLAYERS = "players"
    CHECK_IN_CODES = "check-in-codes"
    """Each player's check-in code, for the director to hand out (never posted on the wall)."""
    PRIZES = "prizes"
    """The prize list after the last paired round (`arbiter prizes T`)."""
    NORM_CERTIFICATE = "norm-certificate"
    """FIDE form IT1 for one player's norm (`arbiter norms T --certificate N`)."""
    NORM_REPORT = "norm-report"
    """FIDE form IT3, the tournament report of the norms made (`arbiter norms T --report`)."""


round_documents = frozenset({Doc.PAIRINGS, Doc.PAIRINGS_ALPHA, Doc.SLIPS, Doc.CARDS})
"""The documents of one paired round (the others show the event after its last complete round)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table: its header row, its rows of text cells and each column's alignment."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str  # one letter a column: l(eft), r(ight), c(entre)
    wrap: tuple[int, ...] = ()  # columns printed whole (over several lines) when too long


@dataclass(frozen=True, slots=True)
class Slip:
    """A result slip: one board of a round, the results to tick and the signatures."""

    board: int
    white: str
    black: str
    results: tuple[str, ...]
    note: str  # go: handicap and komi


@dataclass(frozen=True, slots=True)
class Card:
    """A board (table) card: the number players look for."""

    board: int


@dataclass(frozen=True, slots=True)
class Document:
    """One printed document: the event's header, then tables, slips or cards."""

    kind: Doc
    title: str  # "Pairings, round 4"
    event: str  # the event's name
    details: str  # place, dates, chief arbiter
    landscape: bool = False
    tables: tuple[Table, ...] = ()
    slips: tuple[Slip, ...] = ()
    cards: tuple[Card, ...] = ()


def texts_of(doc: Document) -> list[str]:
    """Every text ``doc`` prints (to check that each can be printed)."""
    out = [doc.event, doc.title, doc.details]
    for table in doc.tables:
        out += [table.caption, *table.columns, *(cell for row in table.rows for cell in row)]
    for slip in doc.slips:
        out += [slip.white, slip.black, slip.note, *slip.results]
    return out


def details_of(state: TournamentState) -> str:
    data = event_data_row(state)
    dates = " – ".join(d for d in (data["start"], data["end"]) if d)
    parts = [data["place"], dates]
    if data["chief_arbiter"]:
        parts.append(f"Chief arbiter: {data['chief_arbiter']}")
    return " · ".join(p for p in parts if p)


def _num(value: float | None) -> str:
    return xt.format_value(value)


def _who(seat: dict[str, Any] | None, go: bool) -> str:
    """A player as the lists name him: ``GM Berg, Anna`` (go: ``Sato, Ken 3d``)."""
    if seat is None:
        return "bye"
    if go:
        return " ".join(x for x in (seat["name"], seat.get("rank")) if x)
    return " ".join(x for x in (seat.get("title"), seat["name"]) if x)


def _strength(seat: dict[str, Any] | None, go: bool) -> str:
    if seat is None:
        return ""
    value = seat.get("rank") if go else seat.get("rating")
    return "" if value is None else str(value)


def _pairings(state: TournamentState, rnd: int) -> tuple[Table, ...]:
    go = state.game is Game.GO
    boards = pairings_view(state, rnd)
    head = ["Bd", "No", "White", "Rank" if go else "Rtg", "Pts", "Result", "Pts", "Black"]
    head += ["Rank" if go else "Rtg", "No"] + (["Hcp", "Komi"] if go else [])
    rows = []
    for b in boards:
        w, bl = b["white"], b["black"]
        row = [str(b["board"]), str(w["start_rank"]), _who(w, False), _strength(w, go)]
        row += [_num(w["points_before"]), b["result"] or ""]
        if bl is None:
            row += ["", "bye", "", ""]
        else:
            row += [_num(bl["points_before"]), _who(bl, False), _strength(bl, go)]
            row.append(str(bl["start_rank"]))
        if go:
            row += [str(b.get("handicap") or ""), komi_text(b.get("komi")) or ""]
        rows.append(tuple(row))
    tables = [Table("", tuple(head), tuple(rows), "rrlrrcrlrr" + ("rr" if go else ""))]
    missing = not_paired_view(state, rnd)
    if missing:
        out = tuple(
            (str(m["player"]["start_rank"]), m["player"]["name"], m["why"]) for m in missing
        )
        tables.append(Table("Not paired", ("No", "Name", "Why"), out, "rll"))
    return tuple(tables)


def _pairings_alpha(state: TournamentState, rnd: int) -> tuple[Table, ...]:
    go = state.game is Game.GO
    seats: list[tuple[str, ...]] = []
    for b in pairings_view(state, rnd):
        w, bl = b["white"], b["black"]
        seats.append((w["name"], str(w["start_rank"]), str(b["board"]), "White", _who(bl, go)))
        if bl is not None:
            seats.append((bl["name"], str(bl["start_rank"]), str(b["board"]), "Black", _who(w, go)))
    for m in not_paired_view(state, rnd):
        p = m["player"]
        seats.append((p["name"], str(p["start_rank"]), "", "", m["why"]))
    seats.sort(key=lambda s: (s[0].casefold(), int(s[1])))
    head = ("Name", "No", "Board", "Colour", "Opponent")
    return (Table("", head, tuple(seats), "lrrll"),)


def _slips(state: TournamentState, rnd: int) -> tuple[Slip, ...]:
    go = state.game is Game.GO
    out = []
    for b in pairings_view(state, rnd):
        w, bl = b["white"], b["black"]
        if bl is None:
            continue
        note = ""
        choices: tuple[str, ...] = ("1-0", "½-½", "0-1")
        if go:  # a jigo box only where the komi allows one
            jigo = ("Jigo",) if jigo_possible(b.get("komi")) else ()
            choices = ("White wins", "Black wins", *jigo)
            komi = komi_text(b.get("komi"))
            note = f"Handicap {b.get('handicap') or 0}" + (f", komi {komi}" if komi else "")

        def label(seat: dict[str, Any]) -> str:
            return f"{_who(seat, go)} ({seat['start_rank']})"

        out.append(Slip(b["board"], label(w), label(bl), choices, note))
    return tuple(out)


def _cards(state: TournamentState, rnd: int) -> tuple[Card, ...]:
    return tuple(Card(b["board"]) for b in pairings_view(state, rnd) if b["black"] is not None)


def _wallchart(state: TournamentState) -> tuple[Table, ...]:
    table = xt.crosstable(state, order="start")
    head, *rows = xt.as_rows(table, titles=True)
    align = "rrlrl" + "c" * table.rounds + "r" * (1 + len(table.tiebreaks))
    return (Table("", tuple(head), tuple(tuple(r) for r in rows), align),)


def _standings(state: TournamentState) -> tuple[Table, ...]:
    rows = compute_standings(state)
    shown = standings_text(rows)
    codes = list(shown[0]["tiebreaks"]) if shown else []
    head = ("Rank", "No", "Name", "Rank" if state.game is Game.GO else "Rtg", "Fed", "Pts", *codes)
    go = state.game is Game.GO
    body = tuple(
        (
            str(r["rank"]),
            str(r["player"]["start_rank"]),
            r["player"]["name"],
            str(state.players[r["player"]["id"]].rank or "") if go else str(r["rating"] or ""),
            r["federation"] or "",
            _num(r["points"]),
            *(_num(r["tiebreaks"][c]) for c in codes),
        )
        for r in shown
    )
    return (Table("", head, body, "rrlrlr" + "r" * len(codes)),)


def _players(state: TournamentState) -> tuple[Table, ...]:
    go = state.game is Game.GO
    rows = sorted(players_view(state), key=lambda p: (-(p["rating"] or 0), p["start_rank"]))
    head = ("No", "Title", "Name", "Rank" if go else "Rating", "Fed", "Club", "Paid")
    paid = {True: "yes", False: "no", None: ""}
    body = tuple(
        (
            str(p["start_rank"]),
            p["title"] or "",
            p["name"],
            str((p["rank"] if go else p["rating"]) or ""),
            p["federation"] or "",
            state.players[p["id"]].club or "",
            paid[p["paid"]],
        )
        for p in rows
    )
    return (Table("", head, body, "rllrllc", wrap=(2,)),)


def _prizes(state: TournamentState) -> tuple[Table, ...]:
    from pipelines.views.prizes import awards, prizes_view

    head = ("Rank", "No", "Name", "Pts", "Prize", "Amount", "Item", "Shared by")
    numbers = state.start_ranks()
    body = tuple(
        (
            str(r["rank"]),
            str(numbers.get(r["player"]["id"], "")),
            r["player"]["name"],
            _num(r["points"]),
            r["prize"],
            " ".join(str(x) for x in (r["amount"], r["currency"]) if x not in (None, "")),
            r["item"] or "",
            str(r["shared_by"]) if r["shared_by"] > 1 else "",
        )
        for r in prizes_view(state, awards(state))
    )
    return (Table("", head, body, "rrlrlrlr"),)


def _check_in_codes(state: TournamentState) -> tuple[Table, ...]:
    from pipelines.commands.registration import check_in_code

    rows = sorted(players_view(state), key=lambda p: p["name"].casefold())
    body = tuple((str(p["start_rank"]), p["name"], check_in_code(state.id, p["id"])) for p in rows)
    return (Table("", ("No", "Name", "Check-in code"), body, "rll"),)


def build(state: TournamentState, kind: Doc, rnd: int) -> Document:
    """Document `kind` of the tournament; `rnd` is the round of a round's document (it must
    be paired: the caller checks), ignored by the others (they say the round they are after)."""
    name, details = state.settings.name, details_of(state)
    after = as_of(state).caption
    match kind:
        case Doc.PAIRINGS:
            return Document(
                kind, f"Pairings, round {rnd}", name, details, tables=_pairings(state, rnd)
            )
        case Doc.PAIRINGS_ALPHA:
            title = f"Pairings by name, round {rnd}"
            return Document(kind, title, name, details, tables=_pairings_alpha(state, rnd))
        case Doc.SLIPS:
            return Document(
                kind, f"Result slips, round {rnd}", name, details, slips=_slips(state, rnd)
            )
        case Doc.CARDS:
            return Document(
                kind, f"Board cards, round {rnd}", name, details, cards=_cards(state, rnd)
            )
        case Doc.WALLCHART:
            title = f"Wall chart, {after}"
            return Document(kind, title, name, details, landscape=True, tables=_wallchart(state))
        case Doc.STANDINGS:
            return Document(kind, f"Standings, {after}", name, details, tables=_standings(state))
        case Doc.PLAYERS:
            return Document(kind, "Players by rating", name, details, tables=_players(state))
        case Doc.CHECK_IN_CODES:
            title = "Check-in codes (for the director: hand each player his own)"
            return Document(kind, title, name, details, tables=_check_in_codes(state))
        case Doc.PRIZES:
            from pipelines.views.prizes import prizes_title

            title = prizes_title(state).removeprefix(f"{name}: ")
            title = title[:1].upper() + title[1:]
            return Document(kind, title, name, details, tables=_prizes(state))
        case Doc.NORM_CERTIFICATE | Doc.NORM_REPORT:
            raise UserError(
                f"{kind.value}: made by `arbiter norms {state.id} --certificate N` or `--report`"
            )
