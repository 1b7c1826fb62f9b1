"""Why a Kahuna decision is refused: one sentence naming the ruling (K9, K16, K19..K23, K30).

Apart from ``game`` so that the rules that change the state and the words that explain a
refusal read separately; ``reason`` takes the game as ``self`` and is bound as its method.
"""

from __future__ import annotations

from haleakala.core.marks import N_, Said, Term

from .notation import CUT, DISCARD, DRAW_PILE, DRAW_SLOT, END, PLAY
from .state import DISCARDED, NONE, PLAYED, PLAYERS, Position


def reason(self: Position, d: int, p: int) -> str:
    """Why decision ``d`` is not legal for player ``p`` now (``Game.why_illegal`` has ruled
    out notation, the end of the game and whose turn it is): the sentence names the rule."""
    b, names, hand = self.board, self.board.islands, self.hands[self.decider]
    name, other = PLAYERS[p], PLAYERS[1 - p]
    if d < DRAW_PILE and d < DISCARD and self.phase == DISCARDED:
        return Said.of(N_("K19: after a face-down discard no card may be played this turn"))
    if PLAY <= d < CUT:
        line, side = divmod(d - PLAY, 2)
        card = b.lines[line][side]
        if not hand[card]:
            return Said.of(
                N_("{colour} holds no {island} card"), colour=Term(name), island=names[card]
            )
        if self.bridge[line] != NONE:
            return Said.of(
                N_("K9: the line {line} is taken by {colour}"),
                line=b.line_names[line],
                colour=Term(PLAYERS[self.bridge[line]]),
            )
        return Said.of(
            N_("K30: all {n} of {colour}'s bridges are on the board"),
            n=b.bridges,
            colour=Term(name),
        )
    if CUT <= d < DISCARD:
        line, k = divmod(d - CUT, 3)
        a, c = b.lines[line]
        need = [a, a] if k == 0 else [a, c] if k == 1 else [c, c]
        owner = self.bridge[line]
        if owner != 1 - p:
            if owner == NONE:
                return Said.of(
                    N_("K16: only {other}'s bridges can be cut; {line} is free"),
                    other=Term(other),
                    line=b.line_names[line],
                )
            return Said.of(
                N_("K16: only {other}'s bridges can be cut; {line} is {colour}'s own"),
                other=Term(other),
                line=b.line_names[line],
                colour=Term(name),
            )
        cards = "+".join(names[x] for x in need)
        return Said.of(N_("{colour} does not hold {cards}"), colour=Term(name), cards=cards)
    if DISCARD <= d < DRAW_PILE:
        island = d - DISCARD
        if self.phase == PLAYED:
            return Said.of(
                N_("K19: a face-down discard is allowed only in a turn with no card played")
            )
        return Said.of(
            N_("{colour} holds no {island} card"), colour=Term(name), island=names[island]
        )
    if d == DRAW_PILE or DRAW_SLOT <= d < END:
        if self.hand_size(p) >= b.hand_limit:
            return Said.of(
                N_("K22: {colour} holds {n} cards and cannot draw"),
                colour=Term(name),
                n=b.hand_limit,
            )
        if d == DRAW_PILE:
            return Said.of(N_("K21: the pile is empty; draw from the display"))
        return Said.of(N_("K20: display slot {slot} is empty"), slot=d - DRAW_SLOT + 1)
    if d == END:
        if self.hand_size(p) >= 5:
            return Said.of(
                N_(
                    "K23: {other} declined to draw last turn, so {colour} must draw to end this "
                    "turn (play or discard first to make room)"
                ),
                other=Term(other),
                colour=Term(name),
            )
        return Said.of(
            N_("K23: {other} declined to draw last turn, so {colour} must draw to end this turn"),
            other=Term(other),
            colour=Term(name),
        )
    return Said.of(N_("not legal now"))
