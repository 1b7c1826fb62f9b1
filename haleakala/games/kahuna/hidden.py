"""Hidden information (K31): what a player sees, a world consistent with it, and an estimate.

The search bot works through these three: ``observation`` (the public view plus one's own
hand), ``determinize`` (a copy with every unseen card re-dealt) and ``evaluate`` (a
public-information estimate). Apart from ``game``, whose state and rules they only read;
bound there as methods.
"""

from __future__ import annotations

import random
from typing import TypeVar

from .state import NONE, OVER, PLAYERS, Position

P = TypeVar("P", bound=Position)


def observation(self: Position, player: int) -> dict:
    """What ``player`` sees: the board, supplies, display, face-up discards, scores,
    their own hand and face-down discards; of the opponent only the hand size, the
    cards seen entering it (``known``) and how many went face down; the pile's size."""
    names = self.board.islands
    opp = 1 - player
    return {
        "game": self.game_name,
        "player": PLAYERS[player],
        "round": self.round,
        "to_move": self.to_move,
        "phase": self.phase_name,
        "must_draw": self.must_draw,
        "last_turns": self.last_turns,
        "bridges": {
            self.board.line_names[i]: PLAYERS[o] for i, o in enumerate(self.bridge) if o >= 0
        },
        "stones": {names[i]: PLAYERS[o] for i, o in enumerate(self.stone) if o >= 0},
        "supply": {
            c: {"bridges": self.bridges_left(p), "stones": self.stones_left(p)}
            for p, c in enumerate(PLAYERS)
        },
        "display": [names[c] if c != NONE else None for c in self.display],
        "pile": len(self.pile),
        "discard": [names[c] for c in self.discard],
        "buried": {
            PLAYERS[player]: sorted(names[c] for c in self.buried[player]),
            PLAYERS[opp]: len(self.buried[opp]),
        },
        "hand": self.hand_cards(player),
        "opponent_hand": {
            "size": self.hand_size(opp),
            "known": [names[i] for i, n in enumerate(self.known[opp]) for _ in range(n)],
        },
        "points": [list(p) for p in self.points],
        "totals": list(self.totals()),
    }


def determinize(self: P, observer: int, rng: random.Random) -> P:
    """A copy in which every card ``observer`` cannot see is re-dealt by ``rng``: the
    opponent's hand (keeping the cards seen entering it), the opponent's face-down
    discards of this round, and the pile order. The pool is sorted before the shuffle
    so the result depends only on what ``observer`` knows; the seed is replaced too, as
    it would give the future reshuffles (and the deal) away."""
    world = self.clone()
    opp = 1 - observer
    known = self.known[opp]
    pool: list[int] = []
    for island, count in enumerate(self.hands[opp]):
        pool += [island] * (count - known[island])
    pool += self.buried[opp] + self.pile
    pool.sort()
    rng.shuffle(pool)
    unknown = self.hand_size(opp) - sum(known)
    hand = known[:]
    for card in pool[:unknown]:
        hand[card] += 1
    world.hands[opp] = hand
    n_buried = len(self.buried[opp])
    world.buried[opp] = pool[unknown : unknown + n_buried]
    world.pile = pool[unknown + n_buried :]
    world.seed = rng.randrange(2**63)
    world._legal = None
    return world


def evaluate(self: Position, player: int) -> float:
    """A cheap, public-information estimate in [0, 1] for ``player``: points banked,
    what the coming scoring would give, stones, bridges, near-majorities and hand
    sizes. Never reads a hand's cards or the pile, so a one-ply search cannot cheat."""
    if self.phase == OVER:
        return self.returns()[player]
    from haleakala.gameapi import squash

    opp = 1 - player
    totals = self.totals()
    value = 1.0 * (totals[player] - totals[opp])
    stones = self.stones_on_board(player) - self.stones_on_board(opp)
    weight = (1.0, 1.5, 1.0)[self.round - 1]
    value += weight * stones
    if self.round == 3:
        value += 0.6 * stones  # the third scoring pays the difference
    for island, need in enumerate(self.board.need):
        if self.stone[island] == NONE:
            mine, theirs = self.held(player, island), self.held(opp, island)
            value += 0.25 * (mine - theirs) / need
    value += 0.05 * (self.bridges_on_board(player) - self.bridges_on_board(opp))
    value += 0.12 * (self.hand_size(player) - self.hand_size(opp))
    return squash(value, 3.0)
