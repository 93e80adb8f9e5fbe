"""TRF → events: replay a parsed Tournament Report File as the events of a live tournament.

The TRF keeps one line per player with a block per round; a live tournament appends
registrations, requested byes, pairings and results. `trf_to_events` rebuilds that stream, so
standings, crosstables and exports of an imported file go through the same projections as an
event run in arbiter.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from events.domain import Board, ByeKind, Colour, Game, Outcome, System
from events.params import ChessSettings, PairingParams
from events.result_codes import ResultCode
from events.schema import (
    ByeGranted,
    Event,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.scoring import Scoring
from events.team_results import DEFAULT_CHAIN
from ingest.dates import parse_header_date
from ingest.errors import IngestError
from ingest.trf.records import (
    XXS_FIELDS,
    HeaderRecord,
    InPlayRecord,
    PlayerRecord,
    RoundEntry,
    TieBreakRecord,
    TrfFile,
    XxsRecord,
)
from ingest.trf.team_events import team_settings_from_trf, trf_team_events
from ingest.trf.teams import is_team_file

__all__ = ["trf_scoring", "trf_system", "trf_to_events"]

_REQUESTED_BYES: dict[ResultCode, ByeKind] = {
    ResultCode.HALF_BYE: ByeKind.HALF,
    ResultCode.FULL_BYE: ByeKind.FULL,
    ResultCode.ZERO_BYE: ByeKind.ZERO,
    ResultCode.FORFEIT_LOSS: ByeKind.ZERO,  # "0000 - -": absent without an opponent
    ResultCode.FORFEIT_WIN: ByeKind.FULL,  # "0000 - +": a win without an opponent
    ResultCode.WIN: ByeKind.FULL,
    ResultCode.DRAW: ByeKind.HALF,
    ResultCode.LOSS: ByeKind.ZERO,
}

_DECLARED_FIELDS = {
    "W": "win",
    "D": "draw",
    "L": "loss",
    "Z": "zero_bye",
    "F": "forfeit_loss",
    "U": "pairing_bye",
}


@dataclass(frozen=True, slots=True)
class _Game:
    round: int
    white: int
    black: int
    outcome: Outcome | None  # None: paired, no result yet


def trf_scoring(trf: TrfFile) -> Scoring:
    """The point values the file declares (162, BB*, XXS), else chess 1/½/0.

    TRF-2026 `W` also values forfeit wins and full-point byes, `D` half-point byes, `A`
    zero-point byes and forfeit losses, `P` the pairing-allocated bye (default `W`).
    """
    fields = {
        _DECLARED_FIELDS[code]: float(value)
        for code, value in trf.scoring.items()
        if code in _DECLARED_FIELDS
    }
    for record in trf.records:
        if isinstance(record, XxsRecord):
            for code, value in record.values:
                name = XXS_FIELDS.get(code)
                if name is not None:
                    fields[name] = float(value)
    return Scoring.model_validate(fields)


def trf_system(trf: TrfFile) -> tuple[System, int]:
    """The pairing system and the number of cycles (2 for a double round robin)."""
    texts = [(trf.header("092") or ""), (trf.header("192") or ""), (trf.system or "")]
    joined = " ".join(texts).casefold().replace("_", " ")
    if "round robin" in joined or "roundrobin" in joined or "berger" in joined:
        return System.ROUNDROBIN, 2 if "double" in joined else 1
    if "burstein" in joined:
        return System.BURSTEIN, 1
    if "dubov" in joined:
        return System.DUBOV, 1
    if not joined.strip() and _looks_like_round_robin(trf):
        return System.ROUNDROBIN, 1
    return System.DUTCH, 1


def _looks_like_round_robin(trf: TrfFile) -> bool:
    """No stated system, one player more than rounds, and everyone met everyone."""
    players = trf.players
    rounds = trf.total_rounds or max((len(p.rounds) for p in players), default=0)
    if len(players) != rounds + 1:
        return False
    return all(
        len({e.opponent for e in p.rounds if e.opponent is not None}) == rounds for p in players
    )


def _tiebreak_chain(trf: TrfFile) -> tuple[str, ...]:
    """Record 212 without its leading PTS, else record 202."""
    chains = {r.code: r.chain for r in trf.records if isinstance(r, TieBreakRecord)}
    if "212" in chains:
        return tuple(c for c in chains["212"] if c.upper() != "PTS")
    return chains.get("202", ())


def _headers(trf: TrfFile, code: str) -> tuple[str, ...]:
    """The texts of every header record with ``code`` (``112``: one per deputy arbiter)."""
    found = (r.text.strip() for r in trf.records if isinstance(r, HeaderRecord) and r.code == code)
    return tuple(text for text in found if text)


def round_dates(text: str, rounds: int) -> dict[int, dt.date]:
    """``132``'s dates, each above its round's block: round r at columns 92 + 10(r-1) to
    99 + 10(r-1) of the line (``text`` starts at column 5). A cell that is no date is left out.

    >>> round_dates(" " * 87 + "26/03/01            26/03/03", 3)
    {1: datetime.date(2026, 3, 1), 3: datetime.date(2026, 3, 3)}
    """
    out = {}
    cells = max(0, (len(text) - 87 + 9) // 10)  # the line's own length bounds the work
    for r in range(1, min(rounds, cells) + 1):
        start = 87 + 10 * (r - 1)
        day = parse_header_date(text[start : start + 8].strip())
        if day is not None:
            out[r] = day
    return out


def _opt(text: str) -> str | None:
    return text or None


def _register(p: PlayerRecord) -> PlayerRegistered:
    return PlayerRegistered(
        player=p.number,
        name=p.name or f"Player {p.number}",
        rating=p.rating or None,
        federation=_opt(p.federation),
        title=_opt(p.title),
        sex=_opt(p.sex),
        birth=_opt(p.birth_date),
        fide_id=_opt(p.fide_id) if p.fide_id not in {"0", ""} else None,
        pairing_number=p.number,
    )


def _entry(p: PlayerRecord, round_no: int) -> RoundEntry | None:
    return p.rounds[round_no - 1] if round_no <= len(p.rounds) else None


def _board_outcome(white: RoundEntry | None, black: RoundEntry | None) -> Outcome | None:
    """The outcome from the white player's code; the black entry only decides between a
    one-sided and a double forfeit, or speaks when white's says nothing."""
    outcome = white.result.white_outcome if white is not None else None
    if outcome is not None:
        if (
            outcome is Outcome.BLACK_WINS_FORFEIT
            and black is not None
            and black.result is ResultCode.FORFEIT_LOSS
        ):
            return Outcome.DOUBLE_FORFEIT
        return outcome
    seen_by_black = black.result.white_outcome if black is not None else None
    return None if seen_by_black is None else seen_by_black.mirror


def _games(trf: TrfFile, by_number: dict[int, PlayerRecord]) -> list[_Game]:
    """Each game once, from whichever side states colours; the other side only confirms."""
    seen: set[tuple[int, int, int]] = set()
    games: list[_Game] = []
    for p in trf.players:
        for round_no, entry in enumerate(p.rounds, start=1):
            opp = entry.opponent
            if opp is None or opp == p.number:
                continue
            key = (round_no, min(p.number, opp), max(p.number, opp))
            if key in seen:
                continue
            if opp not in by_number:
                raise IngestError(
                    trf.path,
                    p.line,
                    92 + 10 * (round_no - 1),
                    f"round {round_no}: unknown opponent",
                    found=str(opp),
                    expected="the pairing number of a 001 record",
                )
            seen.add(key)
            other = _entry(by_number[opp], round_no)
            if other is not None and other.opponent != p.number:
                other = None  # the opponent's line disagrees; trust this side
            w_entry: RoundEntry | None
            b_entry: RoundEntry | None
            if entry.colour is Colour.BLACK or (
                entry.colour is Colour.NONE and other is not None and other.colour is Colour.WHITE
            ):
                white, black, w_entry, b_entry = opp, p.number, other, entry
            elif entry.colour is Colour.WHITE:
                white, black, w_entry, b_entry = p.number, opp, entry, other
            else:  # no colours on either side (forfeits): lower number first
                first = min(p.number, opp)
                white, black = first, max(p.number, opp)
                w_entry, b_entry = (entry, other) if first == p.number else (other, entry)
            games.append(_Game(round_no, white, black, _board_outcome(w_entry, b_entry)))
    return games


def _round_boards(
    games: Iterable[_Game], pabs: Iterable[int], points: dict[int, float]
) -> list[tuple[int, int | None, Outcome | None]]:
    """Games by the higher score of the pair, then white's start number; PABs last."""

    def key(g: _Game) -> tuple[float, float, int]:
        w, b = points.get(g.white, 0.0), points.get(g.black, 0.0)
        return (-max(w, b), -(w + b), g.white)

    ordered = sorted(games, key=key)
    rows: list[tuple[int, int | None, Outcome | None]] = [
        (g.white, g.black, g.outcome) for g in ordered
    ]
    rows.extend((pid, None, None) for pid in sorted(pabs))
    return rows


def _in_play_events(
    trf: TrfFile, boards: Sequence[InPlayRecord], known: dict[int, PlayerRecord]
) -> list[Event]:
    """The round in play (``BRD`` records): paired as listed, with the results entered."""
    out: list[Event] = []
    for b in boards:
        for column, number in ((14, b.white), (19, b.black)):
            if number is not None and number not in known:
                raise IngestError(
                    trf.path,
                    b.line,
                    column,
                    f"round {b.round} board {b.board}: unknown player",
                    found=str(number),
                    expected="the pairing number of a 001 record",
                )
    for round_no in sorted({b.round for b in boards}):
        listed = sorted((b for b in boards if b.round == round_no), key=lambda b: b.board)
        paired = tuple(Board(board=b.board, white=b.white, black=b.black) for b in listed)
        out.append(RoundPaired(round=round_no, boards=paired))
        for b in listed:
            if b.black is None or b.white_result is None:
                continue
            white = RoundEntry(b.black, Colour.WHITE, b.white_result)
            black = (
                None
                if b.black_result is None
                else RoundEntry(b.white, Colour.BLACK, b.black_result)
            )
            outcome = _board_outcome(white, black)
            if outcome is not None:
                out.append(ResultRecorded(round=round_no, board=b.board, outcome=outcome))
    return out


def _total_rounds(trf: TrfFile, played_rounds: int) -> int:
    declared = trf.total_rounds
    return max(declared or 0, played_rounds, 1)


def _pairing_params(trf: TrfFile) -> PairingParams:
    """What a Swiss engine needs beyond the games: the top seed's colour in round 1, and the
    edition of the Dutch rules when the file names the 2017 one (``FIDE_DUTCH_2017``); for a
    team file, the team settings."""
    rules = "2017" if "DUTCH_2017" in (trf.system or "").upper() else None
    chess = ChessSettings(initial_colour=trf.initial_colour, rules=rules)
    if is_team_file(trf):
        return PairingParams(chess=chess, team=team_settings_from_trf(trf))
    return PairingParams(chess=chess)


def trf_to_events(trf: TrfFile, tournament_id: str | None = None) -> list[Event]:
    """The event stream of a parsed TRF: created, registrations, byes, pairings, results.

    :raises IngestError: when a round block names an opponent without a 001 record.
    """
    players = trf.players  # a property that filters the records: taken once
    by_number = {p.number: p for p in players}
    numbered = sorted(players, key=lambda p: p.number)
    scoring = trf_scoring(trf)
    system, cycles = trf_system(trf)
    team = is_team_file(trf)
    if team:
        system, cycles = System.TEAM_SWISS, 1
    games = _games(trf, by_number)
    last_round = max((len(p.rounds) for p in players), default=0)
    in_play = [r for r in trf.records if isinstance(r, InPlayRecord)]
    rounds = _total_rounds(trf, max([last_round, *(b.round for b in in_play)]))
    if cycles == 2 and rounds % 2:
        cycles = 1
    name = trf.header("012") or Path(trf.path).stem
    events: list[Event] = [
        TournamentCreated(
            tournament_id=tournament_id or Path(trf.path).stem,
            name=name.strip() or Path(trf.path).stem,
            game=Game.CHESS,
            system=system,
            rounds=rounds // cycles,
            cycles=cycles,
            scoring=scoring,
            tiebreaks=_tiebreak_chain(trf) if not team else DEFAULT_CHAIN,
            start_date=parse_header_date(trf.header("042")),
            end_date=parse_header_date(trf.header("052")),
            city=_opt((trf.header("022") or "").strip()),
            federation=_opt((trf.header("032") or "").strip()),
            chief_arbiter=_opt((trf.header("102") or "").strip()),
            deputy_arbiters=_headers(trf, "112"),
            time_control=_opt((trf.header("122") or "").strip()),
            round_dates=round_dates(trf.header("132") or "", rounds),
            pairing_params=_pairing_params(trf),
        )
    ]
    events.extend(_register(p) for p in numbered)
    if team:
        events.extend(trf_team_events(trf))

    games_by_round: dict[int, list[_Game]] = {}
    for g in games:
        games_by_round.setdefault(g.round, []).append(g)
    points: dict[int, float] = {}
    for round_no in range(1, last_round + 1):
        pabs: list[int] = []
        for p in players:
            entry = _entry(p, round_no)
            if entry is None or entry.opponent is not None:
                continue
            if entry.result is ResultCode.PAB:
                pabs.append(p.number)
            elif entry.result in _REQUESTED_BYES:
                kind = _REQUESTED_BYES[entry.result]
                events.append(ByeGranted(player=p.number, round=round_no, kind=kind))
                points[p.number] = points.get(p.number, 0.0) + scoring.for_bye(kind)
        round_games = games_by_round.get(round_no, [])
        if not round_games and not pabs:
            continue
        rows = _round_boards(round_games, pabs, points)
        boards = tuple(
            Board(board=i, white=white, black=black)
            for i, (white, black, _) in enumerate(rows, start=1)
        )
        events.append(RoundPaired(round=round_no, boards=boards))
        for i, (white, black, outcome) in enumerate(rows, start=1):
            if black is None:
                points[white] = points.get(white, 0.0) + scoring.for_bye(ByeKind.PAIRING)
                continue
            if outcome is None:
                continue
            events.append(ResultRecorded(round=round_no, board=i, outcome=outcome))
            split = scoring.for_game(outcome)
            if split is not None:
                points[white] = points.get(white, 0.0) + split[0]
                points[black] = points.get(black, 0.0) + split[1]

    events.extend(_in_play_events(trf, in_play, by_number))
    paired_through = max((g.round for g in games), default=0)
    for p in numbered:
        if p.rounds and len(p.rounds) < paired_through:
            events.append(PlayerWithdrawn(player=p.number, from_round=len(p.rounds) + 1))
    return events
