"""Issue 40, item 4: a phone seat for a screen reader's user. Debian's headless Chromium holds
one seat of each game (Haleakala, Kahuna, Kanaloa for two) against the random bot and plays
it to the end **through the accessibility tree and the keyboard only**: it finds the
decisions as buttons by role and accessible name (DevTools' ``Accessibility.queryAXTree``),
checks that focus is on the first legal decision whenever one of the seat's decisions is
awaited, moves to its choice with Tab and takes it with Enter or Space
(``Input.dispatchKeyEvent``). It reloads once in the middle, and at the end reads what the
live region (role ``log``, named "Announcements") said: every decision as the seat saw it and
its effects once and in order, "your turn" once per turn, the result once and last, and
nothing said again after the reload.

No screen reader is run: this is the tree Chromium hands to one (docs/accessibility.md).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable

import pytest
from support.axtree import Node, press, query, texts
from support.browser import Browser, needs_chromium

pytest.importorskip("aiohttp")
from haleakala.ai import make_bot
from haleakala.gameapi import new_game
from haleakala.i18n import _
from haleakala.web.host import HostView
from haleakala.web.seats import SEAT_LABELS, BotDriver, Table

pytestmark = needs_chromium

GAME_GUARD_S = 240.0
"""A hang guard for one whole game (a passing one takes seconds)."""
RELOAD_AT = 20
"""The first of the seat's turns from this decision on begins with a reload."""


async def awaited(page: Browser, words: list[str]) -> list[Node]:
    """The seat's decision buttons once the page shows exactly ``words`` (in that order),
    all enabled, with focus on the first: the page caught up with the decision awaited."""
    async with asyncio.timeout(60):
        while True:
            buttons = await query(page, "button")
            if (
                [b.name for b in buttons] == words
                and not any(b.disabled for b in buttons)
                and buttons[0].focused
            ):
                return buttons
            await asyncio.sleep(0.01)


async def buttons_until(page: Browser, ready: Callable[[list[Node]], bool]) -> list[Node]:
    """The page's buttons (role ``button``, in document order) once ``ready`` says so."""
    async with asyncio.timeout(60):
        while not ready(buttons := await query(page, "button")):
            await asyncio.sleep(0.01)
        return buttons


def turns_of(table: Table, seat: str) -> int:
    """How many times the turn came to ``seat``: its runs of decisions in the history."""
    runs, previous = 0, None
    for move in table.moves:
        if move.player == seat and previous != seat:
            runs += 1
        previous = move.player
    return runs


def said_moves(table: Table, seat: str) -> list[str]:
    """What the live region must say of every decision, in order: who decided what, as this
    seat saw it, then each effect it saw."""
    lines = []
    for move in table.moves:
        said, *effects = move.seen[seat]
        lines += [_(SEAT_LABELS["said_move"]).format(colour=_(move.player), what=said), *effects]
    return lines


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [("haleakala", {}, 3), ("kahuna", {"start": "white"}, 11), ("kanaloa", {"players": 2}, 5)],
)
def test_a_whole_game_from_a_phone_seat_by_keyboard_through_the_accessibility_tree(
    name, options, seed
):
    game = new_game(name, seed=seed, **options)
    seat, *others = game.players
    table = Table(game, {seat: "phone", **dict.fromkeys(others, "random")})
    bots = {c: make_bot("random", i, game=name) for i, c in enumerate(others, 1)}
    driver = BotDriver(table, bots).start()
    view = HostView(table, "127.0.0.1", 0).start()
    choices = random.Random(seed)
    labels = {key: _(text) for key, text in SEAT_LABELS.items()}
    heard: dict[str, list[str]] = {}

    async def play() -> None:
        async with Browser() as page:
            await page.call("Emulation.setFocusEmulationEnabled", enabled=True)
            await page.viewport(390, 844, mobile=True)
            await page.open(view.seat_url(seat))
            reloaded = False
            keys = 0
            while True:
                with table.changed:  # the table's lock: a bot may be deciding meanwhile
                    over = table.game.is_terminal()
                    made, legal = table.seq, table.view(seat)["legal"]
                if over:
                    break
                if not legal:
                    await asyncio.sleep(0.005)  # the bots' turn: they answer at once
                    continue
                words = [d["words"] for d in legal]
                if not reloaded and made >= RELOAD_AT:
                    await awaited(page, words)
                    heard["before"] = await texts(page, "log", labels["said"])
                    # the decisions are a region named by its heading
                    assert await query(page, "region", labels["decisions"])
                    await page.call("Page.reload")
                    reloaded = True
                buttons = await awaited(page, words)
                assert all(b.name for b in buttons)  # every control has a name
                pick = choices.randrange(len(buttons))
                for _tab in range(pick):
                    await press(page, "Tab")
                focused = [b.name for b in await query(page, "button") if b.focused]
                assert focused == [words[pick]], "Tab did not walk the decisions in order"
                await press(page, "Enter" if keys % 2 == 0 else "Space")
                keys += 1
                async with asyncio.timeout(60):
                    while len(table.moves) == made:  # recorded after the core took it
                        await asyncio.sleep(0.005)
                assert table.moves[made].player == seat
                assert table.moves[made].text == legal[pick]["text"]  # the one chosen
            result = table.view(seat)["result"]
            async with asyncio.timeout(60):
                while not (said := await texts(page, "log", labels["said"])) or said[-1] != result:
                    await asyncio.sleep(0.02)
            heard["after"] = said

    async def play_in_time() -> None:
        async with asyncio.timeout(GAME_GUARD_S):
            await play()

    try:
        asyncio.run(play_in_time())
    finally:
        driver.close()
        view.close()
    assert table.game.is_terminal() and driver.error is None
    before, after = heard["before"], heard["after"]
    assert before and after
    everything = before + after
    result = table.view(seat)["result"]
    assert everything.count(result) == 1 and everything[-1] == result
    turn_lines = {labels["your_turn"]} | {
        labels["waiting"].format(colour=_(c)) for c in table.players
    }
    spoken_moves = [line for line in everything[:-1] if line not in turn_lines]
    # Each decision and effect once, in order, across the reload: nothing said twice.
    assert spoken_moves == said_moves(table, seat)
    # "Your turn" once each time the turn came to the seat, and never after the reload again.
    assert everything.count(labels["your_turn"]) == turns_of(table, seat)
    turns_said = [line for line in everything if line in turn_lines]
    assert all(a != b for a, b in itertools.pairwise(turns_said) if a != labels["your_turn"])


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_pause_is_announced_once_and_does_not_move_the_focus(language):
    """Black's phone has not come yet: white's decisions are there but disabled (and say
    so to the screen reader), the live region says black is away. White tabs to its third
    decision; black arrives; the region says black is back, the buttons come alive and
    the focus stays where white put it (a re-drawn page does not steal it); Enter takes it.
    In each language: the region's name and its sentences come from the catalogs."""
    from haleakala import i18n
    from haleakala.games.kahuna import Game

    i18n.use(language)
    try:
        table = Table(Game(seed=5, start="white"), {"white": "phone", "black": "phone"},
                      clock=lambda: 1000.0)  # fmt: skip
        labels = {key: _(text) for key, text in SEAT_LABELS.items()}
        legal = table.view("white")["legal"]
        words = [d["words"] for d in legal]
        view = HostView(table, "127.0.0.1", 0).start()

        async def look() -> tuple[list[Node], list[Node], list[str]]:
            async with Browser() as page:
                await page.call("Emulation.setFocusEmulationEnabled", enabled=True)
                await page.open(view.seat_url("white"))
                paused = await buttons_until(page, lambda bs: [b.name for b in bs] == words)
                for _tab in range(2):
                    await press(page, "Tab")
                table.arrived("black")
                going = await buttons_until(page, lambda bs: bool(bs) and not bs[0].disabled)
                said = await texts(page, "log", labels["said"])
                await press(page, "Enter")
                async with asyncio.timeout(60):
                    while not table.moves:
                        await asyncio.sleep(0.01)
                return paused, going, said

        try:
            paused, going, said = asyncio.run(look())
        finally:
            view.close()
    finally:
        i18n.use("en")
    assert all(b.disabled for b in paused) and paused[0].focused
    assert [b.focused for b in going] == [i == 2 for i in range(len(words))]
    i18n.use(language)
    try:
        black = _("black")
        away = _(SEAT_LABELS["said_away"]).format(colour=black)
        back = _(SEAT_LABELS["said_back"]).format(colour=black)
        turn = _(SEAT_LABELS["your_turn"])
    finally:
        i18n.use("en")
    assert said == [away, turn, back]
    assert table.moves[0].player == "white" and table.moves[0].text == legal[2]["text"]
