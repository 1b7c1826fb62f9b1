"""The search bot (ISMCTS): legal, blind to the hidden pile order, on time, reproducible.

Iteration budgets keep these tests fast and deterministic; strength is measured by
``haleakala bench ai``, not here.
"""

from __future__ import annotations

import random

import pytest

from haleakala.ai import budgeted, make_bot
from haleakala.ai.simple import RandomBot
from haleakala.games.haleakala import VARIANTS, Game
from haleakala.games.haleakala.bots import ismcts
from haleakala.games.haleakala.bots.ismcts import (
    SearchBot,
    determinize,
    public_digest,
    round_totals,
)
from haleakala.games.haleakala.scoring import score_round


def play_randomly(game: Game, decisions: int, rng: random.Random) -> Game:
    while not game.is_terminal() and len(game.history) < decisions:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def positions_with_a_choice(count: int, seed: int = 0) -> list[Game]:
    """Positions with more than one legal decision, from random games of both variants,
    early and late (some in round 2), each with at least one pile of two or more cards."""
    rng = random.Random(seed)
    found: list[Game] = []
    index = 0
    while len(found) < count:
        game = Game(VARIANTS[index % 2], seed=1000 + index)
        play_randomly(game, rng.randrange(5, 260), rng)
        while not game.is_terminal() and len(game.legal_actions()) == 1:
            game.apply(game.legal_actions()[0])
        index += 1
        if not game.is_terminal() and any(len(pile) >= 2 for pile in game.piles):
            found.append(game)
    return found


def with_pile_order_permuted(game: Game, k: int) -> Game:
    """The same public position with another true order of every pile (and another seed,
    which would give the order away)."""
    other = game.clone()
    rng = random.Random(k)
    while other.piles == game.piles:
        for pile in other.piles:
            rng.shuffle(pile)
    other.seed = 10**6 + k
    other._legal = None
    return other


POSITIONS = positions_with_a_choice(6)


def test_make_bot_ai_builds_the_search_bot():
    bot = make_bot("ai", seed=5, iterations=3)
    assert isinstance(bot, SearchBot)
    game = POSITIONS[0]
    assert bot.decide(game) in game.legal_actions()


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_bot_only_proposes_legal_decisions_over_complete_games(variant):
    for seed in range(10):
        game = Game(variant, seed=seed, start=("red", "yellow")[seed % 2])
        bots = [SearchBot(seed=seed, iterations=8), RandomBot(seed=seed)]
        if seed % 3 == 0:
            bots.reverse()
        while not game.is_terminal():
            decision = bots[game.decider].decide(game)
            assert game.why_illegal(decision) is None, (seed, game.format(decision))
            game.apply(decision)
        assert game.result() is not None


def test_determinize_keeps_every_pile_composition_and_every_public_fact():
    reshuffled = 0
    for game in POSITIONS:
        before = game.digest()
        for k in range(4):
            world = determinize(game, random.Random(k))
            assert [sorted(p) for p in world.piles] == [sorted(p) for p in game.piles]
            assert public_digest(world) == public_digest(game)
            assert world.legal_actions() == game.legal_actions()
            reshuffled += world.piles != game.piles
        assert game.digest() == before, "determinize must not touch the real game"
    assert reshuffled >= len(POSITIONS) * 3, "the hidden order should really be re-drawn"


def test_determinize_depends_on_the_public_composition_only():
    for game in POSITIONS:
        other = with_pile_order_permuted(game, 1)
        assert other.piles != game.piles
        assert (
            determinize(other, random.Random(9)).piles == determinize(game, random.Random(9)).piles
        )


def test_public_digest_ignores_the_pile_order_but_not_the_composition():
    game = POSITIONS[0]
    assert public_digest(with_pile_order_permuted(game, 2)) == public_digest(game)
    moved = game.clone()
    source = next(p for p in moved.piles if p)
    target = next(p for p in moved.piles if p is not source)
    target.append(source.pop())
    assert public_digest(moved) != public_digest(game)


# The default search and every option that reads more of the position (the foresight of
# the next distributions, the one-ply ranking at the root, the sensible playout and
# expansion): none may see the true pile order.
SEARCH_OPTIONS = [
    {},
    {"pending": 0.5, "threat": 0.5, "widen": 5},
    {"sensible_playout": True, "sensible_expansion": True},
    {"bias": 1.0},
]


@pytest.mark.parametrize("options", SEARCH_OPTIONS)
def test_decision_does_not_depend_on_the_true_hidden_pile_order(options):
    for game in POSITIONS:
        bot = SearchBot(seed=3, iterations=60, **options)
        reference = bot.search(game)
        decision = SearchBot(seed=3, iterations=60, **options).decide(game)
        for k in range(3):
            shuffled = with_pile_order_permuted(game, k)
            # Not only the decision: every visit count and mean reward of the root.
            assert SearchBot(seed=3, iterations=60, **options).search(shuffled) == reference
            assert SearchBot(seed=3, iterations=60, **options).decide(shuffled) == decision


@pytest.mark.parametrize("options", SEARCH_OPTIONS)
def test_a_bot_that_peeked_at_the_true_order_would_be_caught(monkeypatch, options):
    """The check above has teeth: searching the true order changes what the search sees
    (150 iterations: with the root's bias the first ones go to each decision once, and
    fewer may not reach a refill in any of these positions)."""
    monkeypatch.setattr(ismcts, "determinize", lambda game, rng: game.clone())
    changed = 0
    for game in POSITIONS:
        reference = SearchBot(seed=3, iterations=150, **options).search(game)
        for k in range(3):
            shuffled = with_pile_order_permuted(game, k)
            changed += SearchBot(seed=3, iterations=150, **options).search(shuffled) != reference
    assert changed > 0


def test_same_seed_and_iteration_budget_give_the_same_decisions():
    first, second = SearchBot(seed=11, iterations=40), SearchBot(seed=11, iterations=40)
    for game in POSITIONS + POSITIONS:  # the second pass starts from a used generator
        assert first.decide(game) == second.decide(game)


class StepClock:
    """An injected ``perf_counter``: every reading is ``step`` seconds after the last, so one
    search iteration "takes" exactly one step and the budget arithmetic is checked exactly,
    whatever the machine's load. (Real think times are ``haleakala bench ai``.)"""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now

    def searched(self, since: int) -> float:
        """Seconds between the first and the last reading after ``since`` readings."""
        return (self.readings - since - 1) * self.step


@pytest.fixture
def step_clock(monkeypatch: pytest.MonkeyPatch) -> StepClock:
    clock = StepClock(step=0.01)
    monkeypatch.setattr(budgeted, "time", clock)  # the budget loop both searches share
    return clock


def test_think_time_stays_within_the_budget_plus_one_iteration(step_clock):
    budget = 0.05
    bot = SearchBot(seed=2)
    for game in POSITIONS:
        before = step_clock.readings
        decision = bot.decide(game, budget)
        spent = step_clock.searched(since=before)
        assert decision in game.legal_actions()
        assert bot.last_iterations > 1
        assert bot.last_slowest_iteration == pytest.approx(step_clock.step)
        assert budget <= spent + 1e-9
        assert spent <= budget + bot.last_slowest_iteration + 1e-9


def test_budget_given_at_construction_is_used(step_clock):
    bot = SearchBot(seed=2, budget=0.02)
    before = step_clock.readings
    bot.decide(POSITIONS[1])
    spent = step_clock.searched(since=before)
    assert 0.02 <= spent + 1e-9 <= 0.02 + bot.last_slowest_iteration + 2e-9
    assert bot.last_iterations == round(0.02 / step_clock.step)


def test_single_legal_decision_is_returned_without_searching():
    rng = random.Random(4)
    game = Game("base", seed=4)
    while len(game.legal_actions()) != 1:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    bot = SearchBot(seed=1, budget=30.0)
    assert bot.decide(game) == game.legal_actions()[0]
    assert bot.last_iterations == 0  # no search: the 30 s budget is never used


def test_deciding_in_a_finished_game_is_refused():
    game = play_randomly(Game("tactical", seed=2), 10**6, random.Random(2))
    with pytest.raises(ValueError, match="game is over"):
        SearchBot(iterations=5).decide(game)


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError, match="iterations"):
        SearchBot(iterations=0)
    with pytest.raises(ValueError, match="budget"):
        SearchBot(budget=-1.0)


def test_leaf_scoring_agrees_with_the_rules_scoring():
    """``round_totals`` is a fast copy of ``score_round``: they must never disagree."""
    owned = round_two = 0
    for seed in range(30):
        game = Game(VARIANTS[seed % 2], seed=seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            assert round_totals(game) == score_round(game, game.round).totals
            owned += any(0 <= o <= 1 for o in game.board_owner[:5])
            round_two += game.round == 2
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert owned > 100 and round_two > 100, "the check must cover scoring cards and round 2"


def test_search_bot_beats_the_random_bot():
    """Rewards are seen from the right player's side (a flipped sign loses every game)."""
    wins = 0
    for seed in range(4):
        game = Game(VARIANTS[seed % 2], seed=seed, start=("red", "yellow")[seed // 2])
        me = seed % 2
        bots = [RandomBot(seed=seed), RandomBot(seed=seed)]
        bots[me] = SearchBot(seed=seed, iterations=40)
        while not game.is_terminal():
            game.apply(bots[game.decider].decide(game))
        wins += game.result().winner == ("red", "yellow")[me]
    assert wins == 4


def test_the_kept_tree_carries_its_visits_into_the_next_decision():
    """Tree reuse: after the bot's decision, the subtree it led to is the next root."""
    bot = SearchBot(seed=5, iterations=200)
    game = Game("base", seed=5, start="red")
    game.apply(bot.decide(game))  # a disc placed: the same player now moves the shaman
    assert game.to_move == "red"
    root = bot._root_for(game)
    assert root.visits > 0
    assert bot.decide(game) in game.legal_actions()
    fresh = SearchBot(seed=5, iterations=200, reuse=False)
    assert fresh._root_for(game).visits == 0


def test_a_kept_tree_is_not_used_for_another_game():
    bot = SearchBot(seed=5, iterations=50)
    game = Game("base", seed=5, start="red")
    game.apply(bot.decide(game))
    other = Game("tactical", seed=5, start="red")
    assert bot._root_for(other).visits == 0


def test_the_cycle_guard_names_the_undoing_turn_action():
    game = Game("base", seed=3, start="red")
    for text in ("3@2", ">stay", "4@3", ">stay"):  # red places 3 on beach 2; yellow plays
        game.apply(text)
    assert ismcts.undoing(game.history) == game.parse("-3@2")
    game.apply("-3@2")
    game.apply(">stay")
    game.apply("-4@3")
    game.apply(">stay")
    assert ismcts.undoing(game.history) == game.parse("3@2")


@pytest.mark.parametrize("weights", [{}, {"again": 0.5, "beaches": 1.0}])
def test_evaluate_is_the_sum_of_its_named_components(weights):
    w = {**ismcts.DEFAULT_WEIGHTS, **weights}
    for game in POSITIONS:
        parts = ismcts.components(game, w)
        assert set(parts) >= {"scoring", "lava", "beaches", "shells", "statues", "shaman"}
        assert ismcts.evaluate(game, w) == pytest.approx(sum(parts.values()))


def test_move_groups_lead_to_the_same_legal_decisions():
    for game in POSITIONS[:3]:
        bot = SearchBot(seed=1, iterations=60, groups=True)
        stats = bot.search(game)
        assert stats and set(stats) <= set(game.legal_actions())


def test_the_first_visit_at_the_root_goes_to_the_decision_the_estimate_ranks_best():
    """The progressive bias: before any playout the one-ply estimate (with foresight)
    decides which decision is tried first, and every legal decision has an estimate."""
    for game in POSITIONS:
        bot = SearchBot(seed=3, iterations=1)
        (tried,) = bot.search(game)
        assert set(bot._prior) == set(game.legal_actions())
        assert bot._prior[tried] == max(bot._prior.values())
        assert all(0.1 <= v <= 0.9 for v in bot._prior.values())
