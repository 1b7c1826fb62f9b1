"""The controller on the sim backend: physical inputs become decisions, the board must agree.

Every test drives the real ``Companion`` through ``SimHardware`` inputs on a hand-driven clock
and asserts on what the game did and on what the players would see (OLED text, LED zones).
"""

from __future__ import annotations

from support.companion_rig import Rig
from support.invariants import check_invariants

from haleakala.companion import menu, scenes
from haleakala.companion import ui as U
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN, PRESCORE, TURN
from haleakala.games.haleakala.notation import BOAT, SHAMAN
from haleakala.hal.base import estimate_current_ma
from haleakala.hal.events import (
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    Disc,
    EncoderTurned,
    LinkHealth,
)

RED = scenes.PLAYER_COLOURS[0]


def red(v: int) -> Disc:
    return Disc("red", v)


def yellow(v: int) -> Disc:
    return Disc("yellow", v)


# --------------------------------------------------------------------------- buttons kit


def test_a_beach_button_offers_the_discs_legal_there_and_select_places_one():
    rig = Rig("buttons")
    rig.press("beach2")
    chooser = rig.c.shown
    assert chooser.kind == U.BEACH and chooser.subject == 2
    legal_here = sorted(d for d in rig.game.legal_actions() if d < BOAT and d % 10 == 2)
    assert sorted(o.value for o in chooser.options) == legal_here
    assert [str(o.label) for o in chooser.options] == [f"place {v}" for v in range(1, 6)]
    assert "RED: BEACH 2" in rig.text() and ">place 1" in rig.text()
    rig.send(EncoderTurned(2), ButtonPressed("select"))
    assert rig.game.format(rig.game.history[-1]) == "3@2"
    assert rig.game.phase == MOVE_SHAMAN
    assert "RED: SHAMAN" in rig.text()


def test_the_buttons_kit_never_offers_a_disc_that_breaks_the_sum_rule():
    rig = Rig("buttons")
    rig.carry_out("1@2")
    rig.carry_out(">stay")
    assert rig.game.to_move == "yellow"
    rig.press("beach2")
    labels = [str(o.label) for o in rig.c.shown.options]
    assert "place 1" not in labels  # yellow 1 against red 1 on beach 2 (R7)
    assert labels[0] == "place 2"


def test_pressing_the_same_beach_again_cycles_and_back_cancels():
    rig = Rig("buttons")
    rig.press("beach4")
    rig.press("beach4")
    assert rig.c.shown.cursor == 1
    rig.press("back")
    assert rig.c.shown is None and rig.game.history == []


def test_a_burst_of_ten_edges_within_5_ms_is_one_press():
    rig = Rig("buttons")
    rig.hw.inputs.tap("beach3", bounces=9, bounce_gap=0.0005)  # 10 edges in 4.5 ms
    rig.c.pump()
    assert rig.c.shown.kind == U.BEACH and rig.c.shown.subject == 3
    assert rig.c.shown.cursor == 0  # a second press would have cycled to "place 2"
    assert rig.c.handled == 1


def test_shaman_destinations_cycle_on_the_leds_and_select_confirms():
    rig = Rig("buttons")
    rig.carry_out("3@2")
    chooser = rig.c.shown
    assert [str(o.label) for o in chooser.options] == [
        "stay on 1B",
        "0G grassland",
        "1G grassland",
        "2G grassland",
    ]
    frame = rig.leds()
    for space in (0, 3, 6):  # 0G, 1G, 2G are candidates
        assert frame[space // 3, "grassland"] == scenes.CANDIDATE
    rig.send(EncoderTurned(2))  # cursor on 1G
    on = rig.c.clock() // scenes.FAST % 2 == 0
    rig.advance(scenes.FAST * (0 if on else 1))
    assert rig.leds()[1, "grassland"] == RED  # the space under the cursor, blinking on
    rig.advance(scenes.FAST)
    assert rig.leds()[1, "grassland"] == scenes.CANDIDATE  # and off
    rig.press("select")
    assert rig.game.format(rig.game.history[-1]) == ">1G"
    assert rig.leds()[1, "grassland"] == RED  # red's shaman stands there now


def test_the_card_choice_shows_both_faces_and_takes_the_one_under_the_cursor():
    rig = Rig("buttons")
    rig.play_until(lambda g: g.phase == CHOOSE_CARD and len(g.legal_actions()) == 2, policy_seed=4)
    game = rig.game
    seg = game.context[0]
    names = [
        game.deck.cards[game.slots[seg * 2 + i]].name.split(":")[0].split(",")[0] for i in (0, 1)
    ]
    text = rig.text()
    assert "TAKE ONE" in text
    assert f">{seg}a {names[0]}" in text and f" {seg}b {names[1]}" in text
    assert rig.hw.display.last.getbbox() is not None
    rig.send(EncoderTurned(1), ButtonPressed("select"))
    assert rig.game.format(rig.game.history[-1]) == f"take {seg}b"


def test_a_forced_decision_is_shown_then_applies_itself_after_the_timeout():
    rig = Rig("buttons")
    rig.play_until(lambda g: g.phase == PRESCORE and len(g.legal_actions()) == 1, policy_seed=2)
    before = len(rig.game.history)
    assert "only choice" in rig.text() and ">buy nothing" in rig.text()
    rig.advance(rig.c.auto_s - 0.1)
    assert len(rig.game.history) == before
    rig.advance(0.1)
    assert len(rig.game.history) == before + 1
    assert rig.game.format(rig.game.history[before]) == "pass"
    assert rig.c.sources[before] == "auto"


def test_select_applies_a_forced_decision_at_once_and_the_menu_pauses_it():
    rig = Rig("buttons")
    rig.play_until(lambda g: g.phase == PRESCORE and len(g.legal_actions()) == 1, policy_seed=2)
    before = len(rig.game.history)
    rig.press("back")  # the menu is open: the countdown waits
    rig.advance(10)
    assert len(rig.game.history) == before and rig.c.shown.kind == U.MENU
    rig.press("back")
    rig.press("select")
    assert len(rig.game.history) == before + 1


def test_undo_takes_back_the_last_decision_and_says_how_to_reverse_it_on_the_board():
    rig = Rig("buttons")
    start_digest = rig.game.digest()
    rig.carry_out("3@0")  # next to the boat: the boat sails 3 segments
    assert rig.game.boat == 3
    assert "move the boat to 3" in [str(i) for i in rig.c.panel.instructions]
    rig.send(ButtonHeld("back"))
    assert rig.game.digest() == start_digest and rig.game.history == []
    assert "take red 3 off beach 0" in [str(i) for i in rig.c.panel.instructions]
    assert "move the boat back to 0" in [str(i) for i in rig.c.panel.instructions]
    assert "UNDONE" in rig.text()
    rig.advance(5)
    assert "move the boat back to 0" in rig.text()


def test_undo_takes_back_automatic_decisions_together_with_the_players_one():
    rig = Rig("buttons")
    rig.play_until(lambda g: g.phase == PRESCORE and len(g.legal_actions()) == 1, policy_seed=2)
    rig.advance(rig.c.auto_s)  # "pass" by the timer
    assert rig.c.sources[-1] == "auto"
    last_player = max(i for i, s in enumerate(rig.c.sources) if s == "player")
    expected = Game("base", 3, "red")
    for d in rig.game.history[:last_player]:
        expected.apply(d)
    rig.send(ButtonHeld("back"))
    assert rig.game.digest() == expected.digest()


def test_undo_with_nothing_to_undo_says_so():
    rig = Rig("buttons")
    rig.send(ButtonHeld("back"))
    assert "NOTHING TO UNDO" in rig.text() and rig.game.history == []


def test_the_menu_starts_a_new_game_of_the_chosen_variant():
    rig = Rig("buttons")
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    rig.press("back")
    assert rig.c.shown.kind == U.MENU
    labels = [str(o.label) for o in rig.c.shown.options]
    assert labels[:3] == ["resume", "undo >stay", "new game (base)"]
    rig.send(EncoderTurned(3), ButtonPressed("select"))  # variant: base -> tactical
    assert "new game (tactical)" in rig.text()
    rig.send(EncoderTurned(-1), ButtonPressed("select"))
    assert rig.c.shown.kind == U.CONFIRM_NEW
    rig.send(EncoderTurned(1), ButtonPressed("select"))
    assert rig.game.variant == "tactical" and rig.game.history == []
    assert rig.c.shown is None


def test_back_at_a_turn_start_opens_the_menu_and_resume_closes_it():
    rig = Rig("buttons")
    rig.press("back")
    assert rig.text().startswith("MENU")
    rig.press("select")  # resume
    assert rig.c.shown is None and rig.text().startswith("RED ROUND 1")


def test_select_moves_the_boat_only_when_all_discs_are_out():
    rig = Rig("buttons")
    rig.press("select")
    assert "R6" in rig.text() and rig.game.history == []
    rig.play_until(lambda g: g.phase == TURN and BOAT in g.legal_actions(), policy_seed=5)
    boat = rig.game.boat
    rig.press("select")
    assert rig.c.shown.kind == U.BOAT
    rig.press("select")
    assert rig.game.history[-1] == BOAT and rig.game.boat == (boat + 1) % 6


# --------------------------------------------------------------------------- RFID kit


def test_rfid_a_disc_put_on_a_beach_is_a_placement_and_taking_it_off_a_return():
    rig = Rig("rfid")
    rig.send(BeachContents(2, frozenset({red(3)})))
    assert rig.game.format(rig.game.history[-1]) == "3@2"
    rig.carry_out(">stay")
    rig.carry_out("1@4")
    rig.carry_out(">stay")
    rig.send(BeachContents(2, frozenset()))
    rig.advance(rig.c.settle_s)  # a lifted disc might be on its way to another beach
    assert rig.game.format(rig.game.history[-1]) == "-3@2"
    assert rig.c.panel.mismatch is None


def test_rfid_the_invocation_disc_with_a_number_disc_next_to_the_boat_invokes():
    rig = Rig("rfid", "tactical")
    rig.send(BeachContents(0, frozenset({red(2), Disc("red", 0)})))
    assert rig.game.format(rig.game.history[0]) == "2@0*"
    assert rig.game.invocation[0] == 0 and sum(rig.game.lava) == 1


def test_rfid_a_disc_next_to_the_boat_waits_briefly_for_the_invocation_disc():
    rig = Rig("rfid", "tactical")
    rig.send(BeachContents(0, frozenset({red(2)})))
    assert rig.game.history == [] and rig.c.panel.pending is not None
    rig.advance(rig.c.settle_s / 2)
    rig.send(BeachContents(0, frozenset({red(2), Disc("red", 0)})))
    assert rig.game.format(rig.game.history[0]) == "2@0*"

    alone = Rig("rfid", "tactical")
    alone.send(BeachContents(0, frozenset({red(2)})))
    alone.advance(alone.c.settle_s)
    assert alone.game.format(alone.game.history[0]) == "2@0"


def test_rfid_discs_go_back_after_a_distribution_before_anything_else_counts():
    rig = Rig("rfid")
    rig.carry_out("1@3")
    rig.carry_out(">stay")
    rig.carry_out("2@3")
    rig.carry_out(">stay")
    rig.carry_out("3@0")  # the boat sails to 3: red 1 vs yellow 2 on beach 3 share the cards
    while rig.game.phase == CHOOSE_CARD:
        rig.press("select")
    assert rig.game.totals[0][3] == 0 and rig.game.totals[1][3] == 0
    assert str(rig.c.panel.must_match) == "TAKE DISCS BACK"
    assert "take red 1 and yellow 2 off beach 3" in rig.text()
    digest = rig.game.digest()
    mover = rig.game.to_move
    rig.send(BeachContents(5, frozenset({Disc(mover, 4)})))  # not yet
    assert rig.game.digest() == digest
    rig.send(BeachContents(5, frozenset()), BeachContents(3, frozenset()))
    assert rig.c.panel.must_match is None and rig.c.panel.mismatch is None
    rig.send(BeachContents(5, frozenset({Disc(mover, 4)})))
    assert rig.game.format(rig.game.history[-1]) == "4@5"


# --------------------------------------------------------------------------- refusals


def refused(rig: Rig, event, headline: str, fix: str) -> None:
    """The board change is refused with ``headline``, the game does not change, the beach
    flashes, and ``fix`` is on the OLED."""
    digest, decisions = rig.game.digest(), len(rig.game.history)
    rig.send(event)
    assert rig.game.digest() == digest and len(rig.game.history) == decisions
    text = rig.text()
    assert text.startswith("! " + headline), text
    assert fix in text, text
    assert event.beach in rig.c.panel.mismatch.beaches
    seen = set()
    for _ in range(2):
        seen.add(rig.leds().get((event.beach, "beach")))
        rig.advance(scenes.FAST)
    assert scenes.ALERT in seen and None in seen  # the beach flashes


def test_refusal_out_of_turn_names_whose_turn_it_is_and_fixing_the_board_resumes():
    rig = Rig("rfid")
    refused(
        rig, BeachContents(2, frozenset({yellow(3)})), "OUT OF TURN", "take yellow 3 off beach 2"
    )
    assert "It is red's turn, not yellow's." in rig.text()
    rig.send(BeachContents(2, frozenset()))
    assert rig.c.panel.mismatch is None and rig.text().startswith("RED ROUND 1")
    rig.send(BeachContents(2, frozenset({red(3)})))
    assert rig.game.format(rig.game.history[-1]) == "3@2"


def test_refusal_sum_rule_gives_both_totals():
    rig = Rig("rfid")
    rig.carry_out("2@4")
    rig.carry_out(">stay")
    refused(
        rig,
        BeachContents(4, frozenset({red(2), yellow(2)})),
        "SUM RULE",
        "take yellow 2 off beach 4",
    )
    # both totals (R7), the refused player addressed as "you" like every refusal
    assert "with 2 on beach 4 you would have 2 against red's 2" in rig.text().replace("\n", " ")
    rig.send(BeachContents(4, frozenset({red(2)})))
    assert rig.c.panel.mismatch is None


def test_refusal_wrong_beach_for_a_moved_disc_and_for_the_invocation_disc():
    rig = Rig("rfid", "tactical")
    rig.carry_out("2@4")
    rig.carry_out(">stay")
    rig.carry_out("1@5")
    rig.carry_out(">stay")
    rig.send(BeachContents(2, frozenset({red(2)})))  # red 2 seen on beach 2 ...
    refused(
        rig, BeachContents(4, frozenset()), "WRONG BEACH", "move red 2 from beach 2 to beach 4"
    )  # ... and gone from 4: a move
    assert "red 2 moved from beach 4 to beach 2: a turn places one disc or takes one back" in (
        rig.text()
    )
    rig.send(BeachContents(2, frozenset()), BeachContents(4, frozenset({red(2)})))
    assert rig.c.panel.mismatch is None
    refused(
        rig,
        BeachContents(3, frozenset({red(3), Disc("red", 0)})),
        "WRONG BEACH",
        "take red invocation disc and red 3 off beach 3",
    )
    assert "R26" in rig.text()


def test_refusal_two_discs_at_once_waits_for_the_board_to_match_again():
    rig = Rig("rfid")
    refused(
        rig,
        BeachContents(1, frozenset({red(1), red(2)})),
        "TWO DISCS AT ONCE",
        "take red 1 and red 2 off beach 1",
    )
    rig.send(BeachContents(1, frozenset({red(2)})))  # on the way back: means nothing yet
    assert rig.game.history == [] and rig.text().startswith("! TWO DISCS AT ONCE")
    assert "take red 2 off beach 1" in rig.text()
    rig.send(BeachContents(1, frozenset()))
    assert rig.c.panel.mismatch is None and rig.c.panel.hold is None
    rig.send(BeachContents(1, frozenset({red(2)})))
    assert rig.game.format(rig.game.history[-1]) == "2@1"


def test_refusal_while_another_decision_is_due_says_what_comes_first():
    rig = Rig("rfid")
    rig.carry_out("3@2")
    refused(rig, BeachContents(5, frozenset({red(1)})), "NOT NOW", "take red 1 off beach 5")
    assert "move the shaman" in rig.text()


def test_a_long_refusal_scrolls_with_the_encoder():
    rig = Rig("rfid", "tactical")
    rig.send(BeachContents(3, frozenset({red(3), Disc("red", 0)})))
    full = rig.c.prompt
    assert len(full) > 6  # title + more than the panel's five lines
    first = rig.hw.display.last.tobytes()
    rig.send(EncoderTurned(1))
    assert rig.hw.display.last.tobytes() != first
    rig.send(EncoderTurned(50))
    assert rig.c.panel.scroll == len(full) - 1 - 5  # no further than the last line
    rig.send(EncoderTurned(-50))
    assert rig.c.panel.scroll == 0 and rig.hw.display.last.tobytes() == first


def test_refusal_unknown_tag_and_invocation_disc_in_the_base_game():
    rig = Rig("rfid")
    refused(rig, BeachContents(3, frozenset({"04A1B2C3"})), "UNKNOWN TAG", "tags enroll")
    rig.send(BeachContents(3, frozenset()))
    refused(
        rig,
        BeachContents(1, frozenset({Disc("red", 0), red(5)})),
        "NO INVOCATION",
        "take red invocation disc and red 5 off beach 1",
    )


# --------------------------------------------------------------------------- bad input


def test_nonsense_input_is_refused_with_a_message_and_changes_nothing():
    rig = Rig("buttons")
    digest = rig.game.digest()
    rig.send(BeachContents(9, frozenset({red(1)})))
    assert "NO SUCH BEACH" in rig.text()
    rig.send(ButtonPressed("beach7"))
    assert "NO SUCH BEACH" in rig.text()
    rig.send(ButtonPressed("jump"))
    assert "UNKNOWN BUTTON" in rig.text()
    rig.send(EncoderTurned("x"), object(), LinkHealth(False, "Pico unplugged"))
    assert rig.game.digest() == digest and rig.c.errors == 0
    rig.advance(5)  # the last message times out
    assert rig.text().startswith("RED ROUND 1 RFID reader unplugged – check the USB cable")
    assert rig.c.status().endswith("RFID: Pico unplugged")


def test_an_internal_error_is_logged_and_shown_and_the_game_is_unchanged(monkeypatch, caplog):
    rig = Rig("buttons")
    digest = rig.game.digest()

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(menu, "beach_chooser", broken)  # a bug while building the chooser
    rig.press("beach1")
    assert rig.c.errors == 1 and rig.game.digest() == digest
    assert "SORRY" in rig.text() and "internal error" in caplog.text


# --------------------------------------------------------------------------- scenes


def test_the_opening_scene_lights_whose_turn_the_boat_legal_beaches_and_cards():
    rig = Rig("buttons")
    frame = rig.leds()
    assert frame[0, "water"] == scenes.BOAT_COLOUR
    assert frame[3, "water"] == scenes.scale(RED, 0.12)
    for beach in range(6):
        assert frame[beach, "beach"] == scenes.scale(RED, 0.3)
    game = rig.game
    for slot, card in enumerate(game.slots):
        zone = "slot_a" if slot % 2 == 0 else "slot_b"
        assert frame[slot // 2, zone] == scenes.scale(scenes.card_colour(game, card), 0.3)
    assert scenes.card_colour(game, game.slots[0]) == scenes.KIND_COLOURS["beach"]
    assert scenes.card_colour(game, game.slots[4]) == scenes.KIND_COLOURS["priestess"]


def test_lava_glows_by_count_and_statues_about_to_burn_blink():
    game = Game("base", 3, "red")
    game.lava[2] = 2
    game.statue_owner[2 * 3 + 1] = 1  # yellow statue on 2F: burns with 2 lava
    game.statue_owner[2 * 3 + 0] = 0  # red statue on 2G: safe with 2 lava
    state = U.UiState()
    on = scenes.led_frame(game, state, 0.0)
    off = scenes.led_frame(game, state, scenes.SLOW)
    assert on[2, "crater"] == scenes.LAVA_GLOW[2]
    assert on[2, "forest"] == scenes.scale(scenes.PLAYER_COLOURS[1], 0.3)
    assert off[2, "forest"] == scenes.LAVA_GLOW[-1]
    assert on[2, "grassland"] == off[2, "grassland"] == scenes.scale(RED, 0.3)
    assert scenes.threatened_statues(game) == [7]
    assert scenes.next_change(game, state, 0.1) == scenes.SLOW


def test_the_eruption_animates_and_the_winner_colours_the_island():
    rig = Rig("buttons")
    rig.play_until(lambda g: g.scorings, policy_seed=2)
    eruption = rig.c.panel.eruption
    assert eruption is not None and eruption.until == rig.clock() + 3.0
    assert eruption.lava == (0, 0, 1, 0, 0, 3) and eruption.destroyed == (8,)  # 2M burnt
    assert rig.text().startswith("SCORING 1")
    craters, burnt = set(), set()
    for _ in range(2):
        frame = rig.leds()
        craters.add((frame.get((2, "crater")), frame.get((5, "crater"))))
        burnt.add(frame.get((2, "mountain")))
        rig.advance(scenes.FAST)
    assert (scenes.ERUPTION, scenes.ERUPTION) in craters and len(craters) == 2  # flashing
    assert burnt == {scenes.ERUPTION, None}
    rig.advance(3.0)
    assert rig.c.panel.eruption is None
    rig.play_until(lambda g: g.is_terminal(), policy_seed=2)
    winner = scenes.PLAYER_COLOURS[("red", "yellow").index(rig.game.result().winner)]
    frame = rig.leds()
    assert all(frame[s, "beach"] == scenes.scale(winner, 0.5) for s in range(6))
    assert rig.text().startswith("FINAL SCORES")
    rig.press("select")
    assert rig.text().startswith("GAME OVER") and "wins" in rig.text()


def test_nothing_is_redrawn_when_nothing_changed():
    rig = Rig("buttons")
    leds, images = rig.hw.leds.show_count, rig.hw.display.show_count
    rig.send(EncoderTurned(1), EncoderTurned(-3))  # no chooser open: nothing to move
    rig.c.tick()
    assert (rig.hw.leds.show_count, rig.hw.display.show_count) == (leds, images)
    rig.press("beach1")
    assert rig.hw.display.show_count == images + 1


def test_every_frame_is_current_limited_by_the_zone_map():
    rig = Rig("buttons")
    frame = rig.hw.leds.last
    zone_map = rig.hw.zone_map
    assert list(frame.pixels) == zone_map.render(frame.zones)
    assert estimate_current_ma(frame.pixels) <= zone_map.current_limit_ma


# --------------------------------------------------------------------------- solo


def test_solo_the_companion_proposes_and_a_press_carries_it_out_on_the_buttons_kit():
    rig = Rig("buttons", solo="yellow", strength="easy")
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    assert rig.game.to_move == "yellow"
    rig.await_bot()
    proposal = rig.c.shown
    assert proposal.kind == U.PROPOSAL and "COMPANION (YELLOW)" in rig.text()
    d = proposal.options[0].value
    rig.press("beach0")  # a player's beach button is not the companion's move
    assert "COMPANION'S TURN" in rig.text() and len(rig.game.history) == 2
    rig.press("select")
    assert rig.game.history[-1] == d and rig.c.sources[-1] == "bot"


def test_solo_on_rfid_only_the_proposed_disc_is_accepted():
    rig = Rig("rfid", solo="yellow", strength="easy")
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    rig.await_bot()
    d = rig.c.shown.options[0].value
    assert d < BOAT  # the greedy bot places a disc first
    beach = (d % 10 + 1) % 6
    here = rig.c.expected_board().beaches[beach]
    other = 5 if (d % 100) // 10 != 5 else 4
    rig.send(BeachContents(beach, here | {yellow(other)}))
    assert rig.text().startswith("! COMPANION'S TURN") and len(rig.game.history) == 2
    assert "The companion plays: put yellow" in rig.text()
    rig.send(BeachContents(beach, here))
    rig.carry_out(d)
    assert rig.c.sources[-1] == "bot"


# --------------------------------------------------------------------------- API


def test_expected_board_status_and_prompt_follow_the_game():
    rig = Rig("buttons")
    rig.carry_out("3@2")
    rig.carry_out(">1G")
    board = rig.c.expected_board()
    assert board.beaches[2] == frozenset({red(3)})
    assert board.boat == 0 and board.shamans == ("1G", "4B")
    status = rig.c.status()
    assert status.startswith("round 1, yellow to turn, decision 2")
    assert rig.game.digest() in status
    assert rig.c.prompt[0] == "YELLOW ROUND 1"
    check_invariants(rig.game)


def test_events_posted_from_another_thread_are_handled_by_pump():
    import threading

    rig = Rig("buttons")
    thread = threading.Thread(target=rig.hw.press, args=("beach3",))
    thread.start()
    thread.join()
    assert rig.c.pump(timeout=1.0) == 1
    assert rig.c.shown.kind == U.BEACH and rig.c.shown.subject == 3


def test_shaman_cursor_value_is_a_decision_code():
    rig = Rig("buttons")
    rig.carry_out("3@2")
    assert all(o.value >= SHAMAN or str(o.label).startswith("stay") for o in rig.c.shown.options)


# --------------------------------------------------------------------------- settling (RFID)


def red_three_on_beach_two() -> Rig:
    """Red 3 lies on beach 2 and it is red's turn again: taking it back is legal."""
    rig = Rig("rfid")
    for text in ("3@2", ">stay", "1@5", ">stay"):
        rig.carry_out(text)
    assert rig.game.why_illegal("-3@2") is None
    return rig


MOVED = "red 3 moved from beach 2 to beach 4: a turn places one disc or takes one back"


def test_rfid_a_disc_moved_between_beaches_in_one_snapshot_is_refused_not_taken_back():
    rig = red_three_on_beach_two()
    # The driver posts one snapshot as one event per beach, the beach that lost a disc first.
    rig.hw.inject(BeachContents(2, frozenset()))
    rig.hw.inject(BeachContents(4, frozenset({red(3)})))
    rig.c.pump()
    assert len(rig.game.history) == 4 and rig.game.to_move == "red"
    text = rig.text()
    assert text.startswith("! WRONG BEACH") and MOVED in text
    assert "move red 3 from beach 4 to beach 2" in text
    assert set(rig.c.panel.mismatch.beaches) == {2, 4}
    rig.advance(rig.c.settle_s * 3)  # time does not turn the move into a decision
    assert len(rig.game.history) == 4
    rig.send(BeachContents(4, frozenset()), BeachContents(2, frozenset({red(3)})))
    assert rig.c.panel.mismatch is None and rig.c.panel.hold is None and len(rig.game.history) == 4


def test_rfid_a_disc_lifted_then_laid_on_another_beach_a_moment_later_is_a_move():
    rig = red_three_on_beach_two()
    rig.send(BeachContents(2, frozenset()))  # lifted: perhaps a return, perhaps on its way
    assert len(rig.game.history) == 4 and rig.c.panel.pending is not None
    rig.advance(rig.c.settle_s / 2)
    rig.send(BeachContents(4, frozenset({red(3)})))
    assert len(rig.game.history) == 4 and rig.c.panel.pending is None
    assert MOVED in rig.text()


def test_rfid_a_disc_taken_back_is_a_return_once_it_settled_or_at_once_on_select():
    rig = red_three_on_beach_two()
    rig.send(BeachContents(2, frozenset()))
    rig.advance(rig.c.settle_s - 0.05)
    assert len(rig.game.history) == 4
    rig.advance(0.05)
    assert rig.game.format(rig.game.history[-1]) == "-3@2"

    quick = red_three_on_beach_two()
    quick.send(BeachContents(2, frozenset()), ButtonPressed("select"))
    assert quick.game.format(quick.game.history[-1]) == "-3@2"


def test_rfid_two_discs_laid_on_two_beaches_in_one_snapshot_are_refused_together():
    rig = Rig("rfid")
    rig.hw.inject(BeachContents(1, frozenset({red(1)})))
    rig.hw.inject(BeachContents(3, frozenset({red(2)})))
    rig.c.pump()
    assert rig.game.history == []
    assert rig.text().startswith("! TWO DISCS AT ONCE")


def test_rfid_the_first_scoring_stays_on_the_oled_while_the_beaches_are_handled():
    rig = Rig("rfid")
    rig.play_until(lambda g: len(g.scorings) == 1, policy_seed=3)
    assert rig.c.shown.kind == U.SCORES and rig.text().startswith("SCORING 1")
    expected = rig.c.expected_board().beaches
    for beach in range(6):  # the readers report every beach (players tidying up)
        rig.send(BeachContents(beach, expected[beach]))
    assert rig.c.shown.kind == U.SCORES and rig.text().startswith("SCORING 1")
    mover = rig.game.to_move
    other = "yellow" if mover == "red" else "red"
    loose = next(v for v in range(1, 6) if rig.game.disc_at[1 - rig.game.decider][v] < 0)
    rig.send(BeachContents(5, expected[5] | {Disc(other, loose)}))  # out of turn: refused
    assert rig.text().startswith("! OUT OF TURN")
    rig.send(BeachContents(5, expected[5]))
    assert rig.c.shown.kind == U.SCORES and rig.text().startswith("SCORING 1")
    rig.advance(30)
    assert rig.text().startswith("SCORING 1")
    rig.press("select")
    assert rig.c.panel.overlay is None and not rig.text().startswith("SCORING")


def test_a_score_page_left_alone_closes_after_a_generous_timeout():
    rig = Rig("buttons")
    rig.play_until(lambda g: len(g.scorings) == 1, policy_seed=3)
    assert rig.c.shown.kind == U.SCORES
    rig.advance(60)
    assert rig.c.shown.kind == U.SCORES
    rig.advance(menu.SCORES_S)
    assert rig.c.panel.overlay is None


# --------------------------------------------------------------------------- stale screens


def test_a_new_press_replaces_a_refusal_on_the_oled_at_once():
    rig = Rig("buttons")
    rig.press("select")  # R6: the boat cannot move yet
    assert rig.text().startswith("! NOT NOW")
    rig.press("beach2")
    assert rig.text().startswith("RED: BEACH 2"), rig.text()
    rig.press("beach9")  # refused again ...
    assert "NO SUCH BEACH" in rig.text()
    rig.send(EncoderTurned(1))  # ... and the knob moves the open chooser: the refusal goes
    assert rig.text().startswith("RED: BEACH 2") and ">place 2" in rig.text()


def test_the_knob_still_scrolls_a_long_refusal_when_nothing_else_is_open():
    rig = Rig("buttons")
    rig.c.show("NOT NOW", "word " * 80)
    first = rig.c.prompt
    rig.send(EncoderTurned(1))
    assert rig.c.prompt[0] == first[0] and rig.c.panel.scroll == 1


def test_the_oled_title_keeps_every_pixel_of_its_first_letter():
    from PIL import Image, ImageDraw

    from haleakala.companion import oled, oled_font

    for title in ("YELLOW ROUND 1", "X MARKS", "WRONG BEACH", "JIG À L’ÎLE"):
        image = oled.draw(oled.Screen(title))
        bar = [
            (x, y)
            for y in range(oled.TITLE_H)
            for x in range(oled.WIDTH)
            if not image.getpixel((x, y))
        ]
        free = Image.new("1", (200, 20), 0)
        pen = ImageDraw.Draw(free)
        pen.fontmode = "1"
        pen.text((20, 5), title, font=oled_font.font(), fill=1)
        ink = sum(1 for y in range(20) for x in range(200) if free.getpixel((x, y)))
        assert len(bar) == ink, f"{title}: {ink - len(bar)} pixels of the title lost"
        assert min(x for x, _ in bar) >= 2, f"{title}: the first letter touches the edge"
