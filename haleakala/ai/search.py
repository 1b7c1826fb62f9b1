"""The game-agnostic search bot: single-observer ISMCTS through the game interface only.

Why a second search next to ``ismcts``: that one is tuned to Haleakala's internals (its
own determinization of the palm-tree piles, its own leaf estimate); this one knows nothing
of any game beyond ``haleakala.gameapi.GameState``, so a new game gets a search bot by
implementing the interface. The algorithm is the same (Cowling, Powley &
Whitehouse 2012, SO-ISMCTS):

- each iteration samples one world with ``game.determinize(observer, rng)``: the game
  re-deals what the observer cannot see (an opponent's hand, a pile's order)
  from what the observer may know. The bot never reads hidden information itself; a test
  re-deals the hidden truth and checks that the root statistics do not change;
- one tree is shared by all worlds; a decision legal in some worlds but not in others is
  handled by *availability counts* (UCB1 uses how often a child could have been chosen
  instead of the parent's visits);
- each node records who made the decision leading to it (``game.decider``): one player may
  decide several times in a row (a turn of several cards, then a draw);
- playouts are truncated: 12 random decisions (two or three turns), then
  ``game.evaluate(p)`` scores the leaf for each player ``p`` (squashed into [0.1, 0.9] so
  that an estimate never looks as good as a game really won); a playout that reaches the
  end scores ``game.returns()``;
- any number of players: a playout gives one reward per player, and each node is credited
  with the reward of the player who decided there (max^n, Luckhardt & Irani 1986), or with
  ``backup="paranoid"`` (Sturtevant & Korf 2000) the searching player's reward for its own
  nodes and one minus it for everybody else's, as if all others played against it. With
  two players both are the same search, decision for decision, as the two-player one was:
  the second player's reward is one minus the first's.

With an iteration budget the search is deterministic (seeded generator, no clock); with a
time budget it runs until the deadline. Measured with ``haleakala bench ai --game NAME``.
"""

from __future__ import annotations

import math
from typing import Any

from .budgeted import DEFAULT_BUDGET, BudgetedSearch, Node

__all__ = ["DEFAULT_BUDGET", "Node", "SearchBot"]

ESTIMATE_FLOOR, ESTIMATE_SPAN = 0.1, 0.8  # leaf estimates live in [0.1, 0.9]
BACKUPS = ("maxn", "paranoid")


class SearchBot(BudgetedSearch):
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
        backup: str = "maxn",
    ) -> None:
        super().__init__(seed, iterations, budget)
        if rollout_depth < 0:
            raise ValueError(f"rollout_depth must be 0 or more decisions, got {rollout_depth}")
        if backup not in BACKUPS:
            raise ValueError(f"unknown backup {backup!r}: choose {' or '.join(BACKUPS)}")
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.paranoid = backup == "paranoid"

    # -- the decision (``decide`` is the most visited decision, ``BudgetedSearch``) ----

    def search(self, game: Any, budget: float | None = None) -> dict[int, tuple[int, float]]:
        """Run the search from ``game`` as seen by the player to move; for each decision
        tried at the root, how often it was visited and its mean reward for that player
        (0 lost ... 1 won)."""
        if game.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        observer = game.decider
        root = Node(-1)
        iterate = self._iterate
        self._spend(lambda: iterate(root, game, observer), budget)
        # In decision order: ``decide`` breaks an exact tie by the first listed.
        return {a: (n.visits, n.reward / n.visits) for a, n in sorted(root.children.items())}

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
        rewards = self._playout(world)
        if self.paranoid:
            mine = rewards[observer]
            for n in path:
                n.visits += 1
                n.reward += mine if n.mover == observer else 1.0 - mine
        else:
            for n in path:
                n.visits += 1
                n.reward += rewards[n.mover]

    def _playout(self, world: Any) -> tuple[float, ...]:
        """Each player's reward in [0, 1] after a short random playout."""
        randrange = self.rng.randrange
        for _ in range(self.rollout_depth):
            if world.is_terminal():
                break
            legal = world.legal_actions()
            world.apply(legal[randrange(len(legal))])
        n = len(world.players)
        if world.is_terminal():
            returns = world.returns()
            if n == 2:  # the first player's, as the two-player search had it
                return (float(returns[0]), 1.0 - float(returns[0]))
            return tuple(float(r) for r in returns)
        if n == 2:
            first = ESTIMATE_FLOOR + ESTIMATE_SPAN * float(world.evaluate(0))
            return (first, 1.0 - first)
        return tuple(ESTIMATE_FLOOR + ESTIMATE_SPAN * float(world.evaluate(p)) for p in range(n))
