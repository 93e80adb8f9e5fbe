"""Mac-Mahon pairing speed: a synthetic 1,000-player round and EGC 2011's last round.

Each with the default matcher (Gabow's algorithm in OpenGotha's order) and with rustworkx;
plus the matching alone on a 600-player chunk (the largest OpenGotha pairs at once).
"""

from __future__ import annotations

import random
import resource
import time
from pathlib import Path

from ingest.opengotha import read_opengotha
from pairing.macmahon import GoPlayer, GoTournament, MacMahonParams, pair
from pairing.swiss.gabow import gabow_matching
from pipelines.engines.macmahon_from_opengotha import params_from_opengotha
from tests.pairing.corpus import tournament_from_opengotha

EGC2011 = Path(__file__).resolve().parents[2] / "shared/testdata/go/opengotha-rgf/egc2011.xml"


def _synthetic(players: int, seed: int = 2011) -> GoTournament:
    rng = random.Random(seed)
    countries = ("FR", "DE", "NL", "CZ", "PL", "RU", "UA", "GB")
    return GoTournament(
        number_of_rounds=5,
        players=tuple(
            GoPlayer(
                key=f"P{i:05d}",
                name=f"Player{i:05d}",
                first_name="Synthetic",
                rank=rng.randint(-25, 6),
                rating=rng.randint(100, 2700),
                club=f"C{rng.randint(0, 150)}",
                country=rng.choice(countries),
            )
            for i in range(players)
        ),
    )


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _chunk_weights(players: int, seed: int = 600) -> list[list[int]]:
    """Costs shaped like a Mac-Mahon round: duplicate, score-group and seeding terms."""
    rng = random.Random(seed)
    groups = [rng.randint(0, 12) for _ in range(players)]
    weights = [[0] * players for _ in range(players)]
    for i in range(players):
        for j in range(i + 1, players):
            gap = abs(groups[i] - groups[j])
            cost = 1 + 5 * 10**14 + 10**11 * (28 - gap) // 28 + rng.randint(0, 5 * 10**6)
            weights[i][j] = weights[j][i] = cost
    return weights


def _timed_pair(
    tournament: GoTournament, params: MacMahonParams, round_number: int, matcher: str
) -> tuple[float, int]:
    start = time.perf_counter()
    result = pair(tournament, params, round_number, matcher=matcher)
    return round(time.perf_counter() - start, 3), len(result.games)


def run() -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    tournament = _synthetic(1000)
    for matcher, suffix in (("opengotha", ""), ("rustworkx", "_rustworkx")):
        seconds, games = _timed_pair(tournament, MacMahonParams(), 1, matcher)
        figures[f"synthetic_1000_round1_seconds{suffix}"] = seconds
        figures["synthetic_1000_round1_games"] = games
    figures["peak_rss_mib_after_synthetic"] = round(_peak_mib(), 1)
    weights = _chunk_weights(600)
    start = time.perf_counter()
    gabow_matching(weights)
    figures["gabow_matching_600_seconds"] = round(time.perf_counter() - start, 3)
    if EGC2011.exists():
        source = read_opengotha(EGC2011)
        egc = tournament_from_opengotha(source)
        params = params_from_opengotha(source)
        last = max(g.round for g in egc.games)
        figures["egc2011_last_round"] = last
        for matcher, suffix in (("opengotha", ""), ("rustworkx", "_rustworkx")):
            seconds, games = _timed_pair(egc, params, last, matcher)
            figures[f"egc2011_last_round_seconds{suffix}"] = seconds
            figures["egc2011_last_round_games"] = games
        figures["peak_rss_mib_after_egc2011"] = round(_peak_mib(), 1)
    else:
        figures["egc2011"] = f"missing: {EGC2011}"
    return figures


if __name__ == "__main__":
    print(run())
