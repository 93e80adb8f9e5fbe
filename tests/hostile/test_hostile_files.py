"""Hostile result files through `arbiter ingest` in a subprocess (issue 17, part 1).

Every case of the issue in one mixed inbox: each is refused in bounded time (the subprocess
has a timeout) with one line naming the file and quoting at most a short, escaped excerpt,
and appends nothing; the good files of the same run always land.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from events.stores import open_store
from tests.conftest import require_testdata

ARBITER = str(Path(sys.executable).parent / "arbiter")
ELO = ("othello", "elo", "1978", "19781104_WOC_1978.ELO")
BIG_ELO = ("othello", "elo", "2019", "20190105_92_Dutch_open.ELO")
H9 = ("go", "h9", "honte_amp2006.h9")
TRF = ("chess", "real", "icu_armstrong_2011.trf")
XML = ("go", "opengotha", "CdFA2020-v5.xml")
SECRET = "root:$6$Zq0sEcReTsAlT$hashhashhashhashhashhash:19000:0:99999:7:::"

# file name -> a fragment its one-line error must hold
REFUSED = {
    "empty.trf": "empty file",
    "empty.h9": "empty file",
    "random.trf": "binary data, not a result file",
    "half.ELO": "the file ends inside this result line: cut short?",
    "bigid.ELO": "ids.wof is 29 characters long (at most 16)",
    "bigrating.ELO": "rating is out of range",
    "bigname.ELO": "name is 2097162 characters long (at most 200)",  # with ", hidenori"
    "escape.ELO": "name holds a control character (U+001B)",
    "km.h9": "komi is out of range (found '1e+308'",
    "xxr.trf": "rounds is out of range (found '999999999'",
    "rounds.xml": "roundNumber is out of range (found '999999999'",
    "nrounds.xml": "numberOfRounds is out of range",
    "deep.xml": "elements nested more than 32 deep",
    "shadow": "unknown file format",
    "fifo.trf": "not a regular file (a FIFO)",
}
GOOD = ("good.ELO", "good.h9", "good.trf", "good.xml")
NOT_UTF8 = os.fsdecode(b"caf\xe9.trf")


def _write(folder: Path, name: str, data: bytes) -> None:
    folder.joinpath(name).write_bytes(data)


def _cut_inside_a_game(data: bytes) -> bytes:
    """The file cut about half way, after the first digit of a game line's second id, as a
    broken-off transfer leaves it."""
    start = data.index(b"\n", len(data) // 2) + 1
    while True:
        end = data.index(b"\n", start)
        last_id = re.search(rb"(\d+)\s*[BWbw]?\s*$", data[start:end])
        if b">" in data[start:end] and last_id is not None:
            return data[: start + last_id.start(1) + 1]
        start = end + 1


@pytest.fixture(scope="module")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    elo = require_testdata(*ELO).read_bytes()
    trf = require_testdata(*TRF).read_bytes()
    h9 = require_testdata(*H9).read_bytes()
    xml = require_testdata(*XML).read_bytes()
    for name, data in zip(GOOD, (elo, h9, trf, xml), strict=True):
        _write(folder, name, data)
    _write(folder, "empty.trf", b"")
    _write(folder, "empty.h9", b"\n  \n")
    _write(folder, "random.trf", random.Random(17).randbytes(1_000_000))
    big = require_testdata(*BIG_ELO).read_bytes()
    _write(folder, "half.ELO", _cut_inside_a_game(big))
    _write(folder, "bigid.ELO", elo.replace(b"11139", b"1" * 29))
    _write(folder, "bigrating.ELO", elo.replace(b"4.0, 214", b"4.0, 214, " + b"1" + b"0" * 32))
    _write(folder, "bigname.ELO", elo.replace(b"MARUOKA", b"M" * (2 * 1024 * 1024)))
    _write(folder, "escape.ELO", elo.replace(b"MARUOKA", b"MARU\x1b[2JOKA"))
    _write(folder, "km.h9", h9.replace(b"KM[6.5]", b"KM[1e308]"))
    _write(folder, "xxr.trf", trf + b"XXR 999999999\n")
    _write(folder, "rounds.xml", xml.replace(b'roundNumber="1"', b'roundNumber="999999999"', 1))
    general = xml.index(b'numberOfRounds="')
    end = xml.index(b'"', general + len(b'numberOfRounds="'))
    _write(folder, "nrounds.xml", xml[:general] + b'numberOfRounds="999999999' + xml[end:])
    at = xml.index(b">", xml.index(b"<TournamentParameterSet")) + 1
    _write(folder, "deep.xml", xml[:at] + b"<X>" * 500 + b"</X>" * 500 + xml[at:])
    _write(folder, "shadow", SECRET.encode() + b"\nbin:*:19000:0:99999:7:::\n")
    os.mkfifo(folder / "fifo.trf")
    # A name that is not UTF-8, and content of its own (not a duplicate of good.trf).
    _write(folder, NOT_UTF8, trf.replace(b"Aherne", b"Ahernf"))
    return folder


def _ingest(store: Path, paths: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", str(store), "ingest", *paths, *args],
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=120,
        check=False,
    )


def test_a_mixed_inbox_refuses_each_hostile_file_and_lands_the_good_ones(
    inbox: Path, tmp_path: Path
) -> None:
    store = tmp_path / "s.duckdb"
    names = sorted(os.listdir(inbox))
    paths = [str(inbox / n) for n in names] + ["/dev/zero"]
    done = _ingest(store, paths)
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    failures = [x for x in lines if not x[:1].isdigit()]  # the rest: summary and notes
    assert len(failures) == len(REFUSED) + 1, lines
    for name, fragment in REFUSED.items():
        (line,) = [x for x in lines if x.startswith(f"{inbox / name}:")]
        assert fragment in line, line
        assert len(line) < len(str(inbox)) + 300, line
    assert "/dev/zero:0:0: not a regular file (a character device)" in lines
    assert not any(SECRET[:12] in x for x in lines)  # the file's content is never echoed
    (summary,) = [x for x in lines if " file(s) ingested, " in x]
    assert summary.startswith(f"5 file(s) ingested, 0 already ingested, {len(REFUSED) + 1} failed")

    report = json.loads(_ingest(store, paths, "--format", "json").stdout)
    by_path = {f["path"]: f for f in report["files"]}
    shown = str(inbox / "caf\\xe9.trf")
    assert by_path[shown]["status"] == "duplicate"  # named, stored, found again
    assert [by_path[str(inbox / g)]["status"] for g in GOOD] == ["duplicate"] * 4
    assert all(by_path[str(inbox / n)]["status"] == "failed" for n in REFUSED)

    with open_store(str(store)) as opened:
        assert len(opened.streams("tournament-")) == 5
        files = opened.read_frame(stream_prefix="file-")
    assert sorted(json.loads(p)["path"] for p in files["payload"]) == sorted(
        [str(inbox / g) for g in GOOD] + [shown]
    )


def test_with_skip_bad_lines_a_cut_elo_keeps_its_whole_games(inbox: Path, tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    done = _ingest(store, [str(inbox / "half.ELO")], "--skip-bad-lines")
    assert done.returncode == 0, done
    assert "the file ends inside this result line: cut short? (found '" in done.stderr
    assert done.stderr.rstrip().endswith("(left out)")
