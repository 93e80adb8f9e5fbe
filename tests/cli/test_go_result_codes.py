"""Go results kept as typed, through `arbiter` in a subprocess on a go event.

``B+R`` (resignation) and ``W+T`` (time) are shown so by `pairings` (text and JSON) and in the
messages of `result`; a result already entered is named in the go code (``B+R``, not ``0-1``)
when the command asks for ``--correct``; a margin stays ``W+5.5``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ARBITER = str(Path(sys.executable).parent / "arbiter")


def arbiter(store: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [ARBITER, "--store", str(store), *args],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done


def test_go_codes_as_typed(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    setup = tmp_path / "setup.txt"  # the event and its round 1 in one `arbiter batch` process
    setup.write_text("\n".join([
        "tournament create --name Go --id g --game go --system macmahon --rounds 3",
        *(f"player add g --name 'N{rank}, X' --rank {rank}"
          for rank in ("3d", "1k", "2k", "5k", "6k", "8k")),
        "pair g",
    ]) + "\n")  # fmt: skip
    arbiter(store, "batch", str(setup))
    entered = [arbiter(store, "result", "g", "1", str(b), r).stderr.strip()
               for b, r in ((1, "B+R"), (2, "W+T"), (3, "W+5.5"))]  # fmt: skip
    assert entered == [
        "round 1 board 1: B+R recorded",
        "round 1 board 2: W+T recorded",
        "round 1 board 3: W+5.5 recorded",
    ]
    boards = json.loads(arbiter(store, "pairings", "g", "-f", "json").stdout)
    assert [b["result"] for b in boards] == ["B+R", "W+T", "W+5.5"]
    text = arbiter(store, "pairings", "g").stdout.splitlines()
    for line, code in zip(text[1:], ("B+R", "W+T", "W+5.5"), strict=True):
        assert code in line.split(), line

    again = arbiter(store, "result", "g", "1", "1", "W+R", code=1)
    assert again.stderr.strip() == (
        "error: g: round 1 board 1 already has result B+R; use --correct to change it"
    )
    corrected = arbiter(store, "result", "g", "1", "1", "W+R", "--correct")
    assert corrected.stderr.strip() == "round 1 board 1: W+R corrected"
    boards = json.loads(arbiter(store, "pairings", "g", "-f", "json").stdout)
    assert boards[0]["result"] == "W+R"
