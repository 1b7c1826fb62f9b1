"""A Kanaloa seat of a game for three on a 390x844 phone (Debian's headless Chromium): the
seat that must rob out of turn (Ku's robbery, N43) reads the prompt, the players and the
volcano, the map scrolling sideways on its own, and its decisions as buttons.

The screenshot is saved in the test's directory; with ``HALEAKALA_DOCS_SCREENSHOTS=1`` it
replaces ``docs/phone-seat-kanaloa.png``.
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from support.browser import Browser, needs_chromium
from support.paths import REPO_ROOT

pytest.importorskip("aiohttp")
from haleakala.gameapi import new_game
from haleakala.remote.policy import pick
from haleakala.web.host import HostView
from haleakala.web.seats import Table

pytestmark = needs_chromium


def test_a_kanaloa_seat_robbing_out_of_turn_at_phone_width(tmp_path):
    game = new_game("kanaloa", seed=7, players=3)
    table = Table(game, dict.fromkeys(game.players, "phone"))
    for colour in table.players:
        table.arrived(colour)
    while not (game.phase_name == "rob" and game.decider != game.current):
        seq = table.seq + 1
        assert table.decide(game.to_move, seq, pick(sorted(game.legal_decisions()), 7, seq)).ok
    robber = game.to_move
    assert robber is not None
    view = HostView(table, "127.0.0.1", 0).start()

    async def shoot() -> dict:
        async with Browser() as page:
            await page.viewport(390, 844, mobile=True)
            await page.open(view.seat_url(robber))
            await page.wait_for(
                f"Number(document.body.dataset.seq) === {table.seq}", "the seat's view"
            )
            await page.wait_for("document.body.clientWidth <= 390", "the phone layout")
            (tmp_path / "seat.png").write_bytes(await page.screenshot())
            return await page.evaluate(
                "({width: document.body.scrollWidth, turn: document.body.dataset.turn,"
                " codes: [...document.querySelectorAll('#decisions .code')]"
                ".map((s) => s.textContent), text: document.body.innerText})"
            )

    try:
        shown = asyncio.run(shoot())
    finally:
        view.close()
    assert shown["width"] <= 390  # the map scrolls in its own box, the page does not
    assert shown["turn"] == "1"
    assert sorted(shown["codes"]) == sorted(game.legal_decisions())
    assert "rob a tile (rob COLOUR TILE)" in shown["text"]
    if os.environ.get("HALEAKALA_DOCS_SCREENSHOTS") == "1":
        shutil.copyfile(tmp_path / "seat.png", REPO_ROOT / "docs" / "phone-seat-kanaloa.png")
