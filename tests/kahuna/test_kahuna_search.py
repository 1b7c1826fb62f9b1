"""The game-agnostic search bot (``haleakala.ai.search``) on Kahuna, and on Haleakala to show
it needs nothing but the game interface: legal over complete games, blind to the hidden
information (the opponent's hand, the pile order), reproducible with an iteration budget.

Iteration budgets keep these tests fast and deterministic; strength is measured by
``haleakala bench ai --game kahuna``, not here.
"""

from __future__ import annotations

import random

import pytest

from haleakala.ai import make_bot
from haleakala.ai.search import SearchBot
from haleakala.ai.simple import RandomBot
from haleakala.gameapi import new_game

GAMES = ("kahuna", "haleakala")


def play_randomly(game, decisions: int, rng: random.Random):
    for _ in range(decisions):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def positions_with_a_choice(name: str, count: int, seed: int = 0) -> list:
    """Positions with more than one legal decision, from random games, early and late."""
    rng = random.Random(seed)
    found: list = []
    index = 0
    while len(found) < count:
        game = new_game(name, seed=1000 + index)
        play_randomly(game, rng.randrange(3, 200), rng)
        index += 1
        if not game.is_terminal() and len(game.legal_actions()) > 1:
            found.append(game)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_search_bot_only_proposes_legal_decisions_over_complete_games(name):
    for seed in range(4):
        game = new_game(name, seed=seed)
        bots = [SearchBot(seed=seed, iterations=6), RandomBot(seed=seed)]
        if seed % 2:
            bots.reverse()
        decisions = 0
        while not game.is_terminal():
            decision = bots[game.decider].decide(game)
            assert game.why_illegal(decision) is None, (seed, game.format(decision))
            game.apply(decision)
            decisions += 1
            assert decisions < 20_000, "the game did not end"
        assert sum(game.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_search_with_an_iteration_budget_is_reproducible(name):
    for game in positions_with_a_choice(name, 3, seed=1):
        before = game.digest()
        first = SearchBot(seed=7, iterations=60).search(game)
        again = SearchBot(seed=7, iterations=60).search(game)
        assert first == again
        assert sum(visits for visits, _ in first.values()) == 60
        assert game.digest() == before, "the search changed the real game"
        assert SearchBot(seed=7, iterations=60).decide(game) in game.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_root_statistics_ignore_the_hidden_truth(name):
    """Re-dealing what the player to move cannot see (another world drawn by the game's own
    ``determinize``) leaves every root statistic identical: the bot never reads it."""
    tried = 0
    for k, game in enumerate(positions_with_a_choice(name, 6, seed=2)):
        me = game.decider
        other = game.determinize(me, random.Random(100 + k))
        if other.digest() == game.digest():
            continue  # nothing hidden here (e.g. Kahuna's pile already drawn)
        assert other.observation(me) == game.observation(me)
        assert other.legal_actions() == game.legal_actions()
        tried += 1
        truth = SearchBot(seed=k, iterations=80).search(game)
        redealt = SearchBot(seed=k, iterations=80).search(other)
        assert truth == redealt
    assert tried >= 3


def test_make_bot_ai_for_kahuna_is_the_game_agnostic_search():
    bot = make_bot("ai", seed=3, game="kahuna", iterations=5)
    assert isinstance(bot, SearchBot)
    game = new_game("kahuna", seed=3)
    assert bot.decide(game) in game.legal_actions()


def test_bad_budgets_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        SearchBot(iterations=0)
    with pytest.raises(ValueError, match="budget must be a positive number of seconds"):
        SearchBot(budget=-1)


def kahuna_redealt(game, rng: random.Random):
    """The same Kahuna position for the player to move with another truth: one card of the
    opponent's hand that nobody saw enter it swapped with a card of the pile, and the pile
    re-shuffled (K31: hands and the pile order are hidden)."""
    me, opp = game.decider, 1 - game.decider
    unseen = [i for i, n in enumerate(game.hands[opp]) if n - game.known[opp][i] > 0]
    swaps = [(i, j) for i in unseen for j in set(game.pile) if j != i]
    if not swaps:
        return None
    i, j = swaps[rng.randrange(len(swaps))]
    other = game.clone()
    other.hands[opp][i] -= 1
    other.hands[opp][j] += 1
    other.pile[other.pile.index(j)] = i
    rng.shuffle(other.pile)
    other.seed = game.seed + 1  # the seed would give the deal away: the bot must not care
    other._legal = None
    assert other.observation(me) == game.observation(me)
    return other


def test_kahuna_root_statistics_ignore_the_opponents_hand_and_the_pile_order_k31():
    rng = random.Random(5)
    tried = 0
    for k, game in enumerate(positions_with_a_choice("kahuna", 14, seed=3)):
        other = kahuna_redealt(game, rng)
        if other is None:
            continue
        assert other.hands != game.hands
        tried += 1
        assert SearchBot(seed=k, iterations=80).search(game) == SearchBot(
            seed=k, iterations=80
        ).search(other)
    assert tried >= 4


def test_kahuna_search_does_not_let_a_won_game_slip_within_its_turn():
    """Where a decision would end the game won (K29's wipeout, or closing the last turn of
    K26) but others would not, the search wins before its turn is over: leaves that end the
    game are scored by the real result, not the estimate."""
    rng = random.Random(11)
    found = 0
    for seed in range(300):
        game = new_game("kahuna", seed=seed)
        while not game.is_terminal():
            me = game.decider
            winning = []
            for d in game.legal_actions():
                trial = game.clone()
                trial.apply(d)
                if trial.is_terminal() and trial.returns()[me] == 1.0:
                    winning.append(d)
            if winning and len(winning) < len(game.legal_actions()):
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_terminal():
            continue
        found += 1
        me = game.decider
        bot = SearchBot(seed=seed, iterations=300)
        played = []
        while not game.is_terminal() and game.decider == me:
            decision = bot.decide(game)
            played.append(game.format(decision))
            game.apply(decision)
        assert game.is_terminal() and game.returns()[me] == 1.0, (seed, played)
        if found == 3:
            break
    assert found == 3
