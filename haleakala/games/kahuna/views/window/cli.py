"""``haleakala sim --game kahuna``: the Kahuna window against a bot or between two people.

    haleakala sim --game kahuna                          you (white) against the search bot
    haleakala sim --game kahuna --colour black           you play black
    haleakala sim --game kahuna --opponent human         two people, a hand-over screen between
    haleakala sim --game kahuna --screenshot k.png --decisions 40   a position as a PNG

Kahuna has no kit (no LEDs, no buttons yet): the window is the whole table.
"""

from __future__ import annotations

import argparse
import os
import random
from typing import Any

from haleakala.checkout import install_hint
from haleakala.core.errors import UsageError
from haleakala.toolkit.windowcli import open_window

OPPONENTS = ("ai", "greedy", "random", "human")
COLOURS = ("white", "black")
BOT_BUDGET = 0.5  # seconds per decision of the window's search bot: quick, and strong


def window(args: argparse.Namespace) -> int:
    """Kahuna's window (its ``GameDescription.window``); offscreen for a screenshot where
    no display is. Its hands are hidden from each other, so it serves no live view."""
    if getattr(args, "web", None):
        raise UsageError("--web: the Kahuna window serves no live view (its hands are "
                         "hidden); phones play it with haleakala host")  # fmt: skip
    return open_window(args, run)


def make_table(args: argparse.Namespace) -> Any:
    from haleakala.ai import make_bot
    from haleakala.gameapi import new_game

    from .table import KahunaTable, Seat

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    game = new_game("kahuna", seed=seed)
    opponent = args.opponent or "ai"
    if opponent not in OPPONENTS:
        raise UsageError(f"--opponent {opponent}: choose {', '.join(OPPONENTS)}")
    if (args.colour or "white") not in COLOURS:
        raise UsageError(f"--colour {args.colour}: choose {' or '.join(COLOURS)}")
    me = COLOURS.index(args.colour or "white")
    seats = [Seat(), Seat()]
    if opponent != "human":
        seats[1 - me] = Seat(make_bot(opponent, seed=seed, game="kahuna"), BOT_BUDGET)
    return KahunaTable(game, (seats[0], seats[1]))


def stand_in_decisions(table: Any, decisions: int, seed: int = 0) -> None:
    """Let bots make ``decisions`` decisions for every seat (people's seats: a greedy
    stand-in), to show a position from the middle of a game."""
    from haleakala.ai import make_bot

    stand_in = make_bot("greedy", seed=seed, game="kahuna")
    game = table.game
    for _ in range(decisions):
        if game.is_terminal():
            break
        if table.seats[game.decider].human:
            table.handover = False
            table._apply(stand_in.decide(game))
        else:
            table.update()
            table.wait_for_bot()
    if table.two_humans and not game.is_terminal():
        table.handover = False
        table.viewer = game.decider


def run(args: argparse.Namespace, *, offscreen: bool) -> int:
    if args.decisions < 0:
        raise UsageError(f"--decisions must be 0 or more, not {args.decisions}")
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as exc:
        raise UsageError(f"the window needs pygame ({exc}): {install_hint('sim')}") from None
    from haleakala.toolkit.xvfb import fit_flags

    from . import layout as L
    from .window import KahunaWindow

    table = make_table(args)
    pygame.display.init()
    try:
        # Offscreen: no desktop to fit, and no renderer for SDL to scale with.
        flags = 0 if offscreen else fit_flags(pygame)
        screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT), flags)
        pygame.display.set_caption("Haleakala Companion — Kahuna")
        win = KahunaWindow(table, screen=screen)
        stand_in_decisions(table, args.decisions, seed=table.game.seed)
        if args.screenshot:
            win.step([])
            win.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
            return 0
        return win.run(seconds=args.seconds)
    finally:
        pygame.display.quit()
