"""The live view of a game that draws nothing of its own (the worked example, Dots and
Boxes): a real browser shows its text, whose turn it is and its legal decisions, never the
island of the board's game."""

from __future__ import annotations

import asyncio

from support.browser import needs_chromium

from haleakala.gameapi import new_game
from haleakala.toolkit.generic.live import snapshot


@needs_chromium
def test_a_phone_watches_a_game_through_the_generic_view() -> None:
    from support.browser import Browser

    from haleakala.web.server import LiveView

    game = new_game("dots", seed=4, players=3)
    for code in game.legal_actions()[:5]:
        game.apply(code)
    live = LiveView("127.0.0.1", 0).start()
    live.publish(game)

    async def drive() -> dict:
        async with Browser() as page:
            await page.viewport(400, 900, mobile=True)
            await page.open(live.url)
            await page.wait_for(f"document.body.dataset.digest === '{game.digest()}'", "the game")
            return await page.evaluate("""(() => ({
              text: document.querySelector('#generic').textContent,
              shown: !document.querySelector('#generic').hidden,
              island: getComputedStyle(document.querySelector('#island')).display,
              players: [...document.querySelectorAll('#players .player')].length,
              notation: document.querySelector('#notation').textContent,
              generic: document.body.classList.contains('generic'),
            }))()""")

    try:
        shown = asyncio.run(drive())
    finally:
        live.close()
    assert shown["generic"] and shown["shown"] and shown["island"] == "none"
    assert shown["text"] == snapshot(game)["text"]
    assert shown["players"] == 3
    assert game.legal_decisions()[0] in shown["notation"]
