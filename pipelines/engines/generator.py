"""The random tournament generator (``arbiter-pairings -g``): a whole Swiss tournament, paired
round by round by one of our engines, reproducible from its seed.

`generate` draws the players (ratings uniform between the lowest and highest rating, numbered
by rating), who is absent when (half-point and zero-point byes, late entries, withdrawals),
and each game's result (the Elo expected score, with White's advantage if asked, capped draws,
forfeits); the pairing of every round comes from the ``pair`` function it is given, which sees
the tournament as a TRF file (`ingest.trf.TrfFile`) up to the round to pair, with the requested
byes of that round already written, as ``arbiter-pairings -p`` sees one. The same seed and
configuration give the same file. Nothing here reads or writes a file.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from events.domain import Colour
from events.errors import PairingError
from events.history import HistoryEntry, Scoring, entry_points
from events.result_codes import ResultCode
from ingest.trf import TrfFile
from ingest.trf.records import (
    HeaderRecord,
    InitialColourRecord,
    PlayerRecord,
    Record,
    RoundEntry,
    ScoringRecord,
    TotalRoundsRecord,
)
from pairing.contract import PairedRound
from pipelines.engines.generator_config import GeneratorConfig
from projections.exports.trf import to_trf16

__all__ = [
    "Absences",
    "Pair",
    "Settled",
    "TournamentFile",
    "absences",
    "game",
    "generate",
    "scoring_record",
    "settle",
]

Pair = Callable[[TrfFile], PairedRound]
"""The engine: the next round of a tournament file, in its pairing numbers."""

_NEVER: Final = 0.0


@dataclass(frozen=True, slots=True)
class Settled:
    """Every value of a configuration, those it left out drawn from the seed."""

    players: int
    rounds: int
    draw_percentage: int
    forfeit_rate: float
    retired_rate: float
    half_point_bye_rate: float
    zero_point_bye_rate: float
    late_entry_rate: float
    lowest_rating: int
    highest_rating: int
    white_advantage: int
    scoring: Scoring
    baku: bool


def settle(config: GeneratorConfig, rng: random.Random) -> Settled:
    """The configuration with its blanks drawn from ``rng``, in bbpPairings' ranges: 5-15
    rounds, 15-215 players, ratings 1400-2300 to 2400-2800, draws 10-50 %, one forfeit in
    6-30 games, one retirement and one half-point bye in 15-3225 players."""
    rounds = config.rounds if config.rounds is not None else rng.randint(5, 15)
    forfeit = config.forfeit_rate if config.forfeit_rate is not None else rng.randint(6, 30)
    retired = config.retired_rate if config.retired_rate is not None else rng.randint(15, 3225)
    half = (
        config.half_point_bye_rate
        if config.half_point_bye_rate is not None
        else rng.randint(15, 3225)
    )
    draws = config.draw_percentage
    draws = draws if draws is not None else rng.randint(10, 50)
    players = config.players if config.players is not None else rng.randint(15, 215)
    high = config.highest_rating
    high = high if high is not None else max(rng.randint(2400, 2800), config.lowest_rating or 0)
    low = config.lowest_rating
    low = low if low is not None else min(rng.randint(1400, 2300), high)
    win = config.points_for_win
    scoring = Scoring(
        win=win,
        draw=config.points_for_draw,
        loss=config.points_for_loss,
        zero_bye=config.points_for_forfeit_loss,
        forfeit_loss=config.points_for_forfeit_loss,
        pab=win if config.points_for_pab is None else config.points_for_pab,
    )
    return Settled(
        players=players,
        rounds=rounds,
        draw_percentage=draws,
        forfeit_rate=forfeit,
        retired_rate=retired,
        half_point_bye_rate=half,
        zero_point_bye_rate=config.zero_point_bye_rate,
        late_entry_rate=config.late_entry_rate,
        lowest_rating=low,
        highest_rating=high,
        white_advantage=config.white_advantage if config.has_white_advantage else 0,
        scoring=scoring,
        baku=config.acceleration == "baku",
    )


def _how_many(players: int, rate: float) -> int:
    """One player in ``rate`` (bbpPairings' ``applyRate``: rounded down, at most all; a rate
    of 0 is none)."""
    return 0 if rate == _NEVER else min(players, int(players / rate))


Absences = dict[int, dict[int, ResultCode]]
"""Player -> round -> ``H`` or ``Z``: the rounds the player asked not to be paired in."""


def absences(s: Settled, rng: random.Random) -> Absences:
    """Late entries, withdrawals, then half-point and zero-point byes, each drawn among the
    players present in the round."""
    n, rounds = s.players, s.rounds
    absent: Absences = {p: {} for p in range(1, n + 1)}
    everyone = list(range(1, n + 1))
    if rounds >= 2:
        latest = max(2, (rounds + 1) // 2)
        for p in sorted(rng.sample(everyone, _how_many(n, s.late_entry_rate))):
            for k in range(1, rng.randint(2, latest)):
                absent[p][k] = ResultCode.ZERO_BYE
        on_time = [p for p in everyone if not absent[p]]
        for p in sorted(rng.sample(on_time, min(len(on_time), _how_many(n, s.retired_rate)))):
            for k in range(rng.randint(2, rounds), rounds + 1):
                absent[p][k] = ResultCode.ZERO_BYE
        _one_round_off(absent, s.half_point_bye_rate, range(1, rounds), ResultCode.HALF_BYE, rng)
    _one_round_off(absent, s.zero_point_bye_rate, range(1, rounds + 1), ResultCode.ZERO_BYE, rng)
    return absent


def _one_round_off(
    absent: Absences, rate: float, rounds: range, code: ResultCode, rng: random.Random
) -> None:
    """``code`` for one player in ``rate``, each in one of ``rounds`` that player plays."""
    chosen = rng.sample(sorted(absent), _how_many(len(absent), rate))
    for p in sorted(chosen):
        free = [k for k in rounds if k not in absent[p]]
        if free:
            absent[p][rng.choice(free)] = code


def game(s: Settled, white: int, black: int, rng: random.Random) -> tuple[ResultCode, ...]:
    """The two players' codes: a forfeit (one in ``forfeit_rate``, either side alike), or a
    result drawn from the Elo expected score (White's advantage added), the draw rate capped
    so that the stronger player's expected score holds."""
    if s.forfeit_rate != _NEVER and rng.random() < 1 / s.forfeit_rate:
        if rng.random() < 0.5:
            return ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS
        return ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN
    expected = 1 / (1 + 10 ** ((black - white - s.white_advantage) / 400))
    draw = min(s.draw_percentage / 100, 2 * min(expected, 1 - expected))
    u = rng.random()
    if u < draw:
        return ResultCode.DRAW, ResultCode.DRAW
    if u < draw + expected - draw / 2:
        return ResultCode.WIN, ResultCode.LOSS
    return ResultCode.LOSS, ResultCode.WIN


def _points(entries: list[RoundEntry], scoring: Scoring) -> Decimal:
    history = (HistoryEntry(opponent=e.opponent, result=e.result) for e in entries)
    return sum((entry_points(h, scoring) for h in history), Decimal(0))


def scoring_record(scoring: Scoring) -> list[Record]:
    """bbpPairings' ``162`` line: the values that differ from 1 / ½ / 0 (PAB: a win)."""
    values = [
        ("W", scoring.win, Decimal(1)),
        ("D", scoring.draw, Decimal("0.5")),
        ("L", scoring.loss, Decimal(0)),
        ("A", scoring.forfeit_loss, Decimal(0)),
        ("P", scoring.pab, scoring.win),
    ]
    changed = tuple((code, value) for code, value, default in values if value != default)
    return [ScoringRecord(changed)] if changed else []


@dataclass(frozen=True, slots=True)
class TournamentFile:
    """The generated tournament so far: header records, ratings, each player's rounds."""

    head: tuple[Record, ...]
    tail: tuple[Record, ...]
    ratings: Mapping[int, int]
    scoring: Scoring

    def file(self, history: Mapping[int, list[RoundEntry]], ranked: bool) -> TrfFile:
        points = {p: _points(entries, self.scoring) for p, entries in history.items()}
        order = sorted(points, key=lambda p: (-points[p], p))
        ranks = {p: i for i, p in enumerate(order, start=1)}
        players = tuple(
            PlayerRecord(
                number=p,
                sex="",
                title="",
                name=f"Test{p:04} Player{p:04}",
                rating=self.ratings[p],
                federation="",
                fide_id="",
                birth_date="",
                points=points[p],
                rank=ranks[p] if ranked else None,
                rounds=tuple(history[p]),
            )
            for p in sorted(history)
        )
        return TrfFile((*self.head, *players, *self.tail), path="<generated>")


def generate(
    config: GeneratorConfig, seed: int, system: str, pair: Pair, *, trf16: bool = False
) -> TrfFile:
    """A whole tournament of ``config`` from ``seed``, paired by ``pair``.

    ``system``: the ``092`` text (``FIDE_DUTCH_2025``; ``_BAKU`` is added for Baku
    acceleration); ``trf16``: the file in bbpPairings v5's records (``XXR``, ``XXC``,
    ``BBW``/``BBD``…) instead of TRF-2026's (``142``, ``152``, ``162``).

    :raises PairingError: a round the engine cannot pair, naming the round.
    """
    rng = random.Random(seed)
    s = settle(config, rng)
    drawn = sorted(rng.randint(s.lowest_rating, s.highest_rating) for _ in range(s.players))
    ratings = dict(enumerate(reversed(drawn), start=1))
    colour = rng.choice((Colour.WHITE, Colour.BLACK))
    absent = absences(s, rng)
    tournament = TournamentFile(
        head=(HeaderRecord("012", f"arbiter random tournament, seed {seed}"),),
        tail=(
            TotalRoundsRecord("142", s.rounds),
            InitialColourRecord(colour),
            HeaderRecord("092", system + ("_BAKU" if s.baku else "")),
            *scoring_record(s.scoring),
        ),
        ratings=ratings,
        scoring=s.scoring,
    )
    history: dict[int, list[RoundEntry]] = {p: [] for p in ratings}
    for k in range(1, s.rounds + 1):
        for p, rounds in absent.items():
            if k in rounds:
                history[p].append(RoundEntry(None, Colour.NONE, rounds[k]))
        if all(len(entries) == k for entries in history.values()):
            continue  # everybody absent: a round of byes only, nobody to pair
        try:
            paired = pair(tournament.file(history, ranked=False))
        except PairingError as exc:
            raise PairingError(f"round {k} of the generated tournament: {exc}") from None
        for board in paired.boards:
            if board.black is None:
                history[board.white].append(RoundEntry(None, Colour.NONE, ResultCode.PAB))
                continue
            white, black = game(s, ratings[board.white], ratings[board.black], rng)
            history[board.white].append(RoundEntry(board.black, Colour.WHITE, white))
            history[board.black].append(RoundEntry(board.white, Colour.BLACK, black))
    done = tournament.file(history, ranked=True)
    return to_trf16(done) if trf16 else done
