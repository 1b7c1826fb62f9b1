"""``haleakala bench ai``: the search bot's win rates and think times for one game, by its
description's own benchmark (``GameDescription.bench``) or the game-agnostic one."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """``bench ai --game NAME``: the game's own benchmark (its description's ``bench``
    hook, Haleakala's ``run_haleakala``), else the game-agnostic one (``ai_games``)."""
    from haleakala.core.errors import UsageError
    from haleakala.gameapi import DEFAULT_GAME, UnknownGame, describe, hook

    try:
        own = describe(getattr(args, "game", None) or DEFAULT_GAME).bench
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    if own:
        return int(hook(own)(args))
    from haleakala.bench.ai_games import run as run_game

    return run_game(args)
