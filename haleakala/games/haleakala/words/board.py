"""What the OLED says when the RFID board disagrees with the game: a headline and a reason.

Each function returns ``(headline, reason)``; ``companion.reconcile`` decides *which* applies
and passes the pieces already in words (``companion.physical.disc_words``). Headlines of refused
disc moves are found by the refusal's kind (``headline``), never by searching its sentence.

Both are values (``core.text.Text``: a catalog template and its parameters, colours as
``Term``), rendered on the OLED in the language in use; ``str()`` of one is English (logs).
"""

from __future__ import annotations

from haleakala.core.text import Param, Term, Text
from haleakala.i18n import N_

Said = tuple[Text, Text]

UNKNOWN_TAG = Text(N_("UNKNOWN TAG"))
"""The headline when a beach holds a tag that the ``[tags]`` table does not name."""
COMPANIONS_TURN = Text(N_("COMPANION'S TURN"))
TAKE_DISCS_BACK = Text(N_("TAKE DISCS BACK"))
"""The game moved discs (a distribution): the board must match again before it counts."""
UNDO_FIX = Text(N_("UNDO: FIX THE BOARD"))
NEW_GAME_CLEAR = Text(N_("CLEAR THE BOARD"))

HEADLINES: dict[str, str] = {
    "invocation_tactical_only": N_("NO INVOCATION"),
    "sum_rule": N_("SUM RULE"),
    "invocation_beach": N_("WRONG BEACH"),
    "disc_already_out": N_("DISC ALREADY OUT"),
    "disc_not_there": N_("WRONG BEACH"),
    "discs_in_supply": N_("NOT YET"),
}


def headline(kind: str) -> Text:
    """The OLED headline of a refused disc move, by the refusal's kind."""
    return Text(HEADLINES.get(kind, N_("NOT ALLOWED")))


def invocation_headline(ruling: str | None) -> Text:
    """An invocation disc laid alone where no invocation may go (R26: the wrong beach)."""
    return Text(N_("WRONG BEACH") if ruling == "R26" else N_("NOT ALLOWED"))


def unknown_tag(beach: int, tag: object) -> Said:
    return (
        UNKNOWN_TAG,
        Text.of(
            N_(
                "Beach {beach} holds tag {tag}, no disc of this kit: take it off (or "
                "enrol it: haleakala tags enroll)."
            ),
            beach=beach,
            tag=str(tag),
        ),
    )


def game_over() -> Said:
    return Text(N_("GAME OVER")), Text(N_("The game is over: put the discs away (back: menu)."))


def not_their_turn(whose: str, colour: str, *, companion: bool) -> Said:
    if companion:
        return COMPANIONS_TURN, Text.of(
            N_("It is the companion's ({whose}) turn, not {colour}'s."),
            whose=Term(whose),
            colour=Term(colour),
        )
    return Text(N_("OUT OF TURN")), Text.of(
        N_("It is {whose}'s turn, not {colour}'s."), whose=Term(whose), colour=Term(colour)
    )


def not_now(whose: str, must: Param) -> Said:
    return Text(N_("NOT NOW")), Text.of(
        N_("{whose} must first {must}."), whose=Term(whose), must=must
    )


def no_invocation(beach: int) -> Said:
    return (
        Text(N_("NO INVOCATION")),
        Text.of(
            N_("There are no invocation discs in the base game: take it off beach {beach}."),
            beach=beach,
        ),
    )


def moved(disc: Param, src: int, dst: int, *, own_turn: bool) -> Said:
    why = (
        Text(N_("a turn places one disc or takes one back"))
        if own_turn
        else Text.of(N_("it belongs on beach {src}"), src=src)
    )
    return Text(N_("WRONG BEACH")), Text.of(
        N_("{disc} moved from beach {src} to beach {dst}: {why}."),
        disc=disc,
        src=src,
        dst=dst,
        why=why,
    )


def seen_twice(disc: Param, beach: int) -> Said:
    return Text(N_("SEEN TWICE")), Text.of(
        N_("{disc} is read on two beaches (one is beach {beach})."), disc=disc, beach=beach
    )


def invocation_alone() -> Said:
    return Text(N_("INVOCATION")), Text(
        N_("Put a number disc with your invocation disc (same beach).")
    )


def two_discs(discs: Param, *, one_colour: bool) -> Said:
    return (
        Text(N_("TWO DISCS AT ONCE")),
        Text.of(
            N_("One disc per turn: {discs} moved together.")
            if one_colour
            else N_("One disc per turn: {discs} changed together."),
            discs=discs,
        ),
    )


def board_differs() -> Said:
    return Text(N_("BOARD DIFFERS")), Text(N_("The board does not match the game."))


def companion_thinking(whose: str) -> Said:
    return (
        COMPANIONS_TURN,
        Text.of(
            N_("The companion ({whose}) is still thinking: leave the board as it was."),
            whose=Term(whose),
        ),
    )


def companion_plays(instruction: Param) -> Said:
    return COMPANIONS_TURN, Text.of(
        N_("The companion plays: {instruction}."), instruction=instruction
    )
