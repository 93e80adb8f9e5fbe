"""Berger tables against the FIDE Handbook (C.05 Annex 1) and their invariants."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.roundrobin import (
    RoundRobinError,
    berger_round,
    pair_round_robin,
    rounds_per_cycle,
)

# The published tables (FIDE Handbook C.05 Annex 1), white first.
HANDBOOK = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}


@pytest.mark.parametrize("players", sorted(HANDBOOK))
def test_matches_handbook_tables(players: int) -> None:
    for rnd, line in enumerate(HANDBOOK[players], start=1):
        expected = [tuple(int(x) for x in g.split("-")) for g in line.split()]
        assert berger_round(players, rnd) == expected, (players, rnd)


@pytest.mark.parametrize("players", range(3, 25))
def test_everyone_meets_everyone_once_with_balanced_colours(players: int) -> None:
    ids = list(range(101, 101 + players))
    meetings: Counter[frozenset[int]] = Counter()
    whites: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for rnd in range(1, rounds_per_cycle(players) + 1):
        boards = pair_round_robin(ids, rnd)
        in_round = [b.white for b in boards] + [b.black for b in boards if b.black is not None]
        assert sorted(in_round) == ids  # everyone exactly once per round
        for b in boards:
            if b.black is None:
                byes[b.white] += 1
            else:
                meetings[frozenset((b.white, b.black))] += 1
                whites[b.white] += 1
    assert len(meetings) == players * (players - 1) // 2
    assert set(meetings.values()) == {1}
    assert sum(byes.values()) == (players % 2) * players
    games = players - 1
    for pid in ids:
        assert abs(2 * whites[pid] - games) <= 1


def longest_colour_run(colours: list[str]) -> int:
    best = run = 0
    prev = ""
    for c in colours:
        run = run + 1 if c == prev else 1
        prev = c
        best = max(best, run)
    return best


@pytest.mark.parametrize("players", [4, 6, 8, 10, 12])
def test_double_round_robin_reverses_colours_without_three_in_a_row(players: int) -> None:
    ids = list(range(1, players + 1))
    per = rounds_per_cycle(players)
    colours: dict[int, list[str]] = {p: [] for p in ids}
    games: dict[frozenset[int], list[int]] = {}
    for rnd in range(1, 2 * per + 1):
        for b in pair_round_robin(ids, rnd, cycles=2):
            assert b.black is not None
            colours[b.white].append("w")
            colours[b.black].append("b")
            games.setdefault(frozenset((b.white, b.black)), []).append(b.white)
    for whites in games.values():
        assert len(whites) == 2
        assert whites[0] != whites[1]  # colours reversed in the second cycle
    for pid in ids:
        assert longest_colour_run(colours[pid]) <= 2, (pid, colours[pid])


@given(st.integers(min_value=3, max_value=24), st.data())
def test_rounds_outside_the_cycle_are_refused(players: int, data: st.DataObject) -> None:
    ids = list(range(1, players + 1))
    bad = data.draw(
        st.one_of(st.integers(max_value=0), st.integers(min_value=rounds_per_cycle(players) + 1))
    )
    with pytest.raises(RoundRobinError):
        pair_round_robin(ids, bad)


def test_field_size_limits() -> None:
    with pytest.raises(RoundRobinError, match=r"3\.\.24 players"):
        pair_round_robin([1, 2], 1)
    with pytest.raises(RoundRobinError, match=r"3\.\.24 players"):
        pair_round_robin(list(range(25)), 1)
