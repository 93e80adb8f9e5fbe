"""FIDE Team Swiss (C.04.6) speed: random team tournaments of 16, 40 and 100 one-board teams
after 5 rounds (seeded results), the next round paired by ``arbiter-pairings --team``.

Each input is a TRF-2026 team file (``310`` rosters, ``192 FIDE_TEAM_TYPEA_MP_GP``); rounds
1-5 are paired by our own engine. The figure is the wall time of the ``arbiter-pairings``
process (reading the file included) and its CPU seconds (the better figure on the shared
machine). When ``$BBP_TEAM_PAIRINGS`` names the Sharly-Chess
bbpPairings binary (``--team FILE -p``), it pairs the same file in the same run: its wall time
and whether its pairing equals ours.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from events.domain import Colour
from events.team_results import MatchKind, TeamEntry, TeamHistory
from pairing.team import TeamSwissInput, pair

SIZES = (16, 40, 100)
ROUNDS = 5
_SCORE = {"1": (2, Decimal(1)), "=": (1, Decimal("0.5")), "0": (0, Decimal(0))}
_KIND = {2: MatchKind.WIN, 1: MatchKind.DRAW, 0: MatchKind.LOSS}


def _history(mp: int, gp: Decimal, opponent: int, colour: Colour) -> TeamHistory:
    return TeamHistory(
        kind=_KIND[mp], opponent=opponent, colour=colour, match_points=Decimal(mp), game_points=gp
    )


def team_file(teams: int, seed: int, rounds: int = ROUNDS) -> str:
    """A TRF-2026 team file after ``rounds`` rounds of ``rounds + 4`` (results from ``seed``)."""
    rng = random.Random(seed)
    history: dict[int, list[TeamHistory]] = {i: [] for i in range(1, teams + 1)}
    blocks = dict.fromkeys(history, "")
    points = dict.fromkeys(history, Decimal(0))
    for played in range(rounds):
        request = TeamSwissInput(
            teams=tuple(TeamEntry(number=i, history=tuple(h)) for i, h in history.items()),
            rounds_played=played,
            total_rounds=rounds + 4,
        )
        result = pair(request)
        for p in result.pairs:
            code = rng.choice("1=0")
            mp, gp = _SCORE[code]
            other = {"1": "0", "0": "1", "=": "="}[code]
            history[p.white].append(_history(mp, gp, p.black, Colour.WHITE))
            history[p.black].append(_history(2 - mp, 1 - gp, p.white, Colour.BLACK))
            blocks[p.white] += f"  {p.black:>4} w {code}"
            blocks[p.black] += f"  {p.white:>4} b {other}"
            points[p.white] += gp
            points[p.black] += 1 - gp
        if result.pab is not None:
            history[result.pab].append(
                TeamHistory(kind=MatchKind.PAB, match_points=Decimal(1), game_points=Decimal("0.5"))
            )
            blocks[result.pab] += "  0000 - U"
            points[result.pab] += 1
    lines = ["012 bench", "152 W", f"142 {rounds + 4}", "192 FIDE_TEAM_TYPEA_MP_GP"]
    lines.append("362 TW  2.0   TD  1.0   TL  0.0")
    # TRF: name 15-47, rating 49-52, points 81-84, rank 86-89, round 1 from column 92
    lines += [
        f"001 {i:>4}      P{i:<32} 2500{'':28}{points[i]:>4.1f} {i:>4}{blocks[i]}" for i in history
    ]
    lines += [f"310 {i:>3} T{i:<31}{'':33}{i:>4}" for i in history]
    return "\n".join(lines) + "\n"


def _timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of the process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def run() -> dict[str, object]:
    ours_exe = str(Path(sys.executable).with_name("arbiter-pairings"))
    reference = os.environ.get("BBP_TEAM_PAIRINGS")
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for teams in SIZES:
            path = Path(folder) / f"teams_{teams}.trf"
            path.write_text(team_file(teams, seed=teams), encoding="utf-8")
            wall, cpu, ours = _timed([ours_exe, "--team", str(path), "-p"])
            record: dict[str, object] = {
                "arbiter_wall_s": round(wall, 2),
                "arbiter_cpu_s": round(cpu, 2),
            }
            if reference:
                ref_wall, ref_cpu, theirs = _timed([reference, "--team", str(path), "-p"])
                record |= {
                    "reference_wall_s": round(ref_wall, 2),
                    "reference_cpu_s": round(ref_cpu, 2),
                    "same_pairing": ours == theirs,
                }
            else:
                record["reference"] = "not run ($BBP_TEAM_PAIRINGS unset)"
            figures[f"teams_{teams}_round_{ROUNDS + 1}"] = record
    return figures
