"""`arbiter demo`: a generated federation season run through the log, end to end.

Everything here is made by the project itself (names, ratings, results); no third-party data.
Results are drawn from the Elo expectation of the two ratings with a fixed seed, so the demo
is reproducible.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from events.domain import Game, System
from events.store import Store
from pipelines.commands import players, results, rounds, tournaments
from pipelines.commands.base import load
from pipelines.views import tournament as views
from projections.standings import standings

FIRST = {
    "NOR": ["Magnus", "Aryan", "Johan", "Ingrid", "Sigrid", "Elias"],
    "FRA": ["Maxime", "Laurent", "Camille", "Élodie", "Hugo", "Sophie"],
    "GER": ["Vincent", "Elisabeth", "Matthias", "Dinara", "Jonas", "Lena"],
    "JPN": ["Yuta", "Haruka", "Shinji", "Aiko", "Kenta", "Mio"],
    "IND": ["Vidit", "Koneru", "Harika", "Arjun", "Divya", "Pranav"],
    "NED": ["Anish", "Jorden", "Eline", "Lucas", "Thijs", "Machteld"],
}
LAST = {
    "NOR": ["Hansen", "Tari", "Berg", "Solberg", "Lie", "Haugen"],
    "FRA": ["Lagarde", "Fressinet", "Dubois", "Moreau", "Bernard", "Lefèvre"],
    "GER": ["Keymer", "Pähtz", "Blübaum", "Wagner", "Schmidt", "Fischer"],
    "JPN": ["Takahashi", "Suzuki", "Watanabe", "Tanaka", "Ito", "Yamamoto"],
    "IND": ["Gujrathi", "Humpy", "Dronavalli", "Erigaisi", "Deshmukh", "Rao"],
    "NED": ["Giri", "van Foreest", "Roebers", "Smit", "de Vries", "Bakker"],
}


@dataclass(frozen=True, slots=True)
class Plan:
    name: str
    game: Game
    players: int
    base_rating: int
    system: System = System.ROUNDROBIN
    rounds: int | None = None  # None: a full round robin


SEASON = (
    Plan("Oslo Chess Club Championship", Game.CHESS, 6, 2000),
    Plan("Paris Rapid Masters", Game.CHESS, 8, 2300),
    Plan("Bergen Spring Open", Game.CHESS, 15, 1900, System.DUTCH, 5),
    Plan("Kyoto Go Autumn Invitational", Game.GO, 6, 2100),
    Plan("Paris Go Mac-Mahon", Game.GO, 13, 1800, System.MACMAHON, 4),
    Plan("Amsterdam Othello Open", Game.OTHELLO, 7, 1700),
    Plan("Chennai Carrom League", Game.CARROM, 6, 1500),
)


def go_rank(rating: int) -> str:
    """The EGF-style rank of a rating: 2100 is 1d, each 100 points one grade."""
    grade = (rating - 2100) // 100
    return f"{grade + 1}d" if grade >= 0 else f"{min(-grade, 30)}k"


def _player_names(rng: random.Random, count: int) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < count:
        fed = rng.choice(sorted(FIRST))
        name = f"{rng.choice(LAST[fed])}, {rng.choice(FIRST[fed])}"
        if name not in seen:
            seen.add(name)
            out.append((name, fed))
    return out


def _result_text(game: Game, rng: random.Random, r_white: int, r_black: int) -> str:
    expected = 1 / (1 + 10 ** ((r_black - r_white) / 400))
    draw = {Game.CHESS: 0.3, Game.GO: 0.0, Game.OTHELLO: 0.04, Game.CARROM: 0.1}[game]
    u = rng.random()
    if u < draw:
        outcome = "draw"
    elif u < draw + (1 - draw) * expected:
        outcome = "white"
    else:
        outcome = "black"
    match game:
        case Game.CHESS:
            return {"draw": "1/2-1/2", "white": "1-0", "black": "0-1"}[outcome]
        case Game.GO:
            return "W+R" if outcome == "white" else "B+R"
        case Game.OTHELLO:
            win = rng.randint(33, 50)
            a, b = {"draw": (32, 32), "white": (win, 64 - win), "black": (64 - win, win)}[outcome]
            return f"{a}-{b}"
        case Game.CARROM:
            pts = rng.randint(1, 25)
            a, b = {"draw": (pts, pts), "white": (25, pts - 1), "black": (pts - 1, 25)}[outcome]
            return f"{a}-{b}"


def run_tournament(store: Store, plan: Plan, rng: random.Random) -> str:
    full = plan.players - 1 if plan.players % 2 == 0 else plan.players
    total = plan.rounds or full
    tid = tournaments.create(
        store, {"name": plan.name, "game": plan.game, "system": plan.system, "rounds": total}
    )
    ratings: dict[int, int] = {}
    for name, fed in _player_names(rng, plan.players):
        rating = plan.base_rating + rng.randint(-250, 250)
        rank = go_rank(rating) if plan.game is Game.GO else None
        entry = {"name": name, "rating": rating, "federation": fed, "rank": rank}
        pid, *_ = players.add(store, tid, {k: v for k, v in entry.items() if v is not None})
        ratings[pid] = rating
    for _ in range(total):
        event = rounds.pair(store, tid)
        for b in event.boards:
            if b.black is None:
                continue
            text = _result_text(plan.game, rng, ratings[b.white], ratings[b.black])
            entry = {"round": event.round, "board": b.board, "result": text}
            results.record_one(store, tid, entry)
    return tid


def run_demo(store: Store, out: str, seed: int, console: Console) -> list[str]:
    rng = random.Random(seed)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    ids = []
    for plan in SEASON:
        tid = run_tournament(store, plan, rng)
        ids.append(tid)
        state = load(store, tid).state
        rows = standings(state)
        (out_dir / f"{tid}-standings.json").write_text(
            json.dumps(views.standings_view(rows), ensure_ascii=False, indent=2) + "\n",
            encoding="utf-8",
        )
        table = Table(
            title=f"{plan.name} ({plan.game.value}, {plan.system.value}, {state.last_round} rounds)"
        )
        table.add_column("#", justify="right")
        table.add_column("Player")
        table.add_column("Fed")
        table.add_column("Rtg", justify="right")
        table.add_column("Pts", justify="right")
        for code in state.tiebreaks:
            table.add_column(code, justify="right")
        for r in rows:
            table.add_row(
                str(r.rank),
                r.name,
                r.federation or "",
                str(r.rating or ""),
                f"{r.points:g}",
                *(f"{v:g}" if v is not None else "" for v in r.tiebreaks.values()),
            )
        Console().print(table)
    console.print(f"demo season: {len(ids)} tournaments; standings JSON in {out_dir}/")
    from pipelines.jobs.ratings import demo_list

    demo_list(store, out_dir, console)
    return ids
