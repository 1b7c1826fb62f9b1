"""The OLED's short notes: a refused press, a notice, an error. Each is ``(title, text)``.

The controller and its parts (``companion.keys``, ``companion.watch``) decide *when* a note
shows; the words are here, next to the other player-facing words the languages work
translates. Notes in the rules' own words (a refusal's ``words``) are passed through.

Both parts are values (``core.text.Text``), rendered on the OLED in the language in use;
``str()`` of one is the English sentence, for the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from haleakala.core.text import Param, Text
from haleakala.i18n import N_

Note = tuple[Text, Param]

THINKING = Text(N_("THINKING"))
"""The title of "the companion is still thinking", taken down once it has answered."""


def _joined(parts: Sequence[Param]) -> Param:
    """``a, b, c``: the parts in the catalog's list template (each part its own value)."""
    if not parts:
        return ""
    head: Param = parts[0]
    for part in parts[1:]:
        head = Text.of(N_("{first}, {rest}"), first=head, rest=part)
    return head


def nothing_to_undo() -> Note:
    return Text(N_("NOTHING TO UNDO")), Text(N_("No decision of yours to take back yet."))


def undone(decisions: Sequence[str]) -> Note:
    return Text(N_("UNDONE")), Text.of(N_("Took back {join}"), join=_joined(decisions))


def internal_error(kind: str) -> Note:
    return Text(N_("SORRY")), Text.of(N_("Internal error ({kind}); logged. Go on."), kind=kind)


def not_allowed(why: Param) -> Note:
    return Text(N_("NOT ALLOWED")), why


def unknown_button(button: str) -> Note:
    return Text(N_("UNKNOWN BUTTON")), Text.of(
        N_("{button} is not a button of this kit."), button=repr(button)
    )


def fix_the_board() -> Note:
    return Text(N_("FIX THE BOARD")), Text(
        N_("First make the board match (see the beaches flashing).")
    )


def still_thinking() -> Note:
    return THINKING, Text(N_("The companion is still thinking: a moment."))


def readers_will_see(instruction: Param) -> Note:
    return Text(N_("COMPANION'S TURN")), Text.of(
        N_("{instruction}: the readers will see it."), instruction=instruction
    )


def not_now(why: Param) -> Note:
    return Text(N_("NOT NOW")), why


def must_first(whose: Param, must: Param) -> Note:
    return Text(N_("NOT NOW")), Text.of(N_("{whose} must first {must}."), whose=whose, must=must)


def no_such_beach_button(button: str, beaches: int) -> Note:
    return Text(N_("NO SUCH BEACH")), Text.of(
        N_("{button}: beaches are 0 to {n}."), button=repr(button), n=beaches - 1
    )


def no_such_beach_reported(beach: object) -> Note:
    return Text(N_("NO SUCH BEACH")), Text.of(
        N_("The readers reported beach {beach}; ignored."), beach=repr(beach)
    )


def readers_see_discs() -> Note:
    return Text(N_("RFID KIT")), Text(N_("The readers see the discs: just put the disc down."))


def companions_turn_press() -> Note:
    return Text(N_("COMPANION'S TURN")), Text(N_("Do what the companion says, then press select."))


def not_on_beach(beach: int, why: Param) -> Note:
    return Text.of(N_("NOT ON BEACH {beach}"), beach=beach), why


def hint(notation: str, reason: Param) -> Note:
    return Text.of(N_("HINT: {notation}"), notation=notation), reason


def hint_judged(judgement: Param) -> Note:
    return Text(N_("HINT")), judgement
