"""Draw the OLED screenshots of docs/ (``docs/oled-*.png``, 4× with a grey frame).

The screens come from the real companion on the sim backend with a hand-driven clock,
playing seeded games through its inputs, so the pictures are what a player sees; the same
seeds give the same pictures (a test compares them with docs/).

    .venv/bin/python tools/oled_screenshots.py            # refresh docs/
    .venv/bin/python tools/oled_screenshots.py --scale 1 --out /tmp/oled   # 1:1, to look at
    .venv/bin/python tools/oled_screenshots.py --lang de   # docs/oled-de-*.png (fr likewise)
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from haleakala import i18n
from haleakala.companion import oled
from haleakala.companion.autoplay import choose
from haleakala.companion.controller import Companion
from haleakala.companion.hands import events_for
from haleakala.config import Config
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN, PRIESTESS
from haleakala.hal.events import BeachContents, Disc, EncoderTurned, LinkHealth
from haleakala.hal.simulated import SimClock, SimHardware

DOCS = Path(__file__).resolve().parents[1] / "docs"
SCALE = 4
FRAME = 4  # px of grey round the panel, at the output scale: the panel's edge shows


def _companion(kit: str, variant: str = "base", seed: int = 3) -> Companion:
    clock = SimClock(100.0)
    config = replace(Config(), kit=kit, variant=variant)
    hw = SimHardware.from_config(config, clock=clock, history=5)
    companion = Companion(hw, config, clock=clock, seed=seed, start="red")
    companion.start()
    return companion


def _play_until(c: Companion, predicate, seed: int = 1) -> bool:
    """Play the seeded policy through the inputs until ``predicate(game)`` (False: the game
    ended first)."""
    while not predicate(c.game):
        if c.game.is_terminal():
            return False
        d = choose(c.game, seed)
        made = len(c.game.history)
        while len(c.game.history) == made:
            for event in events_for(c, d):
                c.handle(event)
    return True


def _reach(kit: str, predicate) -> Companion:
    """A companion whose game reached ``predicate`` (the first seed that gets there)."""
    for seed in range(1, 50):
        c = _companion(kit, seed=seed)
        if _play_until(c, predicate, seed):
            return c
    raise RuntimeError("no seed reaches the position")


def _now(c: Companion) -> oled.Screen:
    now = c.clock()
    return oled.screen(c.game, c.ui_state(now), now)


def screens() -> dict[str, oled.Screen]:
    """name → the screen, for each picture of docs/."""
    out = {}
    c = _companion("buttons")
    out["turn"] = _now(c)
    c.handle(_press("back"))
    c.handle(EncoderTurned(2))
    out["menu"] = _now(c)
    c = _reach("buttons", lambda g: g.phase == MOVE_SHAMAN and len(g.legal_actions()) == 8)
    c.handle(EncoderTurned(2))
    out["shaman"] = _now(c)
    c = _reach("buttons", lambda g: g.phase == CHOOSE_CARD and len(g.legal_actions()) == 2)
    out["cards"] = _now(c)
    c = _reach("buttons", lambda g: g.phase == PRIESTESS and len(g.legal_actions()) >= 6)
    c.handle(EncoderTurned(1))
    out["priestess"] = _now(c)
    c = _reach("buttons", lambda g: bool(g.scorings))
    out["scoring"] = _now(c)

    r = _companion("rfid")
    r.handle(BeachContents(2, frozenset({Disc("yellow", 3)})))  # out of turn
    out["refusal"] = _now(r)
    r.handle(BeachContents(2, frozenset()))
    r.handle(LinkHealth(False, "lost the RFID Pico on /tmp/tmpq1w2e3/pty: [Errno 5] I/O error"))
    out["rfid-unplugged"] = _now(r)
    return paged(out)


def paged(shots: dict[str, oled.Screen]) -> dict[str, oled.Screen]:
    """A screen longer than the panel turns its pages by itself (``oled.PAGE_S`` each):
    ``name`` is its first page, ``name-2``, ``name-3`` the next, so docs/ shows it whole."""
    out = {}
    for name, s in shots.items():
        for k, page in enumerate(oled.each_page(s)):
            out[name if k == 0 else f"{name}-{k + 1}"] = page
    return out


def _press(button: str):
    from haleakala.hal.events import ButtonPressed

    return ButtonPressed(button)


def picture(s: oled.Screen, scale: int = SCALE):
    """The panel as a player sees it: lit pixels white on black, enlarged without blur."""
    from PIL import Image

    panel = oled.draw(s).convert("L")
    if scale == 1:
        return panel
    big = panel.resize((oled.WIDTH * scale, oled.HEIGHT * scale), Image.Resampling.NEAREST)
    framed = Image.new("L", (big.width + 2 * FRAME, big.height + 2 * FRAME), 96)
    framed.paste(big, (FRAME, FRAME))
    return framed


def file_name(name: str, language: str = "en") -> str:
    """``oled-menu.png`` in English, ``oled-de-menu.png`` in German."""
    return f"oled-{name}.png" if language == i18n.DEFAULT else f"oled-{language}-{name}.png"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS)
    parser.add_argument("--scale", type=int, default=SCALE)
    parser.add_argument(
        "--lang",
        choices=i18n.LANGUAGES,
        default=i18n.DEFAULT,
        help="the OLED in this language: docs/oled-de-*.png, docs/oled-fr-*.png (en: oled-*.png)",
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    i18n.use(args.lang)
    for name, s in screens().items():
        path = args.out / file_name(name, args.lang)
        picture(s, args.scale).save(path, optimize=True)
        print(path, "|", " / ".join(s.text()))


if __name__ == "__main__":
    main()
