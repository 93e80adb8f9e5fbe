"""Dutch 2017 rules against bbpPairings v5.0.1 on chess/dutch2017: cut before round k, pair k.

Every round of every file is re-paired from the history before it (round 1 included); a
round counts as identical when the boards, the colours and the PAB all agree with the file.
"""

from __future__ import annotations

import pytest

from ingest.trf import cut_before_round, parse_trf
from pairing.dutch2017 import pair
from pipelines.engines.swiss_from_trf import swiss_input_from_trf
from tests.conftest import require_testdata
from tests.pairing.test_dutch_corpus import _initial_colour, corpus_cases, played_round

# Files with more players than this run only with -m slow (the largest take about a minute).
FAST_LIMIT = 120


@pytest.mark.golden
@pytest.mark.parametrize("stem", corpus_cases("dutch2017", FAST_LIMIT))
def test_dutch2017_rounds_identical_to_bbppairings_v5(stem: str) -> None:
    trf = parse_trf(require_testdata("chess", "dutch2017", f"{stem}.trf"))
    total = max(len(p.rounds) for p in trf.players)
    colour = _initial_colour(trf, total)
    different = []
    for k in range(1, total + 1):
        result = pair(swiss_input_from_trf(cut_before_round(trf, k, total, colour)))
        if (set(result.boards), result.pab) != played_round(trf, k):
            different.append(k)
    assert different == [], f"{stem}: rounds {different} differ from bbpPairings v5.0.1"
