"""SoL pairing speed: a synthetic 200-player carrom Swiss (dazed), 9 rounds, seeded results.

``run()`` returns the wall seconds of each round's pairing (backtracking plus boards) and of
the ranking, and the total.
"""

from __future__ import annotations

import random
import time

from pairing.sol import Couplings, SolCompetitor, SolMatch, SolParams, SolTourney, pair, ranking

PLAYERS = 200
ROUNDS = 9


def run() -> dict[str, object]:
    draw = random.Random(2026)
    competitors = tuple(
        SolCompetitor(
            id=i,
            name=f"P{i:04d}",
            nationality=draw.choice(["ITA", "FRA", "DEU"]),
            rate=draw.randint(1000, 2400),
        )
        for i in range(1, PLAYERS + 1)
    )
    params = SolParams(couplings=Couplings.DAZED, rated=True, delaycompatriotpairing=2)
    matches: list[SolMatch] = []
    per_round = []
    start_all = time.perf_counter()
    for _ in range(ROUNDS):
        tourney = SolTourney(competitors=competitors, matches=tuple(matches))
        start = time.perf_counter()
        got = pair(tourney, params)
        paired = time.perf_counter() - start
        for p in got.pairings:
            win = draw.randint(13, 25)
            lose = draw.randint(0, win - 1)
            s1, s2 = (win, lose) if draw.random() < 0.5 else (lose, win)
            if p.competitor2 is None:
                s1, s2 = params.phantomscore, 0
            matches.append(
                SolMatch(
                    round=got.round,
                    board=p.board,
                    competitor1=p.competitor1,
                    competitor2=p.competitor2,
                    score1=s1,
                    score2=s2,
                )
            )
        start = time.perf_counter()
        ranking(SolTourney(competitors=competitors, matches=tuple(matches)), params)
        ranked = time.perf_counter() - start
        per_round.append(
            {
                "round": got.round,
                "pair_seconds": round(paired, 4),
                "ranking_seconds": round(ranked, 4),
            }
        )
    return {
        "players": PLAYERS,
        "rounds": ROUNDS,
        "couplings": params.couplings.value,
        "per_round": per_round,
        "total_seconds": round(time.perf_counter() - start_all, 3),
    }


if __name__ == "__main__":
    print(run())
