"""Standings of a synthetic 1,200-player, 23-round Swiss with five tie-breaks (target: ≤ 1 s)."""

from __future__ import annotations

import random
import time

from decide.state import TournamentState, project
from events.domain import Board, Game, Outcome, System
from events.schema import Event, PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
from projections.standings import standings

PLAYERS = 1200
ROUNDS = 23
CHAIN = ("BH/C1", "BH", "SB", "ARO", "DE")
_OUTCOMES = (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)


def synthetic_events(players: int = PLAYERS, rounds: int = ROUNDS, seed: int = 1) -> list[Event]:
    """Rounds paired by score (neighbours in the current order), random results, odd → PAB."""
    rng = random.Random(seed)
    events: list[Event] = [
        TournamentCreated(
            tournament_id="bench",
            name="Benchmark Open",
            game=Game.CHESS,
            system=System.DUTCH,
            rounds=rounds,
            tiebreaks=CHAIN,
        )
    ]
    events += [
        PlayerRegistered(player=i, name=f"Player {i:04d}", rating=2600 - i, pairing_number=i)
        for i in range(1, players + 1)
    ]
    score = dict.fromkeys(range(1, players + 1), 0.0)
    for r in range(1, rounds + 1):
        order = sorted(score, key=lambda p: (-score[p], p))
        boards = [
            Board(board=i // 2 + 1, white=order[i], black=order[i + 1])
            for i in range(0, len(order) - 1, 2)
        ]
        if len(order) % 2:
            boards.append(Board(board=len(boards) + 1, white=order[-1]))
        events.append(RoundPaired(round=r, boards=tuple(boards)))
        for b in boards:
            if b.black is None:
                score[b.white] += 1
                continue
            outcome = rng.choice(_OUTCOMES)
            events.append(ResultRecorded(round=r, board=b.board, outcome=outcome))
            w = {Outcome.WHITE_WINS: 1.0, Outcome.DRAW: 0.5, Outcome.BLACK_WINS: 0.0}[outcome]
            score[b.white] += w
            score[b.black] += 1 - w
    return events


def _timed(state: TournamentState) -> float:
    start = time.perf_counter()
    standings(state, CHAIN)
    return time.perf_counter() - start


def run() -> dict[str, object]:
    state = project(synthetic_events())
    times = sorted(_timed(state) for _ in range(3))
    return {
        "players": PLAYERS,
        "rounds": ROUNDS,
        "tiebreaks": list(CHAIN),
        "standings_seconds_best": round(times[0], 4),
        "standings_seconds_median": round(times[1], 4),
        "target_seconds": 1.0,
    }


if __name__ == "__main__":
    print(run())
