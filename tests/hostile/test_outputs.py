"""pipelines.process.files where the kill test cannot reach: the two-rename swap of a file system
without RENAME_EXCHANGE, and the state a kill between its two renames leaves."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pipelines.process import files
from pipelines.process.files import folder_swap, write_atomic


def _list(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(text)


def test_without_rename_exchange_two_renames_swap_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "_exchange", lambda *_: False)
    out = tmp_path / "wof"
    _list(out, "old")
    with folder_swap(out) as staging:
        (staging / "manifest.json").write_text("new")
    assert (out / "manifest.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wof"]


def test_a_kill_between_the_two_renames_is_undone_by_the_next_run(tmp_path: Path) -> None:
    # What a kill right after "move the old folder aside" leaves: no wof, the old one aside.
    aside = tmp_path / ".wof.k1ll.old"
    _list(aside / "wof", "old")
    (tmp_path / ".wof.st4g.tmp").mkdir()
    out = tmp_path / "wof"
    seen = []

    def failing_run() -> None:
        with folder_swap(out):
            seen.append((out / "manifest.json").read_text())  # put back before anything else
            raise RuntimeError("this run fails too")

    with pytest.raises(RuntimeError):
        failing_run()
    assert seen == ["old"]
    assert (out / "manifest.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wof"]


def test_a_files_leftovers_are_cleaned_by_its_next_write(tmp_path: Path) -> None:
    target = tmp_path / "ratings.csv"
    (tmp_path / ".ratings.csv.abc123.tmp").write_text("half")
    (tmp_path / ".other.csv.abc123.tmp").write_text("not ours")
    write_atomic(target, b"whole\n")
    assert target.read_text() == "whole\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.csv.abc123.tmp", "ratings.csv"]


def test_two_writers_in_one_folder_wait_in_turn(tmp_path: Path) -> None:
    # Without the folder's lock the second writer would clean the first one's staging folder
    # away as a leftover of a killed run.
    out = tmp_path / "wof"
    inside, release = threading.Event(), threading.Event()

    def slow_list() -> None:
        with folder_swap(out) as staging:
            (staging / "manifest.json").write_text("first")
            inside.set()
            release.wait(30)

    first = threading.Thread(target=slow_list)
    first.start()
    assert inside.wait(30)
    second = threading.Thread(target=write_atomic, args=(tmp_path / "export.trf", b"x"))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the folder
    release.set()
    first.join(30)
    second.join(30)
    assert (out / "manifest.json").read_text() == "first"
    assert (tmp_path / "export.trf").read_bytes() == b"x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.trf", "wof"]
