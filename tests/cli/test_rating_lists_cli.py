"""Rating lists per game, per rating type and per person, through `arbiter` in a subprocess.

One store holds a chess, a go and an othello event from the corpora (ingested with
`arbiter ingest`) and two rapid chess events whose players have no FIDE id. Expectations come
from the corpus files (who played a rated game, read here from the files' own columns) and from
the FIDE rules' worked numbers (ratings.md §3.4), never from arbiter's output.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from events.domain import Board, Game, Outcome, System
from events.duckdb_store import DuckDBStore
from events.params import PairingParams
from events.schema import (
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from tests.conftest import require_testdata
from tests.pipelines._season import append_tournament

ARBITER = Path(sys.executable).parent / "arbiter"

TRF = ("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
H9 = ("go", "h9", "honte_kpmc2013.h9")
ELO = ("othello", "elo", "2013", "20131024_WOC_2013.ELO")


def run(store: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBITER_STORE": str(store), "COLUMNS": "200"}
    done = subprocess.run(
        [str(ARBITER), *args], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done


def listed(store: Path, out: Path, *args: str) -> dict[str, dict[str, str]]:
    """Run a list into ``out`` and read back its ratings.csv by player id."""
    run(store, "ratings", "run", "-o", str(out), "--no-publish", *args)
    with (out / "ratings.csv").open(encoding="utf-8", newline="") as handle:
        return {r["player_id"]: r for r in csv.DictReader(handle)}


# ------------------------------------------------------------------ the corpus files, read here


def trf_played(path: Path) -> dict[str, int]:
    """FIDE id → games played (results 1, =, 0 against an opponent), from the 001 lines."""
    out: dict[str, int] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.startswith("001"):
            continue
        fide_id = line[57:68].strip()
        games = 0
        for start in range(91, len(line), 10):
            block = line[start : start + 8]
            if block[:4].strip() not in ("", "0000") and block[7:8] in ("1", "=", "0"):
                games += 1
        if games:
            out[fide_id] = games
    return out


def h9_played_pins(path: Path) -> set[str]:
    """EGD PINs of the rows with at least one game over the board (``12+/w``, not ``0+``)."""
    pins = set()
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith(";") or "|" not in line:
            continue
        cells = line.split("|")[0].split()
        if any(re.fullmatch(r"[1-9]\d*[+=-](/[bw]\d*)?", c) for c in cells):
            pins.add(line.split("|")[1].strip())
    return pins


def elo_ids(path: Path) -> set[str]:
    ids: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("%") or not line.strip():
            continue
        match = re.match(r"\s*(\d+)\s*(?:\(\d+\))?\s*[<>=]\s*(?:\(\d+\))?\s*(\d+)", line)
        if match:
            ids.update(match.groups())
    return ids


# ------------------------------------------------------------------ two rapid events, by hand


O_IDS = ["9000010", "9000011", "9000012", "9000013", "9000014"]


def rapid_event(tid: str, start: dt.date, players: list[PlayerRegistered],
                games: list[tuple[int, int, Outcome]]) -> list[EventBase]:  # fmt: skip
    """A chess event rated rapid (the rating type as today's creation events carry it); one
    round per game."""
    events: list[EventBase] = [
        TournamentCreated(
            tournament_id=tid, name=tid, game=Game.CHESS, system=System.IMPORTED,
            rounds=len(games), start_date=start,
            pairing_params=PairingParams.model_validate({"rating_type": "rapid"}),
        ),
        *players,
    ]  # fmt: skip
    for r, (white, black, outcome) in enumerate(games, start=1):
        events.append(RoundPaired(round=r, boards=(Board(board=1, white=white, black=black),)))
        events.append(ResultRecorded(round=r, board=1, outcome=outcome))
    return events


def rapid_events() -> list[list[EventBase]]:
    """The newcomer 'Ångström, Una' (no FIDE id, born 2001) plays three rated 1800s in March
    (2 wins, 1 loss) and two in April (1 win, 1 loss); 'Doe, John' (no id, no birth date)
    plays in both; 'Olsen, Ola' (no id in March, FIDE id 9000010 in April, same birth year)."""

    def rated(n: int, name: str, fide_id: str | None) -> PlayerRegistered:
        return PlayerRegistered(
            player=n, name=name, rating=1800, federation="NOR", birth="1980", fide_id=fide_id
        )

    una = PlayerRegistered(player=6, name="Ångström, Una", federation="NOR", birth="2001")
    doe = PlayerRegistered(player=7, name="Doe, John", federation="NOR")
    march = [
        rated(1, "Olsen, Ola", None),
        rated(2, "Berg, Per", O_IDS[1]),
        rated(3, "Dahl, Kari", O_IDS[2]),
        una,
        doe,
    ]
    april = [
        rated(1, "Olsen, Ola", O_IDS[0]),
        rated(4, "Lie, Nils", O_IDS[3]),
        rated(5, "Moe, Liv", O_IDS[4]),
        una,
        doe,
    ]
    w, b = Outcome.WHITE_WINS, Outcome.BLACK_WINS
    return [
        rapid_event("rapid-mar", dt.date(2018, 3, 10), march, [(6, 1, w), (6, 2, w), (3, 6, w),
                                                                (7, 1, b)]),
        rapid_event("rapid-apr", dt.date(2018, 4, 7), april, [(6, 4, w), (5, 6, w), (7, 1, w)]),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = [require_testdata(*TRF), require_testdata(*H9), require_testdata(*ELO)]
    path = tmp_path_factory.mktemp("lists") / "store.duckdb"
    with DuckDBStore(path) as s:
        for events in rapid_events():
            append_tournament(s, events)
    run(path, "ingest", *map(str, files))
    return path


def test_each_method_lists_only_its_game(store: Path, tmp_path: Path) -> None:
    chess = {f"fide:{i}" for i in trf_played(require_testdata(*TRF))}
    go = {f"egd:{p}" for p in h9_played_pins(require_testdata(*H9))}
    othello = {f"wof:{i}" for i in elo_ids(require_testdata(*ELO))}
    fide = listed(store, tmp_path / "fide", "--method", "fide", "--as-of", "2019-01-01")
    assert set(fide) == chess  # not the rapid events' players, nor go or othello players
    egf = listed(store, tmp_path / "egf", "--method", "egf", "--as-of", "2014-01-01")
    assert {p for p in egf if not p.startswith("local:")} == go
    wof = listed(store, tmp_path / "wof", "--method", "wof", "--as-of", "2013-11-01")
    assert set(wof) == othello
    glicko = listed(
        store, tmp_path / "g", "--method", "glicko2", "--game", "go", "--as-of", "2014-01-01"
    )
    assert set(glicko) == set(egf)
    # The games column counts each player's rated games of the list's own game.
    games = trf_played(require_testdata(*TRF))
    assert {p: int(r["games"]) for p, r in fide.items()} == {
        f"fide:{i}": n for i, n in games.items()
    }


def test_a_list_refuses_another_game_in_one_line(store: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "x")
    cases = [
        (["--method", "fide", "--game", "go"], "the fide list rates chess only, found 'go'"),
        (["--method", "egf", "--rating-type", "rapid"], "FIDE lists only have rating types"),
        (["--method", "glicko2"], "the log has results of chess, go, othello: give --game"),
    ]
    for args, message in cases:
        done = run(store, "ratings", "run", "-o", out, "--as-of", "2019-01-01", *args, code=1)
        assert done.stderr.count("\n") == 1, done.stderr
        assert message in done.stderr
    assert not Path(out).exists()


def test_the_rapid_list_counts_one_person_across_events(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "rapid"
    done = run(
        store, "ratings", "run", "--method", "fide", "--rating-type", "rapid", "--as-of",
        "2018-05-01", "-o", str(out), "-f", "json",
    )  # fmt: skip
    summary = json.loads(done.stdout)
    assert (summary["list"], summary["rating_type"]) == ("fide-rapid", "rapid")
    listing = listed(
        store, tmp_path / "rapid2", "--method", "fide", "--rating-type", "rapid", "--as-of",
        "2018-05-01",
    )  # fmt: skip
    una = [r for r in listing.values() if r["name"] == "Ångström, Una"]
    # Pooled over both events (rule 8.2): 3 of 5 against 1800s plus two hypothetical 1800
    # draws, p = 4/7 = .57, dp 50: 1850 (ratings.md §3.4). Counted as two people she would
    # have 3 and 2 games and no rating.
    assert [(r["rating"], r["games"], r["official"]) for r in una] == [("1850", "5", "true")]
    # Olsen played March without his FIDE id: the same person as fide:9000010 (name,
    # federation and birth year), 3 games in all.
    assert listing["fide:9000010"]["games"] == "3"
    assert not [p for p in listing if p.startswith("local:") and "Olsen" in listing[p]["name"]]
    # Doe has no birth date: the registry cannot tell, so two entries, and both reported.
    does = [p for p, r in listing.items() if r["name"] == "Doe, John"]
    assert len(does) == 2
    ambiguous = {r["player_id"] for r in summary["people"]["ambiguous"]}
    assert ambiguous == set(does)
    merged = {r["player_id"]: r["person"] for r in summary["people"]["merged"]}
    assert sorted(merged.values()) == sorted(["fide:9000010", una[0]["player_id"]])
    assert (out / "people.csv").read_text(encoding="utf-8").count("ambiguous") == 2


def test_show_finds_a_player_by_name_or_federation_id(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "pub"
    run(store, "ratings", "run", "--method", "fide", "--as-of", "2019-01-01", "-o", str(out))
    # Part of a name, any case: the one San Viator player called Sarabia (TRF line 1).
    shown = json.loads(run(store, "ratings", "show", "SARAB", "--method", "fide", "-f",
                           "json").stdout)  # fmt: skip
    assert (shown["player_id"], shown["name"]) == ("fide:2268957", "Sarabia Utrilla, Joaquin")
    assert [h["as_of"] for h in shown["history"]] == ["2019-01-01"]
    assert shown["games_total"] == trf_played(require_testdata(*TRF))["2268957"]
    # The FIDE id alone.
    by_id = json.loads(run(store, "ratings", "show", "2268957", "--method", "fide", "-f",
                           "json").stdout)  # fmt: skip
    assert by_id["player_id"] == "fide:2268957"
    # Accents ignored; the person's two registrations shown as one.
    una = json.loads(run(store, "ratings", "show", "angstrom", "--method", "fide",
                         "--rating-type", "rapid", "-f", "json").stdout)  # fmt: skip
    assert una["name"] == "Ångström, Una"
    assert (una["games_total"], len(una["aliases"])) == (5, 1)
    # Several hits: listed, with ids to choose from.
    does = run(store, "ratings", "show", "doe", "--method", "fide", "--rating-type", "rapid")
    assert does.stdout.count("Doe, John") == 2
    assert "2 players match 'doe'" in does.stderr
    missing = run(store, "ratings", "show", "nobody-at-all", "--method", "fide", code=1)
    assert missing.stderr.count("\n") == 1
    assert "no player" in missing.stderr
