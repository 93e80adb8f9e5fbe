"""A round paired by hand (`arbiter pair T --boards FILE`, decided by
`decide.pairing.pair_by_hand`) that does not place every player of the round exactly once is
refused, on the command line and in a batch, with one line and nothing appended: a player on
two boards, a withdrawn player on a board, a player on no board, a start rank nobody has.

The rule is C.04.1's first absolute criterion read for a whole round: every player who plays
the round is on one board (or has the one pairing-allocated bye), and a withdrawn player is on
none (docs/validation.md, the rule "a round paired by hand")."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.test_validation_table import run

SETUP = (
    "tournament create --name H --id h --system dutch --rounds 3",
    'player add h --name "Aas, Anna" --rating 2400',
    'player add h --name "Berg, Bo" --rating 2300',
    'player add h --name "Cox, Cai" --rating 2200',
    'player add h --name "Dahl, Dag" --rating 2100',
    "player withdraw h 4",
)
"""Four players in rating order (start ranks 1..4 are ids 1..4); player 4 withdrawn from
round 1 on, so round 1 is for players 1, 2 and 3."""

CASES = [
    ("twice", "2\n1 2\n1 3\n", "h: player No. 1 (Aas, Anna) is on two boards"),
    (
        "withdrawn",
        "2\n1 2\n3 4\n",
        "h: player No. 4 (Dahl, Dag) is withdrawn or has a bye in round 1",
    ),
    (
        "missing",
        "1\n1 2\n",
        "h: player No. 3 (Cox, Cai) is on no board "
        "(1 missing; give absences as byes of --kind zero)",
    ),
    ("unknown", "2\n1 2\n3 9\n", "{path}:3:3: no player has start rank 9"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("by-hand") / "store.duckdb"
    for line in SETUP:
        done = run(path, *shlex.split(line))
        assert done.returncode == 0, (line, done.stderr)
    return path


def version(store: Path) -> int:
    s = DuckDBStore(str(store))
    try:
        return s.stream_version("tournament-h")
    finally:
        s.close()


@pytest.mark.parametrize(("name", "boards", "message"), CASES, ids=[c[0] for c in CASES])
def test_refused_on_the_command_line(
    store: Path, tmp_path: Path, name: str, boards: str, message: str
) -> None:
    path = tmp_path / f"{name}.txt"
    path.write_text(boards, encoding="utf-8")
    before = version(store)
    done = run(store, "pair", "h", "--boards", str(path))
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"error: {message.format(path=path)}\n"
    assert version(store) == before


@pytest.mark.parametrize(("name", "boards", "message"), CASES, ids=[c[0] for c in CASES])
def test_refused_in_a_batch(
    store: Path, tmp_path: Path, name: str, boards: str, message: str
) -> None:
    path = tmp_path / f"{name}.txt"
    path.write_text(boards, encoding="utf-8")
    line = f"pair h --boards {path}"
    batch = tmp_path / "batch.txt"
    batch.write_text(line + "\n", encoding="utf-8")
    before = version(store)
    done = run(store, "batch", str(batch))
    assert done.returncode == 1, done.stderr
    said = message.format(path=path)
    assert done.stderr == f"error: {said}\n{batch}:1: stopped: `{line}` failed\n"
    assert version(store) == before
