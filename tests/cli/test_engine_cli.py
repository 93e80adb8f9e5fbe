"""The bbpPairings/JaVaFo command-line contract of ``arbiter-pairings``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.trf import parse_trf
from pipelines.engines.cli import main
from tests.conftest import TESTDATA, require_testdata


def _players(n: int) -> str:
    return "\n".join(
        f"001 {i:>4}      Test{i:04d} Player{i:04d}               {2500 - 10 * i:>4}"
        f"                             0.0 {i:>4}"
        for i in range(1, n + 1)
    )


def test_pair_writes_the_documented_output(tmp_path: Path) -> None:
    source = tmp_path / "in.trf"
    source.write_text(f"XXR 5\nXXC white1\n{_players(11)}\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main(["--dutch", str(source), "-p", str(out)]) == 0
    # formats.md 2.3
    assert out.read_text().split("\n") == [
        "6", "1 6", "7 2", "3 8", "9 4", "5 10", "11 0", "",
    ]  # fmt: skip


def test_invalid_input_exits_3_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.trf"
    source.write_text(f"XXR 5\n{_players(2)}\n152 X\n", encoding="utf-8")
    assert main(["--dutch", str(source), "-p"]) == 3
    err = capsys.readouterr().err
    assert f"{source}:4:5: bad initial colour" in err
    assert len(err.strip().splitlines()) == 1


def test_missing_rounds_and_missing_file(tmp_path: Path) -> None:
    source = tmp_path / "norounds.trf"
    source.write_text(_players(4) + "\n", encoding="utf-8")
    assert main(["--dutch", str(source), "-p"]) == 3
    assert main(["--dutch", str(tmp_path / "absent.trf"), "-p"]) == 5


def test_no_valid_pairing_exits_1(tmp_path: Path) -> None:
    source = tmp_path / "forbidden.trf"
    source.write_text(f"XXR 5\nXXC white1\n{_players(2)}\nXXP 1 2\n", encoding="utf-8")
    assert main(["--dutch", str(source), "-p"]) == 1


def test_unknown_result_is_an_error_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _players(2).splitlines()
    lines[0] += "     2 w ?"
    lines[1] += "     1 b ?"
    source = tmp_path / "unknown.trf"
    source.write_text("XXR 5\n" + "\n".join(lines) + "\n", encoding="utf-8")
    assert main(["--dutch", str(source), "-p"]) == 3
    assert "unknown result" in capsys.readouterr().err


@pytest.mark.golden
def test_checker_reports_every_round(capsys: pytest.CaptureFixture[str]) -> None:
    path = require_testdata("chess", "dutch", "dutch_03_p010_r07.trf")
    assert main(["--dutch", str(path), "-c"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        *(f"dutch_03_p010_r07.trf: Round #{k}" for k in range(1, 8)),
        "dutch_03_p010_r07.trf: 7 of 7 rounds identical",
    ]


def test_burstein_pairs_a_file_round(tmp_path: Path) -> None:
    # Round 1 of 4 players, no XXA line: the top half is accelerated by a win, so the
    # Burstein scoregroups are {1, 2} and {3, 4}.
    source = tmp_path / "in.trf"
    source.write_text(f"XXR 3\nXXC white1\n{_players(4)}\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main(["--burstein", str(source), "-p", str(out)]) == 0
    lines = out.read_text().split("\n")
    assert lines[0] == "2"
    assert {frozenset(map(int, line.split())) for line in lines[1:3]} == {
        frozenset({1, 2}),
        frozenset({3, 4}),
    }


def test_burstein_check_mode_reports_every_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = require_testdata("chess", "burstein", "burstein_00_p008_r05.trf")
    assert main(["--burstein", str(path), "-c"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "Round #" in line] == [
        f"{path.name}: Round #{k}" for k in range(1, 6)
    ]
    assert "Checker pairings" not in out


def _burstein_files() -> list[str]:
    folder = TESTDATA / "chess" / "burstein"
    return sorted(p.name for p in folder.glob("*.trf")) or ["<absent>"]


@pytest.mark.golden
@pytest.mark.parametrize("name", _burstein_files())
def test_burstein_check_mode_in_a_subprocess_matches_every_round(name: str) -> None:
    """``arbiter-pairings --burstein FILE -c``, run as a user runs it, re-pairs every round
    of each chess/burstein file (up to 250 players) as bbpPairings paired it."""
    path = require_testdata("chess", "burstein", name)
    rounds = max(len(p.rounds) for p in parse_trf(path).players)
    done = subprocess.run(
        [str(Path(sys.executable).with_name("arbiter-pairings")), "--burstein", str(path), "-c"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"{name}: {rounds} of {rounds} rounds identical"


def _pairings_cli(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("arbiter-pairings")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("flag", "folder", "name", "record"),
    [
        ("--burstein", "dutch", "dutch_03_p010_r07.trf", "092 FIDE_DUTCH_2025"),
        ("--dutch", "burstein", "burstein_01_p011_r09.trf", "092 FIDE_BURSTEIN"),
        ("--dutch-2017", "burstein", "burstein_01_p011_r09.trf", "092 FIDE_BURSTEIN"),
        ("--dubov", "dutch", "dutch_03_p010_r07.trf", "092 FIDE_DUTCH_2025"),
    ],
)
def test_the_flag_chooses_the_system_whatever_the_092_record_says(
    flag: str, folder: str, name: str, record: str
) -> None:
    """bbpPairings pairs a file with the system of its flag; the ``092`` record naming another
    system does not make the file unacceptable (issue 35). The checker re-pairs each round
    with the flag's system (how many agree with the other system's pairing does not matter)."""
    path = require_testdata("chess", folder, name)
    assert record in path.read_text(encoding="utf-8").splitlines()
    done = _pairings_cli(flag, str(path), "-c")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    rounds = max(len(p.rounds) for p in parse_trf(path).players)
    last = done.stdout.splitlines()[-1]
    assert re.fullmatch(rf"{name}: \d+ of {rounds} rounds identical(; round\(s\) .* differ)?", last)


@pytest.mark.golden
@pytest.mark.parametrize(
    ("flag", "folder", "name", "other"),
    [
        ("--burstein", "burstein", "burstein_03_p016_r11.trf", "FIDE_DUTCH_2025"),
        ("--dutch", "dutch", "dutch_03_p010_r07.trf", "FIDE_BURSTEIN"),
    ],
)
def test_a_file_labelled_with_another_system_is_paired_by_the_flags_system(
    tmp_path: Path, flag: str, folder: str, name: str, other: str
) -> None:
    """A reference file whose ``092`` is rewritten to name another system: the checker of the
    flag's system still finds every round as the reference engine paired it."""
    text = require_testdata("chess", folder, name).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert sum(line.startswith("092 ") for line in lines) == 1
    relabelled = tmp_path / name
    relabelled.write_text(
        "\n".join(f"092 {other}" if line.startswith("092 ") else line for line in lines) + "\n",
        encoding="utf-8",
    )
    done = _pairings_cli(flag, str(relabelled), "-c", "--strict")
    assert done.returncode == 0, done.stderr
    rounds = max(len(p.rounds) for p in parse_trf(relabelled).players)
    assert done.stdout.splitlines()[-1] == f"{name}: {rounds} of {rounds} rounds identical"


@pytest.mark.golden
def test_team_flag_pairs_a_team_file_whose_092_names_an_individual_system(
    tmp_path: Path,
) -> None:
    """``--team`` decides; the team type (GP primary) still comes from the file's 192."""
    source = require_testdata("chess", "team", "team_pab_gamepoints.input")
    text = source.read_text(encoding="utf-8")
    assert "192 FIDE_TEAM_GP_MP" in text.splitlines()
    labelled = tmp_path / "labelled.trf"
    labelled.write_text(text.rstrip("\n") + "\n092 FIDE_DUTCH_2025\n", encoding="utf-8")
    done = _pairings_cli("--team", str(labelled), "-p")
    assert done.returncode == 0, done.stderr
    expected = require_testdata("chess", "team", "team_pab_gamepoints.output.expected")
    assert done.stdout.split() == expected.read_text(encoding="utf-8").split()


@pytest.mark.parametrize(
    "argv",
    [
        ["--burstein", "in.trf", "-p", "out.txt"],
        ["in.trf", "-p"],
        ["--team", "in.trf", "-p"],
        ["--dutch-2017", "a b.trf", "-p", "o"],
        ["--dubov", "in.trf", "-p", "-"],
        ["in.trf", "-c"],
        ["-p", "out.txt", "--dutch", "in.trf"],
    ],
)
def test_the_common_command_line_reads_as_argparse_reads_it(argv: list[str]) -> None:
    """`_arguments` reads ``[--SYSTEM] INPUT -p [OUTPUT]`` without argparse (start-up), to
    the values argparse gives; other forms go to argparse itself."""
    from pipelines.engines.cli import _arguments, _parser

    assert vars(_arguments(argv)) == vars(_parser().parse_args(argv))
