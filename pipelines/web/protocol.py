"""The HTTP protocol of `arbiter serve`: uvicorn's, with a deadline for the request headers.

uvicorn closes an idle keep-alive connection, but a connection that has sent part of a request
line or of its headers is kept open for ever ("slow loris": 300 such sockets held 300 of the
server's connections after 20 s). Here a connection must send its complete headers within
`header_timeout` seconds of being opened, and again of each response's end; otherwise the
server closes it. The timer stops when the headers are complete: a slow body, a long answer
or a live stream (`/t/{id}/live`) is not cut.

When the server stops, an answer still being streamed (a live page's events) ends as if its
client had gone: the connection is closed, so the stream ends quietly at once instead of being
cancelled after the graceful-shutdown wait with an ``Exception in ASGI application`` traceback
per open page (the browser's EventSource reconnects by itself).
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

__all__ = ["HeaderDeadline", "with_header_timeout"]


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are late
    (made by `with_header_timeout`)."""

    header_timeout: ClassVar[float]
    """Seconds a connection has to send its request headers (`arbiter serve --header-timeout`)."""
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a next request whose headers are already in
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        super().shutdown()
        cycle: RequestResponseCycle | None = self.cycle  # None before a first request
        if cycle is not None and cycle.response_started and not cycle.response_complete:
            self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_timeout, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderDeadline]:
    """The protocol class (uvicorn's ``http=``) with this header deadline."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_timeout": seconds})
