"""Refusals: why a decision the rules do not allow now is refused, as a ``Refusal`` whose
``kind`` and ``ruling`` programs match and whose sentence a player reads.

Apart from ``game`` because the explanations are long and change for wording, never for the
rules; the function takes the game as ``self`` and is bound as ``Game._reason``, naming only
what it reads (``Position``), so this module does not import ``game``.
"""

from __future__ import annotations

from .decision import Refusal
from .deck import BOARD_ITEMS
from .notation import BOAT, BUY, KEEP, LAVA, LAVA_NONE, PASS, SHAMAN, STAY, TAKE
from .state import (
    CHOOSE_CARD,
    FACE_DOWN,
    MOVE_SHAMAN,
    NO_OWNER,
    PLAYERS,
    PRESCORE,
    PRIESTESS,
    SHELL,
    TURN,
    Position,
)


def reason(self: Position, d: int, p: int) -> Refusal:
    """Why decision ``d`` is not legal for player ``p`` now, naming the ruling it breaks.

    Called only for a decision outside ``legal_actions``; bound as ``Game._reason``.
    """
    phase, name = self.phase, PLAYERS[p]
    expecting = Refusal(
        "wrong_phase",
        {
            TURN: f"{name} must take a turn action (place a disc, take one back, or move the boat)",
            MOVE_SHAMAN: f"{name} must now move the shaman (>2G) or leave it (>stay)",
            CHOOSE_CARD: f"{name} must now choose a card (take {self.context[0]}a or "
            f"take {self.context[0]}b)"
            if phase == CHOOSE_CARD
            else "",
            PRIESTESS: f"{name} must now use the Lava Priestess (lava 3>4, or lava none "
            "when there is no lava)",
            SHELL: f"{name} received a shell: buy an item from the scoring board or keep",
            PRESCORE: f"before the scoring {name} may buy one item (buy ...) or pass",
        }[phase],
    )
    b = self.board
    if d < BOAT:
        if phase != TURN:
            return expecting
        kind, rest = divmod(d, 100)
        v, beach = divmod(rest, 10)
        own, opp = self.totals[p][beach], self.totals[1 - p][beach]
        other = PLAYERS[1 - p]
        where = self.disc_at[p][v]
        if kind == 2:  # return
            if where != beach:
                place = "in your supply" if where < 0 else f"on beach {where}"
                return Refusal(
                    "disc_not_there",
                    f"{name}'s disc {v} is not on beach {beach} (it is {place})",
                )
            return Refusal(
                "sum_rule",
                f"R7 sum rule: taking back {v} would leave {name} {own - v} against "
                f"{other} {opp} on beach {beach}; the totals must differ",
                "R7",
            )
        if where >= 0:
            return Refusal(
                "disc_already_out",
                f"{name}'s disc {v} is already on beach {where}; take it back first (-{v}@{where})",
            )
        if kind == 1:
            if self.invocation[p] == -2:
                return Refusal(
                    "invocation_tactical_only",
                    "invocation discs are only used in the tactical variant (R25)",
                    "R25",
                )
            if self.invocation[p] >= 0:
                return Refusal(
                    "invocation_on_island",
                    f"{name}'s invocation disc is on beach {self.invocation[p]}; it comes "
                    "back when the boat stops there or with a Lava Priestess (R27)",
                    "R27",
                )
            if beach != self.boat:
                return Refusal(
                    "invocation_beach",
                    "R26: the invocation disc goes only with a number disc on the beach "
                    f"next to the boat (beach {self.boat})",
                    "R26",
                )
            if sum(self.lava) >= b.lava_discs:
                return Refusal(
                    "lava_exhausted",
                    "R26: all 4 lava discs are on the island; no more can be invoked",
                    "R26",
                )
        return Refusal(
            "sum_rule",
            f"R7 sum rule: {name} would have {own + v} against {other} {opp} on beach "
            f"{beach}; the totals must differ",
            "R7",
        )
    if d == BOAT:
        if phase != TURN:
            return expecting
        left = sum(1 for v in b.discs if self.disc_at[p][v] < 0)
        return Refusal(
            "discs_in_supply",
            f"R6: the boat can be moved only when all your number discs are on the "
            f"island ({name} has {left} left)",
            "R6",
        )
    if d == STAY or SHAMAN <= d < TAKE:
        if phase != MOVE_SHAMAN:
            return expecting
        dest = d - SHAMAN
        here = b.space_name(self.shaman[p])
        if dest == self.shaman[1 - p]:
            return Refusal(
                "shaman_occupied",
                f"R8: the shaman may pass the other shaman but not stop on {b.space_name(dest)}",
                "R8",
            )
        return Refusal(
            "shaman_reach",
            f"R8: from {here} the shaman reaches {b.space_name(dest)} only in at most 2 "
            "steps over grassland, forest and mountain with at most one step uphill",
            "R8",
        )
    if TAKE <= d < LAVA_NONE:
        if phase != CHOOSE_CARD:
            return expecting
        slot = d - TAKE
        seg = self.context[0]
        if slot // b.slots_per_segment != seg:
            return Refusal(
                "card_segment",
                f"R10: the cards go out in segment {seg}, where the boat is; take {seg}a or {seg}b",
                "R10",
            )
        return Refusal("slot_empty", f"slot {b.slot_name(slot)} is empty")
    if LAVA_NONE <= d < BUY:
        if phase != PRIESTESS:
            return expecting
        if d == LAVA_NONE:
            return Refusal(
                "lava_must_move",
                "R16: there is lava on the island, so the Lava Priestess must move a disc",
                "R16",
            )
        src = (d - LAVA) // 2
        return Refusal(
            "no_lava_there", f"R16: there is no lava disc on crater {src} to move", "R16"
        )
    if BUY <= d <= PASS:
        if phase not in (SHELL, PRESCORE):
            return expecting
        if d == KEEP and phase == PRESCORE:
            return Refusal("say_pass", "before a scoring say pass (not keep) to buy nothing")
        if d == PASS and phase == SHELL:
            return Refusal("say_keep", "after receiving a shell say keep (not pass) to buy nothing")
        i = d - BUY
        code = BOARD_ITEMS[i]
        owner = self.board_owner[i]
        if owner == FACE_DOWN:
            return Refusal(
                "priestess_face_down",
                "R17: the board's Lava Priestess is face down until the next scoring",
                "R17",
            )
        if owner != NO_OWNER:
            item_name = self.deck.board_items[code][0]
            return Refusal(
                "item_taken",
                f"R17: {PLAYERS[owner]} already has the {item_name} card",
                "R17",
            )
        cost = self.deck.board_items[code][1]
        return Refusal(
            "too_few_shells",
            f"R17: {code} costs {cost} shells and {name} has {len(self.shells[p])}",
            "R17",
        )
    return expecting
