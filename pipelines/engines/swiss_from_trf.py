"""Build a :class:`SwissInput` for the next round from a parsed TRF file.

The reading follows the engine contract (formats.md 2.2): the round to pair is the first one
nobody was paired in; blocks already written for it (``0000 - H/F/Z``) and ``240`` records are
requested byes; ``XXP``/``260`` are prohibited pairs; ``XXA``/``250``/``…_BAKU`` acceleration;
the points column must agree with the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from decimal import Decimal

from events.domain import Colour
from events.history import HistoryEntry, Scoring, entry_points
from events.result_codes import ResultCode
from ingest.errors import IngestError
from ingest.trf import (
    AccelerationRecord,
    ByesRecord,
    ForbiddenPairsRecord,
    PlayerRecord,
    RoundEntry,
    TotalRoundsRecord,
    TrfFile,
    XxaRecord,
    XxpRecord,
    XxzRecord,
)
from pairing.swiss.acceleration import baku
from pairing.swiss.colour import infer_initial_colour
from pairing.swiss.model import SwissInput, SwissPlayer

__all__ = [
    "initial_colour_of_file",
    "only_present",
    "swiss_input_from_trf",
    "swiss_input_with_absent",
]

_BLANK = RoundEntry(None, Colour.NONE, ResultCode.BLANK)
_PARTICIPATED = frozenset({ResultCode.PAB, ResultCode.FORFEIT_WIN})


def _participated(entry: RoundEntry) -> bool:
    return entry.opponent is not None or entry.result in _PARTICIPATED


def _error(
    trf: TrfFile, line: int, column: int, message: str, found: str, expected: str
) -> IngestError:
    return IngestError(trf.path, line, column, message, found=found, expected=expected)


def _scoring(trf: TrfFile) -> Scoring:
    _check_tenths(trf, list(trf.scoring.values()), "scoring")
    return trf.board_scoring


def _check_entry(trf: TrfFile, player: PlayerRecord, index: int, entry: RoundEntry) -> None:
    column = 92 + 10 * index
    if entry.opponent == player.number:
        raise _error(
            trf,
            player.line,
            column,
            "player paired against themself",
            str(entry.opponent),
            "another pairing number",
        )
    if entry.result is ResultCode.UNKNOWN:
        raise _error(
            trf,
            player.line,
            column + 7,
            "unknown result '?' cannot be paired",
            "?",
            "a result code",
        )
    no_game = entry.result in (
        ResultCode.HALF_BYE,
        ResultCode.FULL_BYE,
        ResultCode.PAB,
        ResultCode.ZERO_BYE,
        ResultCode.BLANK,
    )
    if no_game and entry.opponent is not None:
        raise _error(
            trf,
            player.line,
            column,
            f"bye '{entry.result.value}' with an opponent",
            str(entry.opponent),
            "0000",
        )
    if entry.opponent is None and entry.colour is not Colour.NONE:
        raise _error(
            trf, player.line, column + 5, "colour without an opponent", entry.colour.value, "-"
        )
    played = entry.result not in (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS) and not no_game
    if (
        played
        and entry.colour is Colour.NONE
        and not (entry.result is ResultCode.DRAW and entry.opponent is None)
    ):
        raise _error(trf, player.line, column + 5, "game without a colour", "-", "w or b")


def swiss_input_from_trf(trf: TrfFile) -> SwissInput:
    """The pairing input for the round after the last one anybody was paired in.

    :raises IngestError: for inconsistent data (points, opponents, missing XXR/142), naming
        the line and column.
    """
    players = _numbered_players(trf)
    played_rounds = _played_rounds(trf, players)
    total = _total_rounds(trf, played_rounds)
    scoring = _scoring(trf)
    accelerations = _accelerations(trf)
    swiss_players = [
        SwissPlayer(
            number=player.number,
            rating=player.rating or 0,
            history=tuple(
                HistoryEntry(opponent=e.opponent, colour=e.colour, result=e.result)
                for e in player.rounds[:played_rounds]
            ),
            accelerations=tuple(accelerations.get(player.number, ())),
        )
        for player in players
    ]
    _check_points(trf, players, swiss_players, scoring, played_rounds)
    system = (trf.system or "").upper()
    if system.endswith("_BAKU") and not accelerations:
        swiss_players = baku(swiss_players, scoring, total, played_rounds)
    return SwissInput(
        players=tuple(swiss_players),
        rounds_played=played_rounds,
        total_rounds=total,
        initial_colour=_initial_colour(trf, swiss_players),
        scoring=scoring,
        forbidden=_forbidden(trf, played_rounds + 1),
        absent=_absent(trf, players, played_rounds),
    )


def _numbered_players(trf: TrfFile) -> list[PlayerRecord]:
    """The ``001`` records by pairing number, which must run 1..n."""
    players = sorted(trf.players, key=lambda p: p.number)
    if not players:
        raise _error(trf, 0, 0, "no player records", "nothing", "001 lines")
    numbers = [p.number for p in players]
    for expected_number, player in enumerate(players, start=1):
        if player.number != expected_number:
            raise _error(
                trf,
                player.line,
                5,
                "pairing numbers must be 1..n",
                str(player.number),
                str(expected_number),
            )
    if len(set(numbers)) != len(numbers):
        raise _error(trf, 0, 0, "a pairing number is repeated", "duplicates", "unique numbers")
    return players


def _played_rounds(trf: TrfFile, players: list[PlayerRecord]) -> int:
    """Rounds somebody was paired in (every block checked on the way); blocks written for
    the next round by everybody (requested byes) do not make it played."""
    played_rounds = 0
    for player in players:
        for index, entry in enumerate(player.rounds):
            _check_entry(trf, player, index, entry)
            if entry != _BLANK:
                played_rounds = max(played_rounds, index + _participated(entry))
    if all(len(p.rounds) > played_rounds for p in players):
        played_rounds += 1
    return played_rounds


def _total_rounds(trf: TrfFile, played_rounds: int) -> int:
    total = trf.total_rounds
    if total is None:
        raise _error(trf, 0, 0, "total number of rounds missing", "nothing", "an XXR or 142 record")
    if played_rounds >= total:
        raise _error(
            trf,
            0,
            0,
            "all rounds are already paired",
            f"{played_rounds} rounds",
            f"fewer than {total}",
        )
    return total


def _absent(trf: TrfFile, players: list[PlayerRecord], played_rounds: int) -> frozenset[int]:
    """Players with a block already written for the round to pair, or a ``240`` bye in it."""
    absent = {p.number for p in players if len(p.rounds) > played_rounds}
    for record in trf.records:
        if isinstance(record, ByesRecord) and record.round == played_rounds + 1:
            absent.update(record.players)
    return frozenset(absent)


def _forbidden(trf: TrfFile, round_to_pair: int) -> tuple[frozenset[int], ...]:
    """``XXP`` groups, and the ``260`` groups whose rounds include the round to pair."""
    return tuple(
        frozenset(record.players)
        for record in trf.records
        if isinstance(record, XxpRecord)
        or (
            isinstance(record, ForbiddenPairsRecord)
            and record.first_round <= round_to_pair <= record.last_round
        )
    )


def _accelerations(trf: TrfFile) -> dict[int, list[Decimal]]:
    """Fictitious points per player and round from ``XXA`` and ``250`` records."""
    accelerations: dict[int, list[Decimal]] = {}
    for record in trf.records:
        if isinstance(record, XxaRecord):
            accelerations.setdefault(record.player, []).extend(record.points)
        elif isinstance(record, AccelerationRecord):
            for number in range(record.first_player, record.last_player + 1):
                values = accelerations.setdefault(number, [])
                values.extend([Decimal(0)] * (record.last_round - len(values)))
                for round_index in range(record.first_round - 1, record.last_round):
                    values[round_index] = record.game_points
    for values in accelerations.values():
        _check_tenths(trf, values, "acceleration")
    return accelerations


def _check_tenths(trf: TrfFile, values: Sequence[Decimal], what: str) -> None:
    """The engines count points in tenths (as bbpPairings does)."""
    for value in values:
        if (value * 10) != (value * 10).to_integral_value():
            raise _error(
                trf, 0, 0, f"{what} points must be multiples of 0.1", str(value), "like 0.5"
            )


def swiss_input_with_absent(trf: TrfFile) -> SwissInput:
    """As :func:`swiss_input_from_trf`, with the players of ``XXZ`` lines absent too (the
    Dubov engines' convention; bbpPairings ignores the line)."""
    swiss = swiss_input_from_trf(trf)
    xxz = {n for r in trf.records if isinstance(r, XxzRecord) for n in r.players}
    return replace(swiss, absent=swiss.absent | xxz)


def _check_points(
    trf: TrfFile,
    records: list[PlayerRecord],
    players: list[SwissPlayer],
    scoring: Scoring,
    played_rounds: int,
) -> None:
    for record, player in zip(records, players, strict=True):
        if record.points is None:
            continue
        computed = sum((entry_points(e, scoring) for e in player.history), Decimal(0))
        acceleration = (
            player.accelerations[played_rounds]
            if len(player.accelerations) > played_rounds
            else Decimal(0)
        )
        accepted = {computed, computed + acceleration}
        if len(record.rounds) > played_rounds:
            entry = record.rounds[played_rounds]
            extra = entry_points(
                HistoryEntry(opponent=entry.opponent, result=entry.result), scoring
            )
            accepted |= {computed + extra, computed + extra + acceleration}
        if record.points not in accepted:
            raise _error(
                trf,
                record.line,
                81,
                f"points of player {record.number} do not match the results",
                str(record.points),
                str(computed),
            )


def _initial_colour(trf: TrfFile, players: list[SwissPlayer]) -> Colour:
    stated = trf.initial_colour
    if stated is not None:
        return stated
    return infer_initial_colour(players)


def initial_colour_of_file(trf: TrfFile, played: int) -> Colour:
    """The initial colour of a file whose ``played`` rounds are all paired: stated, or read
    back from round 1 as bbpPairings reads it (the input to cut it back before a round)."""
    complete = replace(trf, records=(*trf.records, TotalRoundsRecord("XXR", played + 1)))
    return swiss_input_from_trf(complete).initial_colour


def only_present(swiss: SwissInput, present: AbstractSet[int]) -> SwissInput:
    """The input with everybody not in ``present`` absent too (the checker's re-pairing of a
    played round: whoever the file did not pair in it was absent, as bbpPairings reads it)."""
    absent = {p.number for p in swiss.players if p.number not in present}
    return replace(swiss, absent=swiss.absent | absent)
