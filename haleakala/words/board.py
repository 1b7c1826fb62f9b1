"""What the OLED says when the RFID board disagrees with the game: a headline and a reason.

Each function returns ``(headline, reason)``; ``companion.reconcile`` decides *which* applies
and passes the pieces already in words (``companion.physical.disc_words``). Headlines of refused
disc moves are found by the refusal's kind (``headline``), never by searching its sentence.
"""

from __future__ import annotations

from haleakala.i18n import N_

Said = tuple[str, str]

UNKNOWN_TAG = N_("UNKNOWN TAG")
"""The headline when a beach holds a tag that the ``[tags]`` table does not name."""
COMPANIONS_TURN = N_("COMPANION'S TURN")
TAKE_DISCS_BACK = N_("TAKE DISCS BACK")
"""The game moved discs (a distribution): the board must match again before it counts."""
UNDO_FIX = N_("UNDO: FIX THE BOARD")
NEW_GAME_CLEAR = N_("CLEAR THE BOARD")

HEADLINES: dict[str, str] = {
    "invocation_tactical_only": N_("NO INVOCATION"),
    "sum_rule": N_("SUM RULE"),
    "invocation_beach": N_("WRONG BEACH"),
    "disc_already_out": N_("DISC ALREADY OUT"),
    "disc_not_there": N_("WRONG BEACH"),
    "discs_in_supply": N_("NOT YET"),
}


def headline(kind: str) -> str:
    """The OLED headline of a refused disc move, by the refusal's kind."""
    return HEADLINES.get(kind, "NOT ALLOWED")


def invocation_headline(ruling: str | None) -> str:
    """An invocation disc laid alone where no invocation may go (R26: the wrong beach)."""
    return N_("WRONG BEACH") if ruling == "R26" else N_("NOT ALLOWED")


def unknown_tag(beach: int, tag: object) -> Said:
    return (
        UNKNOWN_TAG,
        N_(
            "Beach {beach} holds tag {tag}, no disc of this kit: take it off (or "
            "enrol it: haleakala tags enroll)."
        ).format(beach=beach, tag=tag),
    )


def game_over() -> Said:
    return N_("GAME OVER"), N_("The game is over: put the discs away (back: menu).")


def not_their_turn(whose: str, colour: str, *, companion: bool) -> Said:
    if companion:
        return COMPANIONS_TURN, N_("It is the companion's ({whose}) turn, not {colour}'s.").format(
            whose=whose, colour=colour
        )
    return N_("OUT OF TURN"), N_("It is {whose}'s turn, not {colour}'s.").format(
        whose=whose, colour=colour
    )


def not_now(whose: str, must: str) -> Said:
    return N_("NOT NOW"), N_("{whose} must first {must}.").format(whose=whose, must=must)


def no_invocation(beach: int) -> Said:
    return (
        N_("NO INVOCATION"),
        N_("There are no invocation discs in the base game: take it off beach {beach}.").format(
            beach=beach
        ),
    )


def moved(disc: str, src: int, dst: int, *, own_turn: bool) -> Said:
    why = (
        N_("a turn places one disc or takes one back")
        if own_turn
        else N_("it belongs on beach {src}").format(src=src)
    )
    return N_("WRONG BEACH"), N_("{disc} moved from beach {src} to beach {dst}: {why}.").format(
        disc=disc, src=src, dst=dst, why=why
    )


def seen_twice(disc: str, beach: int) -> Said:
    return N_("SEEN TWICE"), N_("{disc} is read on two beaches (one is beach {beach}).").format(
        disc=disc, beach=beach
    )


def invocation_alone() -> Said:
    return N_("INVOCATION"), N_("Put a number disc with your invocation disc (same beach).")


def two_discs(discs: str, *, one_colour: bool) -> Said:
    return (
        N_("TWO DISCS AT ONCE"),
        (
            N_("One disc per turn: {discs} moved together.")
            if one_colour
            else N_("One disc per turn: {discs} changed together.")
        ).format(discs=discs),
    )


def board_differs() -> Said:
    return N_("BOARD DIFFERS"), N_("The board does not match the game.")


def companion_thinking(whose: str) -> Said:
    return (
        COMPANIONS_TURN,
        N_("The companion ({whose}) is still thinking: leave the board as it was.").format(
            whose=whose
        ),
    )


def companion_plays(instruction: str) -> Said:
    return COMPANIONS_TURN, N_("The companion plays: {instruction}.").format(
        instruction=instruction
    )
