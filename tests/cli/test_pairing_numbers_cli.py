"""Commands that name a player take the pairing number the listings show (issue 33, part 4:
`bye T 10 2` answered `player 10` for the player listed as `(14)`).

Through the `arbiter` command in a subprocess: four players registered out of rating order
(ids 1..4, pairing numbers by rating), round 1 paired. `#N` names the player whose start rank
(the `player list` column) is N, the plain number stays the id; the message says both.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.process import arbiter_run as _run


def test_hash_n_is_the_pairing_number(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    assert _run(store, "tournament", "create", "--name", "PN", "--id", "pn", "--system",
                "dutch", "--rounds", "3").returncode == 0  # fmt: skip
    field = tmp_path / "field.txt"  # registered in one `arbiter batch` (set-up)
    field.write_text(
        "".join(f"player add pn --name 'R{r}, X' --rating {r}\n" for r in (1500, 2100, 1800, 2300)),
        encoding="utf-8",
    )
    assert _run(store, "batch", str(field)).returncode == 0
    listed = json.loads(_run(store, "player", "list", "pn", "-f", "json").stdout)
    number = {p["name"]: p["start_rank"] for p in listed}
    ident = {p["name"]: p["id"] for p in listed}
    assert number["R2300, X"] == 1
    assert ident["R2300, X"] == 4
    assert _run(store, "pair", "pn").returncode == 0

    bye = _run(store, "bye", "pn", "#1", "2")
    assert bye.returncode == 0, bye.stderr
    assert bye.stderr == "player 4 (#1): half-point bye in round 2\n"
    withdrawn = _run(store, "player", "withdraw", "pn", "4", "--from-round", "3")
    assert withdrawn.stderr == "player 4 withdrawn from round 3\n"  # a plain number: the id
    listed = json.loads(_run(store, "player", "list", "pn", "-f", "json").stdout)
    assert {p["name"]: p["withdrawn_from"] for p in listed}["R2300, X"] == 3

    unknown = _run(store, "bye", "pn", "#9", "3")
    assert unknown.returncode == 1
    assert unknown.stderr == (
        "error: pn: no player has pairing number #9 (the numbers are #1..#4)\n"
    )
    garbage = _run(store, "forbid", "pn", "#1", "x2")
    assert garbage.returncode == 1
    assert garbage.stderr == (
        "error: PLAYER: 'x2' is neither a player id nor #N, a pairing number (such as #14)\n"
    )
