"""Slow-header connections are closed (issue 34, item 8: 300 of 300 stayed open after 20 s).

A real `arbiter serve --header-timeout 2`: 300 sockets each send half a request line and then
nothing; a normal request meanwhile gets 200, and 4 s after they connected the server has closed
every one of them. A keep-alive connection that starts a second request and stalls is closed
too, while a live stream (`/t/{id}/live`), whose headers came in time, stays open past the
deadline.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.web.serving import Served, new_event, serve

TIMEOUT = 2.0
SOCKETS = 300
TID = "oslo"


def _closed_by_server(sock: socket.socket, until: float) -> bool:
    """True when the server closed the socket (EOF or reset) before `until`."""
    while True:
        left = until - time.monotonic()
        if left <= 0:
            return False
        readable, _, _ = select.select([sock], [], [], left)
        if readable:
            try:
                if sock.recv(4096) == b"":
                    return True
            except ConnectionResetError:
                return True


def _host_port(served: Served) -> tuple[str, int]:
    host, port = served.url.removeprefix("http://").split(":")
    return host, int(port)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's tests (each closes every socket it opened)."""
    folder = tmp_path_factory.mktemp("slow_headers")
    store = str(folder / "s.duckdb")
    new_event(store, ["A", "B"], tid=TID)
    server = serve(store, folder, "--header-timeout", str(TIMEOUT))
    try:
        yield server
    finally:
        server.stop()


def test_partial_request_lines_are_closed(served: Served) -> None:
    socks: list[socket.socket] = []
    try:
        opened = time.monotonic()
        for _ in range(SOCKETS):
            sock = socket.create_connection(_host_port(served))
            sock.sendall(b"GET /api/tourn")
            socks.append(sock)
        answered = httpx.get(served.url + "/api/tournaments", timeout=5)
        assert answered.status_code == 200
        until = opened + TIMEOUT + 2
        still_open = [s for s in socks if not _closed_by_server(s, until)]
        assert still_open == []
        assert httpx.get(served.url + "/api/tournaments", timeout=5).status_code == 200
    finally:
        for sock in socks:
            sock.close()


def test_stalled_second_request_closed_live_stream_kept(served: Served) -> None:
    address = _host_port(served)
    with (
        socket.create_connection(address) as keep_alive,
        socket.create_connection(address) as live,
    ):
        keep_alive.sendall(b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\n\r\n")
        assert keep_alive.recv(4096).startswith(b"HTTP/1.1 200")
        live.sendall(f"GET /t/{TID}/live HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert live.recv(4096).startswith(b"HTTP/1.1 200")
        keep_alive.sendall(b"GET /api/tourn")  # the next request, stalled
        started = time.monotonic()
        assert _closed_by_server(keep_alive, started + TIMEOUT + 2)
        assert not _closed_by_server(live, started + TIMEOUT + 2.5)
