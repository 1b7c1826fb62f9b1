"""The search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Why this algorithm: in Haleakala everything is public except the *order* of the three
palm-tree piles, and that order is hidden from both players alike (which cards are in
each pile is public: the manifest minus every card seen). So each iteration of the
search samples one possible world — a *determinization* whose piles are re-shuffled
with the bot's own generator, never looking at the true order — and walks one shared
tree of decisions through it (Cowling, Powley & Whitehouse 2012). A decision that is
legal in some worlds but not in others is handled by *availability counts*: UCB1 uses
how often a child could have been chosen instead of the parent's visit count.

Several decisions in a row may belong to the same player (place a disc, then move the
shaman, then take a card, then buy with the shell), so every node records who made the
decision leading to it (``game.decider``) instead of assuming alternation.

Playouts are truncated: a few random decisions (to sample what the refill reveals and
how the opponent replies), then the position is scored with a cheap estimate squashed
into [0, 1]; a playout that reaches the end scores the real result (win or loss, plus a
small term for the margin). At the root, each decision's estimate one decision later,
with what the next distributions of cards are about to give (``foresight``), is a
progressive bias that steers the first visits. Measured with ``haleakala bench ai``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random

from haleakala.ai.budgeted import DEFAULT_BUDGET, BudgetedSearch, Node
from haleakala.games.haleakala import Game, to_dict
from haleakala.games.haleakala.decision import (
    beach_of,
    is_placement,
    is_return,
    is_turn_action,
    previous_turn_action,
    undo_of,
)
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN, TURN
from haleakala.games.haleakala.heuristic import DEFAULT_WEIGHTS, components, evaluate, round_totals

from .foresight import foresight, sensible

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_WEIGHTS",
    "Node",
    "SearchBot",
    "components",
    "determinize",
    "evaluate",
    "public_digest",
    "round_totals",
]


def determinize(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` whose three draw piles are re-shuffled by ``rng``.

    Each card stays in its pile (the composition is public); only the order, which no
    player knows, is re-drawn. Each pile is sorted before the shuffle so that the result
    depends on the public composition alone, never on the true order.
    """
    world = game.clone()
    for pile in world.piles:
        pile.sort()
        rng.shuffle(pile)
    world._legal = None
    return world


def public_digest(game: Game) -> str:
    """A fingerprint of what both players know: the position with each pile reduced to
    its sorted composition, and without the seed (which would give the order away)."""
    data = to_dict(game, history=False)
    data["piles"] = [sorted(pile) for pile in game.piles]
    del data["seed"]
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def undoing(history: list[int]) -> int | None:
    """The turn action that would undo the mover's previous one (take back the disc just
    placed, or put back the disc just taken back), or None."""
    last = previous_turn_action(history)
    # take back the disc placed (with or without invocation), or place the disc taken back
    # on the same beach again; nothing undoes the boat
    return None if last is None else undo_of(last)


def move_group(action: int) -> int:
    """The group of a turn action (a negative key, apart from decision codes): placing on
    beach b (with or without invocation), taking a disc back, moving the boat. The search
    first picks a group, then a decision in it, so what it learns about a beach is shared
    by the five discs that could go there."""
    if is_placement(action):
        return -1 - beach_of(action)
    return -20 if is_return(action) else -30


def child_for(node: Node, action: int) -> Node | None:
    """The node a decision leads to, through its move group when the tree has one."""
    child = node.children.get(action)
    if child is None and is_turn_action(action):
        group = node.children.get(move_group(action))
        if group is not None:
            child = group.children.get(action)
    return child


def decision_stats(root: Node) -> dict[int, Node]:
    """The root's decisions and their nodes, move groups flattened."""
    out = {}
    for key, child in root.children.items():
        if key < 0:
            out.update(child.children)
        else:
            out[key] = child
    return out


class SearchBot(BudgetedSearch):
    """ISMCTS with a time budget (seconds) or an iteration budget (deterministic).

    Levers over ``ai-v1``, each measured (docs/benchmarks.md, "The search bot"). On by default:
    exploration 0.2 instead of 0.7 (rewards differ by a few hundredths, so 0.7 spread the
    visits almost evenly); the playout's result mixed with the estimate of the leaf itself
    (``leaf_weight``: one random playout is noisy); the tree kept between decisions
    (``reuse``); a progressive bias at the root (``bias``, 2.0: 200 games each at 100 and
    400 iterations against ai-v1 at four times that score 0.570 and 0.520, against 0.455
    and 0.495 with 1.0; 3.0 gave 0.525 at 100): each decision's estimate one
    decision later, with what the next distributions of cards are about to give
    (``foresight``), steers the first visits and fades as playouts come in. Measured and
    left off (options, for further measurement): move groups (``groups``), never undoing
    one's own previous turn action in the search (``cycle_guard``, against the endless
    place/take-back cycles), the extra evaluation terms of ``components`` (weights
    ``again`` and ``beaches``), the foresight terms in every leaf (``pending``,
    ``threat``), widening the root progressively by the estimate (``widen``), and
    sensible rather than random choices of shaman moves and cards in the playouts and
    expansions (``sensible_playout``, ``sensible_expansion``).
    """

    name = "ai"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        budget: float | None = None,
        exploration: float = 0.2,
        rollout_depth: int = 4,
        eval_scale: float = 4.0,
        margin_weight: float = 0.1,
        weights: dict[str, float] | None = None,
        groups: bool = False,
        reuse: bool = True,
        cycle_guard: bool = False,
        leaf_weight: float = 0.6,
        pending: float = 0.0,
        threat: float = 0.0,
        widen: int = 0,
        widen_growth: float = 1.0,
        sensible_playout: bool = False,
        sensible_expansion: bool = False,
        bias: float = 2.0,
    ) -> None:
        super().__init__(seed, iterations, budget)
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.eval_scale = eval_scale
        self.margin_weight = margin_weight
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        self.groups = groups
        self.reuse = reuse
        self.cycle_guard = cycle_guard
        self.leaf_weight = leaf_weight
        self.pending = pending
        self.threat = threat
        self.widen = widen
        self.widen_growth = widen_growth
        self.sensible_playout = sensible_playout
        self.sensible_expansion = sensible_expansion
        self.bias = bias
        # The root's decisions' one-ply estimates (progressive bias), in [0.1, 0.9].
        self._prior: dict[int, float] = {}
        # The root's decisions, best first by the one-ply estimate (progressive widening).
        self._order: list[int] | None = None
        # The tree of the latest search and the decisions that led to its root, so the
        # next search can start from the subtree the game has moved into.
        self._tree: tuple[list[int], str, int, Node] | None = None

    # -- the decision (``decide`` is the most visited decision, ``BudgetedSearch``) ----

    def _root_for(self, game: Game) -> Node:
        """The subtree for ``game`` kept from the previous search when the game went on
        from there (the same game: variant and starting player, and its decisions since
        extend the old ones), else a fresh root."""
        tree = self._tree
        history = game.history
        if self.reuse and tree is not None:
            old, variant, start, node = tree
            if (
                variant == game.variant
                and start == game.start
                and len(history) >= len(old)
                and history[: len(old)] == old
            ):
                for d in history[len(old) :]:
                    child = child_for(node, d)
                    if child is None:
                        break
                    node = child
                else:
                    if node.visits:
                        node.avail = 1
                        return node
        return Node(-1)

    def search(self, game: Game, budget: float | None = None) -> dict[int, tuple[int, float]]:
        """Run the search from ``game``; for each decision tried at the root, how often it
        was visited and its mean reward for the player to move (0 lost … 1 won)."""
        root = self._root_for(game)
        self._order = None
        self._prior = {}
        if self.widen and len(game.legal_actions()) > self.widen:
            self._order = self._rank(game)
        elif self.bias and len(game.legal_actions()) > 1:
            self._rank(game)
        iterate = self._iterate
        self._spend(lambda: iterate(root, game), budget)
        if self.reuse:
            self._tree = (game.history[:], game.variant, game.start, root)
        # A kept subtree may hold decisions of worlds that differ from this one (another
        # card was revealed there): only the decisions legal now are answers.
        legal = set(game.legal_actions())
        return {
            a: (n.visits, n.reward / n.visits)
            for a, n in decision_stats(root).items()
            if n.visits and a in legal
        }

    # -- one iteration -------------------------------------------------------------------

    def _candidates(self, world: Game) -> list[int]:
        legal = world.legal_actions()
        if self.cycle_guard and world.phase == TURN and len(legal) > 1:
            undo = undoing(world.history)
            if undo is not None and undo in legal:
                return [a for a in legal if a != undo]
        return legal

    def _choose(
        self,
        node: Node,
        options: list,
        mover: int,
        ordered: bool = False,
        world: Game | None = None,
    ) -> tuple[int, Node, bool]:
        """UCB1 with availability counts among ``options`` (decisions or move groups) at
        ``node``; an option never tried is expanded first (True): the first of them when
        ``ordered``, else one at random."""
        children = node.children
        untried = [a for a in options if a not in children]
        if untried:
            for a in options:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if ordered:
                action = untried[0]
            elif world is not None:  # the sensible one first (a shaman move, a card)
                action = sensible(world, untried, self.rng)
            else:
                action = untried[self.rng.randrange(len(untried))]
            child = children[action] = Node(mover)
            return action, child, True
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        best, best_score, action = node, -1.0, options[0]
        for a in options:
            child = children[a]
            child.avail += 1
            n = child.visits
            score = child.reward / n + c * sqrt(log(child.avail) / n)
            if score > best_score:
                best, best_score, action = child, score, a
        return action, best, False

    def _rank(self, game: Game) -> list[int]:
        """The root's decisions, best first for the player to move by the estimate one
        decision later (with the foresight terms), in one determinization of the piles."""
        world = determinize(game, self.rng)
        sign = 1.0 if game.decider == 0 else -1.0
        scored = []
        for a in game.legal_actions():
            trial = world.clone()
            trial.apply(a)
            value = sign * (evaluate(trial, self.weights) + foresight(trial, 0.5, 0.5))
            scored.append((-value, a))
            self._prior[a] = 0.5 + 0.4 * math.tanh(value / (2.0 * self.eval_scale))
        scored.sort()
        return [a for _, a in scored]

    def _choose_biased(self, root: Node, legal: list[int], mover: int) -> tuple[int, Node]:
        """UCB1 at the root plus a progressive bias, ``bias`` times the decision's one-ply
        estimate divided by its visits + 1 (Chaslot et al. 2008): the estimate steers the
        first visits and fades as the playouts come in. Untried decisions go first, the
        best by the estimate first."""
        children = root.children
        prior = self._prior
        untried = [a for a in legal if a not in children]
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.avail += 1
        if untried:
            action = max(untried, key=lambda a: (prior.get(a, 0.0), -a))
            child = children[action] = Node(mover)
            return action, child
        c, b = self.exploration, self.bias
        log, sqrt = math.log, math.sqrt
        best, best_score, action = root, -1.0, legal[0]
        for a in legal:
            child = children[a]
            n = child.visits
            score = child.reward / n + c * sqrt(log(child.avail) / n) + b * prior[a] / (n + 1)
            if score > best_score:
                best, best_score, action = child, score, a
        return action, best

    def _iterate(self, root: Node, game: Game) -> None:
        world = determinize(game, self.rng)
        node = root
        path = []
        candidates, choose = self._candidates, self._choose
        grouping = self.groups
        order = self._order
        prior = self._prior
        if prior and order is None:
            action, node = self._choose_biased(root, game.legal_actions(), world.decider)
            world.apply(action)
            path.append(node)
            if node.visits == 0:
                root.visits += 1
                red = self._playout(world)
                for n in path:
                    n.visits += 1
                    n.reward += red if n.mover == 0 else 1.0 - red
                return
        while not world.is_terminal():
            if order is not None:
                k = self.widen + int(self.widen_growth * math.sqrt(root.visits))
                legal, order = order[:k], None
                action, node, expanded = self._choose(node, legal, world.decider, ordered=True)
                world.apply(action)
                path.append(node)
                if expanded:
                    break
                continue
            legal = candidates(world)
            mover = world.decider
            if grouping and world.phase == TURN and len(legal) > 1:
                members: dict[int, list[int]] = {}
                for a in legal:
                    members.setdefault(move_group(a), []).append(a)
                if len(members) > 1:
                    group, node, _ = choose(node, list(members), mover)
                    path.append(node)
                    legal = members[group]
            if self.sensible_expansion and world.phase in (MOVE_SHAMAN, CHOOSE_CARD):
                action, node, expanded = choose(node, legal, mover, world=world)
            else:
                action, node, expanded = choose(node, legal, mover)
            world.apply(action)
            path.append(node)
            if expanded:
                break
        root.visits += 1
        red = self._playout(world)
        for n in path:
            n.visits += 1
            n.reward += red if n.mover == 0 else 1.0 - red

    def _playout(self, world: Game) -> float:
        """Red's reward in [0, 1] after a short random playout (mixed with the estimate
        of the leaf itself by ``leaf_weight``: less noise than one random playout)."""
        lw = self.leaf_weight
        if lw and not world.is_terminal():
            here = 0.5 + 0.4 * math.tanh(self._estimate(world) / (2.0 * self.eval_scale))
            return lw * here + (1.0 - lw) * self._rollout(world)
        return self._rollout(world)

    def _rollout(self, world: Game) -> float:
        rng = self.rng
        randrange = rng.randrange
        candidates = self._candidates
        smart = self.sensible_playout
        for _ in range(self.rollout_depth):
            if world.is_terminal():
                break
            legal = candidates(world)
            if smart and len(legal) > 1:
                world.apply(sensible(world, legal, rng))
            else:
                world.apply(legal[randrange(len(legal))])
        result = world.result()
        if result is not None:
            margin = result.scores[0] - result.scores[1]
            won = 1.0 if result.winner == "red" else 0.0
            m = self.margin_weight
            return (1.0 - m) * won + m * (0.5 + 0.5 * math.tanh(margin / 10.0))
        # Squashed into [0.1, 0.9]: an estimate never looks as good as a game really won,
        # so a player ahead ends the game when it can instead of stalling.
        value = self._estimate(world)
        return 0.5 + 0.4 * math.tanh(value / (2.0 * self.eval_scale))

    def _estimate(self, world: Game) -> float:
        """Red's advantage in points: the points estimate, plus what the distributions to
        come are about to give (``foresight``) when its weights are on."""
        value = evaluate(world, self.weights)
        if self.pending or self.threat:
            value += foresight(world, self.pending, self.threat)
        return value
