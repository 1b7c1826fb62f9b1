"""Solo mode: the companion plays one colour; its bot thinks off the event loop.

The controller runs on the sim backend with a hand-driven clock; the bot runs on its real
worker thread, so the tests wait for its answer (``Rig.await_bot``) or hold it back with a
bot that blocks on an ``Event``.
"""

from __future__ import annotations

import threading

import pytest
from support.companion_rig import Rig
from support.invariants import check_invariants
from support.waiting import wait_for

from haleakala.ai import make_bot
from haleakala.companion import scenes, solo
from haleakala.companion import ui as U
from haleakala.companion.autoplay import AutoPlayer, choose, reference_game
from haleakala.companion.journal import Journal, scan_records
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.game import CHOOSE_CARD, MOVE_SHAMAN
from haleakala.games.haleakala.notation import BOAT, INVOKE, RETURN, SHAMAN, STAY, TAKE
from haleakala.games.haleakala.words import labels
from haleakala.hal.events import (
    INVOCATION,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    Disc,
    EncoderTurned,
)

YELLOW = scenes.PLAYER_COLOURS[1]


class HeldBot:
    """A bot that answers only when ``release`` is set; the n-th question it is asked is
    answered with the n-th legal decision (so answers to different questions differ)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked: list[int] = []  # the decision count of each question
        self.started = threading.Event()

    def factory(self, strength: str, seed: int):
        owner = self

        class Bot:
            def decide(self, game: Game, budget=None) -> int:
                owner.asked.append(len(game.history))
                owner.started.set()
                assert owner.release.wait(10), "the test never released the bot"
                legal = game.legal_actions()
                return legal[(len(owner.asked) - 1) % len(legal)]

        return Bot()


def to_companions_turn(rig: Rig) -> None:
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    assert rig.game.to_move == "yellow"


def play_human(rig: Rig, policy_seed: int, until) -> None:
    """The scripted human plays red through the inputs and follows the companion's
    instructions for yellow, until ``until(game)``."""
    player = AutoPlayer(policy_seed)
    for _ in range(5000):
        if until(rig.game):
            return
        events = player.next_events(rig.c)
        if not events:
            assert not rig.game.is_terminal() or until(rig.game)
            rig.await_bot()
            continue
        for event in events:
            rig.c.handle(event)
        check_invariants(rig.game)
    raise AssertionError("the game did not get there")


# --------------------------------------------------------------------------- the thread


def test_the_bot_thinks_on_another_thread_and_inputs_are_handled_meanwhile():
    held = HeldBot()
    rig = Rig("buttons", solo="yellow", bot_factory=held.factory)
    to_companions_turn(rig)
    assert held.started.wait(5)
    assert rig.c.thinking and "YELLOW is thinking" in rig.text()
    assert "thinking" in rig.c.status()
    rig.hw.press("back")  # a press while the bot thinks ...
    assert rig.c.pump() == 1
    assert rig.c.shown.kind == U.MENU  # ... is handled at once, before the bot's answer
    assert rig.c.thinking and len(rig.game.history) == 2
    rig.press("back")  # close the menu
    rig.press("select")
    assert "THINKING" in rig.text() and len(rig.game.history) == 2
    before = rig.hw.leds.show_count
    rig.advance(scenes.THINK_STEP)  # the LEDs stay live: a light runs round the water
    assert rig.hw.leds.show_count > before
    held.release.set()
    rig.await_bot()
    proposal = rig.c.shown
    assert proposal.kind == U.PROPOSAL and proposal.options[0].value in rig.game.legal_actions()
    headline, _ = labels.proposal_words(rig.game, proposal.options[0].value, "buttons")
    assert rig.text().startswith("COMPANION (YELLOW)") and str(headline) in rig.text()


def test_an_undo_while_the_bot_thinks_makes_its_answer_stale():
    held = HeldBot()
    rig = Rig("buttons", solo="yellow", bot_factory=held.factory)
    to_companions_turn(rig)
    assert held.started.wait(5)
    rig.send(ButtonHeld("back"))  # undo red's >stay: red to move again
    assert rig.game.to_move == "red" and len(rig.game.history) == 1 and not rig.c.thinking
    rig.carry_out(">stay")  # the same position again: a new question, same decision count
    assert rig.c.thinking and len(rig.game.history) == 2
    held.release.set()  # the first answer (to the forgotten question) arrives first
    rig.await_bot()
    assert held.asked == [2, 2]
    legal = rig.game.legal_actions()
    assert rig.c.shown.options[0].value == legal[1 % len(legal)]  # the second answer
    assert rig.c.sources == ["player", "player"] and len(rig.game.history) == 2


def test_a_stale_answer_after_a_new_game_is_dropped():
    held = HeldBot()
    rig = Rig("buttons", solo="yellow", bot_factory=held.factory)
    to_companions_turn(rig)
    assert held.started.wait(5)
    thinker = rig.c.seat.thinker  # the new game may start another: watch the one asked
    rig.c.new_game(seed=5)
    held.release.set()
    wait_for(lambda: thinker.answered >= 1, "the stale answer to arrive")
    rig.c.pump(timeout=0.2)
    rig.c.pump()
    assert rig.game.history == [] and rig.c.sources == []
    if rig.game.to_move == "red":
        assert rig.c.panel.chooser is None or rig.c.panel.chooser.kind != U.PROPOSAL


def test_a_bot_that_fails_is_replaced_by_a_legal_decision_and_logged(caplog):
    def broken(strength, seed):
        class Bot:
            def decide(self, game, budget=None):
                raise RuntimeError("out of ideas")

        return Bot()

    rig = Rig("buttons", solo="yellow", bot_factory=broken)
    to_companions_turn(rig)
    rig.await_bot()
    d = rig.c.shown.options[0].value
    assert d in rig.game.legal_actions()
    assert "out of ideas" in caplog.text and rig.c.errors == 0


def test_a_bot_that_never_answers_is_replaced_after_the_think_limit():
    held = HeldBot()
    rig = Rig("buttons", solo="yellow", bot_factory=held.factory, think_limit_s=5)
    to_companions_turn(rig)
    assert held.started.wait(5)
    rig.advance(5)
    assert not rig.c.thinking and rig.c.shown.kind == U.PROPOSAL
    assert rig.c.shown.options[0].value in rig.game.legal_actions()
    held.release.set()


# --------------------------------------------------------------------------- showing it


def follow_until(rig: Rig, predicate, policy_seed: int = 2) -> None:
    play_human(rig, policy_seed, lambda g: predicate(g) and _proposal_shown(rig))


def _proposal_shown(rig: Rig) -> bool:
    shown = rig.c.shown
    return shown is not None and shown.kind == U.PROPOSAL and bool(shown.options)


def blinks(rig: Rig, zone: tuple[int, str], colour) -> None:
    """The zone shows ``colour`` in one half of the quick blink and not in the other."""
    seen = set()
    for _ in range(2):
        seen.add(rig.leds().get(zone))
        rig.clock.advance(scenes.FAST)
        rig.c.render()
    assert colour in seen and len(seen) == 2, (zone, seen)


def test_the_companions_disc_blinks_on_its_beach_and_the_oled_says_it_in_words():
    rig = Rig("buttons", solo="yellow", strength="easy")
    to_companions_turn(rig)
    rig.await_bot()
    d = rig.c.shown.options[0].value
    assert d < INVOKE  # the greedy bot places a disc first
    v, beach = d // 10, d % 10
    text = rig.text()
    assert f"YELLOW PLACES {v} ON BEACH {beach} - put the disc there, then press select" in text
    blinks(rig, (beach, "beach"), YELLOW)
    rig.advance(30)  # a disc waits for the players, however long
    assert len(rig.game.history) == 2
    rig.press("select")
    assert rig.game.history[-1] == d and rig.c.sources[-1] == "bot"


def test_the_companions_shaman_and_card_are_shown_and_a_card_goes_on_by_itself():
    rig = Rig("buttons", solo="yellow", strength="easy")
    follow_until(
        rig,
        lambda g: g.to_move == "yellow" and g.phase == MOVE_SHAMAN and rig.c.thinking is False,
    )
    d = rig.c.shown.options[0].value
    if d >= SHAMAN:  # the shaman moves: its space blinks, select after moving it
        space = d - SHAMAN
        assert f"YELLOW'S SHAMAN GOES TO {rig.game.board.space_name(space)}" in rig.text()
        assert "move the shaman there, then press select" in rig.text()
        blinks(rig, (space // 3, scenes.BANDS[space % 3]), YELLOW)
        rig.advance(10)
        assert rig.game.phase == MOVE_SHAMAN
        rig.press("select")
    else:  # it stays: nothing to move, it goes on by itself
        assert "goes on by itself" in rig.text()
        rig.advance(rig.c.seat.show_s)
    assert rig.game.phase != MOVE_SHAMAN and rig.c.sources[-1] == "bot"
    follow_until(rig, lambda g: g.to_move == "yellow" and g.phase == CHOOSE_CARD)
    d = rig.c.shown.options[0].value
    slot = d - TAKE
    name = rig.game.deck.cards[rig.game.slots[slot]].name
    assert f"YELLOW TAKES {rig.game.board.slot_name(slot).upper()}: {name}" in rig.text()
    zone = (slot // 2, "slot_a" if slot % 2 == 0 else "slot_b")
    seen = set()
    for _ in range(2):
        seen.add(rig.leds().get(zone))
        rig.clock.advance(scenes.FAST)
        rig.c.render()
    assert None in seen and len(seen) == 2  # the card's slot blinks
    made = len(rig.game.history)
    rig.advance(rig.c.seat.show_s - 0.6)
    assert len(rig.game.history) == made
    rig.advance(0.1)
    assert len(rig.game.history) == made + 1 and rig.game.history[-1] == d


def test_the_menu_pauses_the_companions_decision_that_goes_on_by_itself():
    rig = Rig("buttons", solo="yellow", strength="easy")
    follow_until(rig, lambda g: g.to_move == "yellow" and g.phase == CHOOSE_CARD)
    made = len(rig.game.history)
    rig.press("back")
    rig.advance(30)
    assert len(rig.game.history) == made
    rig.press("back")
    rig.advance(rig.c.seat.show_s)
    assert len(rig.game.history) == made + 1


def test_rfid_the_companions_disc_counts_when_the_readers_see_it_where_it_said():
    rig = Rig("rfid", "tactical", solo="yellow", strength="easy")
    to_companions_turn(rig)
    rig.await_bot()
    d = rig.c.shown.options[0].value
    assert d < BOAT
    v, beach = (d % 100) // 10, d % 10
    assert "put the disc" in rig.text() and "press select" not in rig.text()
    rig.press("select")
    assert "the readers will see it" in rig.text() and len(rig.game.history) == 2
    here = rig.c.sensed_board()[beach]
    wrong = (beach + 1) % 6
    rig.send(BeachContents(wrong, rig.c.sensed_board()[wrong] | {Disc("yellow", v)}))
    assert rig.text().startswith("! COMPANION'S TURN") and len(rig.game.history) == 2
    rig.send(BeachContents(wrong, rig.c.expected_board().beaches[wrong]))
    assert rig.c.panel.mismatch is None and rig.c.panel.hold is None
    rig.send(BeachContents(beach, here | {Disc("yellow", v)}))
    if d >= INVOKE:  # on the way: no refusal, the invocation disc comes next
        assert rig.c.panel.mismatch is None and len(rig.game.history) == 2
        rig.send(BeachContents(beach, here | {Disc("yellow", v), Disc("yellow", INVOCATION)}))
    assert rig.game.history[-1] == d and rig.c.sources[-1] == "bot"


def test_rfid_a_disc_laid_while_the_companion_thinks_is_refused():
    held = HeldBot()
    rig = Rig("rfid", solo="yellow", bot_factory=held.factory)
    to_companions_turn(rig)
    rig.send(BeachContents(0, frozenset({Disc("yellow", 1)})))
    assert rig.text().startswith("! COMPANION'S TURN") and "still thinking" in rig.text()
    rig.send(BeachContents(0, frozenset()))
    assert rig.c.panel.mismatch is None
    held.release.set()
    rig.await_bot()


def test_the_menu_turns_solo_on_and_off_and_cycles_the_strength():
    rig = Rig("buttons")
    rig.press("back")
    labels = [str(o.label) for o in rig.c.shown.options]
    solo_at = labels.index("companion: off")
    assert labels[solo_at + 1] == "strength: normal"
    rig.send(EncoderTurned(solo_at + 1), ButtonPressed("select"))
    assert rig.c.strength == "strong"
    rig.send(ButtonPressed("select"))
    assert rig.c.strength == "child"  # the level for children comes after strong
    rig.send(ButtonPressed("select"), ButtonPressed("select"))
    assert rig.c.strength == "normal"
    rig.send(EncoderTurned(-1), ButtonPressed("select"), ButtonPressed("select"))
    assert rig.c.solo == "yellow" and "companion: yellow" in rig.text()
    rig.send(ButtonPressed("select"))
    assert rig.c.solo is None


def no_missing_glyphs(text: str) -> bool:
    """Every character has a glyph in the OLED's font (a missing one draws as a box)."""
    from haleakala.companion import oled

    return oled.missing_glyphs(text) == ""


def test_what_the_oled_says_about_the_companions_decision_has_no_missing_glyph():
    rig = Rig("buttons", "tactical", seed=5, solo="yellow", strength="easy")
    player = AutoPlayer(5)
    seen = set()
    while not rig.game.is_terminal():
        if _proposal_shown(rig):
            text = " ".join(rig.c.prompt)
            assert no_missing_glyphs(text), text
            seen.add(solo.needs_hands(rig.c.shown.options[0].value, "buttons"))
        events = player.next_events(rig.c)
        if not events:
            rig.await_bot()
        for event in events:
            rig.c.handle(event)
    assert seen == {"select", "none"}


# --------------------------------------------------------------------------- whole games


def deciders(game: Game) -> list[str]:
    """Who decided each decision of ``game``'s history."""
    again = Game(game.variant, game.seed, PLAYERS[game.start])
    out = []
    for d in game.history:
        out.append(again.to_move)
        again.apply(d)
    return out


@pytest.mark.parametrize("kit", ["buttons", "rfid"])
def test_a_solo_game_against_the_easy_bot_plays_to_the_end_as_the_rules_say(kit):
    rig = Rig(kit, "tactical", seed=11, solo="yellow", strength="easy")
    play_human(rig, 11, lambda g: g.is_terminal())
    reference = reference_game("tactical", 11, "red", 11, solo="yellow")
    assert rig.game.history == reference.history
    for who, by in zip(deciders(rig.game), rig.c.sources, strict=True):
        assert (by == "bot") == (who == "yellow"), (who, by)
    assert rig.c.errors == 0 and "FINAL SCORES" in rig.text()


def test_a_solo_game_against_a_small_search_bot_plays_to_the_end():
    def search(strength, seed):
        return make_bot("ai", seed=seed, iterations=8)

    rig = Rig("buttons", "base", seed=12, solo="red", bot_factory=search)
    play_human(rig, 12, lambda g: g.is_terminal())
    reference = reference_game("base", 12, "red", 12, solo="red", bot=search)
    assert rig.game.history == reference.history
    assert rig.c.sources.count("bot") > 20


def test_solo_mode_survives_a_power_cut_and_the_companions_turn_resumes(tmp_path):
    journal = Journal(tmp_path)
    rig = Rig("buttons", seed=13, journal=journal)
    rig.press("back")  # solo from the menu, not from the command line
    labels = [str(o.label) for o in rig.c.shown.options]
    rig.send(EncoderTurned(labels.index("strength: normal")), ButtonPressed("select"))
    rig.send(ButtonPressed("select"))  # normal → strong → child (→ easy below)
    rig.send(ButtonPressed("select"), EncoderTurned(-1), ButtonPressed("select"))
    rig.send(ButtonPressed("select"))  # off → red → yellow
    assert (rig.c.solo, rig.c.strength) == ("yellow", "easy")
    rig.press("back")
    play_human(rig, 13, lambda g: len(g.history) > 30 and g.to_move == "yellow")
    digest, sources = rig.game.digest(), list(rig.c.sources)
    rig.c.stop_bot()  # the power goes (the thread dies with the process)
    journal.close()

    again = Rig("buttons", seed=99, journal=Journal(tmp_path))  # no solo given: as it was
    assert again.game.digest() == digest and again.c.sources == sources
    assert (again.c.solo, again.c.strength) == ("yellow", "easy")
    assert again.c.thinking or again.c.shown.kind == U.PROPOSAL  # its turn goes on
    play_human(again, 13, lambda g: g.is_terminal())
    reference = reference_game("base", 13, "red", 13, solo="yellow")
    assert again.game.history == reference.history
    records = [r for _, r in scan_records((tmp_path / "journal.bin").read_bytes()).records]
    assert any(r.get("type") == "solo" and r["solo"] == "yellow" for r in records)
    assert any(r.get("by") == "bot" for r in records)


def test_the_command_line_overrides_the_journals_solo_setting_and_records_it(tmp_path):
    rig = Rig("buttons", seed=13, journal=Journal(tmp_path), solo="red", strength="easy")
    rig.c.stop_bot()
    rig.c.journal.close()
    off = Rig("buttons", journal=Journal(tmp_path), solo="off")
    assert off.c.solo is None and off.c.strength == "easy"
    off.c.journal.close()
    later = Rig("buttons", journal=Journal(tmp_path))
    assert later.c.solo is None


def test_strengths_map_to_the_levels_child_bot_and_search_bot(tmp_path, monkeypatch):
    from haleakala.games.haleakala.bots import levels

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(levels, "_cached", 10_000.0)
    assert solo.make_solo_bot("child", 1).name == "child"
    assert solo.make_solo_bot("easy", 1).name == "greedy"
    normal, strong = solo.make_solo_bot("normal", 1), solo.make_solo_bot("strong", 1)
    assert (normal.name, strong.name) == ("ai", "ai")
    assert 0 < normal.budget < strong.budget
    with pytest.raises(ValueError, match="choose easy, normal, strong, child"):
        solo.make_solo_bot("hard", 1)


def test_words_for_every_kind_of_decision_say_who_and_what():
    game = Game("base", 3, "red")
    assert tuple(map(str, labels.proposal_words(game, 32, "rfid"))) == (
        "RED PLACES 3 ON BEACH 2",
        "put the disc there",
    )
    assert tuple(map(str, labels.proposal_words(game, RETURN + 32, "buttons"))) == (
        "RED TAKES 3 BACK FROM BEACH 2",
        "take the disc off the beach, then press select",
    )
    assert solo.needs_hands(32, "rfid") == "board" and solo.needs_hands(32, "buttons") == "select"
    assert solo.needs_hands(BOAT, "rfid") == "select" and solo.needs_hands(TAKE, "rfid") == "none"
    kinds = set()
    for seed in range(3):
        game = Game("tactical", seed)
        while not game.is_terminal():
            who = PLAYERS[game.decider].upper()
            for d in game.legal_actions():
                headline, how = map(str, labels.proposal_words(game, d, "buttons"))
                assert no_missing_glyphs(headline + how), headline + how
                assert headline.startswith(
                    who + (" " if d != STAY and not SHAMAN <= d < TAKE else "'S")
                ), headline
                assert ":" not in headline or TAKE <= d < TAKE + 12, headline
                kinds.add(solo.needs_hands(d, "rfid"))
            game.apply(choose(game, seed))
    assert kinds == {"board", "select", "none"}
