"""Go placement criteria against the OpenGotha columns of real h9 tables (go/h9)."""

from __future__ import annotations

import pytest

from decide.state import project
from events.domain import Board, ByeKind, Game, Outcome, System
from events.domain import Colour as StoneColour
from events.schema import (
    ByeGranted,
    Event,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from ingest.go_table import GameResult, GoCell
from ingest.h9 import H9File, parse_h9
from projections.standings import standings
from projections.tiebreaks import TiebreakOptions, build_context, lookup
from tests.conftest import require_testdata

_WHITE_OUTCOME = {
    (GameResult.WIN, GameResult.WIN): Outcome.BOTH_WIN,
    (GameResult.LOSS, GameResult.LOSS): Outcome.BOTH_LOSE,
    (GameResult.WIN, GameResult.LOSS): Outcome.WHITE_WINS,
    (GameResult.LOSS, GameResult.WIN): Outcome.BLACK_WINS,
    (GameResult.DRAW, GameResult.DRAW): Outcome.DRAW,
}
_FORFEIT = {
    Outcome.WHITE_WINS: Outcome.WHITE_WINS_FORFEIT,
    Outcome.BLACK_WINS: Outcome.BLACK_WINS_FORFEIT,
    Outcome.BOTH_LOSE: Outcome.DOUBLE_FORFEIT,
}


def _cell(h9: H9File, number: int, round_no: int) -> GoCell | None:
    player = h9.players[number - 1]
    return player.results[round_no - 1] if round_no <= len(player.results) else None


def h9_events(h9: H9File) -> list[Event]:
    """A test-side replay of an h9 table: `0+` is the bye, `0=` an absence with its bonus."""
    events: list[Event] = [
        TournamentCreated(
            tournament_id="h9", name="h9", game=Game.GO, system=System.MACMAHON, rounds=h9.rounds
        )
    ]
    events += [
        PlayerRegistered(player=p.number, name=" ".join(p.name) or "?", rank=p.rank)
        for p in h9.players
    ]
    for r in range(1, h9.rounds + 1):
        boards: list[tuple[int, int | None, Outcome | None, int]] = []
        seen: set[frozenset[int]] = set()
        for p in h9.players:
            c = _cell(h9, p.number, r)
            if c is None:
                continue
            if c.opponent == 0:
                if c.result is GameResult.WIN:
                    boards.append((p.number, None, None, 0))
                else:
                    kind = ByeKind.HALF if c.result is GameResult.DRAW else ByeKind.ZERO
                    events.append(ByeGranted(player=p.number, round=r, kind=kind))
                continue
            if frozenset((p.number, c.opponent)) in seen:
                continue
            seen.add(frozenset((p.number, c.opponent)))
            other = _cell(h9, c.opponent, r)
            mine_white = c.colour is StoneColour.WHITE or (
                c.colour is None and p.number < c.opponent
            )
            w, b = (p.number, c.opponent) if mine_white else (c.opponent, p.number)
            w_res = c.result if mine_white else (other.result if other else c.result.mirror)
            b_res = (other.result if other else c.result.mirror) if mine_white else c.result
            outcome = _WHITE_OUTCOME.get((w_res, b_res), Outcome.UNKNOWN)
            if c.forfeit:
                outcome = _FORFEIT.get(outcome, outcome)
            boards.append((w, b, outcome, c.handicap or 0))
        if boards:
            events.append(
                RoundPaired(
                    round=r,
                    boards=tuple(
                        Board(board=i, white=w, black=b, handicap=h)
                        for i, (w, b, _, h) in enumerate(boards, start=1)
                    ),
                )
            )
        events += [
            ResultRecorded(round=r, board=i, outcome=o)
            for i, (_, b, o, _) in enumerate(boards, start=1)
            if b is not None and o is not None
        ]
    return events


# file -> the codes of its criteria columns, in order ("" = a column not checked here).
COLUMNS = {
    "opengotha351_Tournoi_de_Juvisy.h9": ("MMS", "SOSM", "SOSOSM"),
    "opengotha351_TournoiChinois.h9": ("MMS", "SOSM", "SOSOSM"),
    "opengotha352_Tournoi_de_Juvisy18h08.h9": ("MMS", "SOSM", "SOSOSM"),
    "opengotha351_ioct_20_02.h9": ("", "NBW", "EXT", "EXR"),
    "honte_kpmc2013.h9": ("", "", "", "NBW"),
    "honte_kpmc2025.h9": ("NBW", "SOSW", "SOSOSW"),
    "honte_mpj2013.h9": ("NBW", "SOSW", "SOSOSW", "DC"),
    "honte_mpj2015.h9": ("NBW", "SOSW", "SOSOSW", "DC"),
}


@pytest.mark.golden
@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_placement_columns_match_opengotha(name: str) -> None:
    h9 = parse_h9(require_testdata("go", "h9", name))
    state = project(h9_events(h9))
    ctx = build_context(state, h9.rounds, TiebreakOptions())
    codes = COLUMNS[name]
    chain = [c for c in codes if c]
    rows = {r.player: r for r in standings(state, chain, h9.rounds)}
    for i, code in enumerate(codes):
        if not code:
            continue
        got = rows if code == "DC" else lookup(code).evaluate(ctx)
        for p in h9.players:
            value = rows[p.number].tiebreaks[code] if code == "DC" else got[p.number]
            assert value == float(p.criteria[i]), f"{code} player {p.number}"


def test_sos_cuts_use_opengotha_names() -> None:
    assert lookup("SOSM-1").code == "SOSM-1"
    assert lookup("sosw/c2").code == "SOSW-2"
