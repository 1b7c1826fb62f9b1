"""The companion aloud (issue 40): the narrator says what the OLED and LEDs show, once, after
it is journaled; the menu sets the voice and the journal keeps it; a silent voice is said on
the OLED once; and the daemon's loop never waits for speech.

A fake engine (``support.speech``) stands in for espeak-ng here (the real one speaks whole
games in tests/speech); waits are on the voice's own condition."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.companion_rig import Rig
from support.speech import FakeEngine
from test_companion_loop_load import FLOOD, ClockedNotifier, flood_of

from haleakala.companion.autoplay import choose
from haleakala.companion.daemon import SLICE_S, Daemon
from haleakala.companion.journal import Journal
from haleakala.companion.narrator import Narrator
from haleakala.companion.speaking import settings_of
from haleakala.hal.audio import SimAudio
from haleakala.hal.events import BeachContents, ButtonHeld, ButtonPressed, Disc, EncoderTurned
from haleakala.speech.engine import EngineMissing
from haleakala.speech.settings import Settings
from haleakala.speech.voice import ALERT, Voice


def speaking(rig: Rig, verbosity: str = "events", engine=None) -> Voice:
    voice = Voice(engine or FakeEngine(), rig.hw.audio, Settings(verbosity)).start()
    rig.c.narrator = Narrator(rig.c, voice)
    rig.c.tick()  # the first look: where the game stands
    return voice


def said(rig: Rig) -> list[tuple[str, str]]:
    voice = rig.c.narrator.voice
    assert voice.wait_idle(10)
    audio: SimAudio = rig.hw.audio
    return [(s.key, s.text) for s in audio.spoken]


def play(rig: Rig, decisions: int, seed: int = 1) -> None:
    for _ in range(decisions):
        rig.carry_out(choose(rig.game, seed))
        rig.advance(3)  # forced decisions apply themselves, notes go
        rig.c.narrator.voice.wait_idle(10)


def decision_plies(spoken: list[tuple[str, str]]) -> list[int]:
    return [int(key.split("/")[2]) for key, _ in spoken if key.endswith("/decision")]


def test_every_decision_is_said_once_in_order_once_journaled(tmp_path):
    journal = Journal(tmp_path)
    rig = Rig(journal=journal)
    speaking(rig)
    play(rig, 12)
    spoken = said(rig)
    made = len(rig.game.history)
    assert decision_plies(spoken) == list(range(1, made + 1))
    assert spoken[0][1] == "New game. Red's turn."
    first = rig.game.format(rig.game.history[0])  # "3@0": a disc on a beach, short form
    value, beach = first.split("@")
    assert spoken[1][1].startswith(f"Red: {value} on beach {beach}")
    assert all(key.startswith(journal.game_id) for key, _ in spoken)


def test_a_restart_says_where_the_game_stands_and_nothing_before_it(tmp_path):
    rig = Rig(journal=Journal(tmp_path))
    speaking(rig)
    play(rig, 6)
    made = len(rig.game.history)
    again = Rig(journal=Journal(tmp_path))  # the daemon restarted on the same journal
    speaking(again)
    play(again, 3)
    spoken = said(again)
    assert spoken[0][1].startswith(f"Game resumed after decision {made}, round 1.")
    assert decision_plies(spoken) == list(range(made + 1, len(again.game.history) + 1))


def test_an_out_of_turn_disc_is_refused_aloud_with_the_beach_found_by_touch():
    rig = Rig("rfid")
    speaking(rig)
    rig.send(BeachContents(2, frozenset({Disc("yellow", 3)})))  # red starts
    spoken = dict(said(rig))
    refusal = next(text for key, text in spoken.items() if key.endswith("/board1"))
    assert "beach 2, 2 raised dots" in refusal.lower()
    assert rig.c.prompt[0].startswith("!")  # the OLED refuses it too
    assert "yellow" in refusal.lower()


def test_refusals_interrupt_at_alert_priority():
    rig = Rig("rfid")
    engine = FakeEngine()
    voice = speaking(rig, engine=engine)
    seen = []
    original = voice.say
    voice.say = lambda u: seen.append(u) or original(u)  # type: ignore[method-assign]
    rig.send(BeachContents(2, frozenset({Disc("yellow", 3)})))
    assert [u.priority for u in seen if "raised dot" in u.text] == [ALERT]


def option_index(rig: Rig, value: str) -> int:
    overlay = rig.c.panel.overlay
    assert overlay is not None
    return [o.value for o in overlay.options].index(value)


def choose_in_menu(rig: Rig, value: str) -> None:
    if rig.c.panel.overlay is None:
        rig.press("back")  # at a turn start: the menu
    steps = option_index(rig, value) - rig.c.panel.overlay.cursor
    rig.send(EncoderTurned(steps), ButtonPressed("select"))


def test_the_menu_sets_voice_and_volume_and_the_journal_keeps_them(tmp_path):
    journal = Journal(tmp_path)
    rig = Rig(journal=journal)
    voice = speaking(rig)
    choose_in_menu(rig, "voice")
    choose_in_menu(rig, "volume")
    assert voice.settings == Settings("everything", 80)
    assert "voice: everything" in rig.text() or any("everything" in line for line in rig.c.prompt)
    restarted = Journal(tmp_path)
    restarted.recover()
    assert restarted.speech == {"verbosity": "everything", "volume": 80}
    config = replace(rig.config, speech=replace(rig.config.speech, verbosity="off"))
    assert settings_of(config, restarted) == Settings("everything", 80)  # the board's choice


def test_everything_reads_the_line_under_the_cursor():
    rig = Rig()
    speaking(rig, "everything")
    assert said(rig)[-1][1] == "Red round 1. Press a lit beach's button."
    rig.press("back")
    assert said(rig)[-1][1] == "Menu. Resume."
    rig.send(EncoderTurned(1))
    assert said(rig)[-1][1] == "Repeat."
    rig.send(EncoderTurned(1))
    assert said(rig)[-1][1] == "Voice: everything."


def test_a_knob_turned_fast_says_only_where_it_stopped():
    rig = Rig()
    engine = FakeEngine()
    speaking(rig, "everything", engine)
    before = len(said(rig))
    engine.hold.set()  # the next utterance takes its time: the knob turns meanwhile
    rig.press("back")
    assert engine.holding.wait(10)
    rig.send(EncoderTurned(1), EncoderTurned(1), EncoderTurned(1))
    engine.hold.clear()
    engine.release.set()
    assert said(rig)
    after = list(rig.hw.audio.spoken)[before:]
    assert [(s.text, s.finished) for s in after] == [
        ("Menu. Resume.", False),
        ("Volume: 60 %.", True),
    ]


def test_holding_select_repeats_the_last_thing_said_in_full():
    rig = Rig()
    speaking(rig)
    play(rig, 1)
    before = said(rig)
    rig.send(ButtonHeld("select"))
    after = said(rig)
    assert len(after) == len(before) + 1
    # The decision in its long form ("Red: 3 on beach 0" was said), then whose turn it is.
    assert after[-1][1].startswith("Red places") and after[-1][1].endswith("Yellow's turn.")


def test_a_voice_without_an_engine_says_so_on_the_oled_once_and_the_game_goes_on():
    class Missing(FakeEngine):
        def check(self) -> None:
            raise EngineMissing("espeak-ng is not installed")

    rig = Rig()
    speaking(rig, engine=Missing())
    assert rig.c.prompt[0] == "NO SOUND"
    assert "silently" in rig.text()
    rig.advance(30)
    play(rig, 4)  # the game goes on
    assert len(rig.game.history) >= 4
    assert "NO SOUND" not in rig.c.prompt[0]
    assert rig.hw.audio.spoken == type(rig.hw.audio.spoken)()  # nothing played


@pytest.mark.parametrize("kit", ["rfid", "buttons"])
def test_the_watchdog_pings_do_not_move_while_the_voice_hangs(kit):
    """The loop-load scenario (a flood on an injected clock) with and without a voice
    whose engine hangs on its first utterance: the pings come at the same loop times."""

    def pings(with_voice: bool) -> list[float]:
        rig = Rig(kit)
        companion, clock = rig.c, rig.clock
        engine = FakeEngine()
        if with_voice:
            engine.hold.set()  # the first utterance never ends
            speaking(rig, "everything", engine)
        notifier = ClockedNotifier(clock, watchdog_s=2 * SLICE_S)
        daemon = Daemon(companion, notifier=notifier)
        source, posted = flood_of(kit), 0
        handle = companion.handle

        def handle_and_flood(event) -> None:
            nonlocal posted
            for _ in range(3):
                if posted < FLOOD // 5:
                    companion.post(next(source))
                    posted += 1
                elif posted == FLOOD // 5:
                    daemon.stop()
                    posted += 1
            handle(event)
            clock.advance(0.007)

        companion.handle = handle_and_flood
        companion.post(next(source))
        assert daemon.run() == 0
        if with_voice:
            assert engine.holding.is_set()  # it did hang meanwhile
            voice = companion.narrator.voice
            assert len(voice._queue) <= voice.maxsize
            voice.close()
        return notifier.pings

    assert pings(with_voice=True) == pings(with_voice=False)


def test_a_narrator_that_fails_silences_the_voice_and_the_game_goes_on(caplog):
    rig = Rig()
    voice = speaking(rig)
    rig.c.narrator._decisions = lambda: 1 / 0  # type: ignore[method-assign]  # a bug
    play(rig, 3)
    assert len(rig.game.history) >= 3 and voice.silent
    assert [r for r in caplog.records if "narrator failed" in r.getMessage()]


def test_the_solo_companions_decision_is_said_for_the_players_to_carry_out():
    rig = Rig("buttons", solo="yellow", strength="easy")
    speaking(rig)
    rig.carry_out("3@2")
    rig.carry_out(">stay")
    rig.await_bot()
    d = rig.c.shown.options[0].value
    rig.c.tick()
    spoken = said(rig)
    texts = [t for _, t in spoken]
    assert "Yellow is thinking." in texts
    proposal = next(t for k, t in spoken if k.endswith("/proposal"))
    value, beach = d // 10, d % 10
    assert proposal == (
        f"Companion (yellow). Yellow places {value} on beach {beach} - put the disc there, "
        "then press select."
    )
    rig.press("select")  # the players carried it out: said as a decision, once
    assert [k for k, _ in said(rig) if k.endswith("/3/decision")]


def test_a_lessons_steps_are_said_and_so_is_its_hint():
    from haleakala.companion.hands import events_for
    from haleakala.learn.board import BoardLesson, board_lessons
    from haleakala.learn.check import wrong_decision
    from haleakala.learn.engine import DECIDE, HINT, READ

    rig = Rig("buttons")
    speaking(rig)
    lesson = next(x for x in board_lessons() if x.name == "first-game")
    board = BoardLesson.start(rig.c, lesson)
    rig.c.tick()
    while board.view().kind == READ:
        rig.press("select")
    assert board.view().kind == DECIDE
    rig.press("select")
    steps = [t for k, t in said(rig) if "/lesson" in k]
    welcome = "Welcome. You play red, the companion yellow. Each rule comes when it matters."
    assert steps[0] == welcome
    assert len(steps) >= 2  # every step read, one utterance each
    wrong = rig.c.game.parse(wrong_decision(board.run))
    for _ in range(10):  # as a player would: the inputs until the lesson answers
        for event in events_for(rig.c, wrong):
            rig.c.handle(event)
        if board.run.wrong:
            break
        rig.advance(1.0)
    view = board.view()
    assert view.kind == HINT
    hint = [t for k, t in said(rig) if "/lesson" in k][-1]
    assert " ".join(view.say.split())[:40] in hint
