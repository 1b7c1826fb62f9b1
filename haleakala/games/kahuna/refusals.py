"""Why a Kahuna decision is refused: one sentence naming the ruling (K9, K16, K19..K23, K30).

Apart from ``game`` so that the rules that change the state and the words that explain a
refusal read separately; ``reason`` takes the game as ``self`` and is bound as its method.
"""

from __future__ import annotations

from haleakala.core.refusal import Refusal
from haleakala.core.text import N_, Term

from .notation import CUT, DISCARD, DRAW_PILE, DRAW_SLOT, END, PLAY
from .state import DISCARDED, NONE, PLAYED, PLAYERS, Position


def reason(self: Position, d: int, p: int) -> Refusal:
    """Why decision ``d`` is not legal for player ``p`` now (``Game.why_illegal`` has ruled
    out notation, the end of the game and whose turn it is): the sentence names the rule."""
    b, names, hand = self.board, self.board.islands, self.hands[self.decider]
    name, other = PLAYERS[p], PLAYERS[1 - p]
    if d < DRAW_PILE and d < DISCARD and self.phase == DISCARDED:
        return Refusal.of(
            "discarded", N_("K19: after a face-down discard no card may be played this turn"), "K19"
        )
    if PLAY <= d < CUT:
        line, side = divmod(d - PLAY, 2)
        card = b.lines[line][side]
        if not hand[card]:
            return Refusal.of(
                "card_not_held",
                N_("{colour} holds no {island} card"),
                None,
                colour=Term(name),
                island=names[card],
            )
        if self.bridge[line] != NONE:
            return Refusal.of(
                "line_taken",
                N_("K9: the line {line} is taken by {colour}"),
                "K9",
                line=b.line_names[line],
                colour=Term(PLAYERS[self.bridge[line]]),
            )
        return Refusal.of(
            "bridges_used_up",
            N_("K30: all {n} of {colour}'s bridges are on the board"),
            "K30",
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
                return Refusal.of(
                    "cut_not_theirs",
                    N_("K16: only {other}'s bridges can be cut; {line} is free"),
                    "K16",
                    other=Term(other),
                    line=b.line_names[line],
                )
            return Refusal.of(
                "cut_not_theirs",
                N_("K16: only {other}'s bridges can be cut; {line} is {colour}'s own"),
                "K16",
                other=Term(other),
                line=b.line_names[line],
                colour=Term(name),
            )
        cards = "+".join(names[x] for x in need)
        return Refusal.of(
            "card_not_held",
            N_("{colour} does not hold {cards}"),
            None,
            colour=Term(name),
            cards=cards,
        )
    if DISCARD <= d < DRAW_PILE:
        island = d - DISCARD
        if self.phase == PLAYED:
            return Refusal.of(
                "discard_after_play",
                N_("K19: a face-down discard is allowed only in a turn with no card played"),
                "K19",
            )
        return Refusal.of(
            "card_not_held",
            N_("{colour} holds no {island} card"),
            None,
            colour=Term(name),
            island=names[island],
        )
    if d == DRAW_PILE or DRAW_SLOT <= d < END:
        if self.hand_size(p) >= b.hand_limit:
            return Refusal.of(
                "hand_full",
                N_("K22: {colour} holds {n} cards and cannot draw"),
                "K22",
                colour=Term(name),
                n=b.hand_limit,
            )
        if d == DRAW_PILE:
            return Refusal.of(
                "pile_empty", N_("K21: the pile is empty; draw from the display"), "K21"
            )
        return Refusal.of(
            "slot_empty", N_("K20: display slot {slot} is empty"), "K20", slot=d - DRAW_SLOT + 1
        )
    if d == END:
        if self.hand_size(p) >= 5:
            return Refusal.of(
                "must_draw",
                N_(
                    "K23: {other} declined to draw last turn, so {colour} must draw to end this "
                    "turn (play or discard first to make room)"
                ),
                "K23",
                other=Term(other),
                colour=Term(name),
            )
        return Refusal.of(
            "must_draw",
            N_("K23: {other} declined to draw last turn, so {colour} must draw to end this turn"),
            "K23",
            other=Term(other),
            colour=Term(name),
        )
    return Refusal.of("not_allowed", N_("not legal now"), None)
