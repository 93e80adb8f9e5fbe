"""Mac-Mahon pairing speed: a synthetic 1,000-player round and EGC 2011's last round."""

from __future__ import annotations

import random
import resource
import time
from pathlib import Path

from ingest.opengotha import read_opengotha
from pairing.macmahon import GoPlayer, GoTournament, MacMahonParams, pair
from pairing.macmahon.from_opengotha import params_from_opengotha, tournament_from_opengotha

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


def run() -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    tournament = _synthetic(1000)
    start = time.perf_counter()
    result = pair(tournament, MacMahonParams(), 1)
    figures["synthetic_1000_round1_seconds"] = round(time.perf_counter() - start, 3)
    figures["synthetic_1000_round1_games"] = len(result.games)
    figures["peak_rss_mib_after_synthetic"] = round(_peak_mib(), 1)
    if EGC2011.exists():
        source = read_opengotha(EGC2011)
        egc = tournament_from_opengotha(source)
        params = params_from_opengotha(source)
        last = max(g.round for g in egc.games)
        start = time.perf_counter()
        result = pair(egc, params, last)
        figures["egc2011_last_round"] = last
        figures["egc2011_last_round_seconds"] = round(time.perf_counter() - start, 3)
        figures["egc2011_last_round_games"] = len(result.games)
        figures["peak_rss_mib_after_egc2011"] = round(_peak_mib(), 1)
    else:
        figures["egc2011"] = f"missing: {EGC2011}"
    return figures


if __name__ == "__main__":
    print(run())
