"""`arbiter ingest --skip-bad-lines` in a subprocess: files with a few broken result records.

The WOF archive has 17 files whose result lines pair a player with himself (18 lines, found
here by reading the archive, not by arbiter). Without the option each file is refused whole
with one line naming its first bad line; with it the bad lines are listed FILE:LINE:COL on
stderr and left out, and every other game lands. The same option on one corrupted record of an
h9, a .tou and a TRF file from the corpora: the record and the other half of its game are left
out, the rest lands. Game counts are the files' own, counted here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.cli.ingest import SKIP_HINT
from tests.conftest import require_testdata

ARBITER = Path(sys.executable).parent / "arbiter"
_GAME = re.compile(r"(\d+|\?+)\s*(?:\(\s*\d+\s*\))?\s*[<>=]\s*(?:\(\s*\d+\s*\))?\s*(\d+|\?+)")


def arbiter(store: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBITER_STORE": str(store), "COLUMNS": "300"}
    done = subprocess.run(
        [str(ARBITER), *args], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == code, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def tournaments(store: Path) -> list[str]:
    listed = json.loads(arbiter(store, "tournament", "list", "-f", "json").stdout)
    return [t["id"] for t in listed]


def self_paired_lines() -> dict[Path, list[int]]:
    """Every archive file with a result line whose two ids are the same, and those lines."""
    found: dict[Path, list[int]] = {}
    for path in sorted(require_testdata("othello", "elo").glob("*/*.ELO")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if line.startswith("%"):
                continue
            if any(a == b and a[0] != "?" for a, b in _GAME.findall(line)):
                found.setdefault(path, []).append(number)
    return found


def elo_games(path: Path) -> int:
    text = path.read_bytes().decode("utf-8", errors="replace")
    return sum(len(_GAME.findall(line)) for line in text.splitlines() if not line.startswith("%"))


@pytest.fixture(scope="module")
def bad_files() -> dict[Path, list[int]]:
    return self_paired_lines()


def test_the_archive_has_17_such_files(bad_files: dict[Path, list[int]]) -> None:
    assert len(bad_files) == 17
    assert sum(len(lines) for lines in bad_files.values()) == 18


def test_without_the_option_each_file_is_refused_whole(
    bad_files: dict[Path, list[int]], tmp_path: Path
) -> None:
    store = tmp_path / "s.duckdb"
    done = arbiter(store, "ingest", *map(str, bad_files), code=1)
    errors = done.stdout.splitlines()[:-1]
    assert sorted(errors) == sorted(
        f"{path}:{lines[0]}:1: a player is paired with himself (found "
        f"'{_GAME.findall(path.read_text(errors='replace').splitlines()[lines[0] - 1])[0][0]}', "
        f"expected two different ids) ({SKIP_HINT})"
        for path, lines in bad_files.items()
    )
    assert done.stdout.splitlines()[-1].startswith("0 file(s) ingested, 0 already ingested, 17 ")
    assert tournaments(store) == []


def test_with_the_option_the_bad_lines_are_listed_and_the_rest_lands(
    bad_files: dict[Path, list[int]], tmp_path: Path
) -> None:
    store = tmp_path / "s.duckdb"
    done = arbiter(store, "ingest", "--skip-bad-lines", "-f", "json", *map(str, bad_files))
    listed = {
        (Path(m.group(1)), int(m.group(2)))
        for m in re.finditer(r"^(.+\.ELO):(\d+):1: .* \(left out\)$", done.stderr, re.MULTILINE)
    }
    assert listed == {(path, line) for path, lines in bad_files.items() for line in lines}
    assert len(done.stderr.splitlines()) == 18
    report = json.loads(done.stdout)
    assert report["summary"]["ingested"] == 17
    assert report["summary"]["skipped_records"] == 18
    for entry in report["files"]:
        path = Path(entry["path"])
        assert entry["games"] == elo_games(path) - len(bad_files[path]), path
    assert len(tournaments(store)) == 17


SMALL_ELO = """%%Tournament: Small Open
%%Country: Netherlands
%%Date: 05/01/2019
%%Sender: Test

% Round 1
  5071 (37)>(27) 120052
  5008 (40)>(24)   5008
  5105 (33)<(31)   4012
"""


def test_the_refusal_names_the_option(tmp_path: Path) -> None:
    """A file refused for a bad result record says that --skip-bad-lines would take it (text
    and JSON); a file refused for anything else does not; with the option it lands."""
    bad = tmp_path / "small.ELO"
    bad.write_text(SMALL_ELO, encoding="utf-8")
    broken = tmp_path / "broken.ELO"
    broken.write_text("%%Tournament: x\nnot a header\n", encoding="utf-8")
    refused = arbiter(tmp_path / "a.duckdb", "ingest", str(bad), str(broken), code=1)
    assert refused.stdout.splitlines()[:2] == [
        f"{bad}:8:1: a player is paired with himself (found '5008', expected two different "
        "ids) (--skip-bad-lines leaves the bad result records out and takes the rest)",
        f"{broken}:2:1: bad header line (found 'not a header', expected %%Country:)",
    ]
    as_json = arbiter(tmp_path / "a.duckdb", "ingest", "-f", "json", str(bad), code=1)
    (entry,) = json.loads(as_json.stdout)["files"]
    assert entry["error"].endswith(
        "(--skip-bad-lines leaves the bad result records out and takes the rest)"
    )
    assert tournaments(tmp_path / "a.duckdb") == []
    done = arbiter(tmp_path / "a.duckdb", "ingest", "--skip-bad-lines", str(bad))
    assert (
        done.stderr == f"{bad}:8:1: a player is paired with himself (found '5008', "
        "expected two different ids) (left out)\n"
    )
    assert done.stdout.splitlines()[0].startswith("1 file(s) ingested, 0 already ingested, 0 ")


# ------------------------------------------------------------------ h9, .tou and TRF


def _cells(line: str, cell: str) -> list[re.Match[str]]:
    """The result cells of a player line, in round order."""
    data = line.split("|", maxsplit=1)[0]
    return [m for m in re.finditer(r"\S+", data) if re.fullmatch(cell, m.group())]


def _played(lines: list[str], cell: str) -> int:
    """Games in a go table: cells naming an opponent, each game on two rows."""
    cells = [c for line in lines if not line.startswith(";") for c in line.split("|")[0].split()]
    return sum(1 for c in cells if re.fullmatch(cell, c) and not c.startswith("0")) // 2


CASES = {
    # honte_kpmc2013.h9: Park (place 1) beat 22 in round 1 ('22+'), made a draw: asymmetric.
    "h9": (("go", "h9", "honte_kpmc2013.h9"), r"\d+[+=-](?:[/!][bw]?\d*)?"),
    # ffg_tou_RennesBZH.tou: Rioland's round-2 cell '5+w0' made unreadable.
    "tou": (("go", "other", "ffg_tou_RennesBZH.tou"), r"\d+[+=-][bw]?\d*"),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_bad_cell_of_a_go_table(kind: str, tmp_path: Path) -> None:
    parts, cell = CASES[kind]
    source = require_testdata(*parts)
    lines = source.read_text(encoding="latin-1").splitlines()
    rows = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(";")]
    round_index, new = (0, "22=") if kind == "h9" else (1, "5*w0")
    target = _cells(lines[rows[0]], cell)[round_index]
    column = target.start() + 1
    opponent = re.match(r"\d+", target.group()).group()  # type: ignore[union-attr]
    line = lines[rows[0]]
    lines[rows[0]] = line[: target.start()] + new.ljust(len(target.group())) + line[target.end() :]
    other = next(i for i in rows if lines[i].split()[0] == opponent)
    other_column = _cells(lines[other], cell)[round_index].start() + 1
    path = tmp_path / source.name
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))

    refused = arbiter(tmp_path / "a.duckdb", "ingest", str(path), code=1)
    assert refused.stdout.splitlines()[0].startswith(f"{path}:{rows[0] + 1}:{column}: ")
    assert tournaments(tmp_path / "a.duckdb") == []

    done = arbiter(tmp_path / "b.duckdb", "ingest", "--skip-bad-lines", "-f", "json", str(path))
    left_out = re.findall(rf"^{re.escape(str(path))}:(\d+):(\d+): ", done.stderr, re.MULTILINE)
    assert sorted(left_out) == sorted(
        [(str(rows[0] + 1), str(column)), (str(other + 1), str(other_column))]
    )
    (entry,) = json.loads(done.stdout)["files"]
    original = source.read_text(encoding="latin-1").splitlines()
    assert entry["games"] == _played(original, cell) - 1


def test_a_bad_round_block_of_a_trf(tmp_path: Path) -> None:
    source = require_testdata("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
    lines = source.read_text(encoding="latin-1").splitlines()
    # Player 2 beat 65 in round 1 ('  65 w 1' at columns 92-99): an unknown result code.
    row = next(i for i, line in enumerate(lines) if line.startswith("001    2 "))
    assert lines[row][91:99] == "  65 w 1"
    lines[row] = lines[row][:98] + "X" + lines[row][99:]
    other = next(i for i, line in enumerate(lines) if line.startswith("001   65 "))
    assert lines[other][91:95] == "   2"
    path = tmp_path / source.name
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))

    refused = arbiter(tmp_path / "a.duckdb", "ingest", str(path), code=1)
    assert refused.stdout.splitlines()[0].startswith(f"{path}:{row + 1}:99: bad result code")
    assert tournaments(tmp_path / "a.duckdb") == []

    done = arbiter(tmp_path / "b.duckdb", "ingest", "--skip-bad-lines", "-f", "json", str(path))
    left_out = re.findall(rf"^{re.escape(str(path))}:(\d+):(\d+): ", done.stderr, re.MULTILINE)
    assert sorted(left_out) == sorted([(str(row + 1), "99"), (str(other + 1), "92")])
    (entry,) = json.loads(done.stdout)["files"]
    # Boards in the file: round blocks naming an opponent, each game on two lines.
    blocks = [
        line[start : start + 4].strip()
        for line in source.read_text(encoding="latin-1").splitlines()
        if line.startswith("001")
        for start in range(91, len(line), 10)
    ]
    assert entry["games"] == sum(1 for b in blocks if b not in ("", "0000")) // 2 - 1
