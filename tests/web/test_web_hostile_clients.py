"""A LAN client that means harm, against the real server on loopback: requests aiohttp cannot
parse get a plain 400 with the security headers and cost the log at most one warning line
(never a traceback); no reply names the server's stack; and one address holding or
recycling dozens of idle or half-sent connections cannot keep the table's viewers out.

Other client addresses are other loopback addresses (127.0.0.2, ...): on Linux the whole of
127.0.0.0/8 is this machine, so a socket bound to one reaches the server as a second device
on the LAN would. Every loop is bounded; every wait is on a condition."""

from __future__ import annotations

import contextlib
import logging
import socket

import pytest
from support.live import StreamReader, exchange, parse, read_answer
from support.waiting import wait_for

from haleakala.games.haleakala import Game

pytest.importorskip("aiohttp")
from haleakala.web.server import MAX_PER_ADDRESS, SECURITY_HEADERS, LiveView

MALFORMED = {
    "bad-version": b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "long-request-line": b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "too-many-headers": b"GET / HTTP/1.1\r\nHost: x\r\n"
    + b"".join(b"X-%d: 1\r\n" % i for i in range(200))
    + b"\r\n",
    "length-and-chunked": b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "garbage": b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03 not http\r\n\r\n",
}


class Clock:
    """The server's clock for the log's rate limit: time passes only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def logged(caplog):
    """The test's log records (the server thread's too), every level: ``logged.records``."""
    caplog.set_level(logging.DEBUG)
    return caplog


def serve(clock: Clock, **limits) -> LiveView:
    view = LiveView("127.0.0.1", 0, request_timeout=30.0, clock=clock, **limits).start()
    view.publish(Game("base", seed=2, start="red"))
    wait_for(lambda: view.latest is not None, "the first snapshot handed over")
    return view


@pytest.fixture
def live(clock):
    view = serve(clock)
    yield view
    view.close()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))


def request(sock: socket.socket, path: str, token: str | None = None) -> int | None:
    """One GET on an open connection (kept alive); its status, None if the server closed it."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode())
        answer = read_answer(sock)
    except OSError:
        return None
    return parse(answer)[0] if answer else None


def peers(live: LiveView, address: str) -> int:
    return sum(1 for guard in list(live.connections) if guard.address == address)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (after whatever it wrote last), without waiting."""
    sock.settimeout(0)
    try:
        while sock.recv(65536):
            pass  # a 408 for a half-sent request, then the end
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(30)


# -- malformed requests -------------------------------------------------------------------


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_request_the_parser_refuses_gets_a_plain_400_with_the_security_headers(live, raw):
    status, headers, body = parse(exchange(live.port, raw))
    assert status == 400 and body == b""
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value, name
    assert "server" not in headers


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_request_the_parser_refuses_logs_one_warning_and_no_traceback(live, logged, raw):
    exchange(live.port, raw)
    wait_for(lambda: live.complaints.total == 1, "the request counted")
    records = logged.records
    assert [(r.name, r.levelno) for r in records] == [("haleakala.web", logging.WARNING)]
    assert not records[0].exc_info
    line = records[0].getMessage()
    assert line.startswith("live view: answered 400 to a request it could not read from 127.0.0.1")
    assert "\n" not in line and "aaaaa" not in line and "bytearray" not in line  # no client bytes


def test_a_flood_of_malformed_requests_costs_one_line_per_interval(live, logged, clock):
    kinds = list(MALFORMED.values())
    for i in range(200):
        exchange(live.port, kinds[i % len(kinds)])
    assert live.complaints.total == 200
    records = logged.records
    assert len(records) == 1  # the first; the other 199 are held back and counted
    clock.now += live.complaints.interval
    exchange(live.port, MALFORMED["bad-version"])
    assert len(records) == 2 and "(199 more since the last such line)" in records[1].getMessage()
    assert all(r.levelno == logging.WARNING and not r.exc_info for r in records)


# -- no Server header ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "with_token"),
    [("/", False), ("/", True), ("/nope", True), ("/?token=", False), ("/app.js", True),
     ("/events", True), ("/geometry.json", True)],
)  # fmt: skip
def test_no_reply_names_the_servers_stack(live, path, with_token):
    if path == "/?token=":
        path += live.token
    method = "HEAD" if path == "/events" else "GET"
    auth = f"Authorization: Bearer {live.token}\r\n" if with_token else ""
    raw = f"{method} {path} HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\n\r\n"
    status, headers, _ = parse(exchange(live.port, raw.encode()))
    assert status in (200, 303, 403, 404) and "server" not in headers


# -- one address cannot starve the others -------------------------------------------------


def test_one_address_recycling_idle_and_half_sent_sockets_cannot_lock_viewers_out(live, clock):
    """64 sockets from one address, half of them a request that never ends, then (once they
    had their time to send a request) 64 more, all held: it keeps at most its share, its
    stale sockets make room for its new ones, and a phone from another address, the viewer
    and a new phone with the joining URL are all served meanwhile."""
    viewer = StreamReader(live.port, live.token)
    wait_for(lambda: viewer.snapshots, "the viewer's first snapshot")
    held: list[socket.socket] = []
    try:
        for wave in range(2):
            if wave:
                clock.now += live.shed_grace  # the first wave has had its chance to speak
            for i in range(64):
                sock = connect(live.port, "127.0.0.2")
                if i % 2:
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # ...never the blank line
                held.append(sock)
            # Its share is taken at once; the rest of the wave is refused (first wave) or
            # sheds the share of the wave before, oldest first (second wave).
            refused = (64 - MAX_PER_ADDRESS) * (wave + 1)
            wait_for(lambda r=refused: live.refused == r, "the rest of the wave refused")
            assert peers(live, "127.0.0.2") == MAX_PER_ADDRESS
        assert live.shed == MAX_PER_ADDRESS
        gone = [False] * len(held)

        def ended() -> int:
            gone[:] = [g or closed_by_server(sock) for g, sock in zip(gone, held, strict=True)]
            return sum(gone)

        wait_for(lambda: ended() == len(held) - MAX_PER_ADDRESS, "all but its share ended")
        assert not any(gone[64 : 64 + MAX_PER_ADDRESS])  # the second wave's first comers stay
        with connect(live.port, "127.0.0.3") as phone:
            assert request(phone, f"/?token={live.token}") == 303
            assert request(phone, "/snapshot.json", live.token) == 200
        with connect(live.port, "127.0.0.1") as same_host:  # the viewer's own address too
            assert request(same_host, "/", live.token) == 200
        game = Game("base", seed=2, start="red")
        game.apply(game.legal_actions()[0])
        update = live.publish(game)
        wait_for(lambda: viewer.last["digest"] == update.digest, "the update, under attack")
    finally:
        for sock in held:
            sock.close()
        viewer.close()


def test_a_burst_from_one_address_keeps_its_first_comers_and_refuses_the_rest(live):
    """Connections that have not had ``SHED_GRACE_S`` to send their request are not shed for
    newcomers from their own address: the newcomers beyond the share get 503, and the first
    comers are all answered."""
    burst = [connect(live.port, "127.0.0.4") for _ in range(MAX_PER_ADDRESS + 8)]
    try:
        wait_for(lambda: live.refused == 8, "the last 8 refused")
        statuses = [request(sock, "/snapshot.json", live.token) for sock in burst]
        assert statuses == [200] * MAX_PER_ADDRESS + [503] * 8 and live.shed == 0
    finally:
        for sock in burst:
            sock.close()


def test_at_the_cap_a_viewer_with_the_cookie_gets_the_slot_of_an_idle_stranger(clock):
    view = serve(clock, max_connections=6, max_per_address=2)
    strangers = [connect(view.port, f"127.0.0.{2 + i // 2}") for i in range(6)]  # 3 addresses
    try:
        wait_for(lambda: len(view.connections) == 6, "every slot taken by a stranger")
        cookie = f"Cookie: haleakala_live={view.token}\r\n"
        with connect(view.port, "127.0.0.9") as phone:
            phone.sendall(f"GET / HTTP/1.1\r\nHost: x\r\n{cookie}\r\n".encode())
            status, _, body = parse(read_answer(phone))
            assert status == 200 and b"<svg" in body
        assert view.refused == 0 and view.shed == 1
        wait_for(lambda: closed_by_server(strangers[0]), "the oldest stranger shed")
        assert not any(closed_by_server(sock) for sock in strangers[1:])
    finally:
        for sock in strangers:
            sock.close()
        view.close()


def test_idle_strangers_are_shed_before_a_viewers_idle_keep_alive(clock):
    view = serve(clock, max_connections=3, max_per_address=3)
    keep_alive = connect(view.port, "127.0.0.2")
    stranger = connect(view.port, "127.0.0.3")
    try:
        assert request(keep_alive, "/snapshot.json", view.token) == 200  # now idle, trusted
        assert request(stranger, "/snapshot.json") == 403  # now idle, no token
        with connect(view.port, "127.0.0.4") as first, connect(view.port, "127.0.0.5") as second:
            # the third slot, then a fourth connection: the idle stranger makes room...
            wait_for(lambda: closed_by_server(stranger), "the stranger shed")
            assert request(first, "/snapshot.json", view.token) == 200
            assert request(second, "/snapshot.json", view.token) == 200
            assert not closed_by_server(keep_alive)
            # ...and only with no stranger left, the oldest idle keep-alive of a viewer
            with connect(view.port, "127.0.0.6") as third:
                wait_for(lambda: closed_by_server(keep_alive), "the keep-alive shed")
                assert request(third, "/snapshot.json", view.token) == 200
            assert view.refused == 0 and view.shed == 2
    finally:
        keep_alive.close()
        stranger.close()
        view.close()


def test_when_every_slot_is_a_viewers_stream_the_next_connection_gets_503(clock):
    view = serve(clock, max_connections=2)
    streams = [StreamReader(view.port, view.token) for _ in range(2)]
    try:
        wait_for(lambda: all(s.snapshots for s in streams), "both streams open")
        with connect(view.port, "127.0.0.2") as late:
            status, headers, _ = parse(read_answer(late))
        assert status == 503 and headers["retry-after"] == "5" and "server" not in headers
        for name, value in SECURITY_HEADERS.items():
            assert headers[name.lower()] == value, name
        assert all(not s.closed.is_set() for s in streams)
    finally:
        for stream in streams:
            with contextlib.suppress(OSError):
                stream.close()
        view.close()
