"""SoL 5.26 reference runs (../shared/testdata/carrom/sol/cases), round by round.

For every round: the pairings (board, competitor 1, competitor 2), the order SoL created them,
and SoL's ranking after the round (points, bucholz, netscore, totscore). Round 1 of an unrated
Swiss is SoL's random draw; the generator seeded Python's ``random`` with seed*1000 + round,
so our draw with the same seed reproduces it. ``rr_seeds_6`` must stop where SoL stopped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pairing.sol import (
    SolCompetitor,
    SolError,
    SolMatch,
    SolParams,
    SolTourney,
    pair,
    ranking,
    standings,
)
from tests.conftest import require_testdata

CASES = sorted(
    [
        *(f"{m}_{s}" for m in ("serial", "dazed") for s in ("7", "10", "13", "16_rating")),
        *(f"{m}_17_rating_delaytop3" for m in ("serial", "dazed")),
        *(f"{m}_{s}" for m in ("serial", "dazed") for s in ("24_compat1", "25_compat3")),
        *(
            f"{m}_{s}"
            for m in ("serial", "dazed")
            for s in ("32_rating_compat2", "41_rating_compat1")
        ),
        "staggered_20",
        "staggered_60",
        "staggered_61",
        "staggered_63_rating_compat1",
        "staggered_64_rating",
        "rr_seeds_6",
        "rr_seeds_7",
        "rr_seeds_8",
        "rr_seeds_10_rating",
        "rr_circle_6",
        "rr_circle_11_noseed",
        "rr_circle_12_rating",
        "ko_seeds_8",
        "ko_seeds_16",
        "ko_seeds_16_rating",
        "ko_seeds_32_rating",
    ]
)
# Two 64-player knockouts run through SoL 5.26 itself (tests/data/sol, README there).
OURS = Path(__file__).parent.parent / "data" / "sol"
OUR_CASES = ["ko_seeds_64", "ko_seeds_64_rating"]


def _load(name: str) -> dict[str, Any]:
    ours = OURS / f"{name}.json"
    path: Path = (
        ours if ours.exists() else require_testdata("carrom", "sol", "cases", f"{name}.json")
    )
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _competitors(data: dict[str, Any]) -> tuple[SolCompetitor, ...]:
    # names are "First Last"; SoL sorts by (last name, first name)
    return tuple(
        SolCompetitor(
            id=c["id"],
            name=" ".join(reversed(c["name"].split())),
            nationality=c["nationality"],
            rate=c["rating"],
            position=c["position"],
        )
        for c in data["competitors"]
    )


def _params(settings: dict[str, Any]) -> SolParams:
    return SolParams(
        system=settings["system"],
        couplings=settings["couplings"],
        rated=settings["rating"],
        delaytoppairing=settings["delaytoppairing"],
        delaycompatriotpairing=settings["delaycompatriotpairing"],
        phantomscore=settings["phantomscore"],
    )


@pytest.mark.golden
@pytest.mark.parametrize("name", CASES + OUR_CASES)
def test_rounds_and_rankings_match_sol(name: str) -> None:
    data = _load(name)
    settings = data["settings"]
    competitors, params = _competitors(data), _params(settings)
    matches: list[SolMatch] = []
    for rnd in data["rounds"]:
        tourney = SolTourney(competitors=competitors, matches=tuple(matches))
        got = pair(tourney, params, random_seed=settings["seed"] * 1000 + rnd["round"])
        reference = sorted(rnd["pairings"], key=lambda p: p["creation_index"])
        assert [(p.board, p.competitor1, p.competitor2) for p in got.pairings] == [
            (p["board"], p["competitor1"], p["competitor2"]) for p in reference
        ], f"{name} round {rnd['round']}"
        matches.extend(
            SolMatch(
                round=rnd["round"],
                board=r["board"],
                competitor1=r["competitor1"],
                competitor2=r["competitor2"],
                score1=r["score1"],
                score2=r["score2"],
            )
            for r in rnd["results"]
        )
        tourney = SolTourney(competitors=competitors, matches=tuple(matches))
        table = standings(tourney, params)
        ours = [
            (cid, table[cid].points, table[cid].bucholz, table[cid].netscore, table[cid].totscore)
            for cid in ranking(tourney, params)
        ]
        theirs = [
            (r["id"], r["points"], r["bucholz"], r["netscore"], r["totscore"])
            for r in rnd["ranking_after"]
        ]
        assert ours == theirs, f"{name} ranking after round {rnd['round']}"
    if data["stopped"]:
        with pytest.raises(SolError, match="no more possible combinations"):
            pair(SolTourney(competitors=competitors, matches=tuple(matches)), params)


def test_cases_cover_every_reference_file() -> None:
    root: Path = require_testdata("carrom", "sol", "cases")
    assert sorted(p.stem for p in root.glob("*.json")) == CASES
    assert sorted(p.stem for p in OURS.glob("*.json")) == OUR_CASES
