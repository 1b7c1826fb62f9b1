"""The live view shows a Kanaloa game: the snapshot holds the whole public position (N12:
only the bag's order is hidden), the log tells the decisions in words, and a real browser at
phone width draws the map, the fish and the pieces from it.

With ``HALEAKALA_DOCS_SCREENSHOTS=1`` the phone screenshot replaces
``docs/kanaloa-live-view-phone.png``."""

from __future__ import annotations

import asyncio
import json
import os
import shutil

import pytest
from support.browser import needs_chromium
from support.kanaloa_positions import advanced
from support.paths import REPO_ROOT

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.views.live import log_lines, snapshot

pytest.importorskip("aiohttp")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_kanaloa_snapshot_holds_the_public_position_and_no_bag_order(players):
    game = advanced(5, players, 180)
    s = snapshot(game)
    json.dumps(s)  # plain values only
    assert s["game"] == "kanaloa" and s["digest"] == game.digest()
    m = s["map"]
    assert len([i for i in m["islands"] if i["in_play"]]) == len(game.lay.islands)
    assert sum(1 for c in m["currents"] if c["fish"]) == sum(
        1 for c in game.lay.currents if game.fish_tail[c] >= 0
    )
    pieces = sum(len(i["pieces"]) for i in m["islands"]) + len(m["dolphin"]["pieces"])
    assert pieces == sum(1 for p in range(game.n) for x in game.loc[p] if x >= 0 or x == -2)
    for p, colour in enumerate(game.players):
        assert s["players"][colour]["tiles"] == game.hand_tiles(p)
        assert list(s["players"][colour]["temples"].values()) == game.temples[p]
    assert m["track"] == {"drawn": game.volcanoes, "end": game.end_count, "y": m["track"]["y"]}
    text = json.dumps(s)
    assert '"bag"' not in text and "reserve" not in text  # N12: never the bag's order


def test_the_kanaloa_log_tells_each_decision_and_its_events():
    before = advanced(2, 3, 60)
    after = before.clone()
    d = after.legal_actions()[0]
    text = after.format(d)
    after.apply(d)
    lines, fresh = log_lines(before, after)
    assert not fresh and lines[0].endswith(text)
    lines, fresh = log_lines(None, after)
    assert fresh and "seed 2" in lines[0]


@needs_chromium
def test_a_phone_watches_a_kanaloa_game(tmp_path):
    from support.browser import Browser

    from haleakala.web.server import LiveView

    game = advanced(7, 4, 150)
    live = LiveView("127.0.0.1", 0).start()
    live.publish(game)

    async def drive() -> dict:
        async with Browser() as page:
            await page.viewport(400, 900, mobile=True)
            await page.open(live.url)
            await page.wait_for(f"document.body.dataset.digest === '{game.digest()}'", "the game")
            await page.wait_for("document.body.clientWidth <= 400", "the phone layout")
            (tmp_path / "phone.png").write_bytes(await page.screenshot())
            return await page.evaluate("""(() => ({
              fish: [...document.querySelectorAll('g.k-fish')].map((g) =>
                g.dataset.tail + '>' + g.dataset.head + ' ' + g.dataset.shows).sort(),
              pieces: document.querySelectorAll('g.k-piece').length,
              players: [...document.querySelectorAll('#players .player')].length,
              status: document.querySelector('#status').textContent,
              width: document.body.scrollWidth,
            }))()""")

    try:
        shown = asyncio.run(drive())
    finally:
        live.close()
    m = game.m
    want = []
    for c in game.lay.currents:
        if game.fish_tail[c] >= 0:
            shows = game.shows(c)
            side = "white" if shows < 0 else m.colours[shows]
            want.append(f"{m.islands[game.fish_tail[c]]}>{m.islands[game.head(c)]} {side}")
    assert shown["fish"] == sorted(want)
    on_map = sum(1 for p in range(game.n) for x in game.loc[p] if x >= 0 or x == -2)
    assert shown["pieces"] == on_map + 0  # the player boxes draw no pieces
    assert shown["players"] == 4
    assert shown["status"].startswith(game.to_move or "")
    assert shown["width"] <= 400  # nothing wider than the phone
    if os.environ.get("HALEAKALA_DOCS_SCREENSHOTS") == "1":
        shutil.copyfile(tmp_path / "phone.png", REPO_ROOT / "docs" / "kanaloa-live-view-phone.png")


def test_the_kanaloa_window_publishes_each_change_to_the_live_view():
    pygame = pytest.importorskip("pygame")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from haleakala.ai import make_bot
    from haleakala.games.kanaloa.views.window.table import KanaloaTable, Seat
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow
    from haleakala.web.server import LiveView

    game = Game(seed=3, players=3)
    table = KanaloaTable(game, [Seat(make_bot("random", p, game="kanaloa")) for p in range(3)])
    live = LiveView("127.0.0.1", 0)  # not started: publish keeps the latest update
    pygame.display.init()
    try:
        win = KanaloaWindow(table, screen=pygame.display.set_mode((1280, 800)))
        win.after_step = lambda: live.publish(table.game.clone())
        for _ in range(5):
            win.step([])
    finally:
        pygame.display.quit()
    data = json.loads(live.latest.data)
    assert data["game"] == "kanaloa" and data["decisions"] == 5
    assert sum(1 for line in data["log"] if not line.startswith("  ")) >= 5
