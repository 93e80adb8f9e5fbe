"""Dutch pairing speed on chess/perf: round 6 of 100 (and 500, 1000) players (pairing.md 2.7).

``run()`` returns wall seconds, matcher solves and peak RSS per input.
``ARBITER_BENCH_DUTCH_SIZES`` (comma-separated, default ``100,500,1000``) chooses the inputs.
Measured on the shared 2-vCPU machine: 100 players 0.06 s, 500 players 2.4 s, 1000 players 20.6 s
(516 matcher solves; about 6 s of it in rustworkx's matching itself).
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

from ingest.trf import parse_trf
from pairing.dutch import pair
from pairing.swiss.from_trf import swiss_input_from_trf
from pairing.swiss.matching import Matcher

PERF = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "chess" / "perf"
INPUTS = {
    100: "input_p0100_pair_r06_bbpgen.trf",
    500: "input_p0500_pair_r06_bbpgen.trf",
    1000: "perf_dutchsim_p1000_r05.trf",
}


def _one(path: Path) -> dict[str, float | int]:
    matchers: list[Matcher] = []
    original = Matcher.__init__

    def counting_init(self: Matcher, size: int) -> None:
        original(self, size)
        matchers.append(self)

    start = time.perf_counter()
    swiss = swiss_input_from_trf(parse_trf(path))
    Matcher.__init__ = counting_init  # type: ignore[method-assign]
    try:
        result = pair(swiss)
    finally:
        Matcher.__init__ = original  # type: ignore[method-assign]
    seconds = time.perf_counter() - start
    return {
        "players": len(swiss.players),
        "round": swiss.round_to_pair,
        "boards": len(result.boards),
        "wall_seconds": round(seconds, 3),
        "solves": sum(m.solves for m in matchers),
        "solves_skipped": sum(m.skipped for m in matchers),
        "solves_whole_graph": sum(m.whole for m in matchers),
        "peak_rss_mb_so_far": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def run() -> dict[str, object]:
    """Figures per input size, plus the process's peak RSS."""
    sizes = [int(s) for s in os.environ.get("ARBITER_BENCH_DUTCH_SIZES", "100,500,1000").split(",")]
    figures: dict[str, object] = {}
    for size in sizes:
        path = PERF / INPUTS[size]
        figures[f"p{size}"] = _one(path) if path.exists() else "input absent"
    figures["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return figures


if __name__ == "__main__":
    print(run())
