"""Team events through the log: every chess/team fixture ingested then paired by ``arbiter
pair`` (the live path), and a team Swiss run end to end with the ``arbiter`` command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_director_flow import Arbiter
from tests.conftest import TESTDATA, require_testdata

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Arbiter:
    folder = require_testdata("chess", "team")
    arbiter = Arbiter(tmp_path_factory.mktemp("teams") / "store.duckdb")
    arbiter("ingest", *(str(p) for p in sorted(folder.glob("team_*.input"))))
    return arbiter


def _as_expected_file(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"{r['white']['number']} {r['black']['number'] if r['black'] else 0}" for r in rows
    ]
    return "\n".join([str(len(lines)), *lines]) + "\n"


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_ingested_fixture_pairs_as_expected(ingested: Arbiter, name: str) -> None:
    folder = require_testdata("chess", "team")
    tid = name.replace("_", "-").lower()
    rows = json.loads(ingested("pair", tid, "--format", "json"))
    expected = (folder / f"{name}.output.expected").read_text(encoding="utf-8")
    assert _as_expected_file(rows) == expected
