"""What the OLED says when the RFID board disagrees with the game: a headline and a reason.

Each function returns ``(headline, reason)``; ``companion.reconcile`` decides *which* applies
and passes the pieces already in words (``companion.physical.disc_words``). Headlines of refused
disc moves are found by the refusal's kind (``headline``), never by searching its sentence.
"""

from __future__ import annotations

Said = tuple[str, str]

UNKNOWN_TAG = "UNKNOWN TAG"
"""The headline when a beach holds a tag that the ``[tags]`` table does not name."""
COMPANIONS_TURN = "COMPANION'S TURN"
TAKE_DISCS_BACK = "TAKE DISCS BACK"
"""The game moved discs (a distribution): the board must match again before it counts."""
UNDO_FIX = "UNDO: FIX THE BOARD"
NEW_GAME_CLEAR = "CLEAR THE BOARD"

HEADLINES: dict[str, str] = {
    "invocation_tactical_only": "NO INVOCATION",
    "sum_rule": "SUM RULE",
    "invocation_beach": "WRONG BEACH",
    "disc_already_out": "DISC ALREADY OUT",
    "disc_not_there": "WRONG BEACH",
    "discs_in_supply": "NOT YET",
}


def headline(kind: str) -> str:
    """The OLED headline of a refused disc move, by the refusal's kind."""
    return HEADLINES.get(kind, "NOT ALLOWED")


def invocation_headline(ruling: str | None) -> str:
    """An invocation disc laid alone where no invocation may go (R26: the wrong beach)."""
    return "WRONG BEACH" if ruling == "R26" else "NOT ALLOWED"


def unknown_tag(beach: int, tag: object) -> Said:
    return (
        UNKNOWN_TAG,
        f"Beach {beach} holds tag {tag}, no disc of this kit: take it off "
        "(or enrol it: haleakala tags enroll).",
    )


def game_over() -> Said:
    return "GAME OVER", "The game is over: put the discs away (back: menu)."


def not_their_turn(whose: str, colour: str, *, companion: bool) -> Said:
    if companion:
        return COMPANIONS_TURN, f"It is the companion's ({whose}) turn, not {colour}'s."
    return "OUT OF TURN", f"It is {whose}'s turn, not {colour}'s."


def not_now(whose: str, must: str) -> Said:
    return "NOT NOW", f"{whose} must first {must}."


def no_invocation(beach: int) -> Said:
    return (
        "NO INVOCATION",
        f"There are no invocation discs in the base game: take it off beach {beach}.",
    )


def moved(disc: str, src: int, dst: int, *, own_turn: bool) -> Said:
    why = "a turn places one disc or takes one back" if own_turn else f"it belongs on beach {src}"
    return "WRONG BEACH", f"{disc} moved from beach {src} to beach {dst}: {why}."


def seen_twice(disc: str, beach: int) -> Said:
    return "SEEN TWICE", f"{disc} is read on two beaches (one is beach {beach})."


def invocation_alone() -> Said:
    return "INVOCATION", "Put a number disc with your invocation disc (same beach)."


def two_discs(discs: str, *, one_colour: bool) -> Said:
    return (
        "TWO DISCS AT ONCE",
        f"One disc per turn: {discs}{' moved' if one_colour else ' changed'} together.",
    )


def board_differs() -> Said:
    return "BOARD DIFFERS", "The board does not match the game."


def companion_thinking(whose: str) -> Said:
    return (
        COMPANIONS_TURN,
        f"The companion ({whose}) is still thinking: leave the board as it was.",
    )


def companion_plays(instruction: str) -> Said:
    return COMPANIONS_TURN, f"The companion plays: {instruction}."
