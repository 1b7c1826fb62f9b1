"""Positions reached by play: a game of the companion's own autoplay, stopped after some
decisions, and the hypothesis strategy that draws them (the companion's property tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from haleakala.companion.autoplay import choose
from haleakala.games.haleakala import Game


def position(variant: str, seed: int, plies: int) -> Game:
    game = Game(variant, seed, "red")
    for _ in range(plies):
        if game.is_terminal():
            break
        game.apply(choose(game, seed))
    return game


POSITIONS = st.builds(
    position, st.sampled_from(["base", "tactical"]), st.integers(0, 10**6), st.integers(0, 90)
)
