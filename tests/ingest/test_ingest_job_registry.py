"""Player identity across files: federation ids, then name + country only when unambiguous."""

from __future__ import annotations

import json
from pathlib import Path

from events.duckdb_store import DuckDBStore
from pipelines.commands.base import load
from pipelines.jobs.ingest import Status, ingest

HEAD = "; EV[{name}]\n; DT[2024-05-01,2024-05-01]\n"


def h9(tmp_path: Path, name: str, rows: list[str]) -> Path:
    path = tmp_path / f"{name}.h9"
    path.write_text(HEAD.format(name=name) + "".join(r + "\n" for r in rows))
    return path


def registry(store: DuckDBStore) -> dict[str, list[tuple[str, dict[str, object]]]]:
    out: dict[str, list[tuple[str, dict[str, object]]]] = {}
    for stream in store.streams("player-"):
        out[stream] = [(e.event_type, json.loads(e.payload)) for e in store.read_stream(stream)]
    return out


def test_ids_names_and_ambiguity(tmp_path: Path) -> None:
    store = DuckDBStore(":memory:")
    first = h9(
        tmp_path,
        "first",
        [
            "1 Dupont Jean 2d FR Pari 2+/w0 |11111111",
            "2 Martin Paul 1k FR Lyon 1-/b0 |22222222",
            "3 Durand Anne 3k FR Pari 4+/w0",
            "4 Petit Luc 5k BE Brux 3-/b0",
        ],
    )
    second = h9(
        tmp_path,
        "second",
        [
            "1 Dupont Jean 2d FR Pari 2+/w0 |11111111",  # same PIN: same registry player
            "2 DURAND Anne 3k FR Pari 1-/b0",  # no PIN: matched by name and country
            "3 Petit Luc 5k FR Brux 4+/w0",  # other country: a new player
            "4 Martin Paul 1k FR Lyon 3-/b0 |33333333",  # same name, other PIN
        ],
    )
    third = h9(
        tmp_path, "third", ["1 Martin Paul 1k FR Lyon 2+/w0", "2 Dupont Jean 2d FR Pari 1-/b0"]
    )
    report = ingest(store, [first, second, third])
    assert [f.status for f in report.files] == [Status.INGESTED] * 3
    reg = registry(store)
    assert reg["player-egd-11111111"] == [
        (
            "FederationPlayerRegistered",
            {
                "type": "FederationPlayerRegistered",
                "scheme": "egd",
                "federation_id": "11111111",
                "name": "Dupont, Jean",
                "country": "FR",
                "birth": None,
                "sex": None,
            },
        )
    ]
    locals_ = sorted(s for s in reg if s.startswith("player-local-"))
    # Durand and Petit (BE) in the first file, Petit (FR) in the second, Martin in the third.
    assert len(locals_) == 4
    second_players = load(store, str(report.files[1].tournament)).state.players
    first_players = load(store, str(report.files[0].tournament)).state.players
    assert second_players[2].ids["registry"] == first_players[3].ids["registry"]
    assert second_players[3].ids["registry"] != first_players[4].ids["registry"]
    notes = report.files[1].notes
    assert len(notes) == 1
    assert "'Petit, Luc' (FR) has no federation id and matches no registry player" in notes[0]
    # Two Paul Martins (two PINs) in the registry: the id-less one stays apart, reported.
    (ambiguous,) = [n for n in report.files[2].notes if "Martin" in n]
    assert "matches 2 registry players: registered as new" in ambiguous
    third_players = load(store, str(report.files[2].tournament)).state.players
    assert third_players[2].ids["registry"] == "player-egd-11111111"
    store.close()


def test_an_unnamed_id_gets_its_name_later(tmp_path: Path) -> None:
    head = "%%Tournament: T\n%%Country: NL\n%%Date: 05/01/2019\n%%Sender: S\n"
    a = tmp_path / "20190105_A.ELO"
    a.write_text(head + "%_% 101, SMITH, John, NL\n101 > 102\n")
    b = tmp_path / "20190106_B.ELO"
    b.write_text(head + "%_% 102, JONES, Ann, NL\n102 > 101\n")
    store = DuckDBStore(":memory:")
    ingest(store, [a, b])
    events = registry(store)["player-wof-102"]
    assert [kind for kind, _ in events] == [
        "FederationPlayerRegistered",
        "FederationPlayerUpdated",
    ]
    assert events[0][1]["name"] == ""
    assert events[1][1]["name"] == "JONES, Ann"
    store.close()
