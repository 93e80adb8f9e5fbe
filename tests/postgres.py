"""A throwaway PostgreSQL server for the tests: initdb into a temp dir, a unix socket, no TCP.

Started once per test session by the ``postgres_server`` fixture (imported by the conftest of
each test folder that needs it) and stopped at the end; ``postgres_url`` gives each test a fresh
database. Debian's server binaries are looked up on PATH, then in /usr/lib/postgresql/*/bin.
As root, the server runs as the ``postgres`` user (initdb refuses root).

Without server binaries the tests skip; with ``ARBITER_REQUIRE_POSTGRES=1`` (CI) they fail.

The server runs with ``fsync=off``: the tests kill clients and the server process (``pg_ctl
stop -m immediate``), never the machine, and WAL written before a commit returns is in the page
cache and replayed at restart either way; syncing to disk would only make the suite slower.
``synchronous_commit`` stays on, so a commit the client saw survives a server crash.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["PostgresServer", "bench_database", "pg_binaries", "postgres_server", "postgres_url"]


def pg_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


@contextmanager
def bench_database(*, bulk_load: bool = False) -> Iterator[str | None]:
    """For a benchmark: a durable throwaway server (fsync on, as production) and a fresh
    database's URL, removed afterwards; None when this machine has no server binaries."""
    bin_dir = pg_binaries()
    if bin_dir is None:
        yield None
        return
    server = PostgresServer(bin_dir, durable=True)
    try:
        server.init()
        server.start(bulk_load=bulk_load)
        yield server.create_database()
    finally:
        server.stop("fast")
        server.remove()


class PostgresServer:
    """One server in a temp dir; ``url(db)`` is a libpq URI over its unix socket."""

    def __init__(self, bin_dir: Path, *, durable: bool = False) -> None:
        self.bin = bin_dir
        self.durable = durable
        """fsync and full-page writes on, as a production server (benchmarks)."""
        self.root = Path(tempfile.mkdtemp(prefix="arbiter-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_root = os.geteuid() == 0
        if self._as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._names = itertools.count(1)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip

    def start(self, *, bulk_load: bool = False) -> None:
        """``bulk_load``: the manual's advice for bulk loading (max_wal_size 4GB, WAL
        compression), as a server taking whole archives would be set up."""
        safety = "" if self.durable else "-c fsync=off -c full_page_writes=off "
        if bulk_load:
            safety += "-c max_wal_size=4GB -c wal_compression=on "
        options = (
            f"-k {self.root} -c listen_addresses='' {safety}"
            "-c max_connections=60 -c shared_buffers=128MB"
        )
        done = self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start",
            check=False,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr}{self.log.read_text()}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.root}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.split("@/", 1)[1].split("?", 1)[0]
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


_shared: list[PostgresServer] = []
_users: list[int] = [0]


def _acquire() -> PostgresServer:
    if not _shared:
        bin_dir = pg_binaries()
        if bin_dir is None:
            message = "PostgreSQL server binaries (initdb, pg_ctl) not found"
            if os.environ.get("ARBITER_REQUIRE_POSTGRES") == "1":
                pytest.fail(message + " (ARBITER_REQUIRE_POSTGRES=1)")
            pytest.skip(message)
        server = PostgresServer(bin_dir)
        try:
            server.init()
            server.start()
        except BaseException:
            server.remove()
            raise
        _shared.append(server)
    _users[0] += 1
    return _shared[0]


def _release() -> None:
    _users[0] -= 1
    if _users[0] == 0 and _shared:
        server = _shared.pop()
        server.stop("immediate")
        server.remove()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's server (one per process even when several conftests import this)."""
    server = _acquire()
    try:
        yield server
    finally:
        _release()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database of the session's server, dropped after the test."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url)
