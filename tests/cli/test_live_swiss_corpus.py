"""The live path on the bbpPairings corpora: TRF -> ingest -> events -> state -> engine -> boards.

For each file and round k, the tournament's events up to the pairing of round k (plus the
withdrawals that apply) are folded into state, and the engine that `arbiter pair` uses pairs
round k. The boards (white, black, PAB) must equal the reference engine's round k.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from decide.state import project
from events.domain import System
from events.schema import Event, PlayerWithdrawn, RoundPaired
from ingest.detect import FileFormat
from pipelines.engines.pair import pair_next_round
from pipelines.jobs.ingest import convert
from tests.conftest import TESTDATA, require_testdata

# Files small enough to pair every round quickly; the engines' own corpus tests cover all.
MAX_PLAYERS = 120


def corpus(folder: str) -> list[str]:
    path = TESTDATA / "chess" / folder
    if not path.exists():
        return ["missing"]
    names = []
    for f in sorted(path.glob("*.trf")):
        players = int(f.stem.split("_p")[1].split("_")[0]) if "_p" in f.stem else 0
        if players <= MAX_PLAYERS:
            names.append(f.stem)
    return names


def rounds_identical(path: Path, system: System) -> tuple[int, int]:
    data = path.read_bytes()
    events = convert(path, data, FileFormat.TRF).events
    paired = [e for e in events if isinstance(e, RoundPaired)]
    matched = 0
    for target in paired:
        cut = events.index(target)
        prefix: list[Event] = [
            *events[:cut],
            *(e for e in events if isinstance(e, PlayerWithdrawn) and e.from_round <= target.round),
        ]
        state = project(prefix)
        state.settings = state.settings.model_copy(update={"system": system})
        boards = pair_next_round(state, target.round)
        ours = [(b.white, b.black) for b in boards]
        theirs = [(b.white, b.black) for b in target.boards]
        matched += sorted(ours, key=str) == sorted(theirs, key=str)
    return matched, len(paired)


@pytest.mark.golden
@pytest.mark.parametrize("name", corpus("dutch"))
def test_live_dutch_equals_reference(name: str) -> None:
    path = require_testdata("chess", "dutch", f"{name}.trf")
    matched, total = rounds_identical(path, System.DUTCH)
    assert matched == total, f"{name}: {matched}/{total} rounds identical"


@pytest.mark.golden
@pytest.mark.parametrize("name", corpus("burstein"))
def test_live_burstein_equals_reference(name: str) -> None:
    path = require_testdata("chess", "burstein", f"{name}.trf")
    matched, total = rounds_identical(path, System.BURSTEIN)
    assert matched == total, f"{name}: {matched}/{total} rounds identical"
