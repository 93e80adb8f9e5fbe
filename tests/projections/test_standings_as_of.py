"""Standings as of the last complete round: pairing the next round moves nothing (issue #33.3).

C.07 reads a round's unplayed games only once the round is over; before, a paired round without
results counted as voluntarily unplayed and moved Buchholz, Sonneborn-Berger and the rest. Two
outside sources: every event of the FIDE Dutch corpus (chess/dutch), cut after each round r and
then given round r+1's boards without results, keeps its round-r table; and the tie-break corpus'
cases (chess/tiebreaks, TieBreakServer's values) keep the engine's values when a round is added
and paired after their last one.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from decide.state import TournamentState, evolve, project
from events.schema import Event, ResultCorrected, ResultRecorded, RoundPaired, TournamentCreated
from ingest.trf import parse_trf, trf_to_events
from projections.standings import as_of, standings
from tests.conftest import TESTDATA, require_testdata

CHAIN = ("BH", "BH/C1", "SB", "PS", "ARO", "FB", "AOB", "WIN", "REP", "KS", "DE")
DUTCH = TESTDATA / "chess" / "dutch"
CASES = TESTDATA / "chess" / "tiebreaks" / "cases"


def _table(state: TournamentState) -> list[tuple[object, ...]]:
    return [(r.player, r.rank, r.points, *r.tiebreaks.values()) for r in standings(state, CHAIN)]


def _events(path: Path) -> list[Event]:
    return trf_to_events(parse_trf(path))


def _dutch_files() -> list[str]:
    return sorted(p.name for p in DUTCH.glob("*.trf")) or ["absent.trf"]


@pytest.mark.golden
@pytest.mark.parametrize("name", _dutch_files())
def test_pairing_the_next_round_moves_no_standing(name: str) -> None:
    """Every round r of the event: the table after r equals the table once r+1 is paired."""
    events = _events(require_testdata("chess", "dutch") / name)
    full = project(events)
    for r in range(1, full.last_round):
        before = project(events, at_round=r)
        paired = project(events, at_round=r)
        evolve(paired, next(e for e in events if isinstance(e, RoundPaired) and e.round == r + 1))
        assert paired.last_round == r + 1
        assert paired.complete_round == r
        assert _table(paired) == _table(before), f"{name}: round {r} moved by pairing {r + 1}"
        shown = as_of(paired)
        assert (shown.after, shown.in_play) == (r, (r + 1,))


def _case_ids() -> list[str]:
    ids = sorted(p.stem for p in CASES.glob("o-sw-*.json"))
    return ids[:60] or ["o-sw-001"]


def _one_more_round(events: list[Event]) -> list[Event]:
    """The case with a round added after its last, paired (everyone who played the last round
    again with the same opponent, colours swapped) and without any result."""
    created = next(e for e in events if isinstance(e, TournamentCreated))
    last = max(e.round for e in events if isinstance(e, RoundPaired))
    final = next(e for e in events if isinstance(e, RoundPaired) and e.round == last)
    boards = tuple(
        dataclasses.replace(b, white=b.black, black=b.white)
        for b in final.boards
        if b.black is not None
    )
    boards = tuple(dataclasses.replace(b, board=i) for i, b in enumerate(boards, start=1))
    grown = created.model_copy(update={"rounds": created.rounds * created.cycles + 1, "cycles": 1})
    rest = [e for e in events if e is not created]
    return [grown, *rest, RoundPaired(round=last + 1, boards=boards)]


@pytest.mark.golden
@pytest.mark.parametrize("case_id", _case_ids())
def test_tiebreak_oracle_values_hold_with_a_round_in_play(case_id: str) -> None:
    """TieBreakServer's values of the finished Swiss event, after one more round is paired."""
    folder = require_testdata("chess", "tiebreaks", "cases")
    case = json.loads((folder / f"{case_id}.json").read_text())
    codes = [c for c in case["catalogue"]["codes"] if c in {"BH", "BH/C1", "SB", "PS", "ARO"}]
    index = {c: case["catalogue"]["codes"].index(c) for c in codes}
    events = _events(folder / f"{case_id}.trf")
    state = project(_one_more_round(events))
    assert state.complete_round == state.last_round - 1
    numbers = {pid: p.pairing_number for pid, p in state.players.items()}
    for row in standings(state, codes):
        values = case["catalogue"]["values"][str(numbers[row.player])]
        assert row.points == pytest.approx(float(values[0])), (case_id, row.name)
        for code in codes:
            expected = values[index[code]]
            got = row.tiebreaks[code]
            if expected is None:
                assert got is None, (case_id, row.name, code)
            else:
                assert got == pytest.approx(float(expected)), (case_id, row.name, code)


def _result_of(event: Event, round_no: int) -> bool:
    return isinstance(event, ResultRecorded | ResultCorrected) and event.round == round_no


def test_a_result_of_the_round_in_play_counts_once_the_round_is_over() -> None:
    """Entering a result does not show until the round's last result is in."""
    events = _events(require_testdata("chess", "dutch") / _dutch_files()[0])
    full = project(events)
    last = full.last_round
    unfinished = [e for e in events if not _result_of(e, last)]
    results = [e for e in events if isinstance(e, ResultRecorded) and e.round == last]
    state = project(unfinished)
    before = _table(project(events, at_round=last - 1))
    for e in results[:-1]:
        evolve(state, e)
        assert _table(state) == before
    evolve(state, results[-1])
    assert state.complete_round == last
    assert _table(state) == _table(full)
