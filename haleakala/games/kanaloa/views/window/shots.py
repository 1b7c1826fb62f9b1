"""The Kanaloa window's screenshots in docs/, made again from real games.

    python -m haleakala.games.kanaloa.views.window.shots docs/

Each picture is the real window (on the display in DISPLAY, or a private Xvfb) over a game
that bots played up to a position where a person (red) decides, so the pictures show what a
player sees, with the decisions a click offers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from haleakala.toolkit.xvfb import virtual_display

SHOTS = (
    # (file name, players, seed, decisions made first, language, colour mode)
    ("kanaloa-window.png", 4, 7, 160, "en", "default"),
    ("kanaloa-window-2p.png", 2, 3, 120, "en", "default"),
    ("kanaloa-window-de.png", 3, 11, 90, "de", "default"),
    ("kanaloa-window-cvd.png", 4, 7, 160, "en", "cvd"),
)


def _to_a_person(table, decisions: int) -> None:
    """Bots (a greedy stand-in for red) make ``decisions`` decisions, then on until red
    decides in the main step, so the picture shows a move's choices."""
    from .cli import stand_in_decisions

    stand_in_decisions(table, decisions, seed=table.game.seed)
    game = table.game
    for _ in range(400):
        if game.is_terminal() or (game.decider == 0 and game.phase_name == "main"):
            return
        stand_in_decisions(table, 1, seed=len(game.history))


def make(out: Path) -> list[Path]:
    import pygame

    from haleakala import i18n, palette
    from haleakala.ai import make_bot
    from haleakala.games.kanaloa.game import Game

    from . import layout as L
    from .table import KanaloaTable, Seat
    from .window import KanaloaWindow

    out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    saved = []
    try:
        for name, players, seed, decisions, language, mode in SHOTS:
            i18n.use(language)
            palette.use(mode)
            game = Game(seed=seed, players=players)
            seats = [Seat()] + [
                Seat(make_bot("greedy", seed=seed + p, game="kanaloa")) for p in range(1, players)
            ]
            table = KanaloaTable(game, seats)
            _to_a_person(table, decisions)
            path = out / name
            KanaloaWindow(table, screen=screen).save(str(path))
            saved.append(path)
    finally:
        i18n.use("en")
        palette.use(palette.DEFAULT)
        pygame.display.quit()
    return saved


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if os.environ.get("DISPLAY"):
        paths = make(out)
    else:
        with virtual_display(1280, 800) as name:
            os.environ["DISPLAY"] = name
            os.environ["SDL_VIDEODRIVER"] = "x11"
            paths = make(out)
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
