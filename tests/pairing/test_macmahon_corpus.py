"""OpenGotha's own costs and pairings (pairing.md §4.11) reproduced by pairing.macmahon."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pairing.macmahon.cost import COMPONENT_NAMES
from pairing.macmahon.engine import pair, prepare_round
from tests.conftest import TESTDATA, require_testdata
from tests.pairing.corpus import opengotha_input

ORACLE = ("go", "pairgoth", "opengotha")
SOURCES = {
    "simpleswiss": "pairings/simpleswiss.xml",
    "notsosimpleswiss": "pairings/notsosimpleswiss.xml",
    "simplemm": "pairings/simplemm.xml",
    "notsimplemm": "pairings/notsimplemm.xml",
    "20240921-KPMC-Splitbug": "pairings/20240921-KPMC-Splitbug.xml",
    "bosp2024": "bosp2024/bosp2024.xml",
}
# Share of pairs whose total is within 10 of the dump, per dump (measured; pairing.md §4.11
# lists bosp2024 as a real event with manual changes and the DU/DD bug).
MIN_TOTAL_SHARE = {"bosp2024_weights_R3": 0.49}
DUMPS = sorted(
    str(p.relative_to(TESTDATA.joinpath(*ORACLE)))
    for p in TESTDATA.joinpath(*ORACLE).glob("*/*_weights_R*.txt")
)


def _dump(path: Path) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()[2:]
    return [
        dict(line.split("=", 1) for line in lines[i : i + 12])
        for i in range(0, len(lines) - 11, 12)
    ]


@pytest.mark.golden
@pytest.mark.parametrize("relative", DUMPS or ["simplemm/simplemm_weights_R1.txt"])
def test_costs_match_opengotha_dump(relative: str) -> None:
    path = require_testdata(*ORACLE, *relative.split("/"))
    name = path.parent.name
    round_number = int(re.search(r"_R(\d+)\.txt$", path.name).group(1))  # type: ignore[union-attr]
    tournament, params = opengotha_input(TESTDATA.joinpath(*ORACLE, SOURCES[name]))
    setup = prepare_round(tournament, params, round_number)
    keys = {f"{p.name} {p.first_name}": p.key for p in tournament.players}
    rows = _dump(path)
    totals = components = 0
    for row in rows:
        cost = setup.context.cost(keys[row["Player1Name"]], keys[row["Player2Name"]])
        totals += abs(cost.total - int(row["totalCost"])) <= 10
        components += all(
            abs(getattr(cost, attribute) - int(row[column])) <= 10
            for attribute, column in COMPONENT_NAMES
        )
    share = totals / len(rows)
    print(f"{path.stem}: totals {totals}/{len(rows)}, all components {components}/{len(rows)}")
    assert share >= MIN_TOTAL_SHARE.get(path.stem, 1.0)
    if share == 1.0:
        assert components == len(rows)


# Rounds whose games (players and colours) and bye equal OpenGotha's. The "opengotha" matcher
# (Gabow's algorithm in OpenGotha's order) reproduces every round; the blossom matchers miss
# ties, equal-weight matchings where the algorithm decides (pairing.md §4.11); their counts are
# as measured.
MIN_ROUNDS = {
    ("simpleswiss", "opengotha"): 7,
    ("simpleswiss", "rustworkx"): 6,
    ("simpleswiss", "networkx"): 7,
    ("notsosimpleswiss", "opengotha"): 10,
    ("notsosimpleswiss", "rustworkx"): 10,
    ("notsosimpleswiss", "networkx"): 10,
    ("simplemm", "opengotha"): 5,
    ("simplemm", "rustworkx"): 4,
    ("simplemm", "networkx"): 4,
    ("notsimplemm", "opengotha"): 5,
    ("notsimplemm", "rustworkx"): 5,
    ("notsimplemm", "networkx"): 5,
}


@pytest.mark.golden
@pytest.mark.parametrize(("name", "matcher"), sorted(MIN_ROUNDS))
def test_pairings_match_opengotha(name: str, matcher: str) -> None:
    tournament, params = opengotha_input(require_testdata(*ORACLE, *SOURCES[name].split("/")))
    matched = []
    for round_number in range(1, params.number_of_rounds + 1):
        expected = {(g.white, g.black) for g in tournament.games if g.round == round_number}
        expected_bye = [b.player for b in tournament.byes if b.round == round_number]
        got = pair(tournament, params, round_number, matcher=matcher)
        same_games = {(g.white, g.black) for g in got.games} == expected
        if same_games and expected_bye == ([got.bye] if got.bye else []):
            matched.append(round_number)
    print(f"{name} ({matcher}): rounds matched {len(matched)}/{params.number_of_rounds}")
    assert len(matched) >= MIN_ROUNDS[name, matcher]


@pytest.mark.golden
def test_kpmc_first_round_is_not_optimal_in_the_file() -> None:
    """The 'split bug' file: OpenGotha's round 1 weighs less than the optimum we find."""
    tournament, params = opengotha_input(
        require_testdata(*ORACLE, *SOURCES["20240921-KPMC-Splitbug"].split("/"))
    )
    setup = prepare_round(tournament, params, 1)
    got = pair(tournament, params, 1)
    file_games = [(g.white, g.black) for g in tournament.games if g.round == 1]
    ours = sum(setup.context.cost(g.white, g.black).total for g in got.games)
    theirs = sum(setup.context.cost(w, b).total for w, b in file_games)
    assert ours > theirs
