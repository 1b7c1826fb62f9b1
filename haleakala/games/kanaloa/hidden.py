"""Hidden information (N12): Kanaloa hides only the order of the bag and of the reserve.

``observation`` is the public position with the bag and the reserve as sorted contents (and
without the seed, which deals them);
``determinize`` re-deals exactly the unseen tiles (while the reserve is aside it gets one
volcano tile and 6 offerings from the unseen ones, the bag the rest, in a new order);
``evaluate`` is a cheap public estimate for the search bot. Bound on ``Game`` as methods.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .game import use_codec
from .serialize import state_dict
from .state import KANE, OVER, score

if TYPE_CHECKING:
    from .game import Game


def observation(game: Game, player: int) -> dict:
    view = state_dict(game)
    # Unseen: which tiles are in the bag or the reserve, not which where, nor their order.
    view["unseen"] = sorted(game.bag + (game.reserve or []))
    view["bag"] = len(game.bag)
    view["reserve"] = None if game.reserve is None else len(game.reserve)
    view["player"] = game.players[player]
    # The seed deals the bag and the reserve: a seat that knew it could compute their order.
    del view["seed"]
    return view


def determinize(game: Game, observer: int, rng: random.Random) -> Game:
    world = game.clone()
    volcano = game.volcano_tile
    if game.reserve is None:
        bag = sorted(game.bag)
        rng.shuffle(bag)
        world.bag = bag
    else:
        unseen = sorted(t for t in game.bag + game.reserve if t != volcano)
        volcanoes = sum(1 for t in game.bag if t == volcano)
        rng.shuffle(unseen)
        reserve = [*unseen[:6], volcano]
        rng.shuffle(reserve)
        bag = unseen[6:] + [volcano] * volcanoes
        rng.shuffle(bag)
        world.reserve, world.bag = reserve, bag
    world._legal = None
    return world


def evaluate(game: Game, player: int) -> float:
    """A public estimate in [0, 1]: the N48 score now, temples on their way to the Kane
    height, and offerings in hand (or in an open sacrifice) against the best other player.
    Every term a one-ply bot can raise (take, sacrifice, done) counts, so greedy sacrifices."""
    if game.phase == OVER:
        return game.returns()[player]
    from haleakala.gameapi import squash

    values = game.m.tile_value

    def worth(p: int) -> float:
        t = game.temples[p]
        hand = sum(values[k] * c for k, c in enumerate(game.hands[p]))
        if p == game.current:
            hand += sum(values[k] for k in game.sac_tiles)
        cap = max(t[KANE], 4)
        growth = sum(min(t[g], cap) for g in range(4)) + t[KANE]
        return score(t) + 0.25 * growth + 0.3 * hand

    mine = worth(player)
    best = max(worth(q) for q in range(game.n) if q != player)
    return squash(mine - best, 8.0)


use_codec(observation=observation, determinize=determinize, evaluate=evaluate)
