"""The director's side of self-registration on the command line (`arbiter` in a subprocess):
`registrations T` lists the entries, `approve N` registers one with the rules of `player add`,
`decline N --reason` declines one; a request settled once is not settled again; the
`tournament edit` options refuse a bad mode or window in one line naming the option."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.process import arbiter_run
from tests.web.serving import new_event


def _entries(store: str) -> None:
    """Two entries made as the event's page makes them (set-up, in-process)."""
    from events.stores import open_store
    from pipelines.commands import registration

    with open_store(store) as s:
        registration.request(s, "oslo", {"name": "Nyberg, Eva", "rating": 2100, "title": "WIM"})
        registration.request(s, "oslo", {"name": "Berg, Anna", "birth": "1990"})


def test_list_approve_decline(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ivar"])
    done = arbiter_run(store, "tournament", "edit", "oslo", "--registration", "maybe")
    assert done.returncode == 1
    assert done.stderr.strip().endswith(
        "--registration: 'maybe' is not one of closed, open, approval"
    ), done.stderr
    done = arbiter_run(store, "tournament", "edit", "oslo", "--check-in", "09:00-09:45")
    assert done.returncode == 1
    assert "--check-in: '09:00-09:45' is not a check-in window (FROM/TO" in done.stderr
    assert (
        arbiter_run(store, "tournament", "edit", "oslo", "--registration", "approval").returncode
        == 0
    )
    _entries(store)

    rows = json.loads(arbiter_run(store, "registrations", "oslo", "-f", "json").stdout)
    assert [(r["request"], r["name"], r["status"], r["title"]) for r in rows] == [
        (1, "Nyberg, Eva", "waiting", "WIM"),
        (2, "Berg, Anna", "waiting", None),
    ]
    done = arbiter_run(store, "registrations", "oslo", "approve", "1")
    assert done.returncode == 0, done.stderr
    players = json.loads(arbiter_run(store, "player", "list", "oslo", "-f", "json").stdout)
    number = {p["name"]: p["start_rank"] for p in players}["Nyberg, Eva"]  # as listed
    assert re.fullmatch(
        rf"oslo: request 1 registered as No. {number} \(check-in code [0-9A-Z]{{6}}\)",
        done.stderr.strip(),
    )
    assert {p["name"]: p["title"] for p in players}["Nyberg, Eva"] == "WIM"

    done = arbiter_run(store, "registrations", "oslo", "decline", "2", "--reason", "already in")
    assert done.stderr.strip() == "oslo: request 2 (Berg, Anna) declined"
    done = arbiter_run(store, "registrations", "oslo", "approve", "2")
    assert done.returncode == 1
    assert done.stderr.strip() == "error: oslo: request 2 (Berg, Anna) is declined"
    rows = json.loads(arbiter_run(store, "registrations", "oslo", "-f", "json").stdout)
    assert [(r["status"], r["player"], r["reason"]) for r in rows] == [
        ("approved", 3, None),
        ("declined", None, "already in"),
    ]
