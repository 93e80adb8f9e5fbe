"""Standings while a round is in play, through `arbiter standings` and a real `arbiter serve`.

Mario Held's C.07 exercise tournament after 5 rounds (chess/tiebreaks/held, with one round more
declared so that a sixth can be paired): the values TieBreakServer gives for it, which reproduce
the exercises' published answers, are what `arbiter standings` prints before round 6 is paired
and still prints after (issue #33.3); stderr, the API's tournament object and the public page say
"after round 5 of 6, round 6 in play".
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.conftest import require_testdata
from tests.web.serving import serve

BIN = Path(os.environ.get("VIRTUAL_ENV", "") or Path(__file__).parents[2] / ".venv") / "bin"
CODES = ("BH", "BH/C1", "BH/M1", "SB", "PS", "ARO", "AOB")  # FB reads the declared last round
CAPTION = "after round 5 of 6, round 6 in play"


def arbiter(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(BIN / "arbiter"), "--store", str(store), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (args, done.stderr)
    return done


def _expected() -> dict[str, list[str]]:
    """Start rank -> points and the CODES values, as TieBreakServer printed them."""
    folder = require_testdata("chess", "tiebreaks", "held")
    files = json.loads((folder / "held_exercises.json").read_text())["files"]
    catalogue = files["held_swiss_5.trf"]["catalogue"]
    at = [catalogue["codes"].index(c) for c in ("PTS", *CODES)]
    return {n: [values[i] for i in at] for n, values in catalogue["values"].items()}


def _as_printed(table: dict[str, list[float]], like: dict[str, list[str]]) -> dict[str, list[str]]:
    """Our values with the engine's decimals (ARO as an integer, AOB with two, ...)."""
    out: dict[str, list[str]] = {}
    for n, values in table.items():
        decimals = [len(e.partition(".")[2]) for e in like[n]]
        out[n] = [f"{v:.{d}f}" for v, d in zip(values, decimals, strict=True)]
    return out


def _table(rows: list[dict[str, object]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for row in rows:
        player = row["player"]
        tiebreaks = row["tiebreaks"]
        assert isinstance(player, dict)
        assert isinstance(tiebreaks, dict)
        out[str(player["start_rank"])] = [float(str(row["points"]))] + [
            float(tiebreaks[c]) for c in CODES
        ]
    return out


def _standings(store: Path) -> tuple[list[dict[str, object]], str]:
    done = arbiter(store, "standings", "held", "-f", "json")
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows, done.stderr


@pytest.mark.golden
def test_standings_do_not_move_when_round_6_is_paired(tmp_path: Path) -> None:
    source = require_testdata("chess", "tiebreaks", "held") / "held_swiss_5.trf"
    trf = tmp_path / "held.trf"
    trf.write_text(source.read_text().replace("XXR 5", "XXR 6"))
    store = tmp_path / "store.duckdb"
    setup = tmp_path / "setup.txt"  # the set-up in one `arbiter batch` process
    setup.write_text(
        f"ingest {shlex.quote(str(trf))}\ntournament tiebreaks held {','.join(CODES)}\n"
    )
    arbiter(store, "batch", str(setup))
    expected = _expected()

    listed, said = _standings(store)
    before = _table(listed)
    assert _as_printed(before, expected) == expected
    assert said == ""

    arbiter(store, "pair", "held")
    listed, said = _standings(store)
    after = _table(listed)
    assert after == before  # Buchholz & co. did not move
    assert _as_printed(after, expected) == expected
    assert said.strip() == f"held: {CAPTION}"
    assert CAPTION in arbiter(store, "standings", "held", "-f", "html").stdout

    served = serve(str(store), tmp_path)
    try:
        api = httpx.get(f"{served.url}/api/tournaments/held", timeout=60).json()
        assert api["standings_after_round"] == 5
        assert api["rounds_in_play"] == [6]
        assert api["standings_as_of"] == CAPTION
        page = httpx.get(f"{served.url}/t/held", timeout=60).text
        assert CAPTION in page
        rows = httpx.get(f"{served.url}/api/tournaments/held/standings", timeout=60).json()
        assert rows == listed  # `arbiter standings -f json` on the same store, round 6 paired
        assert _as_printed(_table(rows), expected) == expected
    finally:
        served.stop()
