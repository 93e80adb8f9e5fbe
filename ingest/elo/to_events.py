"""WOF ``.ELO`` file → the events of an othello tournament.

Players: the ``%_%`` lines in file order, then ids that play without a player line (by id), then
anonymous players for ``??????`` opponents (one, or two when two unknowns meet; a single
``??????`` player line is that player). Rounds: the ``%Round`` comments when
every game has one and nobody plays twice in a round; otherwise each game goes to the first
round after both players' previous games (file order), which is how the games were played.
Colours: the Othello ``B``/``W`` mark puts the players in their real seats; without a mark the
first-named player sits in the white seat, and ``elo_colours`` in the round's metadata says
which board had which mark, so the export writes each line as it was. A new player's provisional
id (``+900003``, `records.PROVISIONAL_BASE`, what arbiter's export writes for a player without a
WOF id) is no WOF id: the player is registered with none. Byes: a ``%ID had a bye`` comment
after a round's games (the WOF files' way, `records.bye_text`) is a pairing bye of that round, read
when the rounds come from the comments; it scores as the othello scoring scores a bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from pydantic import TypeAdapter

from events.domain import ByeKind, Colour, Game, Outcome, System
from events.schema import (
    Event,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.scoring import Scoring
from ingest.conversion import Conversion, PointsCheck, check_points, join_name
from ingest.elo.records import (
    ANONYMOUS,
    EloComment,
    EloFile,
    EloGame,
    EloPlayer,
    bye_id,
    provisional,
)
from ingest.elo.records import Outcome as EloOutcome

__all__ = ["elo_to_events"]

# (outcome glyph, first player sits in the white seat) -> board outcome from white's side
_OUTCOME: dict[tuple[EloOutcome, bool], Outcome] = {
    (EloOutcome.FIRST_WINS, True): Outcome.WHITE_WINS,
    (EloOutcome.SECOND_WINS, True): Outcome.BLACK_WINS,
    (EloOutcome.FIRST_WINS, False): Outcome.BLACK_WINS,
    (EloOutcome.SECOND_WINS, False): Outcome.WHITE_WINS,
    (EloOutcome.DRAW, True): Outcome.DRAW,
    (EloOutcome.DRAW, False): Outcome.DRAW,
}
_RESULTS = TypeAdapter(list[ResultRecorded])
_HALVES = {EloOutcome.FIRST_WINS: 2, EloOutcome.DRAW: 1, EloOutcome.SECOND_WINS: 0}
_MARK = {None: "-", Colour.BLACK: "B", Colour.WHITE: "W"}


class _Players:
    """Tournament-local numbers for the file's players."""

    def __init__(self, listed: Sequence[EloPlayer]) -> None:
        self.events: list[PlayerRegistered] = []
        self.metadata: dict[int, dict[str, object]] = {}
        self.by_key: dict[int, int] = {}
        self.anonymous: list[int] = []
        self.lines: dict[int, int] = {}
        """Each listed player's line in the file, by number."""
        unnamed = [p for p in listed if p.wof_id is None]
        for p in listed:
            number = self._register(p)
            if p.wof_id is not None:
                self.by_key[p.wof_id] = number
            elif len(unnamed) == 1:
                self.anonymous.append(number)

    def _register(self, p: EloPlayer) -> int:
        number = len(self.events) + 1
        known = p.wof_id is not None and not provisional(p.wof_id, p.new)
        ids = {"wof": str(p.wof_id)} if known else {}
        rating = p.rating
        self.events.append(
            PlayerRegistered(
                player=number,
                name=join_name(p.surname, p.first_name),
                federation=p.country or None,
                rating=rating if rating is not None and rating > 0 else None,
                ids=ids,
                pairing_number=number,
            )
        )
        if p.new:
            self.metadata[number - 1] = {"wof_new": True}
        if p.line:
            self.lines[number] = p.line
        return number

    def _unlisted(self, name: str, ids: dict[str, str]) -> int:
        number = len(self.events) + 1
        self.events.append(
            PlayerRegistered(player=number, name=name, ids=ids, pairing_number=number)
        )
        self.metadata[number - 1] = {"elo_listed": False}
        return number

    def number(self, wof_id: int | None, opponent: int | None = None) -> int:
        """The player of an id; ``??????`` is the first unknown player who is not ``opponent``."""
        if wof_id is None:
            for number in self.anonymous:
                if number != opponent:
                    return number
            self.anonymous.append(self._unlisted(ANONYMOUS, {}))
            return self.anonymous[-1]
        found = self.by_key.get(wof_id)
        if found is None:
            found = self.by_key[wof_id] = self._unlisted(f"#{wof_id}", {"wof": str(wof_id)})
        return found

    def seats(self, game: EloGame) -> tuple[int, int]:
        first = self.number(game.first)
        return first, self.number(game.second, first)


def _stated_rounds(games: Sequence[EloGame], seats: Sequence[tuple[int, int]]) -> list[int] | None:
    """The rounds the comments give, if they are complete and consistent."""
    seen: set[tuple[int, int]] = set()
    rounds: list[int] = []
    for game, (a, b) in zip(games, seats, strict=True):
        r = game.round
        if r is None or r < 1 or (r, a) in seen or (r, b) in seen:
            return None
        seen.add((r, a))
        seen.add((r, b))
        rounds.append(r)
    return rounds


def _inferred_rounds(seats: Sequence[tuple[int, int]]) -> list[int]:
    last: dict[int, int] = {}
    rounds: list[int] = []
    for a, b in seats:
        r = max(last.get(a, 0), last.get(b, 0)) + 1
        last[a] = last[b] = r
        rounds.append(r)
    return rounds


def _byes(elo: EloFile, players: _Players, busy: set[tuple[int, int]]) -> dict[int, list[int]]:
    """The players of each round's ``%ID had a bye`` comments (the round of the games before
    the comment); one who plays in that round, or has a bye in it already, is left out."""
    byes: dict[int, list[int]] = {}
    current: int | None = None
    for entry in elo.entries:
        if isinstance(entry, EloGame):
            current = entry.round
        elif isinstance(entry, EloComment) and current is not None:
            wof_id = bye_id(entry.text)
            if wof_id is None:
                continue
            number = players.number(wof_id)
            if (current, number) not in busy:
                busy.add((current, number))
                byes.setdefault(current, []).append(number)
    return byes


def elo_to_events(elo: EloFile, *, strict: bool = False) -> Conversion:
    """The tournament stream of a parsed ``.ELO`` file.

    :raises IngestError: the file has rejected lines (its first one), or ``strict`` and a
        player's points column disagrees with the results.
    """
    elo.raise_first_error()
    players = _Players(elo.players)
    games = elo.games
    # Unlisted ids in id order, so that the numbering does not depend on the game order.
    for wof_id in sorted({i for g in games for i in (g.first, g.second) if i is not None}):
        players.number(wof_id)
    seats = [players.seats(g) for g in games]
    stated = _stated_rounds(games, seats)
    rounds = stated if stated is not None else _inferred_rounds(seats)
    busy = {(r, n) for r, pair in zip(rounds, seats, strict=True) for n in pair}
    byes = _byes(elo, players, busy) if stated is not None else {}
    bye_points = Scoring.for_game_kind(Game.OTHELLO).for_bye(ByeKind.PAIRING)

    by_round: dict[int, list[int]] = {}
    for index, r in enumerate(rounds):
        by_round.setdefault(r, []).append(index)
    points: dict[int, int] = {}  # half points, to stay exact
    round_events: list[Event] = []
    round_meta: dict[int, dict[str, object]] = {}
    for r in sorted(by_round):
        # Plain dicts validated per round: one pydantic call instead of one per game.
        boards: list[dict[str, int]] = []
        results: list[dict[str, object]] = []
        marks: list[str] = []
        for board, index in enumerate(by_round[r], start=1):
            g = games[index]
            first, second = seats[index]
            first_white = g.first_colour is not Colour.BLACK
            white, black = (first, second) if first_white else (second, first)
            d_white, d_black = (
                (g.first_discs, g.second_discs) if first_white else (g.second_discs, g.first_discs)
            )
            boards.append({"board": board, "white": white, "black": black})
            results.append(
                {
                    "round": r,
                    "board": board,
                    "outcome": _OUTCOME[(g.outcome, first_white)],
                    "white_score": d_white,
                    "black_score": d_black,
                }
            )
            marks.append(_MARK[g.first_colour])
            halves = _HALVES[g.outcome]
            points[first] = points.get(first, 0) + halves
            points[second] = points.get(second, 0) + 2 - halves
        for number in byes.get(r, []):
            boards.append({"board": len(boards) + 1, "white": number})
            points[number] = points.get(number, 0) + int(bye_points * 2)
        round_meta[len(round_events)] = {"elo_colours": "".join(marks)}
        round_events.append(RoundPaired.model_validate({"round": r, "boards": boards}))
        round_events.extend(_RESULTS.validate_python(results))

    checks = [
        PointsCheck(p.line, 0, f"{p.wof_id} {p.surname}", p.score, Decimal(points[n]) / 2)
        for n, p in enumerate(elo.players, start=1)
        if p.score is not None and p.score * 2 != points.setdefault(n, 0)
    ]
    warnings = list(elo.warnings) + check_points(elo.path, checks, strict=strict)

    created = TournamentCreated(
        tournament_id=elo.name or "elo",
        name=elo.header.tournament or elo.name,
        game=Game.OTHELLO,
        system=System.IMPORTED,
        rounds=max(by_round, default=1),
        scoring=Scoring.for_game_kind(Game.OTHELLO),
        start_date=elo.start,
        end_date=elo.end,
        federation=elo.header.country or None,
    )
    events: list[Event] = [created, *players.events]
    metadata: dict[int, dict[str, object]] = {
        0: {
            "elo": {
                "name": elo.name,
                "letter": elo.letter,
                "date": elo.header.date,
                "sender": elo.header.sender,
                "rounds_stated": stated is not None,
            }
        }
    }
    metadata.update({1 + i: m for i, m in players.metadata.items()})
    offset = len(events)
    metadata.update({offset + i: m for i, m in round_meta.items()})
    events.extend(round_events)
    return Conversion(events, metadata, warnings, games=len(games), lines=players.lines)
