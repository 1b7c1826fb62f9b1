"""The simple bots of every game: uniformly random, and a greedy one ply ahead on the game's
own ``GameState.evaluate`` (a game may bring a greedy bot of its own knowledge in its
package, as the default game does)."""

from __future__ import annotations

import random

from haleakala.gameapi import GameState


class RandomBot:
    """Picks uniformly among the legal decisions; seeded, so games are reproducible."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, game: GameState, budget: float | None = None) -> int:
        legal = game.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class EvaluationGreedyBot:
    """One ply on the game's own ``evaluate`` (any ``haleakala.gameapi`` game): tries each
    legal decision on a determinized copy, so a draw never shows the bot the hidden card it
    would get, and keeps the best estimate (ties: random, seeded)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, game: GameState, budget: float | None = None) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.decider
        world = game.determinize(me, self.rng)
        best: list[int] = []
        best_value = float("-inf")
        for d in legal:
            trial = world.clone()
            trial.apply(d)
            value = trial.evaluate(me)
            if value > best_value + 1e-12:
                best, best_value = [d], value
            elif abs(value - best_value) <= 1e-12:
                best.append(d)
        return best[self.rng.randrange(len(best))]
