"""Bad input to the live view: every request that is not a viewer with the token gets a clear
HTTP status and nothing else, no traceback reaches the log, and the game goes on untouched.
Read-only: no method but GET/HEAD is answered, and no path changes anything."""

from __future__ import annotations

import contextlib
import logging
import random
import socket
import threading

import pytest
from support.companion_rig import Rig
from support.live import StreamReader, exchange, get, parse, read_answer
from support.waiting import wait_for

from haleakala.companion.autoplay import AutoPlayer, reference_game
from haleakala.companion.daemon import Daemon
from haleakala.games.haleakala import Game

pytest.importorskip("aiohttp")
from haleakala.web.server import SECURITY_HEADERS, LiveView


@pytest.fixture
def live(caplog):
    caplog.set_level(logging.DEBUG)
    view = LiveView("127.0.0.1", 0, request_timeout=0.5, write_timeout=0.5).start()
    game = Game("base", seed=2, start="red")
    view.publish(game)
    wait_for(lambda: view.latest is not None, "the first snapshot handed over")
    yield view
    view.close()
    # The call's records: ``caplog.records`` here, in teardown, would be teardown's own (none).
    records = caplog.get_records("setup") + caplog.get_records("call")
    tracebacks = [r for r in records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks]


@pytest.mark.parametrize("path", ["/", "/app.js", "/events", "/snapshot.json", "/geometry.json",
                                  "/nope", "/../../etc/passwd"])  # fmt: skip
def test_without_the_token_every_path_is_403_with_no_content(live, path):
    status, headers, body = get(live.port, path)
    assert status == 403 and body == b""
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("how", ["query", "header", "cookie"])
def test_a_wrong_token_is_403_however_it_is_given(live, how):
    wrong = live.token[:-1] + ("A" if live.token[-1] != "A" else "B")
    if how == "query":
        status, _, body = get(live.port, f"/?token={wrong}")
    elif how == "header":
        status, _, body = get(live.port, "/", wrong)
    else:
        status, _, body = get(live.port, "/", extra=f"Cookie: haleakala_live={wrong}\r\n")
    assert status == 403 and body == b""


def test_the_token_in_the_url_becomes_a_cookie_and_leaves_the_address_bar(live):
    status, headers, body = get(live.port, f"/?token={live.token}")
    assert status == 303 and headers["location"] == "/" and body == b""
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"haleakala_live={live.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, headers, body = get(live.port, "/", extra=f"Cookie: haleakala_live={live.token}\r\n")
    assert status == 200 and b"<svg" in body and b"<script src=" in body
    assert b"<script>" not in body  # no inline script: the CSP forbids it anyway


def test_every_answer_carries_the_security_headers(live):
    for path in ("/", "/app.js", "/style.css", "/geometry.json", "/snapshot.json", "/nope"):
        _, headers, _ = get(live.port, path, live.token)
        for name, value in SECURITY_HEADERS.items():
            assert headers[name.lower()] == value, (path, name)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "unsafe-inline" not in csp


def test_an_unknown_path_with_the_token_is_404_with_no_content(live):
    status, _, body = get(live.port, "/admin", live.token)
    assert status == 404 and body == b""


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_nothing_but_get_is_answered_read_only(live, method):
    before = live.latest
    raw = (
        f"{method} /events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {live.token}\r\n"
        "Content-Length: 5\r\nConnection: close\r\n\r\nhello"
    )
    status, headers, body = parse(exchange(live.port, raw.encode()))
    assert status == 405 and headers["allow"] == "GET, HEAD" and body == b""
    assert live.latest is before and live.published == 1


@pytest.mark.parametrize(
    "raw",
    [
        b"GARBAGE\r\n\r\n",
        b"\x00\xff\xfe\x16\x03\x01 hello\r\n\r\n",
        b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 10_000 + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -4\r\n\r\n",
    ],
    ids=["garbage", "binary", "bad-version", "long-line", "long-header", "bad-length"],
)
def test_malformed_and_oversized_requests_get_400_class_answers(live, raw):
    status, _, _ = parse(exchange(live.port, raw))
    assert 400 <= status < 500 or status == 505


def test_a_body_on_a_get_is_refused(live):
    raw = (
        f"GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {live.token}\r\n"
        "Content-Length: 4000\r\nConnection: close\r\n\r\n" + "x" * 4000
    )
    status, _, body = parse(exchange(live.port, raw.encode()))
    assert status == 413 and body == b""


def test_a_slowloris_client_gets_408_while_others_are_served(live):
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # ...and never the blank line
        status, _, _ = get(live.port, "/snapshot.json", live.token)
        assert status == 200  # the others are served meanwhile
        answer = read_answer(slow)  # the server ends it (request_timeout), not the client
    assert parse(answer)[0] == 408
    assert live.timed_out == 1


def test_an_idle_connection_is_closed_without_a_word(live):
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as idle:
        assert idle.recv(100) == b""  # closed by the server, nothing sent


def test_a_hundred_connections_at_once_get_answers_or_are_shed_and_viewers_keep_getting_updates(
    live,
):
    viewer = StreamReader(live.port, live.token)
    wait_for(lambda: viewer.snapshots, "the viewer's first snapshot")
    socks = []
    try:
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", live.port), timeout=30)
            socks.append(sock)
        raw = f"GET /snapshot.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {live.token}\r\n"
        for sock in socks:
            with contextlib.suppress(OSError):  # shed meanwhile: the server closed it
                sock.sendall((raw + "Connection: close\r\n\r\n").encode())
        statuses = [_status_or_closed(sock) for sock in socks]
        # One address's share of connections without the token is answered; the rest were
        # refused (503) or, on a machine slow enough to let the first ones grow stale, shed
        # (closed, or 408 with the request half-read) for newer ones.
        assert set(statuses) <= {200, 408, 503, None}
        assert statuses.count(200) >= live.max_per_address
        # The game thread's publish never waited on any of them; the viewer gets the update.
        game = Game("base", seed=2, start="red")
        game.apply(game.legal_actions()[0])
        update = live.publish(game)
        wait_for(lambda: viewer.last["digest"] == update.digest, "the update, under load")
    finally:
        for sock in socks:
            sock.close()
        viewer.close()
    wait_for(lambda: get(live.port, "/snapshot.json", live.token)[0] == 200, "room again")


def _status_or_closed(sock: socket.socket) -> int | None:
    try:
        answer = read_answer(sock)
    except OSError:  # reset: it was shed before its request arrived
        return None
    return parse(answer)[0] if answer else None


def test_a_viewer_that_does_not_read_is_dropped_and_nothing_piles_up(live):
    slow = StreamReader(live.port, live.token, rcvbuf=4096)
    wait_for(lambda: slow.snapshots, "the first snapshot")
    slow.reading.clear()  # from now on it takes nothing
    fast = StreamReader(live.port, live.token)
    wait_for(lambda: fast.snapshots and len(live.viewers) == 2, "both viewers attached")
    game = Game("base", seed=9, start="red")
    rng = random.Random(1)
    try:
        # Every publish offers the newest position; the silent one cannot take them.
        def publish_one() -> bool:
            if not game.is_terminal():
                game.apply(rng.choice(game.legal_actions()))
            live.publish(game.clone())
            return live.dropped >= 1

        wait_for(publish_one, "the silent viewer dropped", poll=0.001)
        final = live.publish(game.clone())
        wait_for(lambda: fast.last and fast.last["seq"] == final.seq, "the fast viewer")
        assert len(live.viewers) == 1
    finally:
        slow.close()
        fast.close()


def test_a_vanished_viewer_is_forgotten(live):
    gone = StreamReader(live.port, live.token)
    wait_for(lambda: gone.snapshots and live.viewers, "connected")
    gone.close()
    game = Game("base", seed=2, start="red")
    wait_for(lambda: (live.publish(game), not live.viewers)[1], "the viewer forgotten")


def test_garbage_and_slow_clients_do_not_change_or_delay_the_daemons_game():
    rig = Rig("buttons", "base", seed=6, start="red")
    view = LiveView("127.0.0.1", 0, request_timeout=0.5).start()
    view.observe(rig.c)
    viewer = StreamReader(view.port, view.token)
    noise = [socket.create_connection(("127.0.0.1", view.port), timeout=30) for _ in range(70)]
    for i, sock in enumerate(noise):
        sock.sendall([b"GET / HTTP/1.1\r\nHost: x\r\n", b"\x00\xff" * 50, b"POST /x"][i % 3])
    daemon = Daemon(rig.c, autoplayer=AutoPlayer(4), live=view)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        thread.join(120)
        assert not thread.is_alive()
        assert rig.c.game.history == reference_game("base", 6, "red", 4).history
        wait_for(lambda: viewer.last and viewer.last["digest"] == rig.c.game.digest(), "the end")
    finally:
        for sock in noise:
            sock.close()
        viewer.close()
        view.close()


def test_head_on_the_event_stream_answers_headers_and_holds_nothing_open(live):
    raw = f"HEAD /events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {live.token}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as sock:
        sock.sendall(raw.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
    status, headers, _ = parse(head)
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert not live.viewers
