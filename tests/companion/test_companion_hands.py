"""``companion.hands``: the input events it gives for a decision make exactly that decision.

The scripted player, the simulator's players and the test rig all carry decisions out
through ``hands``; if its events made another decision (or none), every game they play
would silently differ from the one they meant. Checked for every legal decision of random
positions, on both kits, through the real controller.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig
from support.played_positions import POSITIONS

from haleakala.companion import hands
from haleakala.companion.physical import beach_discs
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.decision import Place, Return, decode
from haleakala.hal.events import BeachContents, ButtonPressed, EncoderTurned


def carried_out(kit: str, game: Game, d: int) -> list[int]:
    """The decisions a fresh controller on ``game`` made from hands' events for ``d``."""
    rig = Rig(kit, game.variant, game=game.clone())
    made = len(game.history)
    for _ in range(10):
        for event in hands.events_for(rig.c, d):
            rig.c.handle(event)
        if len(rig.game.history) > made:
            break
    return rig.game.history[made:]


@settings(max_examples=25, deadline=None)
@given(game=POSITIONS, kit=st.sampled_from(["buttons", "rfid"]))
def test_the_events_for_every_legal_decision_make_exactly_that_decision(game, kit):
    if game.is_terminal():
        return
    for d in game.legal_actions():
        made = carried_out(kit, game, d)
        assert made[:1] == [d], (kit, game.format(d), [game.format(m) for m in made])


@settings(max_examples=40, deadline=None)
@given(game=POSITIONS)
def test_a_disc_decision_changes_one_beach_by_the_players_own_discs(game):
    colour = game.to_move
    for d in game.legal_actions():
        if not isinstance(decode(d, game.board), Place | Return):
            continue
        move = hands.disc_move(game, d)
        assert all(disc.colour == colour for disc in move.laid + move.lifted)
        change = hands.disc_change(game, beach_discs(game), d)
        before = beach_discs(game)[move.beach]
        assert change == BeachContents(move.beach, (before | set(move.laid)) - set(move.lifted))
        assert change.discs != before


def test_an_option_is_reached_by_turning_from_the_cursor_to_it_and_selecting():
    rig = Rig("buttons")
    rig.press("beach2")
    chooser = rig.c.shown
    assert chooser is not None and len(chooser.options) > 2
    last = chooser.options[-1].value
    steps = len(chooser.options) - 1 - chooser.cursor
    assert hands.to_option(chooser, last) == [EncoderTurned(steps), ButtonPressed("select")]
    assert hands.to_option(chooser, chooser.current.value) == [ButtonPressed("select")]
    assert hands.to_option(chooser, "no such option") == []
