"""The matcher's shortcuts never change a pairing.

The skip proofs, the kept focus graphs and the greedy completions only avoid work. Rounds of
the Dutch and Burstein reference corpora, perturbed with random absences and forbidden pairs
(some of them cannot be paired at all), are paired with the shortcuts and with plain
whole-graph matchings, and must come out the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from ingest.trf import parse_trf
from pairing import burstein, dutch, dutch2017
from pairing.burstein import engine as burstein_engine
from pairing.dutch import bracket
from pairing.swiss import matching
from pairing.swiss.model import SwissInput, SwissRound
from tests.conftest import TESTDATA, require_testdata
from tests.pairing.corpus import initial_colour, input_before, players

CASES = 40
MAX_PLAYERS = 40

Engine = Callable[[SwissInput], SwissRound]


def _files(systems: tuple[str, ...] = ("dutch", "burstein")) -> list[Path]:
    found = []
    for system in systems:
        for path in sorted((TESTDATA / "chess" / system).glob("*.trf")):
            if players(path) <= MAX_PLAYERS:
                found.append(path)
    return found


def _case(seed: int, systems: tuple[str, ...] = ("dutch", "burstein")) -> tuple[SwissInput, Engine]:
    rng = random.Random(seed)
    path = rng.choice(_files(systems))
    trf = parse_trf(path)
    total = max(len(p.rounds) for p in trf.players)
    k = rng.randint(1, total)
    swiss = input_before(trf, k, total, initial_colour(trf, total))
    numbers = [p.number for p in swiss.players]
    absent = frozenset(rng.sample(numbers, rng.randint(0, len(numbers) // 6)))
    extra = tuple(
        frozenset(rng.sample(numbers, 2)) for _ in range(rng.randint(0, 2 * len(numbers)))
    )
    if rng.random() < 0.2:  # one player nobody may meet: often no valid pairing
        lonely = rng.choice(numbers)
        extra += tuple(frozenset({lonely, n}) for n in numbers if n != lonely)
    swiss = replace(swiss, absent=absent, forbidden=swiss.forbidden + extra)
    engines = {"burstein": burstein.pair, "dutch2017": dutch2017.pair}
    return swiss, engines.get(path.parent.name, dutch.pair)


def _outcome(engine: Engine, swiss: SwissInput) -> object:
    try:
        result = engine(swiss)
    except dutch.NoValidPairingError:
        return "no valid pairing"
    return sorted(result.boards), result.pab


def _dutch_case(seed: int) -> tuple[SwissInput, Engine]:
    """A perturbed round of either Dutch corpus, paired by either edition (each edition on
    both corpora as the seeds go)."""
    require_testdata("chess", "dutch")
    require_testdata("chess", "dutch2017")
    swiss, _ = _case(seed, ("dutch", "dutch2017"))
    return swiss, dutch2017.pair if seed % 2 else dutch.pair


@pytest.mark.golden
@pytest.mark.parametrize("seed", range(CASES))
def test_same_pairing_with_and_without_shortcuts(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_testdata("chess", "dutch")
    swiss, engine = _case(seed)
    fast = _outcome(engine, swiss)
    monkeypatch.setattr(matching, "SHORTCUTS", False)
    assert _outcome(engine, swiss) == fast


@pytest.mark.golden
@pytest.mark.parametrize("seed", range(CASES))
def test_burstein_decides_players_in_batches_as_one_at_a_time(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Burstein decides several players of a scoregroup per solve (one priority field each,
    the first highest); deciding them one solve each must give the same pairing."""
    require_testdata("chess", "burstein")
    swiss, engine = _case(1000 + seed, ("burstein",))
    batched = _outcome(engine, swiss)
    monkeypatch.setattr(burstein_engine, "_WEIGHT_BITS", 0)  # room for one field only
    assert _outcome(engine, swiss) == batched


@pytest.mark.golden
@pytest.mark.parametrize("seed", range(CASES))
def test_dutch_decides_s1_players_in_batches_as_one_at_a_time(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both Dutch editions decide several S1 players per solve (one preference field
    each, the first highest); deciding them one solve each must give the same pairing."""
    swiss, engine = _dutch_case(2000 + seed)
    _without_assignments(monkeypatch)
    batched = _outcome(engine, swiss)
    monkeypatch.setattr(bracket, "S1_BATCH", 1)
    assert _outcome(engine, swiss) == batched


@pytest.mark.golden
@pytest.mark.parametrize("seed", range(CASES))
def test_dutch_s1_solves_restricted_to_the_remainder_as_on_the_whole_graph(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both Dutch editions solve the S1 decisions on the free remainder alone when nobody
    floats from it (:meth:`pairing.swiss.matching.Matcher.restrict`); solving them with the
    players below must give the same pairing."""
    swiss, engine = _dutch_case(3000 + seed)
    _without_assignments(monkeypatch)
    restricted = _outcome(engine, swiss)
    monkeypatch.setattr(bracket.Bracket, "_restrict_to_remainder", lambda _: None)
    assert _outcome(engine, swiss) == restricted


def _without_assignments(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Dutch brackets re-solve batch after batch: no pairing from one assignment."""
    monkeypatch.setattr(bracket.Bracket, "_pair_remainder_at_once", lambda _: False)
    monkeypatch.setattr(bracket.Bracket, "_pair_s1_at_once", lambda _: False)


@pytest.mark.golden
@pytest.mark.parametrize("before_exchanges", [True, False])
@pytest.mark.parametrize("seed", range(CASES))
def test_dutch_s1_players_paired_at_once_as_solve_by_solve(
    seed: int, before_exchanges: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both Dutch editions pair the S1 players of a bracket from one optimal assignment and
    its duals where the bracket's shape allows, one S2 player floating at most: before the
    exchange phases when an optimum needs no exchange (``Bracket._pair_remainder_at_once``),
    else after them (``Bracket._pair_s1_at_once``; alone when the first is off). Re-solving
    the matching batch after batch must give the same pairing. With both on, these 40 rounds
    pair 55 brackets before the exchanges and 20 after; 27 of the 75 have a floater, and 9
    float another player than the first matching did."""
    swiss, engine = _dutch_case(4000 + seed)
    if not before_exchanges:
        monkeypatch.setattr(bracket.Bracket, "_pair_remainder_at_once", lambda _: False)
    at_once = _outcome(engine, swiss)
    _without_assignments(monkeypatch)
    assert _outcome(engine, swiss) == at_once
