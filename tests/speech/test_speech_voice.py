"""The voice's worker (issue 40): bounded, by priority, once, and silent rather than stuck.

A fake engine (tones, hangs and crashes on demand) stands in for espeak-ng, so each
promise is tested on its own; waits are on the voice's own condition, never on a clock."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.speech import FakeEngine

from haleakala.hal.audio import AudioUnavailable, SimAudio
from haleakala.speech.engine import EngineMissing
from haleakala.speech.settings import VERBOSITIES, VOLUMES, Settings
from haleakala.speech.voice import ALERT, DETAIL, EVENT, FAILURES, MAXSIZE, Utterance, Voice


def started(engine=None, audio=None, settings=None, **kw) -> tuple[Voice, FakeEngine, SimAudio]:
    engine = engine or FakeEngine()
    audio = audio or SimAudio()
    return Voice(engine, audio, settings or Settings("everything"), **kw).start(), engine, audio


def u(key: str, text: str = "", priority: int = EVENT, language: str = "en", **kw) -> Utterance:
    return Utterance(key, text or key, language, priority, **kw)


def test_events_are_said_in_the_order_they_happened():
    voice, _engine, audio = started()
    for i in range(5):
        assert voice.say(u(f"g/{i}/decision"))
    assert voice.wait_idle(10)
    assert audio.texts() == [f"g/{i}/decision" for i in range(5)]
    assert all(s.finished for s in audio.spoken)
    voice.close()


def test_nothing_is_said_twice_for_one_key():
    voice, _engine, audio = started()
    assert voice.say(u("g/3/decision", "Red: 3 on beach 2."))
    assert not voice.say(u("g/3/decision", "Red: 3 on beach 2."))
    assert voice.wait_idle(10)
    assert not voice.say(u("g/3/decision", "Red: 3 on beach 2."))  # not after it was said
    assert voice.wait_idle(10)
    assert audio.texts() == ["Red: 3 on beach 2."]
    voice.close()


def test_a_flood_never_builds_an_unbounded_queue(caplog):
    voice, engine, audio = started()
    engine.hold.set()  # the first utterance hangs: everything else must wait
    with caplog.at_level(logging.WARNING, "haleakala.speech"):
        voice.say(u("first"))
        assert engine.holding.wait(10)
        accepted = sum(voice.say(u(f"flood{i}")) for i in range(10_000))
    assert len(voice._queue) <= MAXSIZE
    assert voice.dropped == 10_000 - MAXSIZE and accepted == 10_000
    assert len([r for r in caplog.records if "too much to say" in r.getMessage()]) == 1
    engine.release.set()
    assert voice.wait_idle(10)
    # The newest were kept (what happened last matters most), in order.
    assert audio.texts() == ["first", *[f"flood{i}" for i in range(10_000 - MAXSIZE, 10_000)]]
    voice.close()


def test_a_refusal_interrupts_and_goes_before_the_waiting_events():
    voice, engine, audio = started()
    engine.hold.set()
    voice.say(u("g/1/decision"))
    assert engine.holding.wait(10)
    voice.say(u("g/2/decision"))
    voice.say(u("g/2/refused", "Not allowed: beach 2 is full.", ALERT))
    engine.hold.clear()
    engine.release.set()
    assert voice.wait_idle(10)
    said = [(s.text, s.finished) for s in audio.spoken]
    assert said[0] == ("g/1/decision", False)  # cut short
    assert [t for t, _ in said[1:]] == ["Not allowed: beach 2 is full.", "g/2/decision"]
    assert voice.interrupted == 1
    voice.close()


def test_the_line_under_the_cursor_replaces_the_one_before_it():
    voice, engine, audio = started()
    engine.hold.set()
    voice.say(u("screen/1", "resume", DETAIL, level="everything", channel="screen"))
    assert engine.holding.wait(10)
    for i, line in enumerate(["repeat", "voice: events", "volume: 60 %"], 2):
        voice.say(u(f"screen/{i}", line, DETAIL, level="everything", channel="screen"))
    engine.hold.clear()
    engine.release.set()
    assert voice.wait_idle(10)
    assert [s.text for s in audio.spoken if s.finished] == ["volume: 60 %"]
    voice.close()


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_each_verbosity_says_its_levels(verbosity):
    voice, _engine, audio = started(settings=Settings(verbosity))
    voice.say(u("event", level="events"))
    voice.say(u("detail", level="everything"))
    assert voice.wait_idle(10)
    expected = {"off": [], "events": ["event"], "everything": ["event", "detail"]}[verbosity]
    assert audio.texts() == expected
    voice.close()


def test_switching_off_stops_the_sentence_and_forgets_the_queue():
    voice, engine, audio = started()
    engine.hold.set()
    voice.say(u("a"))
    assert engine.holding.wait(10)
    voice.say(u("b"))
    voice.set(Settings("off"))
    engine.release.set()
    assert voice.wait_idle(10)
    assert [s.finished for s in audio.spoken] == [False]
    assert not voice.say(u("c"))
    voice.close()


def test_repeat_says_the_last_two_utterances_again_the_decision_in_its_long_form():
    voice, _engine, audio = started(settings=Settings("events"))
    assert not voice.repeat()  # nothing said yet
    voice.say(u("g/3/decision", "Yellow: 1 on beach 5."))
    voice.say(u("g/4/decision", "Red: 3 on beach 2.", full="Red places 3 on beach 2."))
    voice.say(u("g/4/turn", "Yellow's turn."))
    assert voice.wait_idle(10)
    assert voice.repeat()
    assert voice.wait_idle(10)
    assert audio.texts()[-1] == "Red places 3 on beach 2. Yellow's turn."
    voice.close()


def test_no_engine_means_silence_with_one_trouble(caplog):
    class Missing(FakeEngine):
        def check(self) -> None:
            raise EngineMissing("espeak-ng is not installed: sudo apt install espeak-ng")

    with caplog.at_level(logging.ERROR, "haleakala.speech"):
        voice, _engine, _audio = started(Missing())
        assert voice.silent and not voice.say(u("a"))
    assert [t.kind for t in voice.troubles] == ["engine"]
    assert len(caplog.records) == 1 and "apt install espeak-ng" in caplog.records[0].getMessage()
    voice.close()


def test_no_audio_device_means_silence_with_one_trouble():
    class NoCard(SimAudio):
        def check(self) -> None:
            raise AudioUnavailable("no sound card")

    voice, _engine, _audio = started(audio=NoCard())
    assert voice.silent and [t.kind for t in voice.troubles] == ["device"]
    voice.close()


def test_a_device_that_fails_while_playing_silences_the_voice():
    class Breaks(SimAudio):
        def play(self, chunks, pcm, **kw):
            raise AudioUnavailable("aplay -D default failed (unplugged)")

    voice, _engine, _audio = started(audio=Breaks())
    voice.say(u("a"))
    assert voice.wait_idle(10)
    assert voice.silent and [t.kind for t in voice.troubles] == ["device"]
    voice.close()


def test_a_language_without_a_voice_is_silent_and_the_others_speak():
    voice, _engine, audio = started(FakeEngine(voices=("en", "fr")))
    assert [(t.kind, t.language) for t in voice.troubles] == [("voice", "de")]
    assert not voice.say(u("de", language="de"))
    assert voice.say(u("fr", language="fr"))
    assert voice.wait_idle(10)
    assert audio.texts() == ["fr"]
    voice.close()


def test_an_engine_that_keeps_crashing_is_given_up_after_a_few_failures(caplog):
    engine = FakeEngine()
    engine.fail = 100
    with caplog.at_level(logging.ERROR, "haleakala.speech"):
        voice, _engine, audio = started(engine)
        for i in range(FAILURES + 5):
            voice.say(u(f"e{i}"))
            assert voice.wait_idle(10)
    assert voice.failed == FAILURES and voice.silent
    assert [t.kind for t in voice.troubles] == ["failing"]
    assert len(caplog.records) == 2  # the first failure, then giving up: not one per event
    assert audio.texts() == []
    voice.close()


def test_one_crash_costs_one_utterance_not_the_voice():
    engine = FakeEngine()
    engine.fail = 1
    voice, _engine, audio = started(engine)
    voice.say(u("lost"))
    voice.say(u("said"))
    assert voice.wait_idle(10)
    assert audio.texts() == ["said"] and not voice.silent and not voice.troubles
    voice.close()


RECORDS = st.one_of(
    st.none(), st.integers(), st.text(), st.dictionaries(st.text(), st.integers() | st.text())
)


@given(RECORDS)
def test_a_journal_record_never_makes_bad_settings(record):
    default = Settings()
    found = Settings.of_record(record, default)
    assert isinstance(found, Settings)


def test_the_menu_cycles_every_verbosity_and_volume():
    s = Settings("off", 60)
    assert [(s := s.next_verbosity()).verbosity for _ in VERBOSITIES] == [
        "events",
        "everything",
        "off",
    ]
    s = Settings("events", 0)
    assert [(s := s.next_volume()).volume for _ in VOLUMES] == list(VOLUMES)
    assert Settings("events", 100).next_volume().volume == VOLUMES[0]
    assert Settings.of_record(Settings("everything", 80).to_record()) == Settings("everything", 80)
