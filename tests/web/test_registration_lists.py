"""Issue 43's "Done when", at the doors a user has (a real `arbiter serve`, the `arbiter`
command in subprocesses), with FIDE's list of 2025-11-01 imported (two players: Carlsen
1503014, Hou 8602980; docs/validation.md, "an id on no imported list"):

- a player's own entry (the API and the form) with a FIDE id on no list is refused, nothing
  appended; a listed id is registered from the list;
- `registrations T approve N` reads the lists as they are at approval, `team member add` too
  (each lets a player new to FIDE through with --not-on-list only);
- `player edit` cannot give a player another player's FIDE id, in a `batch` file either;
- a rating of 0 is no rating, as a blank is: `player add --rating 0`, a CSV row, the director's
  API and a player's own entry store none.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU
from tests.web.serving import ARBITER, Served, add_user, batch, cli, serve
from tests.web.test_validation_doors import ERROR

UNLISTED = (
    "fide_id 99999999 is not on the fide-standard list of 2025-11-01 "
    "(not_on_list registers a player new to FIDE)"
)
UNLISTED_CLI = UNLISTED.replace("fide_id", "--fide-id").replace("not_on_list", "--not-on-list")


def run(store: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", store, *args], capture_output=True, text=True, check=False
    )


def version(store: str, tournament: str) -> int:
    s = DuckDBStore(store)
    try:
        return s.stream_version(f"tournament-{tournament}")
    finally:
        s.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, Path]]:
    """`t` open to entries; `u` by approval, with request 1 (FIDE id 99999999) made before the
    list was imported; `w` a team Swiss with team 'Oslo'. Then FIDE's list imported."""
    folder = tmp_path_factory.mktemp("entrylists")
    store = str(folder / "store.duckdb")
    batch(store, folder, [  # the set-up, in one process
        *(f"tournament create --name {tid.upper()} --id {tid} --rounds 5" for tid in ("t", "u")),
        "tournament edit t --registration open",
        "tournament edit u --registration approval",
        "tournament create --name W --id w --system team-swiss --rounds 5",
        "team add w --name Oslo",
    ])  # fmt: skip
    token = add_user(store, "kari", "director", "t", password="kari-secret-1")
    served = serve(store, folder)
    try:
        entry = {"name": "Nyberg, Eva", "fide_id": "99999999"}
        r = httpx.post(served.url + "/api/tournaments/u/registrations", json=entry)
        assert r.status_code == 201, r.text
        path = fide_xml(folder / "players_list_xml_foa.xml", [CARLSEN, HOU])
        cli(store, "ratings", "import", str(path), "--date", "2025-11-01")
        yield served, token, folder
    finally:
        served.stop()


def test_an_own_entry_with_an_unlisted_fide_id_is_refused_at_the_api(
    site: tuple[Served, str, Path],
) -> None:
    served, _, _ = site
    url = served.url + "/api/tournaments/t/registrations"
    before = version(served.store, "t")
    r = httpx.post(url, json={"name": "New, Ann", "fide_id": "99999999"})
    assert (r.status_code, r.json()) == (422, {"error": UNLISTED})
    r = httpx.post(url, json={"name": "New, Ann", "fide_id": "99999999", "not_on_list": True})
    assert (r.status_code, r.json()) == (
        422,
        {"error": "not_on_list: is not a field of a player's own entry"},
    )
    assert version(served.store, "t") == before
    r = httpx.post(url, json={"name": "Carlsen, Magnus", "fide_id": "1503014"})
    assert r.status_code == 201, r.text
    listed = json.loads(cli(served.store, "player", "list", "t", "-f", "json"))
    carlsen = next(p for p in listed if p.get("fide_id") == "1503014")
    assert (carlsen["name"], carlsen["rating"], carlsen["federation"]) == (
        "Carlsen, Magnus",
        2839,
        "NOR",
    )


def test_an_own_entry_with_an_unlisted_fide_id_is_refused_on_the_form(
    site: tuple[Served, str, Path],
) -> None:
    served, _, _ = site
    page = httpx.get(served.url + "/t/t/register")
    csrf = page.cookies["arbiter_csrf"]
    before = version(served.store, "t")
    r = httpx.post(
        served.url + "/t/t/register",
        data={"name": "New, Ann", "fide_id": "99999999", "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    found = ERROR.search(r.text)
    assert r.status_code == 400, r.text[:300]
    assert found is not None
    assert found.group(1) == UNLISTED
    assert version(served.store, "t") == before


def test_approval_reads_the_lists_as_they_are(site: tuple[Served, str, Path]) -> None:
    served, _, _ = site
    before = version(served.store, "u")
    done = run(served.store, "registrations", "u", "approve", "1")
    assert (done.returncode, done.stderr) == (1, f"error: {UNLISTED_CLI}\n")
    assert version(served.store, "u") == before
    done = run(served.store, "registrations", "u", "approve", "1", "--not-on-list")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"u: request 1 registered as No. 1 \(check-in code \w{6}\)\n", done.stderr)


def test_a_team_member_is_checked_against_the_lists(site: tuple[Served, str, Path]) -> None:
    served, _, _ = site
    args = ("team", "member", "add", "w", "Oslo", "--name", "New, Ann", "--fide-id", "99999999")
    before = version(served.store, "w")
    done = run(served.store, *args)
    assert (done.returncode, done.stderr) == (1, f"error: {UNLISTED_CLI}\n")
    assert version(served.store, "w") == before
    assert run(served.store, *args, "--not-on-list").stdout == "1\n"
    # A listed id fills the member from the list.
    listed_id = ("team", "member", "add", "w", "Oslo", "--fide-id", "8602980")
    assert run(served.store, *listed_id).stdout == "2\n"
    listed = json.loads(cli(served.store, "player", "list", "w", "-f", "json"))
    assert {(p["id"], p["name"], p.get("fide_id")) for p in listed} == {
        (1, "New, Ann", "99999999"),
        (2, "Hou, Yifan", "8602980"),
    }


def test_a_batch_cannot_give_a_player_another_players_fide_id(
    site: tuple[Served, str, Path],
) -> None:
    served, _, folder = site
    cli(served.store, "player", "add", "t", "--name", "Lie, Per", "--fide-id", "8602980",
        "--rating", "2000")  # fmt: skip
    cli(served.store, "player", "add", "t", "--name", "Moe, Kim", "--fide-id", "7777777",
        "--not-on-list")  # fmt: skip
    listed = json.loads(cli(served.store, "player", "list", "t", "-f", "json"))
    numbers = {p["name"]: p["start_rank"] for p in listed}
    file = folder / "edit.txt"
    file.write_text(f"player edit t {numbers['Moe, Kim']} --fide-id 8602980\n", encoding="utf-8")
    before = version(served.store, "t")
    done = run(served.store, "batch", str(file))
    assert done.returncode == 1
    assert done.stderr == (
        f"error: t: FIDE id 8602980 is already registered as player No. {numbers['Lie, Per']} "
        f"(Lie, Per)\n{file}:1: stopped: `player edit t {numbers['Moe, Kim']} --fide-id 8602980` "
        "failed\n"
    )
    assert version(served.store, "t") == before


def test_a_rating_of_0_is_no_rating_at_every_door(site: tuple[Served, str, Path]) -> None:
    served, token, folder = site
    store = served.store
    cli(store, "player", "add", "t", "--name", "Null, Ola", "--rating", "0")
    cli(store, "player", "add", "t", "--name", "Blank, Ola")
    csv = folder / "zero.csv"
    csv.write_text('name,rating\n"Null, Per",0\n"Blank, Per",\n', encoding="utf-8")
    cli(store, "player", "import", "t", str(csv))
    auth = {"authorization": f"Bearer {token}"}
    players = served.url + "/api/tournaments/t/players"
    for body in ({"name": "Null, Kai", "rating": 0}, {"name": "Blank, Kai"}):
        assert httpx.post(players, json=body, headers=auth).status_code == 201
    entries = served.url + "/api/tournaments/t/registrations"
    for body in ({"name": "Null, Eli", "rating": 0}, {"name": "Blank, Eli"}):
        assert httpx.post(entries, json=body).status_code == 201
    listed = json.loads(cli(store, "player", "list", "t", "-f", "json"))
    ratings = {p["name"]: p["rating"] for p in listed if p["name"].startswith(("Null", "Blank"))}
    names = ("Null, Ola", "Blank, Ola", "Null, Per", "Blank, Per",
             "Null, Kai", "Blank, Kai", "Null, Eli", "Blank, Eli")  # fmt: skip
    assert ratings == dict.fromkeys(names)
    log = cli(store, "log", "t")
    assert "'rating': 0" not in log


def test_an_edit_to_rating_0_takes_the_rating_away_at_every_door(
    site: tuple[Served, str, Path],
) -> None:
    """docs/validation.md, rating: 0 is unrated, so `player edit --rating 0` (the command, a
    `batch` line, the director's API, the manage form) leaves the player with no rating, as a
    blank registration has."""
    from tests.web.test_validation_doors import _login

    served, token, folder = site
    store = served.store
    names = ("Zero, Cli", "Zero, Batch", "Zero, Api", "Zero, Form")
    batch(store, folder, [f"player add t --name '{name}' --rating 1900" for name in names])
    listed = json.loads(cli(store, "player", "list", "t", "-f", "json"))
    ids = {p["name"]: p["id"] for p in listed}
    assert {p["name"]: p["rating"] for p in listed if p["name"] in names} == dict.fromkeys(
        names, 1900
    )
    # the command line names a player by his pairing number, or by his id as id:N: the ids
    # stay put while the numbers follow the ratings until round 1 is paired
    done = run(store, "player", "edit", "t", f"id:{ids['Zero, Cli']}", "--rating", "0")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"player No\. \d+: set rating none\n", done.stderr), done.stderr
    script = folder / "zero.txt"
    script.write_text(f"player edit t id:{ids['Zero, Batch']} --rating 0\n", encoding="utf-8")
    assert run(store, "batch", str(script)).returncode == 0
    r = httpx.patch(
        f"{served.url}/api/tournaments/t/players/{ids['Zero, Api']}",
        json={"rating": 0},
        headers={"authorization": f"Bearer {token}"},
    )
    changed = {"player": ids["Zero, Api"], "changed": "rating none"}
    assert (r.status_code, r.json()) == (200, changed)
    jar = _login(served.url, "kari", "kari-secret-1")
    shown = json.loads(cli(store, "player", "list", "t", "-f", "json"))
    number = next(p["start_rank"] for p in shown if p["name"] == "Zero, Form")  # as the form shows
    r = httpx.post(
        served.url + "/t/t/manage/edit-player",
        data={"player": number, "rating": "0", "csrf_token": jar["arbiter_csrf"]},
        headers={"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())},
    )
    assert r.status_code in (200, 303), r.text[:300]
    listed = json.loads(cli(store, "player", "list", "t", "-f", "json"))
    assert {p["name"]: p["rating"] for p in listed if p["name"] in names} == dict.fromkeys(names)
