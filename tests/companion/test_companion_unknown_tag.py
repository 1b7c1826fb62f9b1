"""An RFID tag that is no disc of the kit (not in ``[tags]``): the driver posts it as an
``UnknownTag`` on its beach, and the controller refuses the board, names the beach, and says
how to enrol the tag (issue 11: it used to be dropped in the driver, unseen by players)."""

from __future__ import annotations

from support.companion_rig import Rig

from haleakala.companion.controller import UNKNOWN_TAG
from haleakala.hal.events import BeachContents, ButtonHeld, Disc, UnknownTag
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.session import RfidSession

STRANGER = "04A1B2C3D4E5F6"
TAGS = {
    f"E00401500000{i:04X}": Disc(c, v)
    for i, (c, v) in enumerate((c, v) for c in ("red", "yellow") for v in range(6))
}


def frames(*boards) -> bytes:
    hello = protocol.Hello("0000ABCD", 0, "1.0.0", ("pn5180",) * 6, 2, 100)
    snaps = [protocol.Snapshot("0000ABCD", seq, board) for seq, board in enumerate(boards, 1)]
    return b"".join(protocol.encode(f) for f in (hello, *snaps))


def test_a_stranger_tag_read_by_the_driver_is_refused_naming_the_beach_and_the_enrol_command():
    rig = Rig("rfid")
    session = RfidSession(TAGS, warn_unknown=False)
    session.opened("/dev/ttyACM0", 0.0)
    empty = ((),) * 6
    with_stranger = ((), (), (), (STRANGER,), (), ())
    digest = rig.game.digest()
    # Each board twice, as firmware 1.2 sends a change: two agreeing snapshots move discs.
    rig.send(*session.feed(frames(empty, empty, with_stranger, with_stranger), 0.0))
    text = rig.text()
    assert text.startswith(f"! {UNKNOWN_TAG}"), text
    assert "Beach 3" in text and STRANGER in text and "haleakala tags enroll" in text
    assert rig.c.panel.mismatch is not None and 3 in rig.c.panel.mismatch.beaches
    assert rig.game.digest() == digest  # the game did not change
    rig.send(BeachContents(3, frozenset()))  # taken off: the board matches, play goes on
    assert rig.c.panel.mismatch is None and rig.text().startswith("RED ROUND 1")


def test_a_stranger_is_named_even_while_the_game_waits_for_the_board_to_be_fixed():
    rig = Rig("rfid")
    rig.carry_out("3@2")
    rig.send(ButtonHeld("back"))  # undo: the game now asks for red 3 off beach 2
    assert rig.c.panel.hold is not None
    rig.send(BeachContents(4, frozenset({UnknownTag(STRANGER)})))
    text = rig.text()
    assert text.startswith(f"! {UNKNOWN_TAG}"), text
    assert "Beach 4" in text and "haleakala tags enroll" in text
    rig.send(BeachContents(4, frozenset()), BeachContents(2, frozenset()))
    assert rig.c.panel.mismatch is None and rig.c.panel.hold is None
