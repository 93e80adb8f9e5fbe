"""Burstein against bbpPairings on chess/burstein: cut before round k, pair round k, compare.

Every round of every file is re-paired from the history before it (round 1 included); boards,
colours and the PAB must all agree. The files have no XXA line, so the Burstein acceleration of
rounds 1 and 2 applies.
"""

from __future__ import annotations

import pytest

from pairing.burstein import engine, pair
from pairing.swiss import SwissInput, SwissPlayer
from tests.pairing.corpus import corpus_cases, differing_rounds

# Files with more players than this run only with -m slow (the largest, 250 players, takes
# about 2 s since the matcher solves components apart).
FAST_LIMIT = 250


@pytest.mark.golden
@pytest.mark.parametrize("stem", corpus_cases("burstein", FAST_LIMIT))
def test_burstein_rounds_identical_to_bbppairings(stem: str) -> None:
    different, _ = differing_rounds("burstein", stem, pair)
    assert different == []


# The engine proves most decisions without a solve (pairing.burstein.chain and .certificate);
# with every proof refused it solves each one, as before: both must pair as bbpPairings does.
SOLVED_LIMIT = 64


@pytest.mark.golden
@pytest.mark.parametrize("stem", corpus_cases("burstein", SOLVED_LIMIT))
def test_burstein_by_solves_alone_identical_to_bbppairings(
    stem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "pair_chain", lambda *_: None)
    monkeypatch.setattr(engine, "decide_greedily", lambda *_: None)
    different, _ = differing_rounds("burstein", stem, pair)
    assert different == []


def test_odd_field_gives_the_pab_to_the_lowest_player() -> None:
    swiss = SwissInput(
        players=tuple(SwissPlayer(number=i, rating=2000 - i) for i in range(1, 6)),
        rounds_played=0,
        total_rounds=3,
    )
    result = pair(swiss)
    assert result.pab == 5
    assert sorted(n for board in result.boards for n in board) == [1, 2, 3, 4]
