"""docs/validation.md's table at every door: the JSON API, the web forms and the CSV / results
files refuse each value the command line refuses, with the same message, the field named the
door's way, and append nothing.

The table is written for the command line (its test: tests/cli/test_validation_table.py). Its
section "The other doors" says how each row reads at the other doors: the option's field is its
name without ``--``, dashes as underscores (``--fide-id`` is ``fide_id``; ``--deputy-arbiter``
and ``--round-date`` are ``deputy_arbiters`` and ``round_dates``); a file names a field by its
column and gives the place ``FILE:LINE:COL``, while the file command's own options keep their
names. A row a door has no way to say (an export, a swap) is not run there.
"""

from __future__ import annotations

import html
import re
import shlex
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.test_validation_table import rows, setup_store
from tests.web.serving import ARBITER, Served, add_user, serve

PLURAL = {"deputy_arbiter": "deputy_arbiters", "round_date": "round_dates"}
NUMBERS = {"rating", "rounds", "round", "bye"}
FLAGS = {"correct", "force"}
OPTION = re.compile(r"--([a-z][a-z-]*)")
ERROR = re.compile(r'<p class="error" id="error">(.*?)</p>', re.S)


def field_of(option: str) -> str:
    name = option.removeprefix("--").replace("-", "_")
    return PLURAL.get(name, name)


def fields_named(message: str) -> str:
    """The table's message as the API and the forms say it: fields by their names."""
    return OPTION.sub(lambda m: field_of(m.group(0)), message)


@dataclass(frozen=True)
class Command:
    """A row's command line: the command, its arguments, its options (repeated ones listed)."""

    words: tuple[str, ...]
    args: tuple[str, ...]
    options: dict[str, Any]


def parse(command: str) -> Command:
    words = shlex.split(command)
    head = tuple(words[:2]) if words[0] in ("tournament", "player") else (words[0],)
    rest = words[len(head) :]
    args: list[str] = []
    options: dict[str, Any] = {}
    i = 0
    while i < len(rest):
        if rest[i].startswith("--") and field_of(rest[i]) in FLAGS:
            options[field_of(rest[i])] = True
            i += 1
        elif rest[i].startswith("--"):
            name = field_of(rest[i])
            value: Any = int(rest[i + 1]) if name in NUMBERS else rest[i + 1]
            if name in PLURAL.values():
                options.setdefault(name, []).append(value)
            else:
                options[name] = value
            i += 2
        else:
            args.append(rest[i])
            i += 1
    return Command(head, tuple(args), options)


# ------------------------------------------------------------------ the site


@dataclass
class Site:
    served: Served
    tokens: dict[str, str]
    cookies: dict[str, dict[str, str]]
    folder: Path

    @property
    def store(self) -> str:
        return self.served.store

    def state(self) -> tuple[int, ...]:
        s = DuckDBStore(self.store)
        try:
            return (
                *(s.stream_version(f"tournament-{t}") for t in "tgwrsv"),
                len(s.streams("tournament-")),
            )
        finally:
            s.close()


def _login(url: str, name: str, password: str) -> dict[str, str]:
    first = httpx.get(url + "/login")
    csrf = first.cookies["arbiter_csrf"]
    r = httpx.post(
        url + "/login",
        data={"name": name, "password": password, "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    assert r.status_code == 303, r.text
    return {
        "arbiter_session": r.cookies["arbiter_session"],
        "arbiter_csrf": r.cookies["arbiter_csrf"],
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("doors")
    store = str(setup_store(tmp_path_factory, folder))
    accounts = {
        "ola": ("officer", None),
        "kari": ("director", "t"),
        "gro": ("director", "g"),
        "rolf": ("director", "r"),
        "sara": ("director", "s"),
        "wenche": ("director", "w"),
        "vidar": ("director", "v"),
    }
    tokens = {
        name: add_user(store, name, role, tid, password=f"{name}-secret-1")
        for name, (role, tid) in accounts.items()
    }
    served = serve(store, folder)
    try:
        cookies = {name: _login(served.url, name, f"{name}-secret-1") for name in accounts}
        yield Site(served, tokens, cookies, folder)
    finally:
        served.stop()


def _who(c: Command) -> str:
    if c.words == ("tournament", "create"):
        return "ola"
    return {"g": "gro", "r": "rolf", "s": "sara", "w": "wenche", "v": "vidar"}.get(
        c.args[0], "kari"
    )


# ------------------------------------------------------------------ the doors


def api(site: Site, c: Command) -> tuple[int, str] | None:
    """The row through the JSON API: (status, the error it answers)."""
    auth = {"authorization": f"Bearer {site.tokens[_who(c)]}"}
    url = site.served.url + "/api/tournaments"
    match c.words:
        case ("tournament", "create"):
            r = httpx.post(url, json=c.options, headers=auth)
        case ("tournament", "edit"):
            r = httpx.patch(f"{url}/{c.args[0]}", json=c.options, headers=auth)
        case ("player", "add"):
            r = httpx.post(f"{url}/{c.args[0]}/players", json=c.options, headers=auth)
        case ("player", "edit"):
            r = httpx.patch(f"{url}/{c.args[0]}/players/{c.args[1]}", json=c.options, headers=auth)
        case ("player", "remove"):
            r = httpx.delete(f"{url}/{c.args[0]}/players/{c.args[1]}", headers=auth)
        case ("result",):
            tid, rnd, board, result = c.args
            number: int | str = int(board) if board.isdigit() else board
            body = {"round": int(rnd), "board": number, "result": result, **c.options}
            r = httpx.post(f"{url}/{tid}/results", json=body, headers=auth)
        case ("pair",) if not c.options:
            r = httpx.post(f"{url}/{c.args[0]}/pair", headers=auth)
        case ("undo",):
            body = {"round": c.options["round"], "confirm": True}
            r = httpx.post(f"{url}/{c.args[0]}/undo", json=body, headers=auth)
        case ("registrations",):
            tid, verb, number = c.args
            r = httpx.post(f"{url}/{tid}/registrations/{number}/{verb}", json={}, headers=auth)
        case ("check-in",):
            tid, player = c.args
            body = {"player": int(player)}
            r = httpx.post(f"{url}/{tid}/check-ins", json=body, headers=auth)
        case ("bye",):
            tid, player, rnd = c.args
            body = {"player": int(player), "round": int(rnd), **c.options}
            r = httpx.post(f"{url}/{tid}/byes", json=body, headers=auth)
        case _:
            return None
    return r.status_code, r.json().get("error", r.text)


def _form(site: Site, c: Command, path: str, data: dict[str, Any]) -> tuple[int, str]:
    jar = site.cookies[_who(c)]
    sent = {k: v for k, v in data.items() if not isinstance(v, list)}
    lists = [(k, item) for k, v in data.items() if isinstance(v, list) for item in v]
    r = httpx.post(
        site.served.url + path,
        data={**sent, "csrf_token": jar["arbiter_csrf"]},
        files=[(k, (None, str(item))) for k, item in lists] or None,
        headers={"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())},
    )
    found = ERROR.search(r.text)
    return r.status_code, html.unescape(found.group(1)) if found else r.text[:300]


def form(site: Site, c: Command) -> tuple[int, str] | None:
    """The row through the web forms: (status, the error the page shows)."""
    match c.words:
        case ("tournament", "create"):
            if "" in c.options.get("deputy_arbiters", ()):
                return None  # a form's list field drops blank lines: an empty one cannot be sent
            return _form(site, c, "/officer/tournaments", c.options)
        case ("tournament", "edit"):
            return _form(site, c, f"/t/{c.args[0]}/manage/event", c.options)
        case ("player", "add"):
            return _form(site, c, f"/t/{c.args[0]}/manage/player", c.options)
        case ("player", "edit"):
            data = {"player": c.args[1], **c.options}
            return _form(site, c, f"/t/{c.args[0]}/manage/edit-player", data)
        case ("result",):
            tid, rnd, board, result = c.args
            if not board.isdigit():
                return None  # the form's board is a number: a team's M.B is the API's
            flags = {"correct": "true"} if c.options.get("correct") else {}
            data = {"round": rnd, "board": board, "result": result, **flags}
            return _form(site, c, f"/t/{tid}/manage/result", data)
        case ("pair",) if not c.options:
            return _form(site, c, f"/t/{c.args[0]}/manage/pair", {})
        case ("undo",):
            data = {"round": c.options["round"], "confirm": "true"}
            return _form(site, c, f"/t/{c.args[0]}/manage/undo", data)
        case ("registrations",):
            tid, verb, number = c.args
            return _form(site, c, f"/t/{tid}/manage/{verb}", {"request": number})
        case ("check-in",):
            tid, player = c.args
            return _form(site, c, f"/t/{tid}/manage/check-in", {"player": player})
    return None


def files(site: Site, c: Command, number: int) -> tuple[int, str] | None:
    """The row through a file: a CSV of players (`player import`) or a results file
    (`results --file`); (exit status, what it printed on stderr)."""
    match c.words:
        case ("player", "add"):
            path = site.folder / f"players-{number}.csv"
            header = list(c.options)
            cells = ['"' + str(v).replace('"', '""') + '"' for v in c.options.values()]
            path.write_text(",".join(header) + "\n" + ",".join(cells) + "\n", encoding="utf-8")
            command = ["player", "import", c.args[0], str(path)]
        case ("result",):
            tid, rnd, board, result = c.args
            path = site.folder / f"results-{number}.txt"
            path.write_text(f"{board} {result}\n", encoding="utf-8")
            flags = ["--correct"] if c.options.get("correct") else []
            command = ["results", tid, "--round", rnd, "--file", str(path), *flags]
        case _:
            return None
    done = subprocess.run(
        [ARBITER, "--store", site.store, *command], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stderr


# ------------------------------------------------------------------ the rows

ROWS = rows()


@pytest.mark.parametrize(("command", "message"), ROWS, ids=[c for c, _ in ROWS])
def test_the_api_refuses_as_the_command_line(site: Site, command: str, message: str) -> None:
    before = site.state()
    answer = api(site, parse(command))
    if answer is None:
        pytest.skip("the API has no such request")
    status, error = answer
    assert status in (400, 404, 422), error
    assert error == fields_named(message)
    assert site.state() == before


@pytest.mark.parametrize(("command", "message"), ROWS, ids=[c for c, _ in ROWS])
def test_the_forms_refuse_as_the_command_line(site: Site, command: str, message: str) -> None:
    before = site.state()
    answer = form(site, parse(command))
    if answer is None:
        pytest.skip("no form says this")
    status, error = answer
    assert status == 400, error
    assert error == fields_named(message)
    assert site.state() == before


@pytest.mark.parametrize(
    ("number", "command", "message"),
    [(i, c, m) for i, (c, m) in enumerate(ROWS)],
    ids=[c for c, _ in ROWS],
)
def test_the_files_refuse_as_the_command_line(
    site: Site, number: int, command: str, message: str
) -> None:
    c = parse(command)
    before = site.state()
    answer = files(site, c, number)
    if answer is None:
        pytest.skip("no file says this")
    code, stderr = answer
    assert code == 1, stderr
    # A field of the file is named by its column, at its column; the command's own options
    # (--force) keep their names.
    named = OPTION.match(message)
    if named is not None and message[named.end()] in ": '":
        field = field_of(named.group(0))
        header = list(c.options)
        column = header.index(field) + 1 if field in header else 1
        text = field + message[named.end() :]
    else:  # a result's text is refused at its column, anything else about the line at the board
        result_text = c.words == ("result",) and "result '" in message
        column = (len(c.args[2]) + 2) if result_text else 1
        text = message
    path = site.folder / (
        f"players-{number}.csv" if c.words == ("player", "add") else f"results-{number}.txt"
    )
    assert stderr == f"error: {path}:{2 if c.words == ('player', 'add') else 1}:{column}: {text}\n"
    assert site.state() == before


WRONG_CODE = (
    "g: player No. 1: missing or wrong check-in code (given at registration; ask the director)"
)
"""docs/validation.md, "A player's own check-in": a code that is not the player's."""


def test_a_wrong_check_in_code_is_refused_at_the_api(site: Site) -> None:
    before = site.state()
    url = site.served.url + "/api/tournaments/g/check-ins"
    for body in ({"player": 1, "code": "AAAAAA"}, {"player": 1}):
        r = httpx.post(url, json=body)
        assert (r.status_code, r.json()) == (400, {"error": WRONG_CODE})
    assert site.state() == before


def test_a_wrong_check_in_code_is_refused_on_the_check_in_page(site: Site) -> None:
    before = site.state()
    page = httpx.get(site.served.url + "/t/g/check-in")
    csrf = page.cookies["arbiter_csrf"]
    r = httpx.post(
        site.served.url + "/t/g/check-in",
        data={"player": "1", "code": "AAAAAA", "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    found = ERROR.search(r.text)
    assert r.status_code == 400, r.text[:300]
    assert found is not None
    assert html.unescape(found.group(1)) == WRONG_CODE
    assert site.state() == before
