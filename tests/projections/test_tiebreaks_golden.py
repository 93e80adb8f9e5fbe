"""C.07 tie-breaks against the FIDE TieBreakServer oracle (chess/tiebreaks) and Held's exercises.

Each case file holds a tournament (TRF-2026) and the engine's values for a catalogue of codes,
the ranks after the event's 212 chain and the ranks after `PTS, DE`. DE values are engine
positions and not portable, so DE is compared through ranks only (README, "Engine behaviour").
The per-code match rates over all cases are asserted against `MIN_RATE`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from decide.state import TournamentState, project
from ingest.trf import parse_trf, trf_to_events
from projections.standings import standings
from projections.tiebreaks import build_context, lookup
from tests.conftest import TESTDATA, require_testdata

CASES = TESTDATA / "chess" / "tiebreaks" / "cases"
HELD = ("chess", "tiebreaks", "held")

# Share of cases in which every player's value matches, per catalogue code (measured: all 1.0).
MIN_RATE: dict[str, float] = {}
DEFAULT_MIN_RATE = 1.0


def _case_ids() -> list[str]:
    ids = sorted(p.stem for p in CASES.glob("*.json"))
    return ids or ["o-sw-001"]  # corpus absent: one id that skips


@cache
def _state(path: Path) -> TournamentState:
    return project(trf_to_events(parse_trf(path)))


def _same(expected: str | None, got: float | None) -> bool:
    if expected is None or got is None:
        return expected is None and got is None
    return abs(float(expected) - got) < 1e-9


@dataclass
class CaseResult:
    codes_ok: dict[str, bool] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    ranks_ok: bool = False
    de_ranks_ok: bool = False


@cache
def _check_case(case_id: str) -> CaseResult:
    folder = require_testdata("chess", "tiebreaks", "cases")
    data: dict[str, Any] = json.loads((folder / f"{case_id}.json").read_text())
    state = _state(folder / f"{case_id}.trf")
    ctx = build_context(state, state.last_round)
    result = CaseResult()
    values: dict[str, list[str | None]] = data["catalogue"]["values"]
    for i, code in enumerate(data["catalogue"]["codes"]):
        if code in {"PTS", "DE"}:
            continue
        got = lookup(code).evaluate(ctx)
        wrong = [s for s, row in values.items() if not _same(row[i], got[int(s)])]
        result.codes_ok[code] = not wrong
        result.mismatches += [f"{code} player {s}: {values[s][i]} != {got[int(s)]}" for s in wrong]
    chain = [c for c in data["tiebreaks"] if c != "PTS"]
    rows = standings(state, chain)
    result.ranks_ok = all(data["ranks"][str(r.player)] == r.rank for r in rows)
    de_rows = standings(state, ["DE"])
    result.de_ranks_ok = all(data["de_ranks"][str(r.player)] == r.rank for r in de_rows)
    return result


@pytest.mark.golden
@pytest.mark.parametrize("case_id", _case_ids())
def test_case_matches_the_oracle(case_id: str) -> None:
    result = _check_case(case_id)
    assert result.mismatches == []
    assert result.ranks_ok, "ranks after the 212 chain differ"
    assert result.de_ranks_ok, "ranks after PTS, DE differ"


@pytest.mark.golden
def test_match_rate_per_code() -> None:
    require_testdata("chess", "tiebreaks", "cases")
    ok: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    ranks = de_ranks = 0
    ids = _case_ids()
    for case_id in ids:
        result = _check_case(case_id)
        for code, good in result.codes_ok.items():
            seen[code] += 1
            ok[code] += good
        ranks += result.ranks_ok
        de_ranks += result.de_ranks_ok
    rates = {code: ok[code] / seen[code] for code in seen}
    report = ", ".join(f"{c} {ok[c]}/{seen[c]}" for c in sorted(seen))
    low = {c: r for c, r in rates.items() if r < MIN_RATE.get(c, DEFAULT_MIN_RATE)}
    assert not low, f"match rates below the floor: {low}; all: {report}"
    assert len(seen) >= 36, report  # every catalogue code of the README is computed
    assert ranks == len(ids)
    assert de_ranks == len(ids)


def _held() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((require_testdata(*HELD) / "held_exercises.json").read_text())
    return data


def _exercise_numbers() -> list[int]:
    path = TESTDATA.joinpath(*HELD, "held_exercises.json")
    if not path.exists():
        return [1]
    return [e["exercise"] for e in json.loads(path.read_text())["exercises"]]


@pytest.mark.golden
@pytest.mark.parametrize("number", _exercise_numbers())
def test_held_exercise(number: int) -> None:
    exercise = next(e for e in _held()["exercises"] if e["exercise"] == number)
    state = _state(require_testdata(*HELD, exercise["file"]))
    code = exercise["tiebreak"]
    if exercise["compare"] == "value":
        got = lookup(code).compute(state, state.last_round)
        for player, expected in exercise["expected"].items():
            assert _same(expected, got[int(player)]), f"player {player}"
    else:
        ranks = {r.player: r.rank for r in standings(state, [code])}
        assert {str(p): ranks[int(p)] for p in exercise["expected"]} == exercise["expected"]


@pytest.mark.golden
@pytest.mark.parametrize("name", ["held_swiss_5.trf", "held_swiss_9.trf", "held_round_robin.trf"])
def test_held_files_full_catalogue(name: str) -> None:
    files = _held()["files"]
    state = _state(require_testdata(*HELD, name))
    ctx = build_context(state, state.last_round)
    catalogue = files[name]["catalogue"]
    for i, code in enumerate(catalogue["codes"]):
        if code in {"PTS", "DE"}:
            continue
        got = lookup(code).evaluate(ctx)
        for player, row in catalogue["values"].items():
            assert _same(row[i], got[int(player)]), f"{code} player {player}"
    de = {str(r.player): r.rank for r in standings(state, ["DE"])}
    assert de == files[name]["de_ranks"]
