"""What stands between the LAN and the live view's application: the connection guard (the
caps, the shedding order, the request deadline), aiohttp's protocol with its error reply
replaced (a plain ``400`` and a rate-limited warning instead of a traceback), and the headers
every reply carries. See ``server``'s docstring for the promises; this is how they are kept.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from haleakala.core.jsonread import printable

log = logging.getLogger("haleakala.web")

WRITE_BUFFER_BYTES = 64 * 1024
"""Per-connection send buffer before writes wait (a few snapshots): never grows unbounded."""
MAX_PER_ADDRESS = 8
"""Connections from one client address that have not shown the token: a phone's browser opens
at most six to one server at once, so this is room for one phone and a spare, and with 50
viewers attached a hostile address still cannot reach the total cap (the token's holders are
not counted: they are the table's own viewers)."""
MAX_HEADERS = 48
"""Header lines in one request; a browser sends about fifteen (400 beyond)."""
SHED_GRACE_S = 1.0
"""How long a new connection has to send its request before a newcomer from its own address
may take its slot; until then the newcomer beyond the address's share gets ``503``, so a
burst from one address keeps its first comers instead of shedding them unheard."""
COMPLAINT_INTERVAL_S = 60.0
"""At most one log line about malformed requests this often; the rest are counted in it."""
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
        "form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def _raw_reply(status: str, extra: bytes = b"", body: bytes = b"") -> bytes:
    """A whole reply written by the guard itself (before aiohttp has a request): the same
    security headers as every other reply, and the connection closes after it."""
    headers = b"".join(f"{k}: {v}\r\n".encode() for k, v in SECURITY_HEADERS.items())
    return (
        f"HTTP/1.1 {status}\r\n".encode()
        + headers
        + extra
        + b"Connection: close\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


class Complaints:
    """The log's side of malformed requests: one warning line, then silence for ``interval``
    seconds while they are counted; the next line says how many were held back. ``clock`` is
    injectable so the tests decide when time passes."""

    def __init__(
        self, interval: float = COMPLAINT_INTERVAL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.total = 0
        self.held = 0
        self._quiet_until: float | None = None

    def note(self, status: int, remote: str | None, exc: BaseException | None) -> None:
        self.total += 1
        now = self.clock()
        if self._quiet_until is not None and now < self._quiet_until:
            self.held += 1
            return
        more = f" ({self.held} more since the last such line)" if self.held else ""
        log.warning(
            "live view: answered %d to a request it could not read from %s: %s%s",
            status, remote or "?", _reason(exc), more,
        )  # fmt: skip
        self.held = 0
        self._quiet_until = now + self.interval


def _reason(exc: BaseException | None) -> str:
    """What was wrong, on one short printable line: the parser's message quotes the client's
    bytes, which must neither reach the log whole nor break its lines."""
    if exc is None:
        return "no reason given"
    text = str(getattr(exc, "message", "") or exc or type(exc).__name__)
    text = _QUOTED_BYTES.split(" ".join(text.split()), 1)[0].rstrip(": ")
    text = printable(text).encode("ascii", "backslashreplace").decode("ascii")
    return text[:80] or type(exc).__name__


_QUOTED_BYTES = re.compile(r"\s*(?:bytearray\()?b['\"]")
"""Where aiohttp's parser messages start quoting the request (``b'GET …'``)."""


class Reply(web.Response):
    """A reply aiohttp prepares outside the application (the ``400`` for a request it could
    not parse), where ``on_response_prepare`` is not sent: the ``Server`` header that
    ``_prepare_headers`` adds by default is taken out again before the headers are written."""

    async def _prepare_headers(self) -> None:
        await super()._prepare_headers()
        self.headers.popall("Server", None)


class QuietProtocol(web.RequestHandler):
    """aiohttp's protocol for one connection, with its error reply replaced: a request it
    cannot parse (``GET / HTTP/9.9``, an over-long line, too many headers, Content-Length with
    Transfer-Encoding) gets a plain reply with the security headers and no body, and the log
    gets at most a rate-limited warning, never the parser's traceback."""

    complaints: Complaints

    def handle_error(
        self,
        request: Any,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status >= 500 and exc is not None:  # a fault of ours, not of the client's bytes
            log.error("live view: %s answering %s", type(exc).__name__, request.path, exc_info=exc)
        else:
            self.complaints.note(status, request.remote, exc)
        if request.writer.output_size > 0:  # as aiohttp: the reply is under way, end it
            raise ConnectionError("a reply was already being sent")
        reply = Reply(status=status, headers=SECURITY_HEADERS)
        reply.force_close()
        return reply


class Guard(asyncio.Protocol):
    """Stands in front of aiohttp's protocol for one connection: the connection cap and the
    request deadline (see ``server``'s docstring); everything else is passed through."""

    def __init__(self, live: Any, inner: Any, order: int = 0) -> None:
        self.live = live
        self.inner = inner
        self.order = order
        """When it connected, relative to the others: the oldest idle one is shed first."""
        self.address = ""
        self.opened_at = 0.0
        self.transport: asyncio.Transport | None = None
        self.busy = 0
        self.partial = False
        self.streaming = False
        self.trusted = False
        """It has shown the token (cookie, header or query): one of the table's viewers."""
        self.timer: asyncio.TimerHandle | None = None

    @property
    def idle(self) -> bool:
        """No request in progress and no event stream: closing it loses nobody anything."""
        return not self.busy and not self.streaming and self.transport is not None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self.opened_at = self.live.clock()
        if not make_room(self.live, self):
            self.live.refused += 1
            body = b"too many viewers: close another page and try again\n"
            transport.write(
                _raw_reply(
                    "503 Service Unavailable",
                    b"Content-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\n",
                    body,
                )
            )
            transport.close()
            self.inner = None
            return
        self.live.connections.add(self)
        transport.set_write_buffer_limits(high=WRITE_BUFFER_BYTES)
        self.arm()
        self.inner.connection_made(transport)

    def arm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(self.live.request_timeout, self.expire)

    def expire(self) -> None:
        self.timer = None
        if self.streaming or self.busy or self.transport is None:
            return  # a stream lives on; a request re-arms when it ends
        if self.partial:  # a request began and never finished: slowloris, or a lost client
            self.live.timed_out += 1
            self.transport.write(_raw_reply("408 Request Timeout"))
        self.transport.close()

    def shed(self) -> None:
        """Make room for a newcomer: this idle connection ends now (a half-sent request is
        told ``408``, as at its deadline; an idle keep-alive is closed without a word, which
        a browser answers by opening a new one when it next needs it)."""
        self.live.connections.discard(self)
        self.live.shed += 1
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.transport is not None:
            if self.partial:
                self.transport.write(_raw_reply("408 Request Timeout"))
            self.transport.close()

    def request_started(self) -> None:
        self.busy += 1
        self.partial = False

    def request_ended(self) -> None:
        self.busy -= 1
        if not self.streaming and self.transport is not None:
            self.arm()

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if not self.busy:
            self.partial = True
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.transport = None
        if self.inner is not None:
            self.live.connections.discard(self)
            self.inner.connection_lost(exc)


def make_room(live: Any, newcomer: Guard) -> bool:
    """Whether ``newcomer`` may stay, shedding one idle connection if a limit is reached:
    first its own address's oldest idle one that has not shown the token and has had
    ``SHED_GRACE_S`` to send a request, then (at the
    total cap) the oldest idle one without the token from the most crowded address, then
    the oldest idle keep-alive of a viewer. False: every slot is busy or streaming.
    (``live`` is the ``server.LiveView``, untyped here: server imports this module.)"""
    strangers = [g for g in live.connections if not g.trusted]
    mine = [g for g in strangers if g.address == newcomer.address]
    if len(mine) >= live.max_per_address:
        now = live.clock()
        stale = [g for g in mine if now - g.opened_at >= live.shed_grace]
        return _shed_one(sorted(stale, key=lambda g: g.order))
    if len(live.connections) < live.max_connections:
        return True
    crowd: dict[str, int] = {}
    for guard in strangers:
        crowd[guard.address] = crowd.get(guard.address, 0) + 1
    strangers.sort(key=lambda g: (-crowd[g.address], g.order))
    viewers = sorted((g for g in live.connections if g.trusted), key=lambda g: g.order)
    return _shed_one(strangers) or _shed_one(viewers)


def _shed_one(candidates: list[Guard]) -> bool:
    """Shed the first idle one of ``candidates`` (in the order given); False: none is."""
    for guard in candidates:
        if guard.idle:
            guard.shed()
            return True
    return False


async def without_server_header(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: aiohttp has filled in its default headers by now; its
    ``Server: Python/… aiohttp/…`` would tell a stranger which bugs to try."""
    response.headers.popall("Server", None)
