"""The game-agnostic search bot: single-observer ISMCTS through the game interface only.

Why a second search next to ``ismcts``: that one is tuned to Haleakala's internals (its
own determinization of the palm-tree piles, its own leaf estimate); this one knows nothing
of any game beyond ``haleakala.gameapi.GameState``, so a new game gets a search bot by
implementing the interface (Kahuna first). The algorithm is the same (Cowling, Powley &
Whitehouse 2012, SO-ISMCTS):

- each iteration samples one world with ``game.determinize(observer, rng)``: the game
  re-deals what the observer cannot see (Kahuna: the opponent's hand and the pile order)
  from what the observer may know. The bot never reads hidden information itself; a test
  re-deals the hidden truth and checks that the root statistics do not change;
- one tree is shared by all worlds; a decision legal in some worlds but not in others is
  handled by *availability counts* (UCB1 uses how often a child could have been chosen
  instead of the parent's visits);
- each node records who made the decision leading to it (``game.decider``): one player may
  decide several times in a row (a Kahuna turn is several cards, then a draw);
- playouts are truncated: 12 random decisions (two or three turns), then
  ``game.evaluate(0)`` scores the leaf (squashed into [0.1, 0.9] so that an estimate never
  looks as good as a game really won); a playout that reaches the end scores ``game.returns()``.

With an iteration budget the search is deterministic (seeded generator, no clock); with a
time budget it runs until the deadline. Measured with ``haleakala bench ai --game NAME``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

DEFAULT_BUDGET = 0.1  # seconds per decision when neither budget nor iterations is given
ESTIMATE_FLOOR, ESTIMATE_SPAN = 0.1, 0.8  # leaf estimates live in [0.1, 0.9]


class Node:
    """One decision in the shared tree, seen by the player who made it (``mover``)."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed from the mover's point of view
        self.avail = 1
        self.mover = mover


class SearchBot:
    """SO-ISMCTS over any ``GameState``, with a time budget (seconds) or an iteration budget
    (deterministic)."""

    name = "ai"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        budget: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int = 12,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if budget is not None and budget <= 0:
            raise ValueError(f"budget must be a positive number of seconds, got {budget}")
        if rollout_depth < 0:
            raise ValueError(f"rollout_depth must be 0 or more decisions, got {rollout_depth}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.budget = budget
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        # Of the latest search, for benchmarks and tests: how many iterations ran and how
        # long the slowest took (seconds; time budgets only). Think time <= budget + that.
        self.last_iterations = 0
        self.last_slowest_iteration = 0.0

    # -- the decision ------------------------------------------------------------------

    def decide(self, game: Any, budget: float | None = None) -> int:
        """The most visited decision after the search; at once when only one is legal.

        ``budget`` (seconds) overrides the bot's own; without either, an iteration budget
        given at construction applies, else ``DEFAULT_BUDGET``.
        """
        legal = game.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no decision to make")
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_slowest_iteration = 0.0
            return legal[0]
        best, best_key = legal[0], (-1, 0.0)
        for action, (visits, reward) in sorted(self.search(game, budget).items()):
            if action in legal and (visits, reward) > best_key:
                best, best_key = action, (visits, reward)
        return best

    def search(self, game: Any, budget: float | None = None) -> dict[int, tuple[int, float]]:
        """Run the search from ``game`` as seen by the player to move; for each decision
        tried at the root, how often it was visited and its mean reward for that player
        (0 lost ... 1 won)."""
        if game.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        observer = game.decider
        root = Node(-1)
        slowest = 0.0
        if budget is None and self.budget is None and self.iterations is not None:
            for _ in range(self.iterations):
                self._iterate(root, game, observer)
            done = self.iterations
        else:
            seconds = budget if budget is not None else self.budget or DEFAULT_BUDGET
            clock = time.perf_counter
            began = clock()
            deadline = began + seconds
            done = 0
            while True:
                self._iterate(root, game, observer)
                done += 1
                now = clock()
                slowest = max(slowest, now - began)
                if now >= deadline:
                    break
                began = now
        self.last_iterations = done
        self.last_slowest_iteration = slowest
        return {a: (n.visits, n.reward / n.visits) for a, n in root.children.items()}

    # -- one iteration -------------------------------------------------------------------

    def _iterate(self, root: Node, game: Any, observer: int) -> None:
        rng = self.rng
        world = game.determinize(observer, rng)
        node = root
        path = []
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        while not world.is_terminal():
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                for a in legal:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                action = untried[rng.randrange(len(untried))]
                child = children[action] = Node(world.decider)
                world.apply(action)
                path.append(child)
                break
            best, best_score, action = node, -1.0, legal[0]
            for a in legal:
                child = children[a]
                child.avail += 1
                score = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score, action = child, score, a
            world.apply(action)
            path.append(best)
            node = best
        first = self._playout(world)
        for n in path:
            n.visits += 1
            n.reward += first if n.mover == 0 else 1.0 - first

    def _playout(self, world: Any) -> float:
        """The first player's reward in [0, 1] after a short random playout."""
        randrange = self.rng.randrange
        for _ in range(self.rollout_depth):
            if world.is_terminal():
                break
            legal = world.legal_actions()
            world.apply(legal[randrange(len(legal))])
        if world.is_terminal():
            return float(world.returns()[0])
        return ESTIMATE_FLOOR + ESTIMATE_SPAN * float(world.evaluate(0))
