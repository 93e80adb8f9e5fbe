"""Writes decided on the server's projection cache (`Server.command`) keep the CLI's rules.

A result or a registration through the server is checked against the hub's state of the
tournament instead of a replay of its stream. These tests mix it with CLI writes from another
process (the hub must see them before deciding), a removed registration (its id is never given
again), and a hub that is behind the log (the append's version check refuses, and the command
is decided again on the stream as stored).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import httpx
import pytest

from events.stores import open_store
from pipelines.commands import base as commands
from pipelines.commands import results, rounds
from pipelines.web.hub import StoreAccess
from pipelines.web.server import Server
from tests.web.serving import add_user, cli, new_event, serve

TIMEOUT_S = 120
post = functools.partial(httpx.post, timeout=TIMEOUT_S)
get = functools.partial(httpx.get, timeout=TIMEOUT_S)


def test_api_writes_beside_the_cli(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["A, One", "B, Two", "C, Three", "D, Four", "E, Five"])
    token = add_user(store, "kari", "director", "oslo")
    auth = {"authorization": f"Bearer {token}"}
    served = serve(store, tmp_path)
    try:
        cli(store, "player", "remove", "oslo", "5")
        r = post(
            served.url + "/api/tournaments/oslo/players", json={"name": "F, Six"}, headers=auth
        )
        assert r.status_code == 201, r.text
        # 5 was removed: never given again; unrated, F, Six is No. 5 after the 4 rated players
        assert r.json() == {"player": 6, "number": 5}

        assert post(served.url + "/api/tournaments/oslo/pair", headers=auth).status_code == 201
        r = post(
            served.url + "/api/tournaments/oslo/results",
            json={"round": 1, "board": 1, "result": "1-0"},
            headers=auth,
        )
        assert r.status_code == 201, r.text
        assert r.json()["event"] == "ResultRecorded"

        cli(store, "result", "oslo", "1", "2", "0-1")  # another process, straight into the log
        board_2 = {"round": 1, "board": 2, "result": "1/2-1/2"}
        r = post(served.url + "/api/tournaments/oslo/results", json=board_2, headers=auth)
        assert r.status_code == 400
        assert "already has result 0-1" in r.json()["error"]
        r = post(
            served.url + "/api/tournaments/oslo/results",
            json={**board_2, "correct": True},
            headers=auth,
        )
        assert r.status_code == 201, r.text
        assert r.json()["event"] == "ResultCorrected"

        r = post(
            served.url + "/api/tournaments/oslo/results",
            json={"round": 1, "board": 9, "result": "1-0"},
            headers=auth,
        )
        assert r.status_code == 400
        assert "round 1 has no board 9" in r.json()["error"]

        served_standings = get(served.url + "/api/tournaments/oslo/standings").content
        assert served_standings.decode() == cli(store, "standings", "oslo", "--format", "json")
        log = json.loads(cli(store, "log", "oslo", "--format", "json"))
        assert [e["version"] for e in log] == list(range(len(log)))
    finally:
        served.stop()


def test_a_hub_behind_the_log_decides_again(tmp_path: Path) -> None:
    url = str(tmp_path / "store.duckdb")
    tid = new_event(url, ["A, One", "B, Two", "C, Three", "D, Four"])
    server = Server(StoreAccess(url), tmp_path / "lists", 1000)
    with server.access.open() as store:
        rounds.pair(store, tid)
        server.hub.sync(store)
        results.record_one(store, tid, {"round": 1, "board": 1, "result": "1-0"})  # hub: unseen
        stale = server.hub.snapshot(tid)
        assert stale is not None
        assert stale.state.rounds[1].boards[0].outcome is None

        with pytest.raises(commands.CommandError, match="already has result 1-0"):
            server.command(
                tid,
                lambda known: results.record_one(
                    store, tid, {"round": 1, "board": 1, "result": "0-1"}, known=known
                ),
            )
        event = server.command(
            tid,
            lambda known: results.record_one(
                store, tid, {"round": 1, "board": 2, "result": "0-1"}, known=known
            ),
        )
        assert event.type == "ResultRecorded"
        types = [e.event_type for e in store.read_stream(commands.stream_of(tid))]
    assert types[-3:] == ["RoundPaired", "ResultRecorded", "ResultRecorded"]


def test_the_hub_state_keeps_removals_and_forbidden_pairs(tmp_path: Path) -> None:
    url = str(tmp_path / "store.duckdb")
    tid = "bergen"
    cli(url, "tournament", "create", "--name", "Bergen", "--id", tid, "--system", "dutch")
    for name in ("A, One", "B, Two", "C, Three", "D, Four"):
        cli(url, "player", "add", tid, "--name", name)
    cli(url, "player", "remove", tid, "4")
    cli(url, "forbid", tid, "1", "2")
    server = Server(StoreAccess(url), tmp_path / "lists", 1000)
    with open_store(url) as store:
        server.hub.sync(store)
        loaded = commands.load(store, tid)
    known = server.hub.snapshot(tid)
    assert known is not None
    assert known.version == loaded.version
    assert known.state == loaded.state
