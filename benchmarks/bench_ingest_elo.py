"""Parse the whole WOF .ELO archive (othello/elo, 7,938 files): seconds and games."""

from __future__ import annotations

import time
from pathlib import Path

from ingest.elo import parse_elo

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello" / "elo"


def run() -> dict[str, float | int | str]:
    files = sorted(ARCHIVE.glob("*/*.ELO"))
    if not files:
        return {"skipped": f"archive not found: {ARCHIVE}"}
    started = time.perf_counter()
    games = players = rejected_lines = 0
    for path in files:
        elo = parse_elo(path)
        games += len(elo.games)
        players += len(elo.players)
        rejected_lines += len(elo.errors)
    seconds = time.perf_counter() - started
    return {
        "files": len(files),
        "games": games,
        "player_lines": players,
        "rejected_lines": rejected_lines,
        "parse_seconds": round(seconds, 3),
        "games_per_second": round(games / seconds),
    }


if __name__ == "__main__":
    print(run())
