"""Round trip over the reference corpora: read, write, read again gives the same records."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.trf import parse_trf
from projections.exports.trf import to_trf16, write_trf
from tests.conftest import TESTDATA, require_testdata

_FOLDERS = ("real", "dutch", "burstein", "tiebreaks/cases", "tiebreaks/held")


def _files() -> list[str]:
    names: list[str] = []
    for folder in _FOLDERS:
        base = TESTDATA / "chess" / folder
        if base.exists():
            names.extend(f"{folder}/{p.name}" for p in sorted(base.glob("*.trf")))
    return names or ["<absent>"]


@pytest.mark.golden
@pytest.mark.parametrize("name", _files())
def test_read_write_read(name: str) -> None:
    path = require_testdata("chess", *name.split("/"))
    first = parse_trf(path)
    assert first.players, "every corpus file has player records"
    for newline in ("\n", "\r", "\r\n"):
        again = parse_trf(path, write_trf(first, newline=newline).encode(first.encoding))
        assert again == first
    converted = to_trf16(first)
    assert parse_trf(Path("converted.trf"), write_trf(converted).encode()) == converted
