"""The live view of a hosted game: one page per phone seat, each behind its own token.

``HostView`` is the live view's server (``web.server.LiveView``: the same connection guard,
limits, security headers and silence about itself) with the seats of a ``seats.Table``:

    GET  /                       the host's page: every phone seat's URL and QR code
                                 (the table's own token, as the live view's)
    GET  /seat/COLOUR/?token=T   trades the seat's token for a cookie scoped to the seat's
                                 path (``HttpOnly; SameSite=Strict``), then the seat's page
    GET  /seat/COLOUR/state?since=N[&wait=1]
                                 the seat's view (``Table.view``); with ``wait`` the answer
                                 waits (at most ``POLL_S``) until a decision beyond ``N``
    POST /seat/COLOUR/decide     the core's ``decide`` message (docs/REMOTE-PROTOCOL.md),
                                 at most ``MAX_BODY`` bytes: the table's answer as JSON

A seat's token opens that seat's paths only: one phone cannot read or play another seat.
Refusals on a seat's paths are a JSON sentence (``{"ok": false, "error": …}``) the page can
show; the rest of the server keeps the live view's empty answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import Any

from aiohttp import web

from haleakala.i18n import N_, _
from haleakala.web.guard import SECURITY_HEADERS
from haleakala.web.seats import PROTOCOL, Table
from haleakala.web.server import Handler, LiveView, _plain, lan_address

MAX_BODY = 512
"""A decision is a few dozen bytes; a bigger body is refused before it is read (413)."""
POLL_S = 20.0
"""How long a waiting ``state`` request is held before it answers unchanged (the page
asks again at once): short enough that proxies and phones keep the connection."""
POLLS_PER_SEAT = 4
"""Waiting ``state`` requests held at once for one seat (a page holds one; a reload or a
second tab one more): beyond that the oldest is answered at once, so one seat's cookie
cannot hold every connection of the server and lock the other seats out."""
SWEEP_S = 1.0
"""How often the host looks for seats whose page went quiet (``Table.sweep``): a seat
is away within a second of ``seats.AWAY_AFTER_S``."""
SEAT_COOKIE = "haleakala_seat_{colour}"
SEAT_FILES = {
    "": ("seat.html", "text/html; charset=utf-8"),
    "seat.js": ("seat.js", "text/javascript; charset=utf-8"),
    "seat.css": ("seat.css", "text/css; charset=utf-8"),
    "draw.js": ("draw.js", "text/javascript; charset=utf-8"),
    "draw.css": ("draw.css", "text/css; charset=utf-8"),
}
SHARED_FILES = ("views.js", "palette.css")
"""The live view's files a seat's page loads too (the games' drawings, the colour modes),
under the seat's path: the seat's cookie opens only that."""


class HostView(LiveView):
    """The live view's server with the seats of ``table`` (see the module's docstring)."""

    def __init__(self, table: Table, host: str = "127.0.0.1", port: int = 0, **kw: Any):
        super().__init__(host, port, **kw)
        from importlib import resources

        self.table = table
        self._files.pop("/", None)  # the host's page instead of the Haleakala live view
        self._seat_files = {
            name: (resources.files("haleakala.web").joinpath("static", file).read_bytes(), kind)
            for name, (file, kind) in SEAT_FILES.items()
        }
        self._polls: dict[str, deque[asyncio.Event]] = {}  # seat -> its waiting requests
        self._sweeper: asyncio.Task | None = None

    # -- addresses ------------------------------------------------------------------------

    def base(self) -> str:
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def seat_url(self, colour: str) -> str:
        """The URL a phone opens (or scans) to take ``colour``'s seat, token included."""
        return f"{self.base()}/seat/{colour}/?token={self.table.tokens[colour]}"

    # -- routes ---------------------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        loop = asyncio.get_running_loop()

        def changed() -> None:  # any thread: the table just took a decision
            if not loop.is_closed():
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
                    loop.call_soon_threadsafe(self._wake_seats)

        self.table.listeners.append(changed)
        self._sweeper = loop.create_task(self._sweep())
        app.router.add_get("/", self._host_page)
        # Every method reaches the seat's routes, so that the colour is always read from the
        # route that matched (``_seat_of``) and a wrong method gets its sentence in ``_answer``.
        for path, handler, name in (
            ("/seat/{colour}", self._seat_file, "seat-bare"),
            ("/seat/{colour}/", self._seat_file, "seat-page"),
            ("/seat/{colour}/seat.js", self._seat_file, "seat-file"),
            ("/seat/{colour}/seat.css", self._seat_file, "seat-file-css"),
            (
                "/seat/{colour}/{file:(draw\\.js|draw\\.css|views\\.js|palette\\.css)}",
                self._seat_file,
                "seat-file-shared",
            ),
            ("/seat/{colour}/state", self._seat_state, "seat-state"),
            ("/seat/{colour}/decide", self._seat_decide, "seat-decide"),
        ):
            app.router.add_route("*", path, handler, name=name)

    async def _sweep(self) -> None:
        """Every few seconds: a seat whose page has gone quiet is away (the game pauses)."""
        stop = self._stop
        while stop is not None and not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SWEEP_S):
                    await stop.wait()  # ends with the server, never left pending
            self.table.sweep()

    def _wake_seats(self) -> None:
        polls, self._polls = self._polls, {}
        for waiting in polls.values():
            for event in waiting:
                event.set()

    @staticmethod
    def _seat_of(request: web.Request) -> str | None:
        """The seat a request is for, read once from the route aiohttp matched: the access
        check and the handler read the same decoded colour (``/seat/black%2F..%2Fwhite/``
        is the seat ``black/../white``, which does not exist). "" for a path under
        ``/seat/`` that no route matched; None for the rest of the server."""
        colour = request.match_info.get("colour")
        if colour is not None:
            return colour
        return "" if request.path.startswith("/seat") else None

    @staticmethod
    def _route(request: web.Request) -> str:
        route = request.match_info.route
        return str(getattr(route, "name", "") or "")

    def _authorised(self, request: web.Request) -> bool:
        colour = self._seat_of(request)
        if colour is None:
            return super()._authorised(request)
        given = request.cookies.get(SEAT_COOKIE.format(colour=colour), "")
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            given = header[7:].strip()
        query = request.query.get("token")
        if query is not None:
            given = query
        return self.table.token_ok(colour, given)

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        colour = self._seat_of(request)
        if colour is None:
            return await super()._answer(request, handler)
        if not colour:  # under /seat/, but no seat's address
            return _said(404, N_("this table has no phone seat at that address: open the "
                                 "seat's link or scan its QR code again"))  # fmt: skip
        decide = self._route(request) == "seat-decide"
        allowed = ("POST",) if decide else ("GET", "HEAD")
        if request.method not in allowed:
            return _said(405, N_("this address does not take that request"),
                         {"Allow": ", ".join(allowed)})  # fmt: skip
        if decide:
            if request.content_length is not None and request.content_length > MAX_BODY:
                return _said(413, N_("a decision is a few dozen bytes: this is far too much"))
        elif request.content_length or request.body_exists:
            return _plain(413)
        if not self._authorised(request):
            return _said(403, N_("this seat's token is missing or wrong: open the seat's "
                                 "link or scan its QR code again"))  # fmt: skip
        if self._route(request) == "seat-bare" or (
            "token" in request.query and self._route(request) == "seat-page"
        ):
            # The token leaves the address bar: the seat's cookie carries it from here on.
            redirect = _plain(303, headers={"Location": f"/seat/{colour}/"})
            if "token" in request.query:
                redirect.set_cookie(
                    SEAT_COOKIE.format(colour=colour),
                    request.query["token"],
                    httponly=True,
                    samesite="Strict",
                    path=f"/seat/{colour}/",
                )
            return redirect
        self.table.arrived(colour)
        try:
            response = await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return _said(413, N_("a decision is a few dozen bytes: this is far too much"))
        except web.HTTPException as exc:
            return _plain(exc.status)
        finally:
            self.table.left(colour)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    async def _host_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(body=host_page(self), content_type="text/html", charset="utf-8")

    async def _seat_file(self, request: web.Request) -> web.StreamResponse:
        name = {"seat-file": "seat.js", "seat-file-css": "seat.css"}.get(self._route(request), "")
        if self._route(request) == "seat-file-shared":
            name = request.match_info["file"]
            if name in SHARED_FILES:
                shared, kind = self._files[f"/{name}"]
                return web.Response(body=shared, headers={"Content-Type": kind})
        body, kind = self._seat_files[name]
        return web.Response(body=body, headers={"Content-Type": kind})

    async def _seat_state(self, request: web.Request) -> web.StreamResponse:
        colour = request.match_info["colour"]
        since_text = request.query.get("since", "0")
        if not since_text.isdigit() or len(since_text) > 9:
            return _said(400, N_("since must be a whole number of decisions"))
        since = int(since_text)
        if request.query.get("wait") == "1" and self.table.seq == since:
            await self._held(colour)
        view = self.table.view(colour, since)
        return _json(200, view)

    async def _held(self, colour: str) -> None:
        """Wait (at most ``POLL_S``) for the table to change; at most ``POLLS_PER_SEAT`` of
        one seat wait at once: a newcomer answers the seat's oldest now."""
        mine = asyncio.Event()
        waiting = self._polls.setdefault(colour, deque())
        waiting.append(mine)
        while len(waiting) > POLLS_PER_SEAT:
            waiting.popleft().set()
        try:
            async with asyncio.timeout(POLL_S):
                await mine.wait()
        except TimeoutError:
            pass
        finally:
            with contextlib.suppress(ValueError):
                waiting.remove(mine)

    async def _seat_decide(self, request: web.Request) -> web.StreamResponse:
        colour = request.match_info["colour"]
        body = await request.read()
        if len(body) > MAX_BODY:
            return _said(413, N_("a decision is a few dozen bytes: this is far too much"))
        answer = self.table.receive(colour, body)
        return _json(answer.status, answer.to_dict())


def _json(status: int, data: dict) -> web.Response:
    return web.Response(
        status=status,
        body=json.dumps(data, separators=(",", ":")).encode(),
        headers={**SECURITY_HEADERS, "Content-Type": "application/json; charset=utf-8"},
    )


def _said(status: int, template: str, headers: dict[str, str] | None = None, **params: Any):
    """A refusal on a seat's path: a sentence the page shows, in the host's language."""
    text = _(template).format(**params)
    response = _json(status, {"v": PROTOCOL, "ok": False, "error": text})
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


HOST_WORDS = {
    "title": N_("Seats of this game"),
    "how": N_("Each player scans their seat's QR code with a phone, or opens its link."),
    "bots": N_("Played by the computer"),
}


def host_page(view: HostView) -> bytes:
    """The host's page: each phone seat's link and QR code (the host shows it on a laptop
    screen; the phones scan it), styled by ``host.css``: a card per seat in its colour, a
    column on a phone, side by side on a wider screen. Plain HTML without scripts, built
    once per request."""
    import html

    import segno

    from haleakala import i18n

    rows = []
    for colour in view.table.phone_seats():
        url = view.seat_url(colour)
        svg = segno.make_qr(url, error="l").svg_inline(scale=4, omitsize=True)
        rows.append(
            f'<section class="seat {html.escape(colour)}"><h2>{html.escape(_(colour))}</h2>'
            f'<div class="qr">{svg}</div>'
            f'<p><a href="{html.escape(url)}">{html.escape(url)}</a></p></section>'
        )
    bots = [
        f"<li>{html.escape(_(c))}: {html.escape(who)}</li>"
        for c, who in view.table.seats.items()
        if c not in view.table.tokens
    ]
    said = {key: html.escape(_(text)) for key, text in HOST_WORDS.items()}
    robots = f"<h2>{said['bots']}</h2><ul>{''.join(bots)}</ul>" if bots else ""
    page = (
        f'<!doctype html><html lang="{i18n.current()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{said["title"]}</title><link rel="stylesheet" href="/palette.css">'
        '<link rel="stylesheet" href="/host.css"></head><body>'
        f"<header><h1>{said['title']}</h1><p>{said['how']}</p></header>"
        f'<main><div class="seats">{"".join(rows)}</div>{robots}</main></body></html>'
    )
    return page.encode()
