"""Bots that play the island games: one interface, ``decide(game, budget) -> decision code``.

``random`` and ``greedy`` are cheap (tests, fuzzing, a first opponent); the search bot
(information-set MCTS) for any game of ``haleakala.gameapi`` lives in ``search``; a game may
bring bots of its own knowledge in its package. ``make_bot(name, seed, game=...)`` builds
one by name for a game, as the command line and the daemon's menu do; which bots a game has
is part of its description (``haleakala.gameapi.GameDescription.bots``).
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from haleakala.gameapi import DEFAULT_GAME, UnknownGame, describe


class Bot(Protocol):
    name: str

    def decide(self, game: Any, budget: float | None = None) -> int:
        """A legal decision for ``game.to_move`` (a ``haleakala.gameapi.GameState`` of the
        bot's game); ``budget`` in seconds (None: default)."""
        ...


def bots_of(game: str) -> dict[str, str]:
    """The bots that can play ``game`` (name -> "module:Class"), from its description in
    the registry; an unknown game is a ``ValueError`` with a sentence."""
    try:
        return dict(describe(game).bots)
    except UnknownGame as exc:
        raise UnknownGame(f"no bots for game {game!r}: {exc}") from None


def make_bot(name: str, seed: int = 0, game: str = DEFAULT_GAME, **options) -> Bot:
    bots = bots_of(game)
    if name not in bots:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(bots)}")
    module, cls = bots[name].split(":")
    try:
        factory = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"bot {name!r} is not available: {exc}") from None
    return factory(seed=seed, **options)
