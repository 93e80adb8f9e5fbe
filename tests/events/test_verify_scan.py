"""`arbiter verify` reads the log in windows of positions (#17): the same verdict as the whole
log in memory, whatever the window, on both backends.

A store holds a director's session (a round undone and paired again) and a round undone and
restored (the archive holds versions the log holds again). Each window size from one position
up is compared with `chain.verify` over the store's `LogImage`, intact and after one row is
deleted, moved or rewritten at every position.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from events.chain import Break, verify, verify_scan
from events.stores import open_store
from tests.events.test_store_cli import PLAYERS, arbiter, director_session, quick
from tests.events.test_verify import _run_sql, delete, reorder

WINDOWS = (1, 2, 5, 50_000)


def _restored_round(store: str) -> None:
    tid = quick(
        store, "tournament", "create", "--name", "Restored Cup", "--game", "chess",
        "--system", "roundrobin", "--rounds", "3",
    ).strip()  # fmt: skip
    for name in PLAYERS:
        quick(store, "player", "add", tid, "--name", name)
    quick(store, "pair", tid)
    quick(store, "undo", tid, "--round", "1", "--reason", "wrong start list")
    quick(store, "restore", tid)
    quick(store, "result", tid, "1", "1", "1-0")


def _verdicts(store: str) -> tuple[Break | None, list[Break | None]]:
    """The whole-image verdict and the windowed one for each of WINDOWS."""
    with open_store(store) as opened:
        image = opened.export_image()
        scanned = []
        for size in WINDOWS:
            with opened.chain_scan(size) as scan:
                assert (scan.events, scan.archived) == (image.events.height, image.archive.height)
                scanned.append(verify_scan(scan))
    return verify(image.events, image.archive, image.counters["next_position"]), scanned


def _rewrite_any(store: str, p: int) -> None:
    _run_sql(store, f"UPDATE events SET payload = payload || ' ' WHERE global_position = {p}")


def _move_archived(store: str, p: int) -> None:
    _run_sql(
        store, f"UPDATE events_archive SET global_position = {p} WHERE global_position = {p - 1}"
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("scan") / "log.duckdb"
    director_session(str(store))
    _restored_round(str(store))
    _run_sql(str(store), "CHECKPOINT")  # the file alone holds the log, to be copied
    return store


def test_an_intact_log_verifies_in_every_window(session: Path) -> None:
    whole, scanned = _verdicts(str(session))
    assert whole is None
    assert scanned == [None] * len(WINDOWS)


@pytest.mark.parametrize(
    "tamper", [delete, reorder, _rewrite_any, _move_archived], ids=lambda t: t.__name__
)
def test_every_window_names_the_same_first_broken_position(
    session: Path, tmp_path: Path, tamper: Callable[[str, int], None]
) -> None:
    with open_store(str(session)) as store:
        head = store.head_position()
        assert store.export_image().archive.height > 0
    assert head > 12
    found = 0
    for p in range(2, head + 1):
        copy = str(tmp_path / f"p{p}.duckdb")
        shutil.copy(session, copy)
        tamper(copy, p)
        whole, scanned = _verdicts(copy)
        assert scanned == [whole] * len(WINDOWS), p
        found += whole is not None
    assert found > 0


def test_postgres_scans_in_windows(postgres_url: str) -> None:
    arbiter(postgres_url, "store", "init")
    director_session(postgres_url)
    _restored_round(postgres_url)
    whole, scanned = _verdicts(postgres_url)
    assert whole is None
    assert scanned == [None] * len(WINDOWS)
    with open_store(postgres_url) as store:
        p = store.head_position() // 2
    reorder(postgres_url, p)
    whole, scanned = _verdicts(postgres_url)
    assert whole is not None
    assert whole.position == p
    assert scanned == [whole] * len(WINDOWS)
