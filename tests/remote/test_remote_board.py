"""The remote player's decision on the physical board (issue 28, part 2): shown on the OLED
and the LEDs, and the local game changes only when the board agrees; a board that differs
from the agreed game is shown, and a decision that does not fit this board's game is shown
as a divergence, never replaced. On the sim backend's RFID kit (its readers are events)."""

from __future__ import annotations

from support.companion_rig import Rig

from haleakala.companion import ui as U
from haleakala.games.haleakala.notation import BOAT, INVOKE
from haleakala.hal.events import INVOCATION, BeachContents, Disc
from haleakala.remote.board import RemoteMoves, agreed_only, companion_options


def remote_rig() -> tuple[Rig, RemoteMoves]:
    moves = RemoteMoves()
    rig = Rig("rfid", **companion_options(moves, "yellow"))
    agreed_only(rig.c)
    rig.carry_out("3@2")  # red is played at this board
    rig.carry_out(">stay")
    assert rig.game.to_move == "yellow"
    return rig, moves


def a_placement(game) -> int:
    return next(d for d in sorted(game.legal_actions()) if d < min(BOAT, INVOKE))


def test_the_remote_decision_is_shown_and_taken_only_when_the_disc_is_where_it_says():
    rig, moves = remote_rig()
    assert rig.c.thinking  # waiting for the remote player, as for a bot
    d = a_placement(rig.game)
    v, beach = (d % 100) // 10, d % 10
    moves.add(3, rig.game.format(d))  # the host acknowledged yellow's decision 3
    rig.await_bot()
    assert rig.c.shown.kind == U.PROPOSAL and rig.c.shown.options[0].value == d
    assert "put the disc" in rig.text() and len(rig.game.history) == 2
    here = rig.c.sensed_board()[beach]
    wrong = (beach + 1) % 6
    rig.send(BeachContents(wrong, rig.c.sensed_board()[wrong] | {Disc("yellow", v)}))
    assert rig.text().startswith("!") and len(rig.game.history) == 2  # shown, not taken
    assert rig.c.panel.mismatch is not None
    rig.send(BeachContents(wrong, rig.c.expected_board().beaches[wrong]))
    assert rig.c.panel.mismatch is None
    rig.send(BeachContents(beach, here | {Disc("yellow", v)}))
    if d >= INVOKE:
        rig.send(BeachContents(beach, here | {Disc("yellow", v), Disc("yellow", INVOCATION)}))
    assert rig.game.history[-1] == d and len(rig.game.history) == 3
    moves.close()


def test_a_remote_decision_that_does_not_fit_this_boards_game_is_shown_never_replaced():
    rig, moves = remote_rig()
    moves.add(3, ">stay")  # not yellow's decision here: the board and the agreed game differ
    for _ in range(200):
        rig.c.pump(timeout=0.05)
        if rig.c.seat.trouble:
            break
    assert "not legal on this board" in rig.c.seat.trouble
    assert rig.c.panel.message is not None and rig.c.panel.message.title == "DIVERGED"
    assert len(rig.game.history) == 2 and rig.c.thinking  # nothing made up, still waiting
    moves.close()
