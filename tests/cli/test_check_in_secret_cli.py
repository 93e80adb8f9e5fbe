"""The installation's secret behind the check-in codes (pipelines/process/secret.py), through
the `arbiter` command: without ``$ARBITER_SECRET`` it is made once in ``$XDG_CONFIG_HOME``
(readable by its owner only) and kept, so a code is the same on every run; another secret gives
other codes, and the log never holds one."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from tests.process import arbiter_run


def _codes(store: Path, folder: Path, env: dict[str, str]) -> list[str]:
    out = folder / "codes.html"
    done = arbiter_run(
        store, "print", "cup", "check-in-codes", "--format", "html", "-o", str(out), "--force",
        env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return re.findall(r"<td[^>]*>([0-9A-Z]{6})</td></tr>", out.read_text(encoding="utf-8"))


def test_codes_come_from_a_secret_kept_outside_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store.duckdb"
    for args in (
        ("tournament", "create", "--name", "Cup", "--id", "cup", "--system", "swiss"),
        ("player", "add", "cup", "--name", "Berg, Anna"),
        ("player", "add", "cup", "--name", "Dahl, Ivar"),
    ):
        done = arbiter_run(store, "--as", "td", *args)
        assert done.returncode == 0, done.stderr
    monkeypatch.delenv("ARBITER_SECRET")  # the commands below run without it
    config = tmp_path / "config"
    env = {"XDG_CONFIG_HOME": str(config)}
    first = _codes(store, tmp_path, env)
    secret = config / "arbiter" / "secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert stat.S_IMODE(secret.parent.stat().st_mode) == 0o700
    assert _codes(store, tmp_path, env) == first
    other = _codes(store, tmp_path, {"XDG_CONFIG_HOME": str(tmp_path / "other")})
    assert len(first) == 2
    assert first != other
    log = arbiter_run(store, "log", "cup")
    assert secret.read_text().strip() not in log.stdout
    assert not any(code in log.stdout for code in first)
