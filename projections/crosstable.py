"""Crosstables: per player every round's `opponent colour result`, points and tie-breaks.

Rows come in start order or in rank order. In a rank-ordered table the opponents are renumbered
to their row numbers, as printed crosstables do, so a reader can follow a column without the
start list. `as_rows` and `to_csv` give plain text cells for text and CSV output; the HTML page
lives in `projections.html`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from decide.state import Pairing, PlayerState, TournamentState
from events.domain import ByeKind, Colour, Game, Outcome
from projections.csv_safe import csv_cell
from projections.standings import marked_name, standings
from projections.tiebreaks import TiebreakOptions

Order = Literal["rank", "start"]

# What a round without a game shows: requested byes by kind, the PAB, and absence.
_BYE_TEXT = {
    ByeKind.PAIRING: "bye",
    ByeKind.FULL: "F",
    ByeKind.HALF: "H",
    ByeKind.ZERO: "-",
}


@dataclass(frozen=True, slots=True)
class Cell:
    """One round of one row."""

    round: int
    opponent: int | None  # the opponent's row number in this table
    colour: Colour | None  # None for a round without a game
    result: str  # "1", "½", "0", "+", "-" (forfeits), "*" (no result yet), or bye text
    points: float | None
    scores: tuple[float, float] | None = None  # own and opponent's discs / points / margin

    @property
    def text(self) -> str:
        if self.opponent is None:
            return self.result
        out = f"{self.opponent}{self.colour.value if self.colour else ''}{self.result}"
        if self.scores is not None:
            out += f" ({self.scores[0]:g}-{self.scores[1]:g})"
        return out


@dataclass(frozen=True, slots=True)
class Row:
    number: int  # row number; opponents in cells refer to it
    rank: int
    player: int
    start_rank: int
    name: str
    title: str | None
    rating: int | None
    federation: str | None
    club: str | None
    cells: tuple[Cell, ...]
    points: float
    tiebreaks: dict[str, float | None]
    grade: str = ""
    """The strength column: the rating, or in go the rank (``3d``, ``12k``)."""
    withdrawn_from: int | None = None


@dataclass(frozen=True, slots=True)
class Crosstable:
    title: str
    game: Game
    rounds: int
    order: Order
    tiebreaks: tuple[str, ...]
    rows: tuple[Row, ...]


def _symbol(points: float | None, state: TournamentState) -> str:
    if points is None:
        return "*"
    s = state.scoring
    if state.game is Game.CHESS or (s.win, s.draw, s.loss) == (1.0, 0.5, 0.0):
        if points >= s.win:
            return "1"
        if points == s.draw:
            return "½"
        return "0" if points <= s.loss else f"{points:g}"
    return f"{points:g}"


def own_result(p: Pairing, state: TournamentState) -> str:
    """A round's result from the player's own side: ``1``, ``½``, ``0``, ``+`` or ``-`` for
    a forfeit won or lost, ``*`` before the result; for a round without a game, its points
    (``1``, ``½``, ``0``)."""
    outcome = p.outcome
    if p.opponent is not None and outcome is not None and outcome.is_forfeit:
        colour = p.colour or Colour.BLACK
        won = outcome is (
            Outcome.WHITE_WINS_FORFEIT if colour is Colour.WHITE else Outcome.BLACK_WINS_FORFEIT
        )
        return "+" if won else "-"
    return _symbol(p.points, state)


def _cell(p: Pairing, state: TournamentState, numbers: dict[int, int]) -> Cell:
    if p.opponent is None:
        kind = p.bye or ByeKind.ZERO
        return Cell(p.round, None, None, _BYE_TEXT[kind], p.points)
    colour = p.colour or Colour.BLACK
    scores = _scores(state, p, colour)
    return Cell(p.round, numbers[p.opponent], colour, own_result(p, state), p.points, scores)


def _scores(state: TournamentState, p: Pairing, colour: Colour) -> tuple[float, float] | None:
    if state.game is Game.CHESS or p.board is None:
        return None
    board = state.rounds[p.round].board(p.board)
    return None if board is None else board.scores(colour is Colour.WHITE)


def crosstable(
    state: TournamentState,
    tiebreaks: Sequence[str] | None = None,
    through_round: int | None = None,
    order: Order = "rank",
    options: TiebreakOptions | None = None,
) -> Crosstable:
    """The crosstable after round `through_round` (default: the last complete round, as the
    standings: a round in play is left out)."""
    through = state.complete_round if through_round is None else through_round
    rows = standings(state, tiebreaks, through, options)
    if order == "start":
        rows = sorted(rows, key=lambda r: r.start_rank)
    numbers = {r.player: i for i, r in enumerate(rows, start=1)}
    out: list[Row] = []
    for number, r in enumerate(rows, start=1):
        p = state.players[r.player]
        cells = tuple(_cell(x, state, numbers) for x in state.pairings(r.player, through))
        out.append(
            Row(
                number=number,
                rank=r.rank,
                player=r.player,
                start_rank=r.start_rank,
                name=r.name,
                title=p.title,
                rating=r.rating,
                federation=r.federation,
                club=p.club,
                cells=cells,
                points=r.points,
                tiebreaks=r.tiebreaks,
                grade=_grade(state, p),
                withdrawn_from=r.withdrawn_from,
            )
        )
    codes = tuple(rows[0].tiebreaks) if rows else tuple(tiebreaks or state.tiebreaks)
    return Crosstable(state.settings.name, state.game, through, order, codes, tuple(out))


def _grade(state: TournamentState, p: PlayerState) -> str:
    """Go players by rank (or AGA rating where that is all there is); others by rating."""
    if state.game is Game.GO:
        if p.rank:
            return p.rank
        return "" if p.aga_rating is None else f"{p.aga_rating:g}"
    return "" if p.rating is None else str(p.rating)


def format_value(value: float | None) -> str:
    """A tie-break or points value as printed: `7`, `7.5`, `30.25`; empty when undefined."""
    if value is None:
        return ""
    return f"{value:g}" if abs(value) < 1e15 else str(value)


def header(table: Crosstable) -> list[str]:
    return [
        "No",
        "Rank",
        "Name",
        "Grade" if table.game is Game.GO else "Rtg",
        "Fed/Club",
        *(f"R{i}" for i in range(1, table.rounds + 1)),
        "Pts",
        *table.tiebreaks,
    ]


def as_rows(table: Crosstable, titles: bool = False) -> list[list[str]]:
    """Header and one list of text cells per row (for text tables, CSV and the HTML page).

    With `titles` the name cell carries the player's title in front (`GM Name`).
    """
    out = [header(table)]
    for r in table.rows:
        name = marked_name(r.name, r.withdrawn_from)
        out.append(
            [
                str(r.number),
                str(r.rank),
                " ".join(x for x in (r.title, name) if x) if titles else name,
                r.grade,
                r.federation or r.club or "",
                *(c.text for c in r.cells),
                format_value(r.points),
                *(format_value(r.tiebreaks.get(c)) for c in table.tiebreaks),
            ]
        )
    return out


def to_csv(table: Crosstable) -> str:
    buffer = io.StringIO()
    rows = ([csv_cell(cell) for cell in row] for row in as_rows(table))
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def to_text(table: Crosstable) -> str:
    """A fixed-width text table."""
    rows = as_rows(table)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"
