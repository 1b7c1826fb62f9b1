"""The simulator window speaks through the desktop's sound (``haleakala sim --speak``); a
desktop without sound is said once on the simulated OLED and the game goes on (issue 40)."""

from __future__ import annotations

from support.speech import FakeEngine

from haleakala.companion import speaking
from haleakala.hal.audio import AudioUnavailable, DesktopAudio, SimAudio
from haleakala.simulator.session import SimSession


def test_a_desktop_without_sound_is_said_on_the_oled_and_the_game_goes_on(monkeypatch):
    def no_sound(self) -> None:
        raise AudioUnavailable("no desktop sound: ALSA: Couldn't open audio device")

    monkeypatch.setattr(DesktopAudio, "check", no_sound)
    monkeypatch.setattr(speaking, "make_engine", lambda *a, **k: FakeEngine())
    session = SimSession(kit="buttons", seed=3, start="red", speak=True)
    try:
        assert session.companion.prompt[0] == "NO SOUND"
        assert session.companion.narrator.voice.silent
        session.companion.decide(session.game.legal_actions()[0], "player")  # it goes on
        assert len(session.game.history) == 1
    finally:
        session.close()


def test_the_window_speaks_through_its_audio(monkeypatch):
    heard = SimAudio()
    monkeypatch.setattr("haleakala.hal.audio.DesktopAudio", lambda: heard)
    monkeypatch.setattr(speaking, "make_engine", lambda *a, **k: FakeEngine())
    session = SimSession(kit="buttons", seed=3, start="red", speak=True)
    try:
        voice = session.companion.narrator.voice
        assert voice.wait_idle(10)
        assert heard.texts() == ["New game. Red's turn."]
    finally:
        session.close()
