"""A real browser on the live view: Debian's headless Chromium joins with the URL the daemon
logs, and its DOM shows the position after each decision, drawn from the pushed snapshots.

Screenshots of a mid-game desktop view and a phone-sized view are saved in the test's
directory; with ``HALEAKALA_DOCS_SCREENSHOTS=1`` they also replace ``docs/live-view*.png``.
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from support.browser import Browser, chromium_path
from support.companion_rig import Rig
from support.paths import REPO_ROOT

from haleakala.companion.autoplay import choose

pytest.importorskip("aiohttp")
from haleakala.web.server import LiveView

pytestmark = pytest.mark.skipif(
    chromium_path() is None,
    reason="Debian's chromium is not installed (./test installs it when run as root: "
    "apt-get install chromium)",
)

DOM_POSITION = """(() => {
  const q = (s) => document.querySelector(s);
  const discs = [...document.querySelectorAll('#pieces circle.disc')]
    .map((c) => c.getAttribute('class').split(' ')[1] + c.dataset.value + '@' + c.dataset.beach)
    .sort();
  return {
    digest: document.body.dataset.digest,
    decisions: Number(document.body.dataset.decisions),
    boat: Number(q('#boat').dataset.segment),
    red_shaman: Number(q('#shaman-red').dataset.space),
    yellow_shaman: Number(q('#shaman-yellow').dataset.space),
    discs,
    statues: document.querySelectorAll('#pieces rect.statue').length,
    lava: document.querySelectorAll('#pieces circle.lava').length,
    status: q('#status').textContent,
    log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
  };
})()"""


def expected_position(game) -> dict:
    discs = []
    for p, colour in enumerate(("red", "yellow")):
        discs += [f"{colour}{v}@{game.disc_at[p][v]}" for v in game.board.discs
                  if game.disc_at[p][v] >= 0]  # fmt: skip
        if game.invocation[p] >= 0:
            discs.append(f"{colour}*@{game.invocation[p]}")
    return {
        "digest": game.digest(),
        "decisions": len(game.history),
        "boat": game.boat,
        "red_shaman": game.shaman[0],
        "yellow_shaman": game.shaman[1],
        "discs": sorted(discs),
        "statues": sum(1 for o in game.statue_owner if o >= 0),
        "lava": sum(game.lava),
    }


def test_the_page_shows_the_current_position_after_decisions(tmp_path):
    rig = Rig("buttons", "tactical", seed=7, start="red")
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)

    async def drive() -> None:
        async with Browser() as page:
            await page.viewport(1280, 800)
            await page.open(live.url)  # the URL the daemon logs: token, then the cookie
            for target in (0, 1, 2, 9, 40, 95):
                while len(rig.game.history) < target:
                    rig.carry_out(choose(rig.game, 2))
                    live.observe(rig.c)
                digest = rig.c.game.digest()
                await page.wait_for(
                    f"document.body.dataset.digest === '{digest}'", f"decision {target}"
                )
                shown = await page.evaluate(DOM_POSITION)
                want = expected_position(rig.c.game)
                assert {k: shown[k] for k in want} == want
                assert shown["status"].startswith(rig.c.game.to_move)
                if target:  # the newest decision heads the log, in words
                    last = rig.c.game.format(rig.c.game.history[-1])
                    assert shown["log"][0].endswith(f"({last})")
            assert await page.evaluate("document.cookie") == ""  # HttpOnly: scripts never see it
            assert await page.evaluate("location.search") == ""  # the token left the URL
            (tmp_path / "live-view.png").write_bytes(await page.screenshot())
            await page.viewport(390, 844, mobile=True)
            await page.wait_for("document.body.clientWidth <= 390", "the phone layout")
            (tmp_path / "live-view-phone.png").write_bytes(await page.screenshot())

    try:
        asyncio.run(drive())
    finally:
        live.close()
    if os.environ.get("HALEAKALA_DOCS_SCREENSHOTS") == "1":
        for name in ("live-view.png", "live-view-phone.png"):
            shutil.copyfile(tmp_path / name, REPO_ROOT / "docs" / name)


def test_without_the_token_the_page_shows_nothing_of_the_game():
    rig = Rig("buttons", "base", seed=3, start="red")
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)

    async def drive() -> str:
        async with Browser() as page:
            await page.open(f"http://127.0.0.1:{live.port}/")
            await page.wait_for("document.readyState === 'complete'", "the refusal")
            return await page.evaluate("document.documentElement.outerHTML")

    try:
        html = asyncio.run(drive())
    finally:
        live.close()
    assert "island" not in html and rig.c.game.digest() not in html
