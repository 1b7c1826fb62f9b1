"""Opening a game's window from ``haleakala sim --game NAME``: the checks every window
but the kit simulator's shares, once for every game (its own window or the generic one).

The kit's options are refused with a sentence (a game without a kit has no buttons, RFID
or solo companion), ``--players`` must be a count the game allows, ``--headless`` only
makes sense with ``--screenshot``, and where no window can open the window is drawn
offscreen for a screenshot or refused with what to do instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from haleakala.core.errors import UsageError
from haleakala.gameapi import describe

from .xvfb import window_unavailable

KIT_OPTIONS = ("kit", "variant", "start", "solo", "strength", "state_dir")
"""``haleakala sim``'s options that belong to the kit simulator only."""


def open_window(args: argparse.Namespace, run_game: Callable[..., int]) -> int:
    """Check ``args`` for a game's window and call ``run_game(args, offscreen=...)``."""
    game = describe(args.game)
    if getattr(args, "players", None) is not None:
        try:
            game.seats(args.players)
        except ValueError as exc:
            raise UsageError(f"--players: {exc}") from None
    given = [f"--{n.replace('_', '-')}" for n in KIT_OPTIONS if getattr(args, n, None)]
    if given or getattr(args, "autoplay", False):
        extra = given + (["--autoplay"] if getattr(args, "autoplay", False) else [])
        verb = "belongs" if len(extra) == 1 else "belong"
        takes = ", ".join(f"--{o}" for o in game.window_options)
        raise UsageError(
            f"{', '.join(extra)} {verb} to the kit simulator (the Haleakala kit's); "
            f"with --game {game.name} use {takes}"
        )
    if getattr(args, "scenario", None):
        raise UsageError(f"scenarios are the kit simulator's; drop --scenario with "
                         f"--game {game.name}")  # fmt: skip
    if args.headless and not args.screenshot:
        raise UsageError(
            f"--game {game.name} has no headless game: add --screenshot PNG, or drop it"
        )
    reason = window_unavailable()
    if reason is not None and not args.screenshot:
        raise UsageError(
            f"the {game.title} window cannot open: {reason} (try haleakala play --game {game.name})"
        )
    return int(run_game(args, offscreen=bool(args.headless or reason is not None)))


def generic_window(args: argparse.Namespace) -> int:
    """The window of a game whose description names none: its text and its buttons."""

    def run(args: argparse.Namespace, *, offscreen: bool) -> int:
        from .generic.window import run as run_generic

        return run_generic(args, offscreen=offscreen)

    return open_window(args, run)
