"""The Dutch 2017 rules and the Dubov system from the outside: both command lines, as
subprocesses, against the reference corpora."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.trf import cut_before_round, parse_trf
from projections.exports.trf import write_trf
from tests.conftest import require_testdata
from tests.pairing.corpus import initial_colour, played_round
from tests.pairing.test_dubov_corpus import py4swiss_round

BIN = Path(sys.executable).parent


def run(program: str, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(BIN / program), *args], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done


def parse_output(text: str) -> tuple[set[tuple[int, int]], int | None]:
    """The ``-p`` output: a count, then ``white black`` lines, ``N 0`` for the PAB."""
    lines = text.split("\n")
    count = int(lines[0])
    pairs = [tuple(int(x) for x in line.split()) for line in lines[1 : count + 1]]
    pab = next((w for w, b in pairs if b == 0), None)
    return {(w, b) for w, b in pairs if b != 0}, pab


@pytest.mark.golden
def test_dutch_2017_pairs_the_next_round_of_a_file(tmp_path: Path) -> None:
    # dutch2017_04 round 3: the 2017 and the 2025 rules pair it differently.
    trf = parse_trf(require_testdata("chess", "dutch2017", "dutch2017_04_p011_r06.trf"))
    total = max(len(p.rounds) for p in trf.players)
    source = tmp_path / "in.trf"
    source.write_text(write_trf(cut_before_round(trf, 3, total, initial_colour(trf, total))))
    out = tmp_path / "out.txt"
    run("arbiter-pairings", "--dutch-2017", str(source), "-p", str(out))
    assert parse_output(out.read_text()) == played_round(trf, 3)
    newer = run("arbiter-pairings", "--dutch", str(source), "-p").stdout
    assert parse_output(newer) != played_round(trf, 3)


@pytest.mark.golden
def test_dutch_2017_checker_finds_every_round_as_bbppairings_paired_it() -> None:
    path = require_testdata("chess", "dutch2017", "dutch2017_07_p014_r09.trf")
    out = run("arbiter-pairings", "--dutch-2017", str(path), "-c").stdout.splitlines()
    assert out == [
        *(f"{path.name}: Round #{k}" for k in range(1, 10)),
        f"{path.name}: 9 of 9 rounds identical",
    ]


@pytest.mark.golden
def test_dubov_pairs_a_round_as_both_reference_engines() -> None:
    folder = require_testdata("chess", "dubov", "t04_n107_r9")
    done = run("arbiter-pairings", "--dubov", str(folder / "r05.in.trf"), "-p")
    assert parse_output(done.stdout) == py4swiss_round(folder / "r05.py4swiss.txt")


@pytest.mark.golden
def test_dubov_checker_reports_only_the_round_it_pairs_otherwise() -> None:
    # t02 round 3: py4swiss (whose pairing the file holds) gives the PAB to a player with
    # fewer games than another; Article 3.1.4 wants the most games, as CPPDubovSystem has it.
    path = require_testdata("chess", "dubov", "t02_n016_r6", "final.trf")
    out = run("arbiter-pairings", "--dubov", str(path), "-c").stdout.splitlines()
    rounds = [line for line in out if "Round #" in line]
    assert rounds == [f"final.trf: Round #{k}" for k in range(1, 7)]
    differing = [out[i - 1] for i, line in enumerate(out) if line.startswith("Checker pairings")]
    assert differing == ["final.trf: Round #3"]


def test_no_dubov_pairing_exits_1_with_one_line(tmp_path: Path) -> None:
    source = tmp_path / "in.trf"
    player = "001 {:>4}      {} Player{:>30}{:>30}    {}\n"
    source.write_text(
        "XXR 3\nXXC white1\n"
        + player.format(1, "A", 2000, "0.0", 1)
        + player.format(2, "B", 1900, "0.0", 2)
        + "XXP 1 2\n"
    )
    done = run("arbiter-pairings", "--dubov", str(source), "-p", code=1)
    assert len(done.stderr.strip().splitlines()) == 1
    assert "absolute criteria" in done.stderr


@pytest.mark.golden
def test_an_imported_2017_event_is_paired_again_with_its_rules(tmp_path: Path) -> None:
    """The edition is a property of the tournament: ingest a file naming FIDE_DUTCH_2017,
    take back round 3, pair it again: bbpPairings v5.0.1's round 3 comes back."""
    original = require_testdata("chess", "dutch2017", "dutch2017_04_p011_r06.trf")
    trf = parse_trf(original)
    source = tmp_path / "event.trf"
    source.write_text("192 FIDE_DUTCH_2017\nXXR 6\n" + original.read_text())
    store = str(tmp_path / "s.duckdb")
    run("arbiter", "--store", store, "ingest", str(source))
    tid = json.loads(run("arbiter", "--store", store, "tournament", "list", "-f", "json").stdout)
    (tournament,) = [t["id"] for t in tid]
    run("arbiter", "--store", store, "undo", tournament, "--round", "3")
    paired = run("arbiter", "--store", store, "pair", tournament, "--explain", "-f", "json")
    rows = json.loads(paired.stdout)
    boards = {(r["white"]["id"], r["black"]["id"]) for r in rows if r["black"]}
    pab = next((r["white"]["id"] for r in rows if not r["black"]), None)
    assert (boards, pab) == played_round(trf, 3)
    assert "board 1 (" in paired.stderr  # the board's players named
    assert "PAB (" in paired.stderr


def test_director_creates_and_pairs_dutch_2017_and_dubov(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    for system, extra in (("dutch", ["--rules", "2017"]), ("dubov", [])):
        created = run(
            "arbiter", "--store", store, "tournament", "create", "--name", f"Open {system}",
            "--system", system, "--rounds", "5", "--initial-colour", "white", *extra,
        )  # fmt: skip
        tid = created.stdout.split()[-1]
        field = tmp_path / f"{tid}.txt"  # the five players in one `arbiter batch` (set-up)
        lines = [f"player add {tid} --name P{i} --rating {2400 - 50 * i}" for i in range(1, 6)]
        field.write_text("\n".join(lines) + "\n", encoding="utf-8")
        run("arbiter", "--store", store, "batch", str(field))
        paired = run("arbiter", "--store", store, "pair", tid, "--explain", "-f", "json")
        rows = json.loads(paired.stdout)
        # Round 1 in both systems: top half against bottom half, colours alternating from
        # the top seed's White; the lowest-ranked player gets the PAB (C.04.3 A.9 / 3.1.5).
        got = [(r["white"]["id"], r["black"]["id"] if r["black"] else None) for r in rows]
        assert got == [(1, 3), (4, 2), (5, None)], system
        assert "PAB (P5): 5:" in paired.stderr


def test_unknown_rules_are_refused_in_one_line(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    done = run(
        "arbiter", "--store", store, "tournament", "create", "--name", "X", "--system",
        "dutch", "--rules", "2019", code=1,
    )  # fmt: skip
    assert done.stderr.strip() == "error: unknown --rules '2019' (known editions: 2017, 2025)"
    done = run(
        "arbiter", "--store", store, "tournament", "create", "--name", "X", "--system",
        "burstein", "--rules", "2017", code=1,
    )  # fmt: skip
    assert "--rules applies to the chess Dutch system" in done.stderr
