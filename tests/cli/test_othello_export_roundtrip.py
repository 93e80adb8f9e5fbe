"""A live othello event exported as WOF .ELO comes back the same (issue 33 part 2).

A 6-player, 3-round Swiss is run through the `arbiter` command (`arbiter batch`, one process):
two players registered with a WOF id (`--wof-id`), four without (two of them namesakes, `--force`),
disc counts typed per board, a pairing bye each round. It is exported (`arbiter export -f elo`),
the file is ingested into a fresh store, and compared field by field:

- the file's player lines: surname, first name, country and WOF id as typed; a player without a
  WOF id is a new player (``+``) with an id of their own (no two players share a line or an id);
- every round: board, white's name, black's name (none for the bye) and the result (the disc
  counts typed), in the ingested event as in the live one;
- the standings: each player's points, in the ingested event as in the live one and as the typed
  results give them (a win 1, a draw ½, the pairing bye 1);
- the ingested event exported again: the same file, byte for byte (WOF ids and new-player marks
  kept, the namesakes still two players).

A forfeit has no .ELO form: the export leaves that game out and says so on stderr, one line naming
the round, the board and both players.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from tests.cli.games_cli import Cli

T = "oslo-othello"
ROUNDS = 3
# (name, country, WOF id or None), as typed; the two "Eik, Ola" are namesakes.
PLAYERS: list[tuple[str, str, str | None]] = [
    ("Takanashi, Yusuke", "JPN", "5537"),
    ("Gamza, Dagna", "POL", "210103"),
    ("Berg, Anna", "NOR", None),
    ("Eik, Ola", "NOR", None),
    ("Eik, Ola", "SWE", None),
    ("Lund, Per", "DEN", None),
    ("Nakamura, Hajime", "JPN", "14275"),
]
# Results typed per round and board (white's discs first); the last board of each round is the
# pairing bye (7 players).
RESULTS = {
    1: ["40-24", "32-32", "20-44"],
    2: ["33-31", "10-54", "64-0"],
    3: ["29-35", "38-26", "32-32"],
}


def _batch(cli: Cli, tmp: Path, name: str, lines: list[str]) -> list[Any]:
    return cli.batch(tmp / f"{name}.txt", lines)


def _live(tmp: Path) -> tuple[Cli, Path, list[Any]]:
    cli = Cli(tmp / "live.duckdb")
    lines = [
        f"tournament create --id {T} --name 'Oslo Othello Open' --game othello --system swiss "
        f"--rounds {ROUNDS} --start 2026-03-01 --end 2026-03-02"
    ]
    seen: set[str] = set()
    for name, country, wof in PLAYERS:
        extra = f" --wof-id {wof}" if wof else ""
        force = " --force" if name in seen else ""
        seen.add(name)
        lines.append(
            f"player add {T} --name {shlex.quote(name)} --federation {country}{extra}{force}"
        )
    for r in range(1, ROUNDS + 1):
        lines.append(f"pair {T}")
        lines += [f"result {T} {r} {b} {res}" for b, res in enumerate(RESULTS[r], start=1)]
    out = tmp / "live.ELO"
    lines.append(f"export {T} -f elo -o {out}")
    lines += _views(T)
    return cli, out, _batch(cli, tmp, "live", lines)


def _views(tid: str) -> list[str]:
    rounds = [f"pairings {tid} --round {r} --format json" for r in range(1, ROUNDS + 1)]
    return [*rounds, f"standings {tid} --format json"]


def _boards(pairings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (b["board"], b["white"]["name"], (b.get("black") or {}).get("name"), b.get("result"))
        for b in pairings
    ]


def _points(standings: list[dict[str, Any]]) -> list[tuple[int, str, float]]:
    """(id, name, points): the namesakes are two players."""
    return sorted((row["player"]["id"], row["player"]["name"], row["points"]) for row in standings)


def _typed_points(pairings: list[list[dict[str, Any]]]) -> list[tuple[int, str, float]]:
    """The points the typed disc counts give (independent of the standings code)."""
    points: dict[tuple[int, str], float] = {}
    for boards in pairings:
        for b in boards:
            white = (b["white"]["id"], b["white"]["name"])
            black = (b["black"]["id"], b["black"]["name"]) if b.get("black") else None
            if black is None:
                points[white] = points.get(white, 0) + 1
                continue
            w, k = (int(x) for x in b["result"].split("-"))
            points[white] = points.get(white, 0) + (1 if w > k else 0.5 if w == k else 0)
            points[black] = points.get(black, 0) + (1 if k > w else 0.5 if w == k else 0)
    return sorted((*key, value) for key, value in points.items())


def _player_lines(text: str) -> list[list[str]]:
    return [
        [f.strip() for f in line[3:].split(",")]
        for line in text.splitlines()
        if line.startswith("%_%")
    ]


def test_live_othello_event_survives_elo_export_and_ingest(tmp_path: Path) -> None:
    _, exported, before = _live(tmp_path)
    text = exported.read_text()

    lines = _player_lines(text)
    assert len(lines) == len(PLAYERS)
    ids = [line[0] for line in lines]
    assert len(set(ids)) == len(ids), ids
    for (name, country, wof), line in zip(PLAYERS, lines, strict=True):
        surname, first = name.split(", ")
        assert line[1:4] == [surname, first, country]
        if wof is None:
            assert line[0].startswith("+"), line
            assert line[0][1:].isdecimal(), line
        else:
            assert line[0] == wof

    fresh = Cli(tmp_path / "fresh.duckdb")
    done = fresh.run("ingest", "--format", "json", str(exported))
    assert done.code == 0, done.err
    files = json.loads(done.out)["files"]
    assert [f["status"] for f in files] == ["ingested"]
    tid = files[0]["tournament"]
    again = tmp_path / "again.ELO"
    after = _batch(fresh, tmp_path, "fresh", [*_views(tid), f"export {tid} -f elo -o {again}"])

    for r in range(ROUNDS):
        assert _boards(after[r]) == _boards(before[r]), f"round {r + 1}"
        typed = [res for _, _, black, res in _boards(before[r]) if black is not None]
        assert typed == RESULTS[r + 1]
    assert _points(after[ROUNDS]) == _points(before[ROUNDS]) == _typed_points(before[:ROUNDS])
    assert again.read_text() == text


def test_a_forfeit_is_left_out_with_one_warning_line(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    lines = [f"tournament create --id {T} --name Forfeits --game othello --system swiss --rounds 2"]
    lines += [f"player add {T} --name 'P{i}, A' --federation NOR" for i in range(1, 5)]
    lines += [f"pair {T}", f"result {T} 1 1 +-", f"result {T} 1 2 40-24"]
    lines += [f"pairings {T} --round 1 --format json"]
    (pairing,) = _batch(cli, tmp_path, "forfeit", lines)
    white, black = pairing[0]["white"]["name"], pairing[0]["black"]["name"]
    done = cli.run("export", T, "-f", "elo")
    assert done.code == 0, done.err
    assert done.err.strip().splitlines() == [
        f"round 1 board 1: forfeit {white} - {black} is not written (the .ELO format has no "
        "forfeit)"
    ]
    games = [line for line in done.out.splitlines() if line[:1] == " " or line[:1].isdigit()]
    # Board 2 alone, black first with its mark as Papp writes it: black 24 discs, white 40.
    assert len(games) == 1
    assert "(24)<(40)" in games[0]


def test_the_wof_id_at_the_command_line_and_in_a_csv(tmp_path: Path) -> None:
    """`--wof-id` and a `wof_id` CSV column: one rule (digits, othello only, once per event);
    the id typed is the one the .ELO export writes."""
    cli = Cli(tmp_path / "s.duckdb")
    cli("tournament", "create", "--id", T, "--name", "Ids", "--game", "othello", "--rounds", "1")
    assert cli.refused("player", "add", T, "--name", "Eik, Ola", "--wof-id", "12ab") == (
        "error: --wof-id: '12ab' is not a WOF id (1 to 7 digits)"
    )
    csv = tmp_path / "players.csv"
    csv.write_text('name,federation,wof_id\n"Gamza, Dagna",POL,210103\n')
    cli("player", "import", T, str(csv))
    assert cli.refused("player", "add", T, "--name", "Berg, Anna", "--wof-id", "210103") == (
        "error: --wof-id 210103 is already player No. 1 (Gamza, Dagna)"
    )
    bad = tmp_path / "bad.csv"
    bad.write_text('name,wof_id\n"Berg, Anna",x1\n')
    line = cli.refused("player", "import", T, str(bad))
    assert line.endswith("wof_id: 'x1' is not a WOF id (1 to 7 digits)"), line
    assert _player_lines(cli("export", T, "-f", "elo")) == [
        ["210103", "Gamza", "Dagna", "POL", "0"]
    ]
