"""Seed 462, round 2 (docs/burstein_disputed.md): the reference's Burstein pairing against the
Dutch seeding round that C.04.4.2 (2025 text, 1.6) asks for.

The file (bbpPairings v6.0.0's own tournament) is cut after round 1 as formats.md 2.8 says;
``arbiter-pairings`` pairs round 2 of the cut file with ``--burstein`` as bbpPairings
``--burstein`` did, and with ``--dutch`` as bbpPairings ``--dutch`` and py4swiss ``-e burstein``
did (their outputs, committed beside the file). The two pairings differ on 22 of 25 boards.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).parent.parent / "data" / "generated"
PAIRINGS = str(Path(sys.executable).with_name("arbiter-pairings"))
POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


def _cut_after_round_1(trf: Path, rounds: int, tmp: Path) -> Path:
    """The file as it stood before round 2: one round block, its points, ``XXR``."""
    lines = trf.read_bytes().decode().replace("\r", "\n").split("\n")
    out: list[str] = []
    for line in filter(None, lines):
        if line.startswith("001"):
            block = line[91:101]
            out.append(f"{line[:80]}{POINTS[block.strip()[-1]]:4.1f}{line[84:91]}{block}")
        else:
            out.append(line)
        if line.startswith("012"):
            out.append(f"XXR {rounds}")
    cut = tmp / "cut.trf"
    cut.write_text("\n".join(out) + "\n")
    return cut


def _pair(flag: str, cut: Path) -> str:
    done = subprocess.run(
        [PAIRINGS, flag, str(cut), "-p"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _boards(text: str) -> set[frozenset[str]]:
    return {frozenset(line.split()) for line in text.splitlines()[1:]}


def test_round_2_of_seed_462_burstein_and_the_dutch_seeding_round(tmp_path: Path) -> None:
    cut = _cut_after_round_1(SAMPLE / "burstein-462.trf", 7, tmp_path)
    burstein = _pair("--burstein", cut)
    dutch = _pair("--dutch", cut)
    assert burstein == (SAMPLE / "burstein-462-round2.burstein.txt").read_text()
    assert dutch == (SAMPLE / "burstein-462-round2.dutch.txt").read_text()
    assert len(_boards(burstein)) == len(_boards(dutch)) == 25
    assert len(_boards(dutch) - _boards(burstein)) == 22
