"""The OLED's short notes: a refused press, a notice, an error. Each is ``(title, text)``.

The controller and its parts (``companion.keys``, ``companion.watch``) decide *when* a note
shows; the words are here, next to the other player-facing words the languages work
translates. Notes in the rules' own words (``Game.why_illegal``) are passed through.
"""

from __future__ import annotations

Note = tuple[str, str]

THINKING = "THINKING"
"""The title of "the companion is still thinking", taken down once it has answered."""


def nothing_to_undo() -> Note:
    return "NOTHING TO UNDO", "No decision of yours to take back yet."


def undone(decisions: list[str]) -> Note:
    return "UNDONE", "Took back " + ", ".join(decisions)


def internal_error(kind: str) -> Note:
    return "SORRY", f"Internal error ({kind}); logged. Go on."


def not_allowed(why: str) -> Note:
    return "NOT ALLOWED", why


def unknown_button(button: str) -> Note:
    return "UNKNOWN BUTTON", f"{button!r} is not a button of this kit."


def fix_the_board() -> Note:
    return "FIX THE BOARD", "First make the board match (see the beaches flashing)."


def still_thinking() -> Note:
    return THINKING, "The companion is still thinking: a moment."


def readers_will_see(instruction: str) -> Note:
    return "COMPANION'S TURN", instruction + ": the readers will see it."


def not_now(why: str) -> Note:
    return "NOT NOW", why


def must_first(whose: str, must: str) -> Note:
    return "NOT NOW", f"{whose} must first {must}."


def no_such_beach_button(button: str, beaches: int) -> Note:
    return "NO SUCH BEACH", f"{button!r}: beaches are 0 to {beaches - 1}."


def no_such_beach_reported(beach: object) -> Note:
    return "NO SUCH BEACH", f"The readers reported beach {beach!r}; ignored."


def readers_see_discs() -> Note:
    return "RFID KIT", "The readers see the discs: just put the disc down."


def companions_turn_press() -> Note:
    return "COMPANION'S TURN", "Do what the companion says, then press select."


def not_on_beach(beach: int, why: str) -> Note:
    return f"NOT ON BEACH {beach}", why


def hint(notation: str, reason: str) -> Note:
    return f"HINT: {notation}", reason


def hint_judged(judgement: str) -> Note:
    return "HINT", judgement
