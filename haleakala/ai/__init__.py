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
    "child": "haleakala.ai.simple:ChildBot",
    "ai": "haleakala.ai.ismcts:SearchBot",
    "ai-v1": "haleakala.ai.ismcts_v1:SearchBotV1",
}


class Bot(Protocol):
    name: str

    def decide(self, game: Game, budget: float | None = None) -> int:
        """A legal decision for ``game.to_move``; ``budget`` in seconds (None: default)."""
        ...


def make_bot(name: str, seed: int = 0, **options) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    module, cls = BOTS[name].split(":")
    try:
        factory = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"bot {name!r} is not available: {exc}") from None
    return factory(seed=seed, **options)
