"""Carrom criteria of the standings against SoL 5.26's own rankings (carrom/sol/cases).

Every case (Swiss, round robin, knockout) is replayed through the event log; after each round our
points, BUCHOLZ, NETSCORE and TOTSCORE equal SoL's `ranking_after` values for every competitor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from decide.state import project
from events.domain import Board, Game, Outcome, System
from events.schema import Event, PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
from events.scoring import Scoring
from projections.standings import standings
from projections.tiebreaks import TiebreakOptions
from projections.tiebreaks.context import CarromParams
from tests.conftest import TESTDATA, require_testdata

CASES = TESTDATA / "carrom" / "sol" / "cases"
# Knockouts too: they rank by the bracket (tests/cli/test_sol_cases_cli.py), but SoL counts
# their four columns as a Swiss tourney's, every match of the tourney.
NAMES = sorted(p.stem for p in CASES.glob("*.json")) if CASES.exists() else ["missing"]
CHAIN = ["BUCHOLZ", "NETSCORE", "TOTSCORE"]


def events_of(data: dict[str, Any], through: int) -> list[Event]:
    rounds = data["rounds"][:through]
    events: list[Event] = [
        TournamentCreated(
            tournament_id=data["case"],
            name=data["case"],
            game=Game.CARROM,
            system=System.SWISS,
            rounds=max(len(data["rounds"]), 1),
            scoring=Scoring(win=2, draw=1, loss=0),
        )
    ]
    events += [
        PlayerRegistered(player=c["id"], name=c["name"], federation=c["nationality"])
        for c in data["competitors"]
    ]
    for rnd in rounds:
        boards = tuple(
            Board(board=p["board"], white=p["competitor1"], black=p["competitor2"])
            for p in sorted(rnd["pairings"], key=lambda p: p["board"])
        )
        events.append(RoundPaired(round=rnd["round"], boards=boards))
        for r in rnd["results"]:
            if r["competitor2"] is None:
                continue
            s1, s2 = r["score1"], r["score2"]
            outcome = (
                Outcome.WHITE_WINS if s1 > s2 else Outcome.BLACK_WINS if s2 > s1 else Outcome.DRAW
            )
            events.append(
                ResultRecorded(
                    round=rnd["round"],
                    board=r["board"],
                    outcome=outcome,
                    white_score=s1,
                    black_score=s2,
                )
            )
    return events


@pytest.mark.golden
@pytest.mark.parametrize("name", NAMES)
def test_values_match_sol_after_every_round(name: str) -> None:
    path = require_testdata("carrom", "sol", "cases", f"{name}.json")
    data = json.loads(Path(path).read_text())
    options = TiebreakOptions(carrom=CarromParams(phantom_score=data["settings"]["phantomscore"]))
    checked = 0
    for i, rnd in enumerate(data["rounds"], start=1):
        state = project(events_of(data, i))
        ours = {
            r.player: (r.points, *(r.tiebreaks[c] for c in CHAIN))
            for r in standings(state, CHAIN, options=options)
        }
        theirs = {
            r["id"]: (
                float(r["points"]),
                float(r["bucholz"]),
                float(r["netscore"]),
                float(r["totscore"]),
            )
            for r in rnd["ranking_after"]
        }
        assert ours == theirs, f"{name} after round {i}"
        checked += 1
    assert checked == len(data["rounds"])
