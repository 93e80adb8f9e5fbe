"""Commands that name a player take the pairing number the listings show (issue 33, part 4:
`bye T 10 2` answered `player 10` for the player listed as `(14)`; issue 47, item 4: one
number per player, the id only where marked as such).

Through the `arbiter` command in a subprocess: four players registered out of rating order
(ids 1..4, pairing numbers by rating), round 1 paired. A plain number (or `#N`) names the
player whose start rank (the `player list` column) is N, `id:N` the player of that id; the
message calls him by his number.
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

    bye = _run(store, "bye", "pn", "1", "2")
    assert bye.returncode == 0, bye.stderr
    assert bye.stderr == "player No. 1: half-point bye in round 2\n"
    listed = json.loads(_run(store, "player", "list", "pn", "-f", "json").stdout)
    withdrawn = _run(store, "player", "withdraw", "pn", f"id:{ident['R1500, X']}",
                     "--from-round", "3")  # fmt: skip
    assert withdrawn.stderr == f"player No. {number['R1500, X']} withdrawn from round 3\n"
    hashed = _run(store, "player", "withdraw", "pn", "#2", "--from-round", "3")
    assert hashed.stderr == "player No. 2 withdrawn from round 3\n"
    listed = json.loads(_run(store, "player", "list", "pn", "-f", "json").stdout)
    assert {p["name"]: p["withdrawn_from"] for p in listed} == {
        "R2300, X": None, "R2100, X": 3, "R1800, X": None, "R1500, X": 3,
    }  # fmt: skip

    unknown = _run(store, "bye", "pn", "9", "3")
    assert unknown.returncode == 1
    assert unknown.stderr == "error: pn: no player 9\n"
    garbage = _run(store, "forbid", "pn", "1", "x2")
    assert garbage.returncode == 1
    assert garbage.stderr == (
        "error: PLAYER: 'x2' is neither a pairing number (such as 14) nor a player id marked "
        "as such (id:7)\n"
    )
