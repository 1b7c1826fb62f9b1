"""Draw the lesson screenshots of docs/learn/: lesson steps on the OLED, 1:1 (128×64) and 4×,
in English, German and French, and (with ``--window``) in the simulator window.

The screens come from the real companion on the sim backend with a hand-driven clock, taught
by the real lesson engine and played by the scripted player through the kit's inputs, so the
pictures are what a learner sees (``tools/oled_screenshots.py`` does the same for games).

    .venv/bin/python tools/lesson_screenshots.py            # docs/learn/oled-*.png
    .venv/bin/python tools/lesson_screenshots.py --window   # and docs/learn/window-*.png (Xvfb)
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oled_screenshots import picture

from haleakala import i18n
from haleakala.companion import oled
from haleakala.companion.controller import Companion
from haleakala.companion.hands import events_for
from haleakala.config import Config
from haleakala.hal.events import ButtonPressed
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.learn.board import BoardLesson, board_lessons
from haleakala.learn.check import wrong_decision

OUT = Path(__file__).resolve().parents[1] / "docs" / "learn"
SHOTS = {
    "first-game": {
        "welcome": "welcome",
        "first-disc": "first-disc",
        "first-card": "first-card",
        "eruption": "eruption",
        "statue-points": "statue-points",
    },
    "tactical": {"invoke": "invoke"},
}
"""lesson → picture name → step id: the step's words on the OLED (and its board screen,
``-board``, once the words are read, for the decision steps); ``hint``: the first-disc's
hint after a wrong disc."""


def _companion() -> Companion:
    clock = SimClock(100.0)
    config = replace(Config(), kit="buttons")
    hw = SimHardware.from_config(config, clock=clock, history=5)
    c = Companion(hw, config, clock=clock, seed=1, start="red")
    c.start()
    return c


def _now(c: Companion) -> oled.Screen:
    now = c.clock()
    return oled.screen(c.game, c.ui_state(now), now)


def _decide(c: Companion, text: str) -> None:
    """``text`` through the kit's inputs, as a player would (until the game or the lesson
    answers: taken, or refused with the hint)."""
    code = c.game.parse(text)
    made = len(c.game.history)
    for _ in range(20):
        for event in events_for(c, code):
            c.handle(event)
        if len(c.game.history) > made or (c.lesson is not None and c.lesson.run.wrong):
            return


def screens(name: str, wanted: dict[str, str]) -> dict[str, oled.Screen]:
    """picture name → screen, playing lesson ``name`` on a companion."""
    lesson = next(lesson for lesson in board_lessons() if lesson.name == name)
    c = _companion()
    board = BoardLesson.start(c, lesson)
    by_id = {step_id: shot for shot, step_id in wanted.items()}
    out: dict[str, oled.Screen] = {}
    hinted = False
    for _ in range(400):
        if c.lesson is None:
            break
        step = board.run.step
        view = board.view()
        assert step is not None and view is not None
        if c.panel.overlay is not None:  # a score page first: select closes it
            if step.id in by_id:
                out.setdefault(f"{by_id[step.id]}-scores", _now(c))
            c.handle(ButtonPressed("select"))
            continue
        if view.showing:
            if step.id in by_id and view.kind in ("read", "decide"):
                out.setdefault(by_id[step.id], _now(c))
            c.handle(ButtonPressed("select"))
            continue
        if step.id in by_id:
            out.setdefault(f"{by_id[step.id]}-board", _now(c))
        if not hinted and name == "first-game":
            hinted = True
            wrong = wrong_decision(board.run)
            assert wrong is not None
            _decide(c, wrong)
            out["hint"] = _now(c)
            c.handle(ButtonPressed("select"))  # the hint read: the step again
            c.handle(ButtonPressed("select"))
        _decide(c, board.run.expected() or "")
    return out


def oled_pictures(out: Path, language: str) -> list[Path]:
    i18n.use(language)
    saved = []
    for name, wanted in SHOTS.items():
        for shot, s in screens(name, wanted).items():
            for scale, suffix in ((1, ""), (4, "-4x")):
                path = out / f"oled-{language}-{name}-{shot}{suffix}.png"
                picture(s, scale).save(path, optimize=True)
                saved.append(path)
            print(path, "|", " / ".join(s.text()))
    return saved


def window_pictures(out: Path, language: str) -> list[Path]:
    """The simulator window during the first lesson: its first disc (words, then the board
    with the LEDs pointing), in ``language``."""
    import pygame

    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    i18n.use(language)
    pygame.display.init()
    screen = pygame.display.set_mode((1280, 800))
    saved = []
    lesson = next(lesson for lesson in board_lessons() if lesson.name == "first-game")
    with SimSession(kit="buttons", variant="base", seed=lesson.seed, start="red") as session:
        c = session.companion
        board = BoardLesson.start(c, lesson)
        for shot in ("words", "board"):
            while board.view() is not None and board.view().kind == "read":
                c.handle(ButtonPressed("select"))
            if shot == "board":
                c.handle(ButtonPressed("select"))  # read: the LEDs point at beach 3
            session.update()
            win = SimWindow(session, screen=screen)
            for _ in range(12):
                win.step([])
            win.frames = 24
            path = out / f"window-{language}-first-disc-{shot}.png"
            win.save(str(path))
            saved.append(path)
            print(path)
    pygame.display.quit()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--window", action="store_true", help="the simulator window too")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for language in i18n.LANGUAGES:
        oled_pictures(args.out, language)
    if args.window:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if os.environ.get("DISPLAY"):
            for language in i18n.LANGUAGES:
                window_pictures(args.out, language)
        else:
            from haleakala.toolkit.xvfb import virtual_display

            with virtual_display(1280, 800) as display:
                os.environ["DISPLAY"] = display
                os.environ["SDL_VIDEODRIVER"] = "x11"
                for language in i18n.LANGUAGES:
                    window_pictures(args.out, language)
    i18n.use(i18n.DEFAULT)


if __name__ == "__main__":
    main()
