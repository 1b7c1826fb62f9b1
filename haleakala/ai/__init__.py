"""Bots that play the island games: one interface, ``decide(game, budget) -> decision code``.

``random`` and ``greedy`` are cheap (tests, fuzzing, a first opponent); the search bot
(information-set MCTS) lives in ``ismcts`` (Haleakala) and ``search`` (any game of
``haleakala.gameapi``) when present. ``make_bot(name, seed, game=...)`` builds one by name
for a game, as the command line and the daemon's menu do.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

BOTS = {
    "random": "haleakala.ai.simple:RandomBot",
    "greedy": "haleakala.ai.simple:GreedyBot",
    "child": "haleakala.ai.simple:ChildBot",
    "ai": "haleakala.ai.ismcts:SearchBot",
    "ai-v1": "haleakala.ai.ismcts_v1:SearchBotV1",
}

# Per game (``haleakala.gameapi.GAMES``): the bots that can play it, by name.
GAME_BOTS: dict[str, dict[str, str]] = {
    "haleakala": BOTS,
    "kahuna": {
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
        "ai": "haleakala.ai.search:SearchBot",
    },
    "kanaloa": {
        "random": "haleakala.ai.simple:RandomBot",
        "greedy": "haleakala.ai.simple:EvaluationGreedyBot",
    },
}


class Bot(Protocol):
    name: str

    def decide(self, game: Any, budget: float | None = None) -> int:
        """A legal decision for ``game.to_move`` (a ``haleakala.gameapi.GameState`` of the
        bot's game); ``budget`` in seconds (None: default)."""
        ...


def make_bot(name: str, seed: int = 0, game: str = "haleakala", **options) -> Bot:
    bots = GAME_BOTS.get(game)
    if bots is None:
        raise ValueError(f"no bots for game {game!r}: choose one of {', '.join(GAME_BOTS)}")
    if name not in bots:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(bots)}")
    module, cls = bots[name].split(":")
    try:
        factory = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"bot {name!r} is not available: {exc}") from None
    return factory(seed=seed, **options)
