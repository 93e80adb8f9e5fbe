"""OpenGotha XML that loses nothing (issue 33, part 2), through the `arbiter` command.

A live Mac-Mahon event (bar 2d, floor 15k, komi 6.5, handicaps; 11 players) is run with a
requested half-point bye (round 1), a pairing bye (round 2), a forfeit (round 2), a zero-point
bye and a withdrawal (round 3), exported with `arbiter export -f opengotha`, and ingested into a
fresh store. Compared field by field, original against re-import:

- ``name``, ``start``, ``end``, ``place``, ``chief_arbiter`` (OpenGotha's ``name``,
  ``beginDate``, ``endDate``, ``location``, ``director``), ``system``, ``rounds``;
- the parameters: the re-import exported again writes the same ``TournamentParameterSet``
  (general, handicap, placement criteria, pairing, every attribute);
- players: name, rank, club, federation, rating; the file's ``rating`` is the player's own
  (``MAN``), else the one OpenGotha derives from the rank (``ratingOrigin="INI"``; expected
  values from OpenGotha's own egc2013.xml), never a constant;
- every round's boards: white, black, handicap, komi, result (the forfeit ``+-`` included),
  the pairing bye; the half-point bye counts half a point (3 rounds: 1.5 points);
- each player's rounds in the crosstable: opponent, colour, result, points (the half-point
  bye ``H``, the forfeit, the pairing bye, the zero-point bye's empty round);
- the standings (place, name, points, MMS, SOSM, SOSOSM) and the next round's pairing.

What OpenGotha cannot hold (its only requested bye is the absence; a game keeps its winner
only): the zero-point bye, the withdrawal and a win by resignation (``W+R``, back as ``W+``) are
each named on stderr, one line with player and round; their rounds score the same after the
re-import. The file has only elements and attributes of OpenGotha's DTD.
A corpus file ingested and exported has every attribute arbiter reads as the original has.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tests.cli.games_cli import Cli
from tests.conftest import require_testdata

PLAYERS = [
    ("Alpha, Ann", "4d", "Par", "FR", "2380"),
    ("Bravo, Ben", "3d", "Lyo", "FR", ""),
    ("Charlie, Cy", "2d", "Par", "DE", ""),
    ("Delta, Dee", "1d", "Ber", "DE", ""),
    ("Echo, Eve", "1k", "Lyo", "FR", ""),
    ("Foxtrot, Fay", "3k", "Par", "NL", ""),
    ("Golf, Gus", "5k", "Ber", "DE", ""),
    ("Hotel, Hal", "8k", "Ams", "NL", ""),
    ("India, Ida", "12k", "Lyo", "FR", ""),
    ("Juliet, Jo", "16k", "Par", "FR", ""),
    ("Kilo, Kai", "20k", "Ams", "NL", ""),
]
RESULTS = {1: ["W+", "B+", "W+", "B+", "W+"], 2: ["B+", "+-", "W+R", "B+", "W+"], 3: ["W+"] * 4}


def _batch(cli: Cli, tmp: Path, name: str, lines: list[str]) -> list[Any]:
    return cli.batch(tmp / f"{name}.txt", lines)


def _reports(tid: str) -> list[str]:
    return [
        f"tournament show {tid} --format json",
        f"player list {tid} --format json",
        *(f"pairings {tid} --round {r} --format json" for r in (1, 2, 3)),
        f"standings {tid} --format json",
        f"crosstable {tid} --format json",
        f"pair {tid} --format json",
    ]


def _seat(seat: dict[str, Any] | None) -> tuple[Any, ...] | None:
    return None if seat is None else (seat["name"], seat["rank"].lower(), seat["rating"])


def _boards(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (
            r["board"],
            _seat(r["white"]),
            _seat(r["black"]),
            r["result"],
            r.get("handicap"),
            r.get("komi"),
        )
        for r in rows
    ]


def _standings(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r["rank"], r["player"]["name"], r["points"], tuple(sorted(r["tiebreaks"].items())))
        for r in rows
    ]


def _crosstable(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (
            r["player"]["name"],
            g["round"],
            g.get("opponent"),
            g.get("colour"),
            g["result"],
            g["points"],
        )
        for r in rows
        for g in r["rounds"]
    ]


def _dtd(path: Path) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    """OpenGotha's DTD: each element's allowed children in order, and its attributes."""
    text = path.read_text()
    children = {
        name: re.findall(r"[A-Za-z]+", model.replace("#PCDATA", ""))
        for name, model in re.findall(r"<!ELEMENT\s+(\w+)\s+\(([^)]*)\)>", text)
    }
    attributes: dict[str, dict[str, str]] = {}
    for element, attribute, default in re.findall(
        r"<!ATTLIST\s+(\w+)\s+(\w+)\s+CDATA\s+(#REQUIRED|\"[^\"]*\")", text
    ):
        attributes.setdefault(element, {})[attribute] = default
    return children, attributes


def _check_dtd(
    node: ET.Element, dtd: tuple[dict[str, list[str]], dict[str, dict[str, str]]]
) -> None:
    children, attributes = dtd
    assert node.tag in children, f"<{node.tag}> is not in the DTD"
    declared = attributes.get(node.tag, {})
    assert set(node.attrib) <= set(declared), (node.tag, set(node.attrib) - set(declared))
    required = {a for a, d in declared.items() if d == "#REQUIRED"}
    assert required <= set(node.attrib), (node.tag, required - set(node.attrib))
    order = [children[node.tag].index(c.tag) for c in node]  # ValueError: not allowed here
    assert order == sorted(order), (node.tag, [c.tag for c in node])
    for child in node:
        _check_dtd(child, dtd)


def test_a_live_macmahon_event_comes_back_from_opengotha_xml(tmp_path: Path) -> None:
    go = require_testdata("go")
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rank,club,federation,rating\n"
        + "".join(f'"{n}",{r},{c},{f},{g}\n' for n, r, c, f, g in PLAYERS)
    )
    lines = [
        "tournament create --name 'Live Go Open' --id lg --game go --system macmahon --rounds 4 "
        "--bar 2d --floor 15k --komi 6.5 --start 2026-05-02 --end 2026-05-03 --place Lyon "
        "--chief-arbiter 'Doe, Jane'",
        f"player import lg {players}",
        "bye lg 4 1 --kind half",
    ]
    for rnd, results in RESULTS.items():
        sheet = tmp_path / f"r{rnd}.txt"
        sheet.write_text("".join(f"{b} {r}\n" for b, r in enumerate(results, start=1)))
        if rnd == 3:
            lines += ["player withdraw lg 9", "bye lg 3 3 --kind zero"]
        lines += ["pair lg --format json", f"results lg --round {rnd} --file {sheet}"]
    first = Cli(tmp_path / "first.duckdb")
    _batch(first, tmp_path, "run", lines)
    xml = tmp_path / "lg.xml"
    done = first.run("export", "lg", "-f", "opengotha", "-o", str(xml))
    assert done.code == 0, done.err
    warned = [line for line in done.err.splitlines() if line.startswith("opengotha:")]
    assert len(warned) == 3, done.err
    assert "Charlie, Cy (#3): zero bye in round 3" in warned[0]
    assert "India, Ida (#9): withdrawn from round 3" in warned[1]
    assert "round 2 board 3 (Echo, Eve - Foxtrot, Fay): OpenGotha keeps the winner" in warned[2]

    second = Cli(tmp_path / "second.duckdb")
    report = json.loads(second("ingest", "--format", "json", str(xml)))
    (tid,) = [f["tournament"] for f in report["files"] if f["status"] == "ingested"]
    before = _batch(first, tmp_path, "a", _reports("lg"))
    after = _batch(second, tmp_path, "b", _reports(tid))
    (show, listed, *rounds, table, cross, paired) = before
    (show2, listed2, *rounds2, table2, cross2, paired2) = after

    fields = ("name", "start", "end", "place", "chief_arbiter", "system", "rounds")
    assert [show2[0][f] for f in fields] == [show[0][f] for f in fields]
    assert (show[0]["place"], show[0]["start"]) == ("Lyon", "2026-05-02")

    def people(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(p["name"], p["rank"].lower(), p["federation"], p["rating"]) for p in rows]

    assert people(listed2) == people(listed)
    # W+R comes back as W+ (named on stderr above); nothing else of a board changes
    assert [_boards(r) for r in rounds2] == [
        [(*b[:3], b[3].removesuffix("R"), *b[4:]) for b in _boards(r)] for r in rounds
    ]
    assert [b[3] for b in _boards(rounds[1])] == ["B+", "W+F", "W+R", "B+", "W+", "bye"]
    assert _standings(table2) == _standings(table)
    assert {r["player"]["name"]: r["points"] for r in table}["Delta, Dee"] == 1.5
    assert _boards(paired2) == _boards(paired)
    # each player's rounds: opponent, colour, result ('H' the half-point bye, '+' the forfeit
    # win, the PAB), points; the withdrawal itself is the one fact lost (named above)
    assert _crosstable(cross2) == _crosstable(cross)
    assert ("Delta, Dee", 1, None, None, "H", 0.5) in _crosstable(cross)
    assert [(r["player"]["name"], r["withdrawn_from"]) for r in cross if r["withdrawn_from"]] == [
        ("India, Ida", 3)
    ]

    again = tmp_path / "again.xml"
    second("export", tid, "-f", "opengotha", "-o", str(again))
    root, root2 = ET.parse(xml).getroot(), ET.parse(again).getroot()
    parameters, parameters2 = (r.find("TournamentParameterSet") for r in (root, root2))
    assert parameters is not None
    assert parameters2 is not None
    assert ET.tostring(parameters2) == ET.tostring(parameters)
    general = parameters.find("GeneralParameterSet")
    assert general is not None
    assert {k: general.get(k) for k in ("name", "beginDate", "endDate", "location")} == {
        "name": "Live Go Open",
        "beginDate": "2026-05-02",
        "endDate": "2026-05-03",
        "location": "Lyon",
    }
    assert (general.get("genMMBar"), general.get("genMMFloor"), general.get("komi")) == (
        "2D",
        "15K",
        "6.5",
    )
    written = {p.get("name"): p.attrib for p in root.iter("Player")}
    assert {p.get("name"): p.attrib for p in root2.iter("Player")} == written
    assert written["Delta"]["participating"].startswith("0111")  # the half-point bye
    assert [(b.get("player"), b.get("roundNumber")) for b in root.iter("ByePlayer")] == [
        ("KILOKAI", "2"),
        ("JULIETJO", "3"),
    ]
    by_default = [g.get("result") for g in root.iter("Game") if "_BYDEF" in (g.get("result") or "")]
    assert by_default == ["RESULT_WHITEWINS_BYDEF"]

    reference = ET.parse(go / "opengotha-rgf" / "egc2013.xml").getroot()
    derived = {
        (p.get("rank") or "").upper(): p.get("rating")
        for p in reference.iter("Player")
        if p.get("ratingOrigin") == "INI"
    }
    assert (written["Alpha"]["rating"], written["Alpha"]["ratingOrigin"]) == ("2380", "MAN")
    checked = [p for p in written.values() if p["rank"] in derived and p["name"] != "Alpha"]
    assert len(checked) >= 8
    assert all(p["rating"] == derived[p["rank"]] and p["ratingOrigin"] == "INI" for p in checked)

    _check_dtd(root, _dtd(go / "opengotha" / "tournament.dtd"))


def test_a_corpus_file_exports_the_attributes_it_was_read_from(tmp_path: Path) -> None:
    original = require_testdata("go") / "opengotha" / "Tournoi de Juvisy.xml"
    cli = Cli(tmp_path / "store.duckdb")
    report = json.loads(cli("ingest", "--format", "json", str(original)))
    (tid,) = [f["tournament"] for f in report["files"] if f["status"] == "ingested"]
    exported = tmp_path / "juvisy.xml"
    cli("export", tid, "-f", "opengotha", "-o", str(exported))
    source, written = ET.parse(original).getroot(), ET.parse(exported).getroot()
    assert written.attrib == source.attrib
    for path in (
        "Players/Player",
        "Games/Game",
        "ByePlayers/ByePlayer",
        "TournamentParameterSet/GeneralParameterSet",
        "TournamentParameterSet/HandicapParameterSet",
        "TournamentParameterSet/PlacementParameterSet/PlacementCriteria/PlacementCriterion",
        "TournamentParameterSet/PairingParameterSet",
    ):
        expected = sorted(sorted(e.attrib.items()) for e in source.findall(path))
        assert sorted(sorted(e.attrib.items()) for e in written.findall(path)) == expected, path
    assert len(source.findall("Games/Game")) > 0


def test_a_go_swiss_in_play_comes_back_and_pairs_the_same(tmp_path: Path) -> None:
    """A go Swiss (NBW, SOSW, SOSOSW; OpenGotha's Swiss parameters) exported while round 2 is
    in play with a half-point bye: the re-import is a Swiss with the same standings and round 2
    boards (no results yet); the same results then give the same round 3."""
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rank,club,federation,rating\n"
        + "".join(f'"{n}",{r},{c},{f},{g}\n' for n, r, c, f, g in PLAYERS)
    )
    sheets = {}
    for rnd in (1, 2):
        sheets[rnd] = tmp_path / f"r{rnd}.txt"
        sheets[rnd].write_text("".join(f"{b} {r}\n" for b, r in enumerate(RESULTS[3 - rnd], 1)))
    first = Cli(tmp_path / "first.duckdb")
    _batch(
        first,
        tmp_path,
        "run",
        [
            "tournament create --name 'Go Swiss' --id gs --game go --system swiss --rounds 3 "
            "--komi 7.5",
            f"player import gs {players}",
            "pair gs --format json",
            f"results gs --round 1 --file {sheets[1]}",
            "bye gs 2 2 --kind half",
            "pair gs --format json",
        ],
    )
    xml = tmp_path / "gs.xml"
    first("export", "gs", "-f", "opengotha", "-o", str(xml))
    second = Cli(tmp_path / "second.duckdb")
    report = json.loads(second("ingest", "--format", "json", str(xml)))
    (tid,) = [f["tournament"] for f in report["files"] if f["status"] == "ingested"]

    def play(cli: Cli, t: str, name: str) -> list[Any]:
        return _batch(
            cli,
            tmp_path,
            name,
            [
                f"tournament show {t} --format json",
                f"standings {t} --format json",
                f"pairings {t} --round 2 --format json",
                f"results {t} --round 2 --file {sheets[2]}",
                f"standings {t} --format json",
                f"pair {t} --format json",
            ],
        )

    show, table, in_play, table_after, paired = play(first, "gs", "a")
    show2, table2, in_play2, table_after2, paired2 = play(second, tid, "b")
    assert (show2[0]["system"], show2[0]["rounds"]) == (show[0]["system"], 3) == ("swiss", 3)
    assert [r["result"] for r in in_play] == [None] * 5
    assert _boards(in_play2) == _boards(in_play)
    assert _standings(table2) == _standings(table)
    assert _standings(table_after2) == _standings(table_after)
    assert _boards(paired2) == _boards(paired)
