"""Dutch 2017 rules against bbpPairings v5.0.1 on chess/dutch2017: cut before round k, pair k.

Every round of every file is re-paired from the history before it (round 1 included); a
round counts as identical when the boards, the colours and the PAB all agree with the file.
"""

from __future__ import annotations

import pytest

from pairing.dutch2017 import pair
from tests.pairing.corpus import corpus_cases, differing_rounds

# Files with more players than this run only with -m slow (the largest take about a minute).
FAST_LIMIT = 120


@pytest.mark.golden
@pytest.mark.parametrize("stem", corpus_cases("dutch2017", FAST_LIMIT))
def test_dutch2017_rounds_identical_to_bbppairings_v5(stem: str) -> None:
    different, _ = differing_rounds("dutch2017", stem, pair)
    assert different == [], f"{stem}: rounds {different} differ from bbpPairings v5.0.1"
