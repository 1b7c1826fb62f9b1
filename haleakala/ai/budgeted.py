"""What both tree searches share: the node of the shared tree, the budget, and the answer.

Why one place: Haleakala's tuned search (``ismcts``) and the game-agnostic one (``search``,
any other game's) differ in how an iteration walks the tree, not in how a search is budgeted
or how its answer is read off the root. Both run a number of iterations (deterministic: a
seeded generator and no clock) or until a deadline, and play the most visited decision,
the higher mean reward breaking a tie. ``ismcts_v1`` stays a frozen copy on purpose: it is
the yardstick the benchmarks measure the others against.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

DEFAULT_BUDGET = 0.1  # seconds per decision when neither budget nor iterations is given


class Node:
    """One decision in the shared tree, seen by the player who made it (``mover``)."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed from the mover's point of view
        self.avail = 1
        self.mover = mover


class BudgetedSearch(ABC):
    """A search with a time budget (seconds) or an iteration budget (deterministic).

    A search walks its own tree in ``search`` and runs its iterations through ``_spend``.
    """

    def __init__(self, seed: int, iterations: int | None, budget: float | None) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if budget is not None and budget <= 0:
            raise ValueError(f"budget must be a positive number of seconds, got {budget}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.budget = budget
        # Of the latest search, for benchmarks and tests: how many iterations ran and the
        # longest one took (seconds; time budgets only). Think time ≤ budget + that.
        self.last_iterations = 0
        self.last_slowest_iteration = 0.0

    @abstractmethod
    def search(self, game: Any, budget: float | None = None) -> dict[int, tuple[int, float]]:
        """For each decision tried at the root, its visits and mean reward for the player
        to move (0 lost … 1 won), in the order ``decide`` should break ties."""

    def decide(self, game: Any, budget: float | None = None) -> int:
        """The most visited decision after the search; at once when only one is legal.

        ``budget`` (seconds) overrides the bot's own; without either, an iteration budget
        given at construction applies, else ``DEFAULT_BUDGET``. Decisions are compared in
        the order ``search`` lists them, so an exact tie goes to the first listed.
        """
        legal = game.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no decision to make")
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_slowest_iteration = 0.0
            return legal[0]
        best, best_key = legal[0], (-1, 0.0)
        for action, (visits, reward) in self.search(game, budget).items():
            if action in legal and (visits, reward) > best_key:
                best, best_key = action, (visits, reward)
        return best

    def _spend(self, iterate: Callable[[], None], budget: float | None) -> None:
        """Call ``iterate`` for the iteration budget, or until the time budget (``budget``,
        else the bot's own, else ``DEFAULT_BUDGET``) has passed; record how many ran."""
        slowest = 0.0
        if budget is None and self.budget is None and self.iterations is not None:
            for _ in range(self.iterations):
                iterate()
            done = self.iterations
        else:
            seconds = budget if budget is not None else self.budget or DEFAULT_BUDGET
            clock = time.perf_counter
            began = clock()
            deadline = began + seconds
            done = 0
            while True:
                iterate()
                done += 1
                now = clock()
                slowest = max(slowest, now - began)
                if now >= deadline:
                    break
                began = now
        self.last_iterations = done
        self.last_slowest_iteration = slowest
