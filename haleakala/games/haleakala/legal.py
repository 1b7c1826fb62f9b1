"""Legal-decision generation: which integer decisions the rules allow now.

Apart from ``game`` so that the engine's state changes and the list of what may be decided
read separately; the functions take the game as ``self`` and are bound as its methods, so
they name only what they read (``Position``) and do not import ``game``.
"""

from __future__ import annotations

from .deck import BOARD_ITEMS
from .notation import (
    BOAT,
    BUY,
    INVOKE,
    KEEP,
    LAVA,
    LAVA_NONE,
    PASS,
    PLACE,
    RETURN,
    SHAMAN,
    STAY,
    TAKE,
)
from .state import CHOOSE_CARD, MOVE_SHAMAN, NO_OWNER, PRESCORE, PRIESTESS, SHELL, TURN, Position


def generate(self: Position) -> list[int]:
    """Every legal decision of the player who must decide, as integer codes (see
    ``notation``); ``Game.legal_actions`` caches it. ``self`` is the game: the function is
    bound as ``Game._generate``, so the hot path pays no extra call."""
    phase = self.phase
    p = self.decider
    if phase == TURN:
        return turn_actions(self, p)
    if phase == MOVE_SHAMAN:
        other = self.shaman[1 - p]
        return [STAY] + [SHAMAN + s for s in self.board.reach[self.shaman[p]] if s != other]
    if phase == CHOOSE_CARD:
        k = self.board.slots_per_segment
        first = self.context[0] * k
        return [TAKE + s for s in range(first, first + k) if self.slots[s] >= 0]
    if phase == PRIESTESS:
        moves = []
        for crater, count in enumerate(self.lava):
            if count:
                moves.append(LAVA + 2 * crater)
                moves.append(LAVA + 2 * crater + 1)
        return moves or [LAVA_NONE]
    if phase == SHELL:
        return [*purchases(self, p), KEEP]
    if phase == PRESCORE:
        return [*purchases(self, p), PASS]
    return []


def turn_actions(self: Position, p: int) -> list[int]:
    """Place a disc (R7), with the invocation disc (R26), take one back, move the boat (R6)."""
    own, opp = self.totals[p], self.totals[1 - p]
    at = self.disc_at[p]
    beaches = range(self.board.segments)
    supply = [v for v in self.board.discs if at[v] < 0]
    # R7: after placing v on b, own total own[b]+v must differ from opp[b].
    acts = [PLACE + v * 10 + b for v in supply for b in beaches if own[b] + v != opp[b]]
    if self.invocation[p] == -1 and sum(self.lava) < self.board.lava_discs:
        b = self.boat
        acts += [INVOKE + v * 10 + b for v in supply if own[b] + v != opp[b]]
    for v in self.board.discs:
        b = at[v]
        if b >= 0 and (own[b] - v != opp[b] or opp[b] == 0):
            acts.append(RETURN + v * 10 + b)
    if not supply:
        acts.append(BOAT)
    acts.sort()
    return acts


def purchases(self: Position, p: int) -> list[int]:
    """The scoring-board items ``p`` can pay for with shells now (R17)."""
    shells = len(self.shells[p])
    items = self.deck.board_items
    return [
        BUY + i
        for i, code in enumerate(BOARD_ITEMS)
        if self.board_owner[i] == NO_OWNER and items[code][1] <= shells
    ]
