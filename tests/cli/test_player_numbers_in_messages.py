"""Messages name a player by his pairing number (start rank) and name, as every text output
does (issue 47 item 4). `player add` says what the number means before round 1 (the field's
order as it stands: it changes as players join); its stdout keeps the id, for scripts. The
numbers are the rule's (the PLAYER argument's help: rating order, go rank first, until round 1
is paired; a chess late entry takes the next free number). The deciders' refusals are
docs/validation.md's rows (tests/cli/test_validation_table.py)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_validation_table import run

BEFORE = " (until round 1 is paired, numbers change as players join)"


def test_player_add_names_the_player_by_his_number(tmp_path: Path) -> None:
    store = tmp_path / "store.duckdb"
    create = (
        "tournament",
        "create",
        "--name",
        "N",
        "--id",
        "n",
        "--system",
        "dutch",
        "--rounds",
        "3",
    )
    assert run(store, *create).returncode == 0

    def add(name: str, rating: str) -> tuple[str, str]:
        done = run(store, "player", "add", "n", "--name", name, "--rating", rating)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr

    assert add("Aas, Per", "2000") == ("1\n", f"registered player No. 1 (Aas, Per){BEFORE}\n")
    # rated higher, the second player comes first: No. 1 (Aas, Per is now No. 2)
    assert add("Berg, Bo", "2400") == ("2\n", f"registered player No. 1 (Berg, Bo){BEFORE}\n")
    assert run(store, "pair", "n").returncode == 0
    # after round 1 a late entry takes the next free number, whatever his rating
    assert add("Cox, Cai", "2500") == ("3\n", "registered player No. 3 (Cox, Cai)\n")


def test_a_go_pairing_refusal_names_the_player_by_his_number(tmp_path: Path) -> None:
    """A go engine needs every player's rank: the refusal names the one without, by number
    (the ranked player first: No. 1; the unranked one No. 2)."""
    store = tmp_path / "store.duckdb"
    create = ("tournament", "create", "--name", "G", "--id", "g", "--game", "go")
    assert run(store, *create, "--system", "macmahon", "--rounds", "3").returncode == 0
    assert run(store, "player", "add", "g", "--name", "Ito, Mai").returncode == 0
    assert run(store, "player", "add", "g", "--name", "Sato, Ken", "--rank", "3d").returncode == 0
    done = run(store, "pair", "g")
    assert (done.returncode, done.stderr) == (
        1,
        "error: g: player No. 2 (Ito, Mai) has no go rank; register with --rank\n",
    )
