"""The scripted remote player (``--autoplay SEED``) and the game it plays undisturbed.

Why a policy of its own: a remote seat does not always hold a playable state (a seat of a
game with hidden hands sees only its own), but it always holds the legal decisions the host sent. A
choice that depends only on those, the seed and the decision's number is the same on any
kit, before or after a restart, so ``reference_game`` computes without a network the game
that two kits must end with — whatever broker or kit was killed on the way.
"""

from __future__ import annotations

import random
from typing import Any


def pick(legal: list[str], seed: int, seq: int) -> str:
    """The scripted choice among ``legal`` (sorted texts) for decision number ``seq``."""
    return legal[random.Random(f"{seed}:{seq}").randrange(len(legal))]


def reference_game(name: str, seed: int, policy_seed: int, **options: Any) -> Any:
    """The game dealt by ``seed`` that ``pick`` plays for every seat, without a network."""
    from haleakala.gameapi import new_game

    game = new_game(name, seed=seed, **options)
    seq = 0
    while not game.is_terminal():
        seq += 1
        game.apply(pick(sorted(game.legal_decisions()), policy_seed, seq), game.to_move)
    return game
