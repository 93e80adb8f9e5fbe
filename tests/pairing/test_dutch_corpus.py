"""Dutch 2025 against bbpPairings v6 on chess/dutch: cut before round k, pair round k, compare.

Every round of every file is re-paired from the history before it (round 1 included); a
round counts as identical when the boards, the colours and the PAB all agree. All 40 files
match in every round; KNOWN_MISMATCHES would hold floors for files that do not.
"""

from __future__ import annotations

import pytest

from pairing.dutch import pair
from tests.pairing.corpus import corpus_cases, differing_rounds

# Identical rounds reached per file (file stem -> rounds); files not listed must match fully.
KNOWN_MISMATCHES: dict[str, int] = {}
# Files with more players than this run only with -m slow (up to 120 players a file takes
# about 1-3 s; the larger ones 3-50 s each).
FAST_LIMIT = 120


@pytest.mark.golden
@pytest.mark.parametrize("stem", corpus_cases("dutch", FAST_LIMIT))
def test_dutch_rounds_identical_to_bbppairings(stem: str) -> None:
    different, total = differing_rounds("dutch", stem, pair)
    identical = total - len(different)
    print(f"{stem}: {identical}/{total} rounds identical")
    assert identical >= KNOWN_MISMATCHES.get(stem, total)
