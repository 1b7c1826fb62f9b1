"""Kanaloa's bots beyond random and greedy: the search bot's two backups and a level table.

Why no Kanaloa-specific search: the game-agnostic ``search.SearchBot`` already handles what
Kanaloa needs through the game interface only. The bag is the only hidden information, and
every iteration samples a world with ``Game.determinize`` (the bag re-shuffled, N8's
reserve re-dealt with the volcano tile among the last seven), which is the determinization
form of a chance node: the order of the tiles still to come is drawn afresh each time, so
the tree's statistics average over it and the bot never reads the true order. One decider
at a time, in turn or out of it (Ku's robbery, the protection's ``allow``/``forbid``, the
eruption's ``volcano``): each node records who decided there, and a playout backs up one
reward per player (``returns()``, or ``evaluate`` per player at a truncated leaf). With
three or four players that backup is either max^n (each node credited with its own
decider's reward; ``ai``) or paranoid (the searching player against a coalition of all
others; ``ai-paranoid``). ``haleakala bench ai --game kanaloa --vs ai-paranoid`` measures
the two against each other (docs/kanaloa.md).

Levels are iteration budgets, not seconds, so that a level is equally strong on a Pi and
on a laptop (only slower there) and a game at a level is reproducible from its seed. The
think time each level needs on the running machine is its iterations divided by the
iterations per second that ``measure`` finds; the table in docs/kanaloa.md gives both.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from haleakala.ai.search import SearchBot
from haleakala.ai.simple import EvaluationGreedyBot, RandomBot


class ParanoidSearchBot(SearchBot):
    """The search bot with the paranoid backup (Sturtevant & Korf 2000): every other player
    is assumed to play against this one. Same as ``ai`` with two players."""

    name = "ai-paranoid"

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 budget: float | None = None, **options: Any) -> None:  # fmt: skip
        options.setdefault("backup", "paranoid")
        super().__init__(seed=seed, iterations=iterations, budget=budget, **options)


class ChildBot:
    """Greedy half of the time and a uniformly random legal decision otherwise: a level
    below greedy for a beginner or a child (Haleakala's ``child`` level, for Kanaloa)."""

    name = "child"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.greedy = EvaluationGreedyBot(seed)
        self.random = RandomBot(seed + 1)

    def decide(self, game: Any, budget: float | None = None) -> int:
        if self.rng.random() < 0.5:
            return self.random.decide(game)
        return self.greedy.decide(game)


@dataclass(frozen=True)
class Level:
    name: str
    bot: str  # "child", "greedy" or "ai"
    iterations: int | None  # the search budget (None: not a search bot)

    def seconds(self, iterations_per_second: float) -> float | None:
        """Think time per searched decision on a machine that searches this fast."""
        return None if self.iterations is None else self.iterations / iterations_per_second


# Iterations, not Elo: Kanaloa has no ladder yet. ``normal`` is the budget measured against
# random and greedy in docs/kanaloa.md (``bench ai --game kanaloa --iterations 32``);
# ``strong`` eight times that, about a second per decision on a loaded two-core machine.
LEVELS: dict[str, Level] = {
    "child": Level("child", "child", None),
    "easy": Level("easy", "greedy", None),
    "normal": Level("normal", "ai", 32),
    "strong": Level("strong", "ai", 256),
}


def strength(level: str, seed: int = 0) -> Any:
    """The bot that plays Kanaloa at ``level`` (``play --game kanaloa --strength``);
    an unknown level is a ``ValueError`` with a sentence."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    lv = LEVELS[level]
    if lv.bot == "child":
        return ChildBot(seed)
    if lv.bot == "greedy":
        return EvaluationGreedyBot(seed)
    return SearchBot(seed=seed, iterations=lv.iterations)


def measure(seconds: float = 2.0, players: int = 4) -> float:
    """Iterations per second of Kanaloa's search bot here, over a few positions of random
    games (start, middle and late), for the level table's think times."""
    from haleakala.gameapi import new_game

    rng = random.Random(7)
    positions = []
    for seed, depth in ((0, 30), (1, 120), (2, 240)):
        game = new_game("kanaloa", seed=seed, players=players)
        for _ in range(depth):
            if game.is_terminal():
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_terminal():
            positions.append(game)
    bot = SearchBot(seed=1)
    done, began = 0, time.perf_counter()
    while True:
        for game in positions:
            bot.search(game, seconds / 9)
            done += bot.last_iterations
        spent = time.perf_counter() - began
        if spent >= seconds:
            return max(done / spent, 1.0)


def level_table(iterations_per_second: float) -> list[tuple[str, str, int | None, float | None]]:
    """(level, bot, iterations, seconds per searched decision) for the docs."""
    return [
        (lv.name, lv.bot, lv.iterations, lv.seconds(iterations_per_second))
        for lv in LEVELS.values()
    ]
