"""Issue 43: what a seat's drawing shows and how it answers a finger.

- The drawing holds nothing the seat may not see: at every decision of a whole Kahuna game,
  its data carries the seat's own hand exactly as the core's observation for the seat (the
  snapshot's per-seat hiding, ``opponent_hand``: its size, nothing else), and no tap of
  any legal decision names a card the seat does not hold. The page's drawn hand is the
  same.
- A paused game refuses a tap in words; an illegal tap gets the rules' own sentence; Undo
  takes a tap back; Confirm makes the decision formed.
- No page scrolls sideways on a phone: each game's seat at 360, 390 and 430 px in portrait
  and at 844 × 390 in landscape, each game's live view and the host's page at 390 px; the
  live view draws each game with the seats' drawing (Kahuna's too), showing no hand.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from support.browser import Browser, needs_chromium
from support.taps import step_ids, tap_at, tap_decision

pytest.importorskip("aiohttp")
from haleakala.gameapi import new_game
from haleakala.i18n import _
from haleakala.web.host import HostView
from haleakala.web.seats import SEAT_LABELS, Table
from haleakala.web.server import LiveView

WIDE = "document.documentElement.scrollWidth > document.documentElement.clientWidth"
OPTIONS = {"haleakala": {}, "kahuna": {"start": "white"}, "kanaloa": {"players": 4}}


def test_the_kahuna_drawing_holds_only_what_the_seat_may_see():
    game = new_game("kahuna", seed=7, start="white")
    table = Table(game, {"white": "phone", "black": "phone"}, clock=lambda: 1000.0)
    for colour in table.players:
        table.arrived(colour)
    rng = random.Random(7)
    checked = 0
    while not table.game.is_terminal():
        for seat in table.players:
            view = table.view(seat)
            state, data = view["state"], view["board"]["data"]
            other = next(c for c in table.players if c != seat)
            assert data["hand"] == state["hand"]  # its own hand, as the observation has it
            assert data["players"][other]["hand"] == state["opponent_hand"]["size"]
            assert set(data) == {"view", "radius", "islands", "lines", "display", "pile",
                                 "discard", "hand", "players", "round"}  # fmt: skip
            held = {f"hand-{card}" for card in state["hand"]}
            for decision in view["legal"]:
                named = {t for t in step_ids(decision["steps"]) if t.startswith("hand-")}
                assert named <= held, decision
            checked += 1
        mover = table.game.to_move
        legal = table.view(mover)["legal"]
        assert table.decide(mover, table.seq + 1, rng.choice(legal)["text"]).ok
    assert checked > 100


def kahuna_seat_page() -> tuple[Table, HostView]:
    table = Table(new_game("kahuna", seed=5, start="white"), {"white": "phone", "black": "phone"},
                  clock=lambda: 1000.0)  # fmt: skip
    return table, HostView(table, "127.0.0.1", 0).start()


TAP_ISLAND = """(() => {
  const node = document.querySelector('#board [data-target=%s]');
  node.scrollIntoView({ block: 'center' });
  const [ax, ay] = node.dataset.anchor.split(',').map(Number);
  const p = new DOMPoint(ax, ay).matrixTransform(node.getScreenCTM());
  return { x: p.x, y: p.y };
})()"""


@needs_chromium
def test_a_tap_is_refused_in_words_undone_and_confirmed():
    table, view = kahuna_seat_page()
    labels = {key: _(text) for key, text in SEAT_LABELS.items()}
    seat_view = table.view("white")
    refusals = seat_view["board"]["refusals"]
    legal = seat_view["legal"]
    firsts = {step_ids(d["steps"])[0] for d in legal}
    wrong = next(k for k in refusals if " " not in k and k not in firsts)  # an island, alone
    play = next(d for d in legal if d["text"].startswith("play "))
    first = step_ids(play["steps"])[0]

    async def tap(page: Browser, target: str) -> None:
        where = await page.evaluate(TAP_ISLAND % json.dumps(target))
        await tap_at(page, where["x"], where["y"])

    async def said(page: Browser) -> str:
        await page.wait_for("!document.querySelector('#refusal').hidden", "a refusal")
        text = await page.evaluate("document.querySelector('#refusal').textContent")
        await page.evaluate("document.querySelector('#refusal').hidden = true")
        return str(text)

    async def drive() -> dict:
        out = {}
        async with Browser() as page:
            await page.viewport(390, 844, mobile=True)
            await page.open(view.seat_url("white"))
            await page.wait_for("document.body.dataset.seq === '0'", "the seat")
            await page.wait_for("document.querySelector('#drawing').dataset.drawn", "the drawing")
            await tap(page, first)  # black is not here yet: the game waits
            out["paused"] = await said(page)
            out["no_marks"] = await page.evaluate(
                "document.querySelectorAll('#board .legal').length"
            )
            table.arrived("black")
            await page.wait_for("document.querySelector('#board').dataset.taps === '1'", "taps")
            await tap(page, wrong)
            out["wrong"] = await said(page)
            await tap(page, first)
            await page.wait_for("!document.querySelector('#undo').hidden", "the first tap")
            out["chosen"] = await page.evaluate(
                "[...document.querySelectorAll('#board .chosen')].map((n) => n.dataset.target)"
            )
            await page.evaluate("document.querySelector('#undo').click()")
            await page.wait_for("document.querySelector('#undo').hidden", "the tap undone")
            out["after_undo"] = await page.evaluate(
                "[...document.querySelectorAll('#board .chosen')].length"
            )
            await tap_decision(page, play)
            await page.wait_for("document.body.dataset.seq === '1'", "the decision made")
        return out

    try:
        out = asyncio.run(drive())
    finally:
        view.close()
    assert out["paused"] == labels["paused_tap"] and out["no_marks"] == 0
    assert out["wrong"] == refusals[wrong] and out["wrong"]  # the rules' own sentence
    assert out["chosen"] == [first] and out["after_undo"] == 0
    assert table.moves[0].text == play["text"]


LOOKS = [("seat", 360, 740), ("seat", 390, 844), ("seat", 430, 932), ("seat", 844, 390)]


@needs_chromium
@pytest.mark.parametrize("name", ["haleakala", "kahuna", "kanaloa"])
def test_no_page_scrolls_sideways_on_a_phone(name):
    game = new_game(name, seed=2, **OPTIONS[name])
    rng = random.Random(2)
    for _step in range(30):
        game.apply(game.format(rng.choice(sorted(game.parse(t) for t in game.legal_decisions()))),
                   game.to_move)  # fmt: skip
    start = game.clone()
    table = Table(start, dict.fromkeys(game.players, "phone"), clock=lambda: 1000.0)
    for colour in table.players:
        table.arrived(colour)
    host = HostView(table, "127.0.0.1", 0).start()
    live = LiveView("127.0.0.1", 0).start()
    live.publish(game)
    seat = table.game.to_move

    drawn: dict[str, list] = {}

    async def drive() -> list[tuple[str, int, bool]]:
        wide = []
        async with Browser() as page:
            for what, width, height in LOOKS:
                await page.viewport(width, height, mobile=True)
                await page.open(host.seat_url(seat))
                await page.wait_for("document.querySelector('#drawing').dataset.drawn", "drawn")
                wide.append((what, width, await page.evaluate(WIDE)))
            await page.viewport(390, 844, mobile=True)
            await page.open(f"{host.base()}/?token={host.token}")
            await page.wait_for("document.querySelectorAll('.seat svg').length", "the host page")
            wide.append(("host", 390, await page.evaluate(WIDE)))
            await page.open(live.url)
            await page.wait_for(f"document.body.dataset.digest === '{game.digest()}'", "live")
            wide.append(("live", 390, await page.evaluate(WIDE)))
            # the watchers see the same drawing as the seats, for nobody's seat: no hand
            drawn["live"] = await page.evaluate(
                "[document.querySelector('#island').dataset.drawn,"
                " document.querySelectorAll('.h-hand').length]"
            )
        return wide

    try:
        wide = asyncio.run(drive())
    finally:
        host.close()
        live.close()
    assert not [w for w in wide if w[2]], wide
    assert drawn["live"] == [name, 0]
