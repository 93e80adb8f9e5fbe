"""The Dutch 2025 round's completion weights, built row by row, equal the pair-by-pair rule.

Perturbed rounds of the Dutch corpus (absences, forbidden pairs, players with absolute colour
preferences) for every score the PAB could go to: each entry of
:meth:`pairing.dutch.weights.RoundContext.completion_rows` is
:meth:`~pairing.dutch.weights.RoundContext.completion` shifted by the total shift, symmetric,
0 on the diagonal.
"""

from __future__ import annotations

import pytest

from pairing.dutch.round import present_in_order, round_facts
from pairing.dutch.weights import RoundContext
from tests.pairing.test_matcher_shortcuts import _case


@pytest.mark.golden
@pytest.mark.parametrize("seed", range(20))
def test_completion_rows_are_the_completion_of_every_pair(seed: int) -> None:
    swiss, _ = _case(5000 + seed, ("dutch",))
    ctx = round_facts(swiss, RoundContext)
    order = present_in_order(swiss, ctx)
    ctx.size_bits, ctx.groups_shift = 6, 20
    shift = ctx.total_shift()
    for bye_score in sorted({ctx.score[p.index] for p in order}):
        rows = ctx.completion_rows(order, bye_score)
        for i, a in enumerate(order):
            assert rows[i][i] == 0
            for j in range(i):
                assert rows[i][j] == rows[j][i] == ctx.completion(a, order[j], bye_score) << shift
