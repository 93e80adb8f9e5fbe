"""Baku acceleration live (issue 35 part 3): `tournament create --accelerate baku` on the Dutch
and Burstein systems pairs every round as bbpPairings v6 pairs the same event.

A 14-player, 7-round event is run through the `arbiter` CLI in subprocesses; results follow a
fixed rule (the lower pairing number wins, a draw where board + round is a multiple of 4).
Before each round the event is exported as TRF (its ``XXA`` records carry the virtual points);
the round arbiter pairs must equal:

* the pairs bbpPairings v6 made from the same export, committed in
  ``tests/data/baku/{system}.txt`` (made by bbpPairings v6.0.0, built from its repository,
  `bbpPairings.exe --dutch|--burstein FILE -p OUT` on each round's export; one line per board,
  ``round white black``, 0 for the bye);
* and, when ``$BBP_PAIRINGS`` names a bbpPairings binary, that binary's pairing of the export
  run now.

The virtual points show in the pairing listing (``virtual_points`` in JSON, ``(+1)`` in text)
and never in the standings; the last export passes our own checker (`arbiter-pairings -c`),
which re-pairs every round from the ``XXA`` records.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli.games_cli import json_outputs
from tests.process import arbiter_run

DATA = Path(__file__).resolve().parent.parent / "data" / "baku"
PLAYERS = 14
ROUNDS = 7
PAIRINGS = str(Path(sys.executable).parent / "arbiter-pairings")


def _ok(store: str, *args: str) -> str:
    done = arbiter_run(store, *args)
    assert done.returncode == 0, f"arbiter {' '.join(args)}: {done.stderr}"
    return done.stdout


def _batch(store: str, script: Path, lines: list[str]) -> list[Any]:
    """Run command lines in one `arbiter batch` process (as a director's script would): the
    JSON documents they printed, in order."""
    script.write_text("\n".join(lines) + "\n")
    return json_outputs(_ok(store, "batch", str(script)))


def _round(store: str, folder: Path, r: int, before: list[str]) -> list[tuple[int, int]]:
    """``before`` (the previous round's results), then: export the event as TRF to
    ``before-{r}.trf``, pair round ``r``, read its boards (start ranks, 0 for the bye)."""
    trf = shlex.quote(str(folder / f"before-{r}.trf"))
    (rows,) = _batch(store, folder / f"round-{r}.txt", [
        *before,
        f"export bk --format trf -o {trf}",
        "pair bk",
        f"pairings bk --round {r} --format json",
    ])  # fmt: skip
    return [
        (row["white"]["start_rank"], row["black"]["start_rank"] if row["black"] else 0)
        for row in rows
    ]


def _results(r: int, boards: list[tuple[int, int]]) -> list[str]:
    """The fixed rule: the lower pairing number wins, a draw where board + round is a
    multiple of 4."""
    return [
        f"result bk {r} {board} "
        + ("1/2-1/2" if (board + r) % 4 == 0 else "1-0" if white < black else "0-1")
        for board, (white, black) in enumerate(boards, start=1)
        if black
    ]


def _reference(trf: Path, system: str) -> list[tuple[int, int]]:
    out = trf.with_suffix(".pairs")
    done = subprocess.run(
        [os.environ["BBP_PAIRINGS"], f"--{system}", str(trf), "-p", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = out.read_text().split()[1:]
    return [(int(a), int(b)) for a, b in zip(lines[::2], lines[1::2], strict=True)]


def _committed(system: str) -> dict[int, list[tuple[int, int]]]:
    rounds: dict[int, list[tuple[int, int]]] = {}
    for line in (DATA / f"{system}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            r, white, black = map(int, line.split())
            rounds.setdefault(r, []).append((white, black))
    return rounds


def _sorted(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted(pairs)


@pytest.mark.parametrize("system", ["dutch", "burstein"])
def test_baku_pairs_as_bbppairings(system: str, tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    expected = _committed(system)
    live = bool(os.environ.get("BBP_PAIRINGS"))
    lines = [
        f"tournament create --name 'Baku Open' --id bk --system {system} --rounds {ROUNDS} "
        "--accelerate baku --initial-colour white",
        *(f"player add bk --name 'P{i:02}, X' --rating {2400 - 20 * i}"
          for i in range(1, PLAYERS + 1)),
    ]  # fmt: skip
    for r in range(1, ROUNDS + 1):
        ours = _round(store, tmp_path, r, lines)
        assert _sorted(ours) == _sorted(expected[r]), f"round {r}"
        if live:
            trf = tmp_path / f"before-{r}.trf"
            assert _sorted(ours) == _sorted(_reference(trf, system)), f"round {r} (live)"
        lines = _results(r, ours)

    final = tmp_path / "final.trf"
    last, standings = _batch(store, tmp_path / "final.txt", [
        *lines,
        f"pairings bk --round {ROUNDS} --format json",
        "standings bk --format json",
        f"export bk --format trf -o {shlex.quote(str(final))}",
    ])  # fmt: skip
    text = _ok(store, "pairings", "bk", "--round", "1")
    assert "P01, X (+1)" in text
    assert "P14, X (+" not in text
    assert all("virtual_points" not in seat for row in last for seat in (row["white"],))
    assert sum(row["points"] for row in standings) == ROUNDS * PLAYERS / 2  # no virtual point
    assert sum(line.startswith("XXA") for line in final.read_text().splitlines()) == PLAYERS // 2
    done = subprocess.run(
        [PAIRINGS, f"--{system}", str(final), "-c"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
