"""The live view's server: aiohttp on its own thread and event loop, fed by the game thread.

The game thread calls ``LiveView.observe(companion)`` each time before its loop sleeps; when
the position changed it builds a snapshot (pure, ``snapshot.py``), encodes it once and hands the
bytes over with ``loop.call_soon_threadsafe``: it never waits on the network, a lock held by
the server, or a viewer. Each viewer keeps only the newest snapshot it has not been sent yet
(a slot, not a queue), so a slow phone skips positions instead of piling them up; a viewer
that cannot take a write within ``WRITE_TIMEOUT_S`` is dropped.

Every connection passes a guard before aiohttp sees it: at most ``MAX_CONNECTIONS`` at once
and at most ``MAX_PER_ADDRESS`` from one client address that has not shown the token, so one
device on the LAN cannot take every slot. When a limit is reached an idle connection that has
not shown the token is shed first (the oldest from the most crowded address; from the
newcomer's own address only one that had ``SHED_GRACE_S`` to send its request), then an idle
keep-alive of a viewer; with none to shed the newcomer gets ``503``. A connection that is not
an event stream lives at most ``REQUEST_TIMEOUT_S`` without a request in progress (a slowloris
client gets ``408``).
aiohttp itself bounds request lines, headers and their number; what it cannot parse gets a
plain ``400`` (``guard.QuietProtocol``), with the security headers and no body, and at most one
warning line per ``COMPLAINT_INTERVAL_S`` (never a traceback: a LAN client must not be able
to fill the log). Bodies are refused (``413``). No reply carries a ``Server`` header: the
stack and its version are nobody's business.

Access: a token, random per start (``secrets.token_urlsafe``), in the joining URL's query;
the first page load trades it for an ``HttpOnly; SameSite=Strict`` cookie and redirects to the
bare path, so the token leaves the address bar and the history; scripts may also send
``Authorization: Bearer TOKEN``. Without it: ``403`` with an empty body, whatever the path.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import importlib
import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web

from haleakala import palette
from haleakala.core.text import Text
from haleakala.gameapi import DEFAULT_GAME, GAMES, describe, game_of
from haleakala.toolkit.generic.live import LOG_LINES
from haleakala.web.guard import (
    COMPLAINT_INTERVAL_S,
    MAX_HEADERS,
    MAX_PER_ADDRESS,
    SECURITY_HEADERS,
    SHED_GRACE_S,
    Complaints,
    Guard,
    QuietProtocol,
    without_server_header,
)

log = logging.getLogger("haleakala.web")

MAX_CONNECTIONS = 64
"""Open connections at once (viewers plus page loads); a table has a handful of phones."""
REQUEST_TIMEOUT_S = 10.0
"""How long a connection may sit without finishing a request (slowloris) or idle between
requests; event streams are exempt once open."""
WRITE_TIMEOUT_S = 5.0
"""A viewer whose socket does not take an update within this long is dropped."""
KEEPALIVE_S = 15.0
"""A comment line on every stream this often, so a vanished phone is noticed and dropped."""
MAX_LINE = 4096
"""Longest request line and header line accepted (aiohttp answers 400 beyond)."""
COOKIE = "haleakala_live"
TOKEN_BYTES = 12
"""96 random bits: unguessable on a LAN, and short enough that the joining URL fits a QR code
of version 3 (29 modules), which the OLED draws at two pixels a module."""

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/draw.js": ("draw.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/draw.css": ("draw.css", "text/css; charset=utf-8"),
    "/host.css": ("host.css", "text/css; charset=utf-8"),  # the phone seats' host page
    "/views.js": ("", "text/javascript; charset=utf-8"),  # made from the games' live scripts
    "/palette.css": ("", "text/css; charset=utf-8"),  # made from haleakala.palette
}


class AddressError(ValueError):
    """A ``[HOST:]PORT`` that cannot be listened on; the message says what to write."""


def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``8080``, ``0.0.0.0:8080``, ``[::1]:8080`` -> (host, port). Only a port: loopback, so
    the LAN sees the game only when someone writes ``0.0.0.0:PORT`` on purpose."""
    spec = text.strip()
    host, sep, port_text = spec.rpartition(":")
    if not sep:
        host, port_text = default_host, spec
    host = host.strip("[]") or default_host
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise AddressError(
            f"{text!r} is not [HOST:]PORT: write a port 1..65535 (e.g. 8080 for this machine "
            "only, 0.0.0.0:8080 for the phones on the LAN)"
        )
    return host, int(port_text)


@dataclass(frozen=True)
class Update:
    """One published position: its number, digest and the encoded snapshot (immutable)."""

    seq: int
    digest: str
    data: bytes
    frame: bytes = b""
    """The server-sent event carrying ``data``, framed once for every viewer."""


class _Viewer:
    """One event stream: the newest update it has not been sent yet, and a wake-up."""

    def __init__(self) -> None:
        self.pending: Update | None = None
        self.wake = asyncio.Event()

    def offer(self, update: Update) -> None:
        self.pending = update  # an older unsent one is simply replaced
        self.wake.set()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


GENERIC_VIEW = "haleakala.toolkit.generic.live"


def _pictured(game: Any) -> Any:
    """The module that pictures ``game`` for the page: its description's ``live_view``, else
    the generic one (its text and its decisions); with no game yet, the default game's
    (the board's island, waiting for its first position)."""
    name = DEFAULT_GAME if game is None else game_of(game)
    return importlib.import_module(describe(name).live_view or GENERIC_VIEW)


def views_script() -> bytes:
    """Every registered game's own drawing for the page (its description's
    ``live_script``), one script: each registers itself in ``GAME_VIEWS`` by its game's
    name, and the page falls back to the generic drawing for the others."""
    parts = []
    for name in GAMES:
        ref = describe(name).live_script
        if ref:
            package, _, file = ref.partition(":")
            parts.append(resources.files(package).joinpath(file).read_bytes())
    return b"\n".join(parts)


def geometry() -> dict:
    """The default game's island as the page draws it (``/geometry.json``)."""
    return dict(_pictured(None).geometry())


class LiveView:
    """The server and the game thread's side of it (``observe``/``publish``)."""

    def menu_option(self) -> tuple[Text, str]:
        """(label, action) of the OLED menu's entry for this view (the companion asks the
        view, so that it imports nothing of the web)."""
        from .join import MENU_LABEL

        return MENU_LABEL, "live"

    def join_picture(self) -> bytes:
        """The joining page (QR code and URL) as a ready 128×64 one-bit image."""
        from .join import join_image

        return bytes(join_image(self.url).convert("1").tobytes())

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        token: str | None = None,
        max_connections: int = MAX_CONNECTIONS,
        max_per_address: int = MAX_PER_ADDRESS,
        shed_grace: float = SHED_GRACE_S,
        complaint_interval: float = COMPLAINT_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
        request_timeout: float = REQUEST_TIMEOUT_S,
        write_timeout: float = WRITE_TIMEOUT_S,
        keepalive: float = KEEPALIVE_S,
    ) -> None:
        self.host = host
        self.port = port
        self.token = token or secrets.token_urlsafe(TOKEN_BYTES)
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.shed_grace = shed_grace
        self.clock = clock
        """Monotonic seconds: connection ages and the log's rate limit (injectable for tests)."""
        self.complaints = Complaints(complaint_interval, clock)
        self.request_timeout = request_timeout
        self.write_timeout = write_timeout
        self.keepalive = keepalive
        self.connections: set[Guard] = set()
        self.viewers: set[_Viewer] = set()
        self.latest: Update | None = None
        self.refused = 0
        self.shed = 0
        self._order = 0
        self.timed_out = 0
        self.dropped = 0
        self.published = 0
        self._seq = 0
        self._game: Any = None
        self._lesson: tuple | None = None  # the lesson step last published (step, kind)
        self._log: deque[Text | str] = deque(maxlen=LOG_LINES)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._files = {
            path: (resources.files("haleakala.web").joinpath("static", name).read_bytes(), kind)
            for path, (name, kind) in STATIC.items()
            if name
        }
        self._files["/favicon.ico"] = (favicon(), "image/x-icon")
        self._files["/palette.css"] = (palette.css().encode(), STATIC["/palette.css"][1])
        self._files["/views.js"] = (views_script(), STATIC["/views.js"][1])
        self._geometry = json.dumps(geometry(), separators=(",", ":")).encode()

    # -- the game thread's side -------------------------------------------------------

    def observe(self, companion: Any) -> bool:
        """Publish the companion's game if it changed since the last call (identity: the
        controller replaces its game on every decision, undo or new game). True: published."""
        game = companion.game
        board = getattr(companion, "lesson", None)  # a lesson taught on the board, if any
        lesson = board.watch_data() if board is not None else None
        shown = None if lesson is None else (lesson["step"], lesson["kind"])
        if game is self._game and shown == self._lesson:
            return False
        self._lesson = shown
        digest = companion.digest() if hasattr(companion, "digest") else ""
        self.publish(game, digest=digest, lesson=lesson)
        return True

    def publish(self, game: Any, digest: str = "", lesson: dict | None = None) -> Update:
        """Build and hand over one snapshot; the only cost to the caller is the snapshot
        itself and one ``call_soon_threadsafe`` (a byte written to the loop's pipe)."""
        # A game may picture itself (its description's ``live_view``); else Haleakala's.
        pictured = _pictured(game)
        same_game = pictured is _pictured(self._game)
        before = self._game if same_game else None
        lines, fresh = pictured.log_lines(before, game)
        if fresh:
            self._log.clear()
        self._log.extend(lines)
        self._game = game
        self._seq += 1
        extra = {} if lesson is None else {"lesson": lesson}  # only Haleakala's teaches
        data = pictured.snapshot(game, log=tuple(self._log), seq=self._seq, digest=digest, **extra)
        body = json.dumps(data, separators=(",", ":")).encode()
        frame = b"id: %d\nevent: snapshot\ndata: %s\n\n" % (self._seq, body)
        update = Update(self._seq, data["digest"], body, frame)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
                loop.call_soon_threadsafe(self._broadcast, update)
        else:
            self.latest = update
        self.published += 1
        return update

    @property
    def seq(self) -> int:
        """The number of the last update published (0: none yet)."""
        return self._seq

    # -- lifecycle ----------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The joining URL (with the token). For 0.0.0.0 it names this machine's LAN address."""
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/?token={self.token}"

    def start(self, timeout: float = 10.0) -> LiveView:
        """Start the server thread; returns once it listens (the port is then known)."""
        self._thread = threading.Thread(target=self._serve, name="haleakala-web", daemon=True)
        self._thread.start()
        if not self._started.wait(timeout):
            raise OSError("the live view did not start listening in time")
        if self._error is not None:
            raise self._error
        return self

    def close(self, timeout: float = 5.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._main(loop))
        except BaseException as exc:  # reported to start(); the game never depends on it
            if not self._started.is_set():
                self._error = exc
                self._started.set()
            else:
                log.exception("live view stopped")
        finally:
            loop.close()

    async def _main(self, loop: asyncio.AbstractEventLoop) -> None:
        self._stop = asyncio.Event()
        app = web.Application(middlewares=[self._guard_middleware], client_max_size=1024)
        app.on_response_prepare.append(without_server_header)
        app.router.add_get("/events", self._events)
        app.router.add_get("/geometry.json", self._geometry_json)
        app.router.add_get("/snapshot.json", self._snapshot_json)
        for path in self._files:
            app.router.add_get(path, self._static)
        self._add_routes(app)
        handler_args: dict[str, Any] = {
            "access_log": None,
            "keepalive_timeout": self.request_timeout,
            "max_line_size": MAX_LINE,
            "max_field_size": MAX_LINE,
            "max_headers": MAX_HEADERS,
        }
        runner = web.AppRunner(
            app,
            handle_signals=False,
            shutdown_timeout=1.0,  # open streams end at once; the daemon's shutdown waits on it
            **handler_args,
        )
        await runner.setup()
        manager = runner.server
        assert manager is not None

        def connection() -> Guard:
            # aiohttp's own protocol for the connection, as ``manager()`` would make it, but
            # with the error reply of ``guard.QuietProtocol``; behind the guard.
            inner = QuietProtocol(manager, loop=loop, **handler_args)
            inner.complaints = self.complaints
            self._order += 1
            return Guard(self, inner, self._order)

        server = await loop.create_server(
            connection,
            self.host,
            self.port,
            backlog=128,
            reuse_address=True,
        )
        if not server.sockets:
            # asyncio skips an address family it may not open (systemd's
            # RestrictAddressFamilies=AF_UNIX without the live-view drop-in: EAFNOSUPPORT) and
            # returns a server without sockets; say so as that error (start.py names the fix).
            server.close()
            raise OSError(errno.EAFNOSUPPORT, "the address family is not allowed here")
        self.port = server.sockets[0].getsockname()[1]
        self._loop = loop
        if self.latest is not None:
            self._broadcast(self.latest)
        self._started.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for viewer in list(self.viewers):
                viewer.wake.set()
            for guard in list(self.connections):
                if guard.transport is not None:
                    guard.transport.close()
            await runner.cleanup()

    # -- the server's side ----------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        """More routes of a subclass (the host's seats, ``web.host``), added on the loop."""

    def _broadcast(self, update: Update) -> None:
        self.latest = update
        for viewer in self.viewers:
            viewer.offer(update)

    def _authorised(self, request: web.Request) -> bool:
        given = request.cookies.get(COOKIE, "")
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            given = header[7:].strip()
        query = request.query.get("token")
        if query is not None:
            given = query
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def _guard_middleware(self, request: web.Request, handler: Handler) -> Any:
        transport = request.transport
        guard = transport.get_protocol() if transport is not None else None
        if isinstance(guard, Guard):
            guard.request_started()
            if not guard.trusted and self._authorised(request):
                guard.trusted = True
        try:
            response = await self._answer(request, handler)
        finally:
            if isinstance(guard, Guard):
                guard.request_ended()
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return _plain(405, headers={"Allow": "GET, HEAD"})
        if request.content_length or request.body_exists:
            return _plain(413)
        if not self._authorised(request):
            return _plain(403)
        if "token" in request.query and request.path == "/":
            # The token leaves the address bar: the cookie carries it from here on.
            redirect = _plain(303, headers={"Location": "/"})
            redirect.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict", path="/")
            return redirect
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # unknown path (404), wrong method on a route (405)
            return _plain(exc.status)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    async def _static(self, request: web.Request) -> web.StreamResponse:
        body, kind = self._files[request.path]
        return web.Response(body=body, headers={"Content-Type": kind})

    async def _geometry_json(self, request: web.Request) -> web.StreamResponse:
        return web.Response(body=self._geometry, content_type="application/json")

    async def _snapshot_json(self, request: web.Request) -> web.StreamResponse:
        if self.latest is None:
            return _plain(404)
        return web.Response(body=self.latest.data, content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the newest snapshot at once, then every update as it comes
        (skipping any the viewer was too slow to take), a comment now and then."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",
                **SECURITY_HEADERS,
            }
        )
        if request.method == "HEAD":  # the headers only: no stream to keep open
            return web.Response(headers=response.headers)
        transport = request.transport
        guard = transport.get_protocol() if transport is not None else None
        if isinstance(guard, Guard):
            guard.streaming = True
        await response.prepare(request)
        viewer = _Viewer()
        if self.latest is not None:
            viewer.offer(self.latest)
        self.viewers.add(viewer)
        try:
            await response.write(b"retry: 2000\n\n")
            while self._stop is not None and not self._stop.is_set():
                try:
                    async with asyncio.timeout(self.keepalive):
                        await viewer.wake.wait()
                except TimeoutError:
                    async with asyncio.timeout(self.write_timeout):
                        await response.write(b": keep-alive\n\n")
                    continue
                viewer.wake.clear()
                update, viewer.pending = viewer.pending, None
                if update is not None:
                    async with asyncio.timeout(self.write_timeout):
                        await response.write(update.frame)
        except (TimeoutError, ConnectionError):
            self.dropped += 1
            if transport is not None:
                transport.abort()
        finally:
            self.viewers.discard(viewer)
        return response


def _plain(status: int, headers: dict[str, str] | None = None) -> web.Response:
    """An answer with no content: the status line says it all (and tells a stranger nothing)."""
    return web.Response(status=status, headers={**SECURITY_HEADERS, **(headers or {})})


def favicon() -> bytes:
    """The tab's icon (``/favicon.ico``, which browsers ask for by themselves): the island
    from above, sea, beach and crater, drawn once at start with Pillow (16 and 32 px)."""
    import io

    from PIL import Image, ImageDraw

    size = 64
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for inset, colour in ((0, "#1d5f8a"), (10, "#e9d7a5"), (18, "#3f8a4a"), (26, "#5a3a32")):
        draw.ellipse((inset, inset, size - 1 - inset, size - 1 - inset), fill=colour)
    draw.ellipse((28, 28, 35, 35), fill="#ff5a1f")
    out = io.BytesIO()
    image.save(out, format="ICO", sizes=[(16, 16), (32, 32)])
    return out.getvalue()


def lan_address() -> str:
    """This machine's address on the LAN (the one a default route would use), for the URL a
    phone scans; no packet is sent (connecting a UDP socket only picks the route)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
