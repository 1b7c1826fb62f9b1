"""Why a Kahuna decision is refused: one sentence naming the ruling (K9, K16, K19..K23, K30).

Apart from ``game`` so that the rules that change the state and the words that explain a
refusal read separately; ``reason`` takes the game as ``self`` and is bound as its method.
"""

from __future__ import annotations

from .notation import CUT, DISCARD, DRAW_PILE, DRAW_SLOT, END, PLAY
from .state import DISCARDED, NONE, PLAYED, PLAYERS, Position


def reason(self: Position, d: int, p: int) -> str:
    """Why decision ``d`` is not legal for player ``p`` now (``Game.why_illegal`` has ruled
    out notation, the end of the game and whose turn it is): the sentence names the rule."""
    b, names, hand = self.board, self.board.islands, self.hands[self.decider]
    name, other = PLAYERS[p], PLAYERS[1 - p]
    if d < DRAW_PILE and d < DISCARD and self.phase == DISCARDED:
        return "K19: after a face-down discard no card may be played this turn"
    if PLAY <= d < CUT:
        line, side = divmod(d - PLAY, 2)
        card = b.lines[line][side]
        if not hand[card]:
            return f"{name} holds no {names[card]} card"
        if self.bridge[line] != NONE:
            return f"K9: the line {b.line_names[line]} is taken by {PLAYERS[self.bridge[line]]}"
        return f"K30: all {b.bridges} of {name}'s bridges are on the board"
    if CUT <= d < DISCARD:
        line, k = divmod(d - CUT, 3)
        a, c = b.lines[line]
        need = [a, a] if k == 0 else [a, c] if k == 1 else [c, c]
        owner = self.bridge[line]
        if owner != 1 - p:
            whose = "free" if owner == NONE else f"{name}'s own"
            return f"K16: only {other}'s bridges can be cut; {b.line_names[line]} is {whose}"
        cards = "+".join(names[x] for x in need)
        return f"{name} does not hold {cards}"
    if DISCARD <= d < DRAW_PILE:
        island = d - DISCARD
        if self.phase == PLAYED:
            return "K19: a face-down discard is allowed only in a turn with no card played"
        return f"{name} holds no {names[island]} card"
    if d == DRAW_PILE or DRAW_SLOT <= d < END:
        if self.hand_size(p) >= b.hand_limit:
            return f"K22: {name} holds {b.hand_limit} cards and cannot draw"
        if d == DRAW_PILE:
            return "K21: the pile is empty; draw from the display"
        return f"K20: display slot {d - DRAW_SLOT + 1} is empty"
    if d == END:
        return (
            f"K23: {other} declined to draw last turn, so {name} must draw to end this turn"
            + (" (play or discard first to make room)" if self.hand_size(p) >= 5 else "")
        )
    return "not legal now"
