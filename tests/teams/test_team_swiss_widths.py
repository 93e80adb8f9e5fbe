"""FIDE Team Swiss (C.04.6): the ``chess/team/`` fixtures paired with narrower matching weights.

The engine fits the criteria and as many identifier fields (3.6.2) as it can into rustworkx's
128-bit weights, solves, fixes those fields and goes on; criteria too wide even alone are first
narrowed by solves on their most significant layers, and when that cannot make them fit, the
round goes to one exact networkx matching. With a narrower limit the fixtures take those paths
(a few fields per solve, narrowing, the networkx fallback) and must still give their
hand-derived pairings.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import pairing.team.swiss as team_swiss
from pipelines.engines.cli import main
from tests.conftest import TESTDATA, require_testdata

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))

# At the room left to the identifier (16 bits): every round falls back to networkx. At 20
# bits: a few narrowing solves, two rounds fall back, the others fix fields a few at a time.
WIDTHS = (team_swiss._ROOM, 20)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_fixture_pairing_with_narrow_weights(
    name: str, width: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = require_testdata("chess", "team")
    exact = _count(monkeypatch, team_swiss, "_pair_exact")
    solves = _count(monkeypatch, team_swiss._Stepwise, "_solve")
    monkeypatch.setattr(team_swiss, "_WIDTH", width)
    out = tmp_path / "out.txt"
    assert main(["--team", str(folder / f"{name}.input"), "-p", str(out)]) == 0
    expected = (folder / f"{name}.output.expected").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == expected
    if width == team_swiss._ROOM:  # a round that needs a matching (one narrowing solve)
        assert exact == solves
    else:
        assert exact[0] <= 1


def _count(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (one cell, updated in place)."""
    calls = [0]
    original: Callable[..., object] = getattr(owner, name)

    def counted(*args: object) -> object:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls
