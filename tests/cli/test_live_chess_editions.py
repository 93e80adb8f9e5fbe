"""The live path for the Dutch 2017 rules and the Dubov system, on their corpora.

TRF -> ingest -> events -> state -> the engine `arbiter pair` uses -> boards, for every round:
the Dutch 2017 rounds must equal bbpPairings v5.0.1's (chess/dutch2017), the Dubov rounds
where the two reference engines agree must equal them (chess/dubov).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from decide.state import TournamentState, project
from events.domain import System
from events.schema import Event, PlayerWithdrawn, RoundPaired
from ingest.detect import FileFormat
from pipelines.engines.pair import pair_next_round
from pipelines.jobs.ingest import convert
from tests.cli.test_live_swiss_corpus import corpus
from tests.conftest import TESTDATA, require_testdata
from tests.pairing.test_dubov_corpus import AGREED


def states_before_each_round(path: Path) -> list[tuple[TournamentState, RoundPaired]]:
    """For each paired round: the state its pairing started from, and the round as paired."""
    events = convert(path, path.read_bytes(), FileFormat.TRF).events
    out: list[tuple[TournamentState, RoundPaired]] = []
    for target in (e for e in events if isinstance(e, RoundPaired)):
        cut = events.index(target)
        prefix: list[Event] = [
            *events[:cut],
            *(e for e in events if isinstance(e, PlayerWithdrawn) and e.from_round <= target.round),
        ]
        out.append((project(prefix), target))
    return out


def _boards(boards: object) -> list[tuple[int, int | None]]:
    assert isinstance(boards, list | tuple)
    return sorted(((b.white, b.black) for b in boards), key=str)


@pytest.mark.golden
@pytest.mark.parametrize("name", corpus("dutch2017"))
def test_live_dutch_2017_equals_bbppairings_v5(name: str) -> None:
    path = require_testdata("chess", "dutch2017", f"{name}.trf")
    different = []
    for state, target in states_before_each_round(path):
        old = state.settings.pairing_params
        params = old.model_copy(update={"chess": old.chess.model_copy(update={"rules": "2017"})})
        state.settings = state.settings.model_copy(
            update={"system": System.DUTCH, "pairing_params": params}
        )
        if _boards(pair_next_round(state, target.round)) != _boards(target.boards):
            different.append(target.round)
    assert different == [], f"{name}: rounds {different} differ"


def _agreed_rounds() -> dict[str, set[int]]:
    table = TESTDATA / "chess" / "dubov" / "rounds.csv"
    if not table.exists():
        return {"absent": set()}
    agreed: dict[str, set[int]] = {}
    with table.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            rounds = agreed.setdefault(row["tournament"], set())
            if row["status"] in AGREED:
                rounds.add(int(row["round"]))
    return agreed


AGREED_ROUNDS = _agreed_rounds()


@pytest.mark.golden
@pytest.mark.parametrize("name", sorted(AGREED_ROUNDS))
def test_live_dubov_equals_both_references_where_they_agree(name: str) -> None:
    """The history of each file is py4swiss's; rounds the engines agree on are the oracle."""
    path = require_testdata("chess", "dubov", name, "final.trf")
    checked = []
    for state, target in states_before_each_round(path):
        if target.round not in AGREED_ROUNDS[name]:
            continue
        state.settings = state.settings.model_copy(update={"system": System.DUBOV})
        ours = _boards(pair_next_round(state, target.round))
        assert ours == _boards(target.boards), f"{name} round {target.round}"
        checked.append(target.round)
    assert sorted(checked) == sorted(AGREED_ROUNDS[name])
