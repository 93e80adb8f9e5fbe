"""The ingest door in the rule x door table: a file whose record a live command would refuse.

Each row is a rule of `docs/validation.md`'s table (its command and documented message, read
from the table), broken by one record of a small file. ``arbiter ingest --strict`` refuses the
file in one line naming the file, the record's line and column, and the documented message
(the field named as the file door names it: ``title``, not ``--title``), and the log keeps its
length; ``arbiter ingest`` (lenient: the file as the organiser wrote it) takes it, prints one
``accepted as written`` line for it on stderr and records that line in the file's
`FileIngested` event.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.test_validation_table import rows, run

HEADER = "012 Rules Open\n042 2026/03/01\n052 2026/03/02\n062 2\n"


def trf_player(
    number: int,
    name: str,
    *,
    title: str = "",
    rating: int = 2000,
    federation: str = "NOR",
    fide_id: str = "",
    birth: str = "",
    opponent: int,
    colour: str,
    result: str,
    points: str,
) -> str:
    """A TRF-16 ``001`` record (its columns by the standard: title 11-13, name 15-47, rating
    49-52, federation 54-56, FIDE id 58-68, birth 70-79, points 81-84, round 1 from 92)."""
    head = (
        f"001 {number:4d} m{title:>3} {name:<33} {rating:4d} {federation:3} {fide_id:>11} "
        f"{birth:10} {points:>4}"
    )
    return f"{head:<89}  {opponent:4d} {colour} {result}"


def trf(first: Mapping[str, Any], second: Mapping[str, Any]) -> str:
    """A one-round TRF: player 1 (line 5) beat player 2 (line 6) with white."""
    one = trf_player(1, opponent=2, colour="w", result="1", points="1.0", **first)
    two = trf_player(2, opponent=1, colour="b", result="0", points="0.0", **second)
    return HEADER + one + "\n" + two + "\n"


BERG = {"name": "Berg, Anna", "birth": "2001/05/04", "fide_id": "1503014"}
EIK = {"name": "Eik, Ola"}

CASES = [
    # (the validation.md row it mirrors, file name, its text, the line of the refused record)
    (
        'player add t --name "Eik, Ola" --title GMX',
        "title.trf",
        trf(BERG, {**EIK, "title": "GMX"}),
        6,
    ),
    (
        'player add t --name "Eik, Ola" --federation XYZ',
        "federation.trf",
        trf(BERG, {**EIK, "federation": "XYZ"}),
        6,
    ),
    (
        'player add t --name "Eik, Ola" --birth 04.05.2001',
        "birth.trf",
        trf(BERG, {**EIK, "birth": "04.05.2001"}),
        6,
    ),
    (
        'player add t --name "Eik, Ola" --rating 3200',
        "rating.trf",
        trf(BERG, {**EIK, "rating": 3200}),
        6,
    ),
    (
        'player add t --name "Berg, Anna" --birth 2001-05-04',
        "namesake.trf",
        trf(BERG, {"name": "Berg, Anna", "birth": "2001/05/04"}),
        6,
    ),
    (
        "player edit t 2 --fide-id 1503014",
        "taken.trf",
        trf(BERG, {**EIK, "fide_id": "1503014"}),
        6,
    ),
]


def documented(command: str) -> str:
    """The message `docs/validation.md` gives for ``command``."""
    found = dict(rows())
    assert command in found, f"no row {command!r} in docs/validation.md"
    return found[command]


def at_file_door(message: str, tournament: str) -> str:
    """The documented message as the file door says it: options as the fields they are
    (``--fide-id`` -> ``fide_id``), the tournament the file's.

    >>> at_file_door("t: player 1 ... ; --force registers", "x")
    'x: player 1 ... ; force registers'
    """
    message = re.sub(r"^t: ", f"{tournament}: ", message)
    return re.sub(r"--([a-z]+(?:-[a-z]+)*)", lambda m: m[1].replace("-", "_"), message)


def events_in(store: Path) -> int:
    s = DuckDBStore(str(store))
    try:
        return s.read_frame().height
    finally:
        s.close()


def file_ingested(store: Path) -> dict[str, object]:
    s = DuckDBStore(str(store))
    try:
        frame = s.read_frame(stream_prefix="file-")
    finally:
        s.close()
    (payload,) = frame["payload"]
    found: dict[str, object] = json.loads(payload)
    return found


@pytest.mark.parametrize(("command", "name", "text", "line"), CASES, ids=[c[1] for c in CASES])
def test_strict_refuses_lenient_takes_and_says(
    tmp_path: Path, command: str, name: str, text: str, line: int
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    expected = f"{path}:{line}:1: {at_file_door(documented(command), path.stem)}"
    store = tmp_path / "store.duckdb"
    assert run(store, "store", "init").returncode == 0
    before = events_in(store)

    refused = run(store, "ingest", "--strict", str(path))
    assert refused.returncode == 1, refused.stderr
    assert refused.stdout.splitlines()[0] == expected
    assert events_in(store) == before

    taken = run(store, "ingest", str(path))
    assert taken.returncode == 0, taken.stderr
    said = f"{path}:{line}:1: accepted as written: {at_file_door(documented(command), path.stem)}"
    assert said in taken.stderr.splitlines()
    assert "1 record(s) a live command would refuse taken as written" in taken.stdout
    assert file_ingested(store)["accepted"] == [said]


def test_a_refusal_names_the_player_by_his_number_in_the_file(tmp_path: Path) -> None:
    """A record refused for a namesake names the namesake by his number in the whole field
    (issue 47: one number per player), here the file's player 2, not by where he stands among
    the few players the record could clash with (docs/validation.md, the rule "duplicate")."""
    players = [
        trf_player(1, "Aas, Per", opponent=2, colour="w", result="1", points="1.0"),
        trf_player(2, "Berg, Anna", birth="2001/05/04", opponent=1, colour="b", result="0",
                   points="0.0"),
        trf_player(3, "Cox, Cai", opponent=4, colour="w", result="1", points="1.0"),
        trf_player(4, "Berg, Anna", birth="2001/05/04", opponent=3, colour="b", result="0",
                   points="0.0"),
    ]  # fmt: skip
    path = tmp_path / "twins.trf"
    path.write_text(HEADER.replace("062 2", "062 4") + "\n".join(players) + "\n", encoding="utf-8")
    store = tmp_path / "store.duckdb"
    assert run(store, "store", "init").returncode == 0
    refused = run(store, "ingest", "--strict", str(path))
    assert refused.returncode == 1, refused.stderr
    assert refused.stdout.splitlines()[0] == (
        f"{path}:8:1: twins: player No. 2 'Berg, Anna' born 2001-05-04 is already registered; "
        "force registers a second player of that name and birth date"
    )
