"""The OLED's short notes: a refused press, a notice, an error. Each is ``(title, text)``.

The controller and its parts (``companion.keys``, ``companion.watch``) decide *when* a note
shows; the words are here, next to the other player-facing words the languages work
translates. Notes in the rules' own words (``Game.why_illegal``) are passed through.
"""

from __future__ import annotations

from haleakala.i18n import N_

Note = tuple[str, str]

THINKING = N_("THINKING")
"""The title of "the companion is still thinking", taken down once it has answered."""


def nothing_to_undo() -> Note:
    return N_("NOTHING TO UNDO"), N_("No decision of yours to take back yet.")


def undone(decisions: list[str]) -> Note:
    return N_("UNDONE"), N_("Took back {join}").format(join=", ".join(decisions))


def internal_error(kind: str) -> Note:
    return N_("SORRY"), N_("Internal error ({kind}); logged. Go on.").format(kind=kind)


def not_allowed(why: str) -> Note:
    return N_("NOT ALLOWED"), why


def unknown_button(button: str) -> Note:
    return N_("UNKNOWN BUTTON"), N_("{button} is not a button of this kit.").format(
        button=repr(button)
    )


def fix_the_board() -> Note:
    return N_("FIX THE BOARD"), N_("First make the board match (see the beaches flashing).")


def still_thinking() -> Note:
    return THINKING, N_("The companion is still thinking: a moment.")


def readers_will_see(instruction: str) -> Note:
    return N_("COMPANION'S TURN"), N_("{instruction}: the readers will see it.").format(
        instruction=instruction
    )


def not_now(why: str) -> Note:
    return N_("NOT NOW"), why


def must_first(whose: str, must: str) -> Note:
    return N_("NOT NOW"), N_("{whose} must first {must}.").format(whose=whose, must=must)


def no_such_beach_button(button: str, beaches: int) -> Note:
    return N_("NO SUCH BEACH"), N_("{button}: beaches are 0 to {n}.").format(
        button=repr(button), n=beaches - 1
    )


def no_such_beach_reported(beach: object) -> Note:
    return N_("NO SUCH BEACH"), N_("The readers reported beach {beach}; ignored.").format(
        beach=repr(beach)
    )


def readers_see_discs() -> Note:
    return N_("RFID KIT"), N_("The readers see the discs: just put the disc down.")


def companions_turn_press() -> Note:
    return N_("COMPANION'S TURN"), N_("Do what the companion says, then press select.")


def not_on_beach(beach: int, why: str) -> Note:
    return N_("NOT ON BEACH {beach}").format(beach=beach), why


def hint(notation: str, reason: str) -> Note:
    return N_("HINT: {notation}").format(notation=notation), reason


def hint_judged(judgement: str) -> Note:
    return N_("HINT"), judgement
