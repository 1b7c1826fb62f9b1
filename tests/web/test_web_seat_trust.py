"""Phone seats one can trust (issue 35, items 5 and 7): one seat's cookie holding dozens of
waiting requests cannot lock the other seat out; the access check and the router read one
decoded path; a page silent for 30 s is away, and while the game is paused the other
seat's buttons are disabled; a Haleakala seat's final score is the game's score."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest
from support.browser import Browser, needs_chromium
from support.live import parse
from support.waiting import wait_for

pytest.importorskip("aiohttp")
from haleakala.gameapi import new_game
from haleakala.games.kahuna import Game
from haleakala.remote.policy import pick
from haleakala.web.host import POLLS_PER_SEAT, HostView
from haleakala.web.seats import AWAY_AFTER_S, Table


@pytest.fixture
def hosted():
    table = Table(Game(seed=5, start="white"), {"white": "phone", "black": "phone"})
    for colour in table.players:
        table.arrived(colour)
    view = HostView(table, "127.0.0.1", 0, request_timeout=30.0).start()
    yield table, view
    view.close()


def get(port: int, path: str, token: str, source: str = "127.0.0.1"):
    raw = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
           "Connection: close\r\n\r\n")  # fmt: skip
    with socket.create_connection(("127.0.0.1", port), timeout=30,
                                  source_address=(source, 0)) as sock:  # fmt: skip
        sock.sendall(raw.encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return parse(data)


def test_one_seats_cookie_holding_seventy_long_polls_does_not_lock_the_other_seat_out(hosted):
    table, view = hosted
    cookie = f"haleakala_seat_black={table.tokens['black']}"
    held: list[socket.socket] = []

    def judged() -> int:  # black's connections read (trusted), refused or shed so far
        return sum(g.trusted for g in list(view.connections)) + view.refused + view.shed

    try:
        for n in range(1, 71):  # each on its own connection, kept open, one after the other
            sock = socket.create_connection(("127.0.0.1", view.port), timeout=30)
            sock.sendall(
                f"GET /seat/black/state?since={table.seq}&wait=1 HTTP/1.1\r\nHost: x\r\n"
                f"Cookie: {cookie}\r\n\r\n".encode()
            )
            held.append(sock)
            wait_for(lambda n=n: judged() >= n, f"black's request {n} read")
        assert sum(len(w) for w in view._polls.values()) <= POLLS_PER_SEAT
        # white's phone, another device on the LAN
        status, _, body = get(view.port, "/seat/white/state", table.tokens["white"], "127.0.0.2")
        assert status == 200 and json.loads(body)["seat"] == "white"
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize(
    "path",
    [
        "/seat/black%2F..%2Fwhite/state",
        "/seat/black%2F..%2Fwhite/",
        "/seat/black%2Fx/decide",
        "/seat/%62lack/../white/state",
        "/seat/nobody/state",
    ],
)
def test_an_encoded_seat_path_gets_a_clean_4xx_never_a_traceback(hosted, caplog, path):
    table, view = hosted
    caplog.set_level(logging.DEBUG)
    status, _, body = get(view.port, path, table.tokens["black"])
    assert 400 <= status < 500, (status, body)
    assert b"Traceback" not in body and b"hand" not in body
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_page_silent_for_thirty_seconds_is_away_even_with_a_request_left_open():
    """The phone vanished in the middle of a waiting request: that request is answered (and
    "ends") up to 20 s later, and the seat is away 30 s after it last asked, as documented
    (it was once not away at 35 s)."""
    clock = Clock()
    table = Table(Game(seed=5, start="white"), {"white": "phone", "black": "phone"},
                  clock=clock)  # fmt: skip
    for colour in table.players:
        table.arrived(colour)
    table.left("black")
    table.arrived("white")  # white's page asks, and waits; the phone is gone from here on
    clock.now += 20
    table.left("white")  # the waiting request ends (answered into the void)
    clock.now += AWAY_AFTER_S - 20 - 0.5
    table.arrived("black")
    table.left("black")
    table.sweep()
    assert not table.paused()
    clock.now += 0.5
    table.sweep()
    assert list(table.authority.away()) == ["white"] and table.paused()


def test_a_haleakala_seats_final_score_is_the_games_score():
    game = new_game("haleakala", seed=5)
    table = Table(game, {"red": "phone", "yellow": "phone"})
    for colour in table.players:
        table.arrived(colour)
    while not game.is_terminal():
        seq = table.seq + 1
        assert table.decide(game.to_move, seq, pick(sorted(game.legal_decisions()), 9, seq)).ok
    red, yellow = game.result().scores
    result = table.view("red")["result"]
    assert f"red {red}, yellow {yellow}" in result, result
    assert result != "red 1 yellow 0"


@needs_chromium
def test_while_the_game_is_paused_the_present_seats_buttons_are_disabled():
    table = Table(Game(seed=5, start="white"), {"white": "phone", "black": "phone"})
    table.arrived("white")  # black never came: the game waits for it
    view = HostView(table, "127.0.0.1", 0).start()
    dom = """(() => ({
      seq: Number(document.body.dataset.seq || -1),
      enabled: document.querySelectorAll('#decisions button:not([aria-disabled=true])').length,
      buttons: document.querySelectorAll('#decisions button').length,
      away: document.querySelector('#away').hidden ? '' : document.querySelector('#away')
        .textContent,
    }))()"""

    async def look() -> tuple[dict, dict]:
        async with Browser() as page:
            await page.viewport(390, 844, mobile=True)
            await page.open(view.seat_url("white"))
            await page.wait_for("document.querySelectorAll('#decisions button').length > 0",
                                "white's decisions")  # fmt: skip
            paused = await page.evaluate(dom)
            table.arrived("black")
            await page.wait_for("document.querySelector('#away').hidden", "black is back")
            await page.wait_for(
                "document.querySelectorAll('#decisions button:not([aria-disabled=true])')"
                ".length > 0",
                "the buttons live again",
            )
            return paused, await page.evaluate(dom)

    try:
        paused, going = asyncio.run(look())
    finally:
        view.close()
    assert paused["buttons"] > 0 and paused["enabled"] == 0 and "black" in paused["away"]
    assert going["enabled"] == going["buttons"] > 0
