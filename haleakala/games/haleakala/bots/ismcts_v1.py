"""The first search bot, frozen as ``ai-v1`` for benchmarks only (issue 16): do not change it.

The yardstick ``haleakala bench ai --vs ai-v1`` measures the current ``ai`` against; any
change here would move the yardstick. What follows is its original description.

The search bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

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
small term for the margin). Measured with ``haleakala bench ai``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time

from haleakala.games.haleakala import Game, to_dict
from haleakala.games.haleakala.deck import BOARD_ITEMS, Deck

DEFAULT_BUDGET = 0.1  # seconds per decision when neither budget nor iterations is given


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


_CARD_TABLES: dict[int, tuple[Deck, tuple]] = {}
_BUTTERFLIES, _FOREST, _MAJORITY, _SEGMENT, _MOUNTAIN = (
    BOARD_ITEMS.index(code) for code in ("butterflies", "forest", "majority", "segment", "mountain")
)


def _card_tables(deck: Deck) -> tuple:
    """Per card number: baskets, butterflies, white pearl, black pearl, nautilus."""
    entry = _CARD_TABLES.get(id(deck))
    if entry is None or entry[0] is not deck:
        cards = deck.cards
        tables = (
            tuple(c.baskets for c in cards),
            tuple(c.butterflies for c in cards),
            tuple(c.pearl == "white" for c in cards),
            tuple(c.pearl == "black" for c in cards),
            tuple(c.nautilus for c in cards),
        )
        entry = _CARD_TABLES[id(deck)] = (deck, tables)
    return entry[1]


def round_totals(game: Game) -> tuple[int, int]:
    """Red's and yellow's totals if the current round were scored now (points banked in
    earlier scorings included), with the eruption left out.

    The same sums as ``rules.scoring.score_round`` without building its record: the
    search asks this at every leaf, where the record would cost three times as much.
    A test checks that both agree on many positions.
    """
    deck, board = game.deck, game.board
    pts = deck.points
    baskets, butterflies, white, black, nautilus = _card_tables(deck)
    owner = game.statue_owner
    per_band = [[0, 0, 0], [0, 0, 0]]
    for space, who in enumerate(owner):
        if who >= 0:
            per_band[who][space % 3] += 1
    basket_count = [sum(baskets[c] for c in game.beach_cards[p]) for p in (0, 1)]
    items = game.board_owner
    statue_points = board.statue_points
    totals = []
    for p in (0, 1):
        cards = game.beach_cards[p]
        shells = game.shells[p]
        band = per_band[p]
        total = sum(n * statue_points[i] for i, n in enumerate(band))
        if basket_count[p] > basket_count[1 - p]:
            total += pts["fish_majority"]
        has_white = any(white[c] for c in cards)
        has_black = any(black[c] for c in cards)
        if has_white and has_black:
            total += pts["both_pearls"]
        else:
            total += pts["white_pearl"] * has_white + pts["black_pearl"] * has_black
        total += pts["nautilus"] * sum(nautilus[c] for c in cards)
        if items[_BUTTERFLIES] == p:
            total += pts["butterfly"] * (
                sum(butterflies[c] for c in cards) + sum(butterflies[c] for c in shells)
            )
        if items[_MAJORITY] == p:
            other = per_band[1 - p]
            total += pts["statue_majority"] * sum(1 for i in range(3) if band[i] > other[i])
        if items[_SEGMENT] == p:
            complete = sum(
                1
                for s in range(board.segments)
                if owner[s * 3] == p and owner[s * 3 + 1] == p and owner[s * 3 + 2] == p
            )
            total += pts["complete_segment"] * complete
        if items[_FOREST] == p:
            total += pts["forest_bonus"] * band[1]
        if items[_MOUNTAIN] == p:
            total += pts["mountain_bonus"] * band[2]
        if game.round == 2:
            total += pts["shell_round2"] * len(shells)
        if game.scorings:
            total += game.scorings[-1].players[p].total
        totals.append(total)
    return totals[0], totals[1]


def evaluate(game: Game, weights: dict[str, float] | None = None) -> float:
    """Red's advantage in points, roughly: what a scoring now would give both (plus the
    points already banked), corrected for statues under lava, statues still to build,
    saved shells, and how high each shaman stands. Symmetric: yellow's is the negative.
    """
    w = DEFAULT_WEIGHTS if weights is None else weights
    red, yellow = round_totals(game)
    value = float(red - yellow)
    owner = game.statue_owner
    points = game.board.statue_points
    lava_w = w["lava"]
    if lava_w:
        for seg, count in enumerate(game.lava):
            for band in range(min(count, 3)):  # the eruption reaches mountain, forest, grass
                space = seg * 3 + 2 - band
                who = owner[space]
                if who >= 0:
                    value -= lava_w * points[2 - band] * (1 - 2 * who)
    if game.round == 1 and w["again"]:  # statues that survive score again in round 2
        for space, who in enumerate(owner):
            if who >= 0:
                value += w["again"] * points[space % 3] * (1 - 2 * who)
    value += w["shells"] * (len(game.shells[0]) - len(game.shells[1]))
    value += w["statues"] * (game.statues_left[1] - game.statues_left[0])
    land = game.board.land_spaces
    for p, space in enumerate(game.shaman):
        if space < land:
            bonus = w["height"] * points[space % 3]
            if owner[space] < 0:
                bonus += w["buildable"] * points[space % 3]
            value += bonus if p == 0 else -bonus
    return value


DEFAULT_WEIGHTS = {
    "lava": 1.0,
    "again": 0.0,
    "shells": 0.5,
    "statues": 0.3,
    "height": 0.2,
    "buildable": 0.0,
}


class Node:
    """One decision in the shared tree, seen by the player who made it (``mover``)."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed from the mover's point of view
        self.avail = 1
        self.mover = mover


class SearchBotV1:
    """ISMCTS with a time budget (seconds) or an iteration budget (deterministic)."""

    name = "ai-v1"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        budget: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int = 4,
        eval_scale: float = 4.0,
        margin_weight: float = 0.1,
        weights: dict[str, float] | None = None,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if budget is not None and budget <= 0:
            raise ValueError(f"budget must be a positive number of seconds, got {budget}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.budget = budget
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.eval_scale = eval_scale
        self.margin_weight = margin_weight
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        # Of the latest search, for benchmarks and tests: how many iterations ran and the
        # longest one took (seconds; time budgets only). Think time ≤ budget + that.
        self.last_iterations = 0
        self.last_slowest_iteration = 0.0

    # -- the decision ------------------------------------------------------------------

    def decide(self, game: Game, budget: float | None = None) -> int:
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
        for action, (visits, reward) in self.search(game, budget).items():
            if (visits, reward) > best_key:
                best, best_key = action, (visits, reward)
        return best

    def search(self, game: Game, budget: float | None = None) -> dict[int, tuple[int, float]]:
        """Run the search from ``game``; for each decision tried at the root, how often it
        was visited and its mean reward for the player to move (0 lost … 1 won)."""
        root = Node(-1)
        iterate = self._iterate
        slowest = 0.0
        if budget is None and self.budget is None and self.iterations is not None:
            for _ in range(self.iterations):
                iterate(root, game)
            done = self.iterations
        else:
            seconds = budget if budget is not None else self.budget or DEFAULT_BUDGET
            clock = time.perf_counter
            began = clock()
            deadline = began + seconds
            done = 0
            while True:
                iterate(root, game)
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

    def _iterate(self, root: Node, game: Game) -> None:
        rng = self.rng
        world = determinize(game, rng)
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
            best, best_score = node, -1.0
            for a in legal:
                child = children[a]
                child.avail += 1
                score = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score, action = child, score, a
            world.apply(action)
            path.append(best)
            node = best
        red = self._playout(world)
        for n in path:
            n.visits += 1
            n.reward += red if n.mover == 0 else 1.0 - red

    def _playout(self, world: Game) -> float:
        """Red's reward in [0, 1] after a short random playout."""
        rng = self.rng
        randrange = rng.randrange
        for _ in range(self.rollout_depth):
            if world.is_terminal():
                break
            legal = world.legal_actions()
            world.apply(legal[randrange(len(legal))])
        result = world.result()
        if result is not None:
            margin = result.scores[0] - result.scores[1]
            won = 1.0 if result.winner == "red" else 0.0
            m = self.margin_weight
            return (1.0 - m) * won + m * (0.5 + 0.5 * math.tanh(margin / 10.0))
        # Squashed into [0.1, 0.9]: an estimate never looks as good as a game really won,
        # so a player ahead ends the game when it can instead of stalling.
        value = evaluate(world, self.weights)
        return 0.5 + 0.4 * math.tanh(value / (2.0 * self.eval_scale))
