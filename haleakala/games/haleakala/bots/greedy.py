"""Haleakala's greedy bots: one ply ahead on a hand-made estimate of the position (points
banked, a scoring now, statues the lava threatens), and the child's level that errs half of
the time."""

from __future__ import annotations

import random

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.heuristic import round_totals


def estimate(game: Game, player: int) -> float:
    """How good the position looks for ``player``: points banked plus what a scoring now
    would give, minus statues that the lava on the craters threatens."""
    totals = round_totals(game)  # score_round's totals, without building the Scoring
    mine, theirs = totals[player], totals[1 - player]
    value = float(mine - theirs)
    for seg, count in enumerate(game.lava):
        for band in range(min(count, 3)):
            owner = game.statue_owner[seg * 3 + 2 - band]
            if owner >= 0:
                value += (-1.0 if owner == player else 1.0) * (3 - band)
    value += 0.5 * (len(game.shells[player]) - len(game.shells[1 - player]))
    value += 0.3 * (game.statues_left[1 - player] - game.statues_left[player])
    # A shaman high on the island can build more valuable statues.
    space = game.shaman[player]
    if space < game.board.land_spaces:
        value += 0.2 * (space % 3 + 1)
    return value


class GreedyBot:
    """Tries each legal decision one ply ahead and keeps the best estimate (ties: random)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, game: Game, budget: float | None = None) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.decider
        best, best_value = [], float("-inf")
        for d in legal:
            trial = game.clone()
            trial.apply(d)
            value = estimate(trial, me)
            if value > best_value + 1e-9:
                best, best_value = [d], value
            elif abs(value - best_value) <= 1e-9:
                best.append(d)
        return best[self.rng.randrange(len(best))]


class ChildBot:
    """The greedy bot that decides at random half of the time: the level for children,
    below greedy on the Elo ladder, still making sensible moves often enough to be fun."""

    name = "child"

    def __init__(self, seed: int = 0, mistakes: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.mistakes = mistakes
        self.greedy = GreedyBot(seed=seed + 1)

    def decide(self, game: Game, budget: float | None = None) -> int:
        legal = game.legal_actions()
        if self.rng.random() < self.mistakes:
            return legal[self.rng.randrange(len(legal))]
        return self.greedy.decide(game)
