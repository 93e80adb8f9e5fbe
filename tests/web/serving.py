"""A real `arbiter serve` in a subprocess on a free loopback port, and the CLI beside it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

BIN = Path(sys.executable).parent
ARBITER = str(BIN / "arbiter")


def cli(store: str, *args: str, stdin: str | None = None, actor: str = "td") -> str:
    """Run `arbiter --store STORE ARGS`; its stdout (fails the test on a non-zero exit)."""
    done = subprocess.run(
        [ARBITER, "--store", store, "--as", actor, *args],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"arbiter {' '.join(args)}: {done.stderr}"
    return done.stdout


def batch(store: str, folder: Path, lines: list[str], actor: str = "td") -> str:
    """Run command lines (shell-quoted, as typed after ``arbiter``) in one `arbiter batch`
    process: a set-up's commands without one process each. Its stdout (fails the test on a
    non-zero exit); the script is left in ``folder``."""
    fd, name = tempfile.mkstemp(prefix="batch-", suffix=".txt", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as script:
        script.write("".join(f"{line}\n" for line in lines))
    return cli(store, "batch", name, actor=actor)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    url: str
    store: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def serve(
    store: str,
    folder: Path,
    *options: str,
    env: dict[str, str] | None = None,
    host: str = "127.0.0.1",
) -> Served:
    """Start `arbiter serve` on the store (on ``host``, with these further options and
    environment variables); returns once it answers. Its stdout and stderr go to
    ``folder/serve-PORT.log``."""
    port = free_port()
    log = (folder / f"serve-{port}.log").open("wb")
    process = subprocess.Popen(
        [ARBITER, "--store", store, "serve", "--host", host, "--port", str(port),
         "--lists-dir", str(folder / "lists"), "--upload-limit", "200000", *options],
        stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "ARBITER_STORE_TIMEOUT": "20", **(env or {})},
    )  # fmt: skip
    url = f"http://{host}:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/tournaments", timeout=10).status_code == 200:
                return Served(url, store, process)
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError((folder / f"serve-{port}.log").read_text())
        time.sleep(0.1)


def new_event(store: str, players: list[str], rounds: int = 3, tid: str = "oslo") -> str:
    """A Swiss chess event with these players (ratings 2400 down by 50), made in-process
    (set-up only: what the tests drive goes through the CLI or the server)."""
    from events.domain import Game, System
    from events.stores import init_store, open_store
    from pipelines.commands import players as register
    from pipelines.commands import tournaments

    init_store(store)
    with open_store(store) as s:
        tournaments.create(
            s, {"name": "Oslo Open", "game": Game.CHESS, "system": System.SWISS,
                "rounds": rounds, "id": tid},
        )  # fmt: skip
        for i, name in enumerate(players):
            register.add(s, tid, {"name": name, "rating": 2400 - 50 * i})
    return tid


def add_user(
    store: str, name: str, role: str, tournament: str | None = None, password: str | None = None
) -> str:
    """Create an account in-process (set-up); its API token."""
    from events.stores import open_store
    from pipelines.web.accounts import add_user as add
    from pipelines.web.accounts import set_password

    with open_store(store) as s:
        token = add(s, name, role, tournament)  # type: ignore[arg-type]
        if password is not None:
            set_password(s, name, password)
    return token


def session(served: Served, name: str, password: str) -> dict[str, str]:
    """Log in through the login form; the session and CSRF cookies a browser would keep."""
    first = httpx.get(served.url + "/login")
    csrf = first.cookies["arbiter_csrf"]
    r = httpx.post(
        served.url + "/login",
        data={"name": name, "password": password, "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    assert r.status_code == 303, r.text
    return {k: r.cookies[k] for k in ("arbiter_session", "arbiter_csrf")}


def cookie_header(jar: dict[str, str]) -> dict[str, str]:
    """The ``Cookie`` header of a `session`."""
    return {"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
