"""A TRF written while a round is in play, and at the end: checked, re-paired, read back.

TRF has no code for a paired game without a result (a blank result is a zero-point bye, and
bbpPairings refuses one with an opponent: its `trf.cpp` throws on any result other than ``+``
or ``-`` without a game). So while round 2 is in play the ``001`` blocks stop before it (the
round's requested byes and absences kept, as in a file for pairing it) and its boards are ``BRD``
records (issue #33.2). Through the command line: 9 players (a pairing-allocated bye every
round), forfeits both ways and a double forfeit, a half-point and a zero-point bye. Each export
passes ``arbiter-pairings --dutch FILE -c`` (every round identical, the round in play included);
export -> ingest into a fresh store -> export gives the same file; bbpPairings, when
``$BBP_PAIRINGS`` names its binary, checks the same files and pairs the round in play as the
``BRD`` records say.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

BIN = Path(os.environ.get("VIRTUAL_ENV", "") or Path(__file__).parents[2] / ".venv") / "bin"
ROUNDS = 4
FIELD = [("Aune, Tor", 2440), ("Berg, Anna", 2311), ("Dahl, Ivar", 1984), ("Eide, Mona", 2026)]
FIELD += [("Haugen, Lars", 2405), ("Lie, Jon", 2188), ("Moe, Kari", 2254), ("Nes, Ola", 2099)]
FIELD += [("Olsen, Siv", 2360)]
# round -> results by board (None: left without a result); the PAB's board is not listed
RESULTS: dict[int, list[str | None]] = {
    1: ["1-0", "+-", "1/2-1/2", "-+"],
    2: ["--", None, "0-1"],  # two players on byes: three games
    3: ["1/2-1/2", "1-0", "0-1", "+-"],
    4: ["0-1", "1-0", "1/2-1/2", "1-0"],
}


def arbiter(store: Path, *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "arbiter"), "--store", str(store), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def _batch(store: Path, script: Path, lines: list[str]) -> str:
    """Command lines in one `arbiter batch` process (as a director's script would): its
    stdout."""
    script.write_text("\n".join(lines) + "\n")
    return arbiter(store, "batch", str(script))


def _games(csv: str) -> list[int]:
    """The boards with a game in `pairings --format csv` (the last thing ``csv`` printed)."""
    rows = csv[csv.rindex("board,white,black,result\n") :]
    return [i for i, row in enumerate(rows.strip().splitlines()[1:], start=1) if "bye" not in row]


def checked(path: Path, rounds: int) -> None:
    """``arbiter-pairings -c``: every round (the one in play too) re-paired identically."""
    done = subprocess.run(
        [str(BIN / "arbiter-pairings"), "--dutch", str(path), "-c", "--strict"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{path.name}: {rounds} of {rounds} rounds identical"


def read_back(path: Path, folder: Path) -> str:
    """Ingest the file into a fresh store and export it again (one `arbiter batch`)."""
    store, again = folder / f"again-{path.stem}.duckdb", folder / f"again-{path.name}"
    _batch(store, folder / "again.txt", [
        f"ingest {shlex.quote(str(path))}",
        f"export {path.stem} --format trf --output {shlex.quote(str(again))}",
    ])  # fmt: skip
    return again.read_text()


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The event run round by round, each round's commands in one `arbiter batch`: the
    previous round's results (the export in play after round 2's), byes, pair, the boards."""
    folder = tmp_path_factory.mktemp("in-play")
    store = folder / "store.duckdb"
    tid = arbiter(
        store, "tournament", "create", "--name", "Nine Open", "--game", "chess",
        "--system", "dutch", "--rounds", str(ROUNDS), "--start", "2026-04-01",
    ).strip().splitlines()[-1]  # fmt: skip
    out = {"in_play": folder / "in-play.trf", "finished": folder / "finished.trf"}
    # before each round: the previous round's results (round 1: the players' registrations)
    before = [f"player add {tid} --name {shlex.quote(name)} --rating {r}" for name, r in FIELD]
    ids: dict[str, int] = {}
    for rnd in range(1, ROUNDS + 1):
        byes = [
            f"bye {tid} {ids.get('Berg, Anna')} 2 --kind half",
            f"bye {tid} {ids.get('Nes, Ola')} 2 --kind zero",
        ]
        paired = _batch(store, folder / f"round-{rnd}.txt", [
            *before,
            *(byes if rnd == 2 else []),
            f"pair {tid}",
            f"pairings {tid} --round {rnd} --format csv",
        ])  # fmt: skip
        if rnd == 1:  # `player add` prints the new player's id
            added = paired.splitlines()[: len(FIELD)]
            ids = {name: int(i) for (name, _), i in zip(FIELD, added, strict=True)}
        games = _games(paired)
        before = [
            f"result {tid} {rnd} {board} {result}"
            for board, result in zip(games, RESULTS[rnd], strict=True)
            if result is not None
        ]
        if rnd == 2:
            board = games[RESULTS[2].index(None)]
            before += [
                f"export {tid} --format trf --output {shlex.quote(str(out['in_play']))}",
                f"result {tid} 2 {board} 1-0",
            ]
    _batch(store, folder / "finish.txt", [
        *before,
        f"export {tid} --format trf --output {shlex.quote(str(out['finished']))}",
    ])  # fmt: skip
    return out


def test_round_in_play_is_written_as_boards(exports: dict[str, Path]) -> None:
    text = exports["in_play"].read_text()
    players = [line for line in text.splitlines() if line.startswith("001")]
    boards = [line for line in text.splitlines() if line.startswith("BRD")]
    assert len(boards) == 4  # three games and the pairing-allocated bye
    assert sum(line[18:22] == "0000" for line in boards) == 1
    assert sorted(line[23:].strip() for line in boards) == ["", "", "- -", "0 1"]
    assert any(line.endswith("0000 - H") for line in players)  # requested, kept in its block
    assert any(line.endswith("0000 - Z") for line in players)
    assert all(len(line) <= 91 + 10 * 2 for line in players)  # nothing after round 2
    checked(exports["in_play"], 2)


def test_forfeits_keep_their_colours(exports: dict[str, Path]) -> None:
    text = exports["finished"].read_text()
    blocks = re.findall(r"  ([ \d]{4}) ([wb-]) (\S)", text)
    forfeits = [(opponent, colour) for opponent, colour, result in blocks if result in "+-"]
    assert len(forfeits) >= 8  # three forfeits and one double forfeit, both sides
    assert all(opponent.strip() != "0000" and colour in "wb" for opponent, colour in forfeits)
    checked(exports["finished"], ROUNDS)


@pytest.mark.parametrize("moment", ["in_play", "finished"])
def test_export_ingest_export_is_the_same_file(
    exports: dict[str, Path], moment: str, tmp_path: Path
) -> None:
    first = exports[moment].read_text()
    assert read_back(exports[moment], tmp_path) == first


@pytest.mark.skipif(not os.environ.get("BBP_PAIRINGS"), reason="$BBP_PAIRINGS not set")
def test_bbppairings_reads_both_files(exports: dict[str, Path]) -> None:
    for moment in ("in_play", "finished"):
        done = subprocess.run(
            [os.environ["BBP_PAIRINGS"], "--dutch", str(exports[moment]), "-c"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Checker pairings" not in done.stdout, done.stdout
    done = subprocess.run(
        [os.environ["BBP_PAIRINGS"], "--dutch", str(exports["in_play"]), "-p"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    boards = [
        line[13:22].split() for line in exports["in_play"].read_text().splitlines()
        if line.startswith("BRD")
    ]  # fmt: skip
    assert sorted(done.stdout.split("\n")[1:-1]) == sorted(f"{int(w)} {int(b)}" for w, b in boards)
