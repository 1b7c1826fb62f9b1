"""``haleakala sim --game kanaloa``: the Kanaloa window, you (red) against bots, or people.

    haleakala sim --game kanaloa                        red is you, the others greedy bots
    haleakala sim --game kanaloa --players 3 --opponent random
    haleakala sim --game kanaloa --opponent human       everyone at one screen (hot-seat)
    haleakala sim --game kanaloa --screenshot k.png --decisions 150   a position as a PNG

Kanaloa has no kit: the window is the whole table.
"""

from __future__ import annotations

import argparse
import os
import random
from typing import Any

from haleakala.checkout import install_hint
from haleakala.core.errors import UsageError
from haleakala.toolkit.windowcli import open_window


def window(args: argparse.Namespace) -> int:
    """Kanaloa's window (its ``GameDescription.window``), with ``--web`` for watchers."""
    return open_window(args, run)


def make_table(args: argparse.Namespace) -> Any:
    from haleakala.ai import bots_of, make_bot
    from haleakala.games.kanaloa.game import Game

    from .table import KanaloaTable, Seat

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    players = args.players or 4
    game = Game(seed=seed, players=players)
    opponent = getattr(args, "opponent", None) or "greedy"
    bots = bots_of("kanaloa")
    if opponent != "human" and opponent not in bots:
        raise UsageError(f"--opponent {opponent}: Kanaloa's bots are {', '.join(bots)}, or human")
    seats = [Seat()]
    for p in range(1, players):
        bot = None if opponent == "human" else make_bot(opponent, seed=seed + p, game="kanaloa")
        seats.append(Seat(bot))
    return KanaloaTable(game, seats)


def stand_in_decisions(table: Any, decisions: int, seed: int = 0) -> None:
    """Let bots make ``decisions`` decisions for every seat (people's seats: a greedy
    stand-in), to show a position from the middle of a game."""
    from haleakala.ai import make_bot

    stand_in = make_bot("greedy", seed=seed, game="kanaloa")
    game = table.game
    for _ in range(decisions):
        if game.is_terminal():
            break
        if table.seats[game.decider].human:
            table._apply(stand_in.decide(game))
        else:
            table.update()


def run(args: argparse.Namespace, *, offscreen: bool) -> int:
    if args.decisions < 0:
        raise UsageError(f"--decisions must be 0 or more, not {args.decisions}")
    if getattr(args, "colour", None):
        raise UsageError("--colour: in the Kanaloa window you play red")
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as exc:
        raise UsageError(f"the window needs pygame ({exc}): {install_hint('sim')}") from None
    from haleakala.toolkit.xvfb import fit_flags

    from . import layout as L
    from .window import KanaloaWindow

    table = make_table(args)
    pygame.display.init()
    try:
        flags = 0 if offscreen else fit_flags(pygame)
        screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT), flags)
        pygame.display.set_caption("Haleakala Companion — Kanaloa")
        win = KanaloaWindow(table, screen=screen)
        stand_in_decisions(table, args.decisions, seed=table.game.seed)
        if args.screenshot:
            win.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
            return 0
        live = args.serve_live() if getattr(args, "web", None) else None
        if live is None:
            return win.run(seconds=args.seconds)
        # A copy each time: the live view tells the log from the previous position it holds.
        win.after_step = lambda: live.publish(table.game.clone())
        try:
            return win.run(seconds=args.seconds)
        finally:
            live.close()
    finally:
        pygame.display.quit()
