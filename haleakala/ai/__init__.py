"""Bots that play Haleakala: one interface, ``decide(game, budget) -> decision code``.

``random`` and ``greedy`` are cheap (tests, fuzzing, a first opponent); the search bot
(information-set MCTS) lives in ``ismcts`` when present. ``make_bot(name, seed)`` builds
one by name, as the command line and the daemon's menu do.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from ..rules import Game

BOTS = {
    "random": "haleakala.ai.simple:RandomBot",
    "greedy": "haleakala.ai.simple:GreedyBot",
    "ai": "haleakala.ai.ismcts:SearchBot",
}
# Per game, the bots that differ from Haleakala's: the search there is tuned to Haleakala's
# internals; other games get the game-agnostic one, which needs only the game interface.
GAME_BOTS: dict[str, dict[str, str]] = {
    "kahuna": {"ai": "haleakala.ai.search:SearchBot", "greedy": "haleakala.ai.search:GreedyBot"},
}


class Bot(Protocol):
    name: str

    def decide(self, game: Game, budget: float | None = None) -> int:
        """A legal decision for ``game.to_move``; ``budget`` in seconds (None: default)."""
        ...


def make_bot(name: str, seed: int = 0, game: str = "haleakala", **options) -> Bot:
    bots = {**BOTS, **GAME_BOTS.get(game, {})}
    if name not in bots:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(bots)}")
    module, cls = bots[name].split(":")
    try:
        factory = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"bot {name!r} is not available: {exc}") from None
    return factory(seed=seed, **options)
