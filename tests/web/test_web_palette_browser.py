"""The live view's colour modes in a real browser (Debian's headless Chromium): the companion's
mode reaches the page, a phone chooses its own with the selector (kept in that browser only),
and the pieces are drawn in the palette's colours with their letters.

Screenshots of each mode are saved in the test's directory; with
``HALEAKALA_DOCS_SCREENSHOTS=1`` they also replace ``docs/palette/live-view-*.png``
(``tools/palette_screenshots.py`` then passes them through the CVD simulations).
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from support.browser import Browser, needs_chromium
from support.companion_rig import Rig
from support.paths import REPO_ROOT

from haleakala import palette
from haleakala.companion.autoplay import choose

pytest.importorskip("aiohttp")
from haleakala.web.server import LiveView

pytestmark = needs_chromium

SHOWN = """(() => {
  const fill = (s) => getComputedStyle(document.querySelector(s)).fill;
  return {
    mode: document.documentElement.dataset.palette,
    select: document.getElementById('palette').value,
    red: fill('#shaman-red'),
    yellow: fill('#shaman-yellow'),
    letters: [...document.querySelectorAll('#pieces text.piece-letter')].map((t) => t.textContent),
  };
})()"""

CHOOSE_CVD = """(() => {
  const s = document.getElementById('palette');
  s.value = 'cvd';
  s.dispatchEvent(new Event('change'));
  return true;
})()"""


def rgb(colour: tuple[int, int, int]) -> str:
    return f"rgb({colour[0]}, {colour[1]}, {colour[2]})"


def test_a_phone_chooses_its_colours_and_the_pieces_follow(tmp_path):
    palette.use("default")
    rig = Rig("buttons", "tactical", seed=7, start="red")
    while len(rig.game.history) < 60:
        rig.carry_out(choose(rig.game, 2))
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)

    async def drive() -> None:
        async with Browser() as page:
            await page.viewport(1280, 800)
            await page.open(live.url)
            digest = rig.c.game.digest()
            await page.wait_for(f"document.body.dataset.digest === '{digest}'", "the position")
            shown = await page.evaluate(SHOWN)
            assert shown["mode"] == "default" and shown["select"] == "default"
            assert shown["red"] == rgb(palette.screen("player.red", "default"))
            assert {"R", "Y"} <= set(shown["letters"])  # never colour alone
            (tmp_path / "live-view-default.png").write_bytes(await page.screenshot())
            await page.evaluate(CHOOSE_CVD)
            await page.wait_for("document.documentElement.dataset.palette === 'cvd'", "cvd")
            shown = await page.evaluate(SHOWN)
            assert shown["red"] == rgb(palette.screen("player.red", "cvd"))
            assert shown["yellow"] == rgb(palette.screen("player.yellow", "cvd"))
            (tmp_path / "live-view-cvd.png").write_bytes(await page.screenshot())
            # The phone's own choice outlives the companion's next update and a reload.
            rig.carry_out(choose(rig.game, 2))
            live.observe(rig.c)
            await page.open(live.url)
            digest = rig.c.game.digest()
            await page.wait_for(f"document.body.dataset.digest === '{digest}'", "the update")
            assert (await page.evaluate(SHOWN))["mode"] == "cvd"

    try:
        asyncio.run(drive())
    finally:
        live.close()
        palette.use("default")
    if os.environ.get("HALEAKALA_DOCS_SCREENSHOTS") == "1":
        (REPO_ROOT / "docs" / "palette").mkdir(exist_ok=True)
        for name in ("live-view-default.png", "live-view-cvd.png"):
            shutil.copyfile(tmp_path / name, REPO_ROOT / "docs" / "palette" / name)


def test_the_companions_mode_reaches_a_page_that_chose_nothing():
    palette.use("cvd")
    rig = Rig("buttons", seed=3, start="red")
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)

    async def drive() -> dict:
        async with Browser() as page:
            await page.open(live.url)
            await page.wait_for("document.documentElement.dataset.palette === 'cvd'", "cvd")
            return await page.evaluate(SHOWN)

    try:
        shown = asyncio.run(drive())
    finally:
        live.close()
        palette.use("default")
    assert shown["select"] == "cvd" and shown["red"] == rgb(palette.screen("player.red", "cvd"))
