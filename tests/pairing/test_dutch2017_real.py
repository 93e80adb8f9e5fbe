"""Dutch 2017 rules on the real events of chess/real (pairing.md 2.1).

The chess-results events are compared with the pairings published for each round, as in
``test_dutch_real`` (the ``_before_r09`` file cut before round k; players missing from the
published round are absent). Budapest A was paired with 2017-rules software: every round is
reproduced, round 8 included, which the 2025 rules pair differently. The other files are
compared with their own rounds (cut before round k, pair k). Rounds that differ are those where
bbpPairings v5.0.1 differs too (initial colour and late-entry numbering in round 1; lichess'
own handling of late joiners).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pairing.dutch2017 import pair
from tests.conftest import require_testdata
from tests.pairing.corpus import published_rounds_reproduced, real_events

PUBLISHED: dict[str, set[int]] = {
    "budapest_spring_festival_2026_group_a_2200": set(range(1, 10)),
    "budapest_spring_festival_2026_group_b_2250": {2, 3, 4, 5, 6, 7, 8, 9},
    "international_chessopen_graz_2026_a": {2, 3, 5, 6, 7, 8, 9},
    "spring_2026_chesshouse": set(range(1, 10)),
}


@pytest.mark.golden
@pytest.mark.parametrize("event", real_events(PUBLISHED))
def test_published_rounds_reproduced_with_the_2017_rules(event: str) -> None:
    assert published_rounds_reproduced(event, pair) == PUBLISHED[event]


# File -> the rounds the 2017 rules pair otherwise than the file (the same as bbpPairings
# v5.0.1's checker, pairing.md 2.1); with the 2025 rules San Viator also differs in round 7
# and the 2026 bullet event in rounds 6 and 10.
CHECKED = {
    "torneo_san_viator_B_2018_madrid.trf": [1],
    "lichess_swiss_2021.02.20_sniu3bgA_fm-maurizio-brancaleoni-pract.trf": [],
    "lichess_swiss_2026.03.03_7TYuxURK_bullet-increment.trf": [1, 2, 3],
}


@pytest.mark.golden
@pytest.mark.parametrize("name", sorted(CHECKED))
def test_checker_finds_the_rounds_bbppairings_v5_finds(name: str) -> None:
    path = require_testdata("chess", "real", name)
    done = subprocess.run(
        [str(Path(sys.executable).parent / "arbiter-pairings"), "--dutch-2017", str(path), "-c"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    lines = done.stdout.splitlines()
    differing = [
        int(lines[i - 1].rsplit("#", 1)[1])
        for i, line in enumerate(lines)
        if line.startswith("Checker pairings")
    ]
    assert differing == CHECKED[name]
