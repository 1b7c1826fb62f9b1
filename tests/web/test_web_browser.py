"""A real browser on the live view: Debian's headless Chromium joins with the URL the daemon
logs, and its DOM shows the position after each decision, drawn from the pushed snapshots.

Screenshots of a mid-game desktop view and of phones (400 px) joining a resumed game in
English, German and French are saved in the tests' directories; with
``HALEAKALA_DOCS_SCREENSHOTS=1`` they also replace ``docs/live-view*.png``.
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from support.browser import Browser, needs_chromium
from support.companion_rig import Rig
from support.paths import REPO_ROOT

from haleakala.companion.autoplay import choose

pytest.importorskip("aiohttp")
from haleakala.web.server import LiveView

pytestmark = needs_chromium

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
        # docs/live-view-phone*.png: the phone test below (a resumed game, three languages).
        shutil.copyfile(tmp_path / "live-view.png", REPO_ROOT / "docs" / "live-view.png")


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


DOM_WORDS = """(() => ({
  lang: document.documentElement.lang,
  title: document.title,
  headings: [...document.querySelectorAll('h2')].map((h) => h.textContent),
  status: document.querySelector('#status').textContent,
  players: [...document.querySelectorAll('#players h3')].map((h) => h.textContent),
  board: [...document.querySelectorAll('#board li')].map((li) => li.textContent),
  piles: document.querySelector('#piles').textContent,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
}))()"""


def test_the_page_speaks_german_when_the_game_does(tmp_path):
    """The game's language (issue 15): the page's labels, its <html lang> and the game's texts
    come in German (the phone test below makes ``docs/live-view-phone-de.png``)."""
    from support.leaks import english_words

    from haleakala import i18n

    i18n.use("de")
    rig = Rig("buttons", "base", seed=5, start="red")
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)

    async def drive() -> dict:
        async with Browser() as page:
            await page.viewport(390, 844, mobile=True)
            await page.open(live.url)
            while len(rig.game.history) < 30:
                rig.carry_out(choose(rig.game, 2))
                live.observe(rig.c)
            digest = rig.c.game.digest()
            await page.wait_for(f"document.body.dataset.digest === '{digest}'", "decision 30")
            await page.wait_for("document.body.clientWidth <= 390", "the phone layout")
            (tmp_path / "live-view-phone-de.png").write_bytes(await page.screenshot())
            return await page.evaluate(DOM_WORDS)

    try:
        words = asyncio.run(drive())
        mover = i18n._(rig.c.game.to_move)
        english = sorted(
            t for t in [*words["players"], *words["board"], *words["log"]] if english_words(t, "de")
        )
    finally:
        live.close()
        i18n.use("en")
    assert words["lang"] == "de"
    assert words["title"] == "Haleakala — Live-Ansicht"
    assert words["headings"][-2:] == ["Wertungstafel", "Protokoll"]
    assert words["status"] == f"{mover} ist am Zug"
    assert words["players"][0].startswith("Rot") and words["players"][1].startswith("Gelb")
    assert words["piles"].startswith("Stapel: 1 Palme: ")
    assert english == []  # as tests/i18n: nothing the catalog would still translate


DOM_PHONE = """(() => {
  const island = document.querySelector('#island').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#pieces g.slot')].map((g) => {
    const rect = g.querySelector('rect').getBoundingClientRect();
    return [...g.querySelectorAll('text.card-text')].map((t) => {
      const box = t.getBoundingClientRect();
      return { height: parseFloat(getComputedStyle(t).fontSize) * island.width
                 / document.querySelector('#island').viewBox.baseVal.width,
               fits: box.left >= rect.left - 0.5 && box.right <= rect.right + 0.5,
               text: t.textContent };
    });
  }).flat();
  return {
    width: document.body.clientWidth,
    cards,
    legend: [...document.querySelectorAll('#legend li span')].map((s) => s.textContent),
    legendTitle: document.querySelector('#legend summary').textContent,
    awaited: document.querySelector('#awaited').textContent,
    notation: document.querySelector('#notation').textContent,
    log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
  };
})()"""
LEGEND_TITLE = {"en": "What the shapes mean", "de": "Was die Formen bedeuten",
                "fr": "Ce que montrent les formes"}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_phone_joining_a_resumed_game_reads_cards_legend_words_and_recent_moves(
    tmp_path, language
):
    """Issue 23, at 400 px: card labels about 10 px (not 6) and inside their cards, a legend
    of the shapes, the header in words before notation, the recent moves of a game joined
    at decision 80, and a tab icon. Screenshots: ``docs/live-view-phone{,-de,-fr}.png``."""
    from support.leaks import english_words

    from haleakala import i18n

    i18n.use(language)
    rig = Rig("buttons", "base", seed=11, start="red")
    while len(rig.game.history) < 80:
        rig.carry_out(choose(rig.game, 2))
    live = LiveView("127.0.0.1", 0).start()
    live.observe(rig.c)  # the first the server sees of this game: decision 80, as on a resume

    async def drive() -> tuple[dict, int]:
        async with Browser() as page:
            await page.viewport(400, 900, mobile=True)
            await page.open(live.url)
            digest = rig.c.game.digest()
            await page.wait_for(f"document.body.dataset.digest === '{digest}'", "decision 80")
            await page.wait_for("document.body.clientWidth <= 400", "the phone layout")
            await page.evaluate(
                "fetch('/favicon.ico').then((r) => { window.icon = "
                "r.status + ' ' + r.headers.get('content-type'); })"
            )
            icon = await page.wait_for("window.icon", "the answer for /favicon.ico")
            (tmp_path / "phone.png").write_bytes(await page.screenshot())
            return await page.evaluate(DOM_PHONE), icon

    try:
        shown, icon = asyncio.run(drive())
        english = sorted(t for t in [*shown["legend"], *shown["log"]] if english_words(t, language))
    finally:
        live.close()
        i18n.use("en")
    assert shown["cards"], "no card labels on the island"
    assert min(c["height"] for c in shown["cards"]) >= 9.5  # CSS px at 400 px wide
    assert all(c["fits"] for c in shown["cards"]), [c["text"] for c in shown["cards"]]
    assert shown["legendTitle"] == LEGEND_TITLE[language] and len(shown["legend"]) == 6
    assert "@" not in shown["awaited"] and "(" not in shown["awaited"]
    assert "3@2" in shown["notation"]
    assert len(shown["log"]) > 8  # the start line and the recent moves, not the start alone
    assert english == []
    assert icon == "200 image/x-icon"
    name = {"en": "live-view-phone.png"}.get(language, f"live-view-phone-{language}.png")
    if os.environ.get("HALEAKALA_DOCS_SCREENSHOTS") == "1":
        shutil.copyfile(tmp_path / "phone.png", REPO_ROOT / "docs" / name)
