"""The game interface (haleakala.gameapi): both games satisfy the Protocol, the registry
builds them by name, and Kahuna's notation and saves round-trip for any reachable state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.gameapi import GAMES, GameState, UnknownGame, game_of, new_game
from haleakala.games.kahuna import Game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_satisfies_the_protocol(name):
    game = new_game(name, seed=4)
    assert isinstance(game, GameState)
    assert game_of(game) == name and game.to_move == game.players[game.decider]
    n = len(game.players)
    assert game.returns() == tuple(1 / n for _ in range(n)) and 0 <= game.evaluate(0) <= 1


def test_an_unknown_game_is_refused_with_the_choices():
    with pytest.raises(UnknownGame, match="choose one of haleakala, kahuna"):
        new_game("chess")


def test_haleakala_determinize_only_reshuffles_the_piles():
    game = new_game("haleakala", seed=6)
    world = game.determinize(0, random.Random(2))
    assert [sorted(p) for p in world.piles] == [sorted(p) for p in game.piles]
    assert world.observation(1) == game.observation(1)
    assert world.slots == game.slots


def random_state(seed: int, steps: int) -> Game:
    game = Game(seed)
    rng = random.Random(seed * 7 + steps)
    for _ in range(steps):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 200))
def test_any_reachable_kahuna_state_round_trips_through_text_and_json(seed, steps):
    game = random_state(seed, steps)
    for text in game.legal_decisions():
        assert game.format(game.parse(text)) == text
        assert game.why_illegal(text) is None
    again = Game.from_json(game.to_json())
    assert again.digest() == game.digest() and again.legal_actions() == game.legal_actions()
    replayed = Game(seed)
    for d in game.history:
        replayed.apply(replayed.format(d))
    assert replayed.digest() == game.digest()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 200), st.integers(0, 2**32))
def test_determinize_never_reads_the_hidden_truth(seed, steps, world_seed):
    """Two states that differ only in what player 0 cannot see give the same worlds."""
    game = random_state(seed, steps)
    other = game.determinize(0, random.Random(world_seed + 1))  # another hidden truth
    a = game.determinize(0, random.Random(world_seed))
    b = other.determinize(0, random.Random(world_seed))
    assert a.hands == b.hands and a.pile == b.pile and a.buried == b.buried
