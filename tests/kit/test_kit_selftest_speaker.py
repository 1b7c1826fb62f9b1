"""The self-test's loudspeaker step (issue 40): a sentence in English, German and French
through the real espeak-ng onto the kit's output; a missing engine or a dead device fails
the part with a sentence naming what to check."""

from __future__ import annotations

import shutil

import pytest

from haleakala import config as cfg
from haleakala.hal.audio import AudioUnavailable, SimAudio, rms
from haleakala.hal.simulated import SimHardware
from haleakala.kit.selftest import SelfTest, SimOperator
from haleakala.kit.selftest_speaker import check_speaker


def selftest(audio) -> SelfTest:
    hw = SimHardware(audio=audio)
    return SelfTest(cfg.Config(), hw, SimOperator(hw), timeout_s=0.05, pause=lambda _s: None,
                    speaker=True)  # fmt: skip


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_speaker_says_a_sentence_in_each_language():
    audio = SimAudio()
    test = selftest(audio)
    check_speaker(test)
    (result,) = test.report.results
    assert result.ok and result.detail == "a sentence in English, Deutsch, Français"
    assert [s.language for s in audio.spoken] == ["en", "de", "fr"]
    assert [s.text for s in audio.spoken] == [
        "This is the companion's voice.",
        "Das ist die Stimme des Begleiters.",
        "Voici la voix du compagnon.",
    ]
    assert all(rms(s.samples) > 300 for s in audio.spoken)


def test_a_dead_speaker_fails_the_part_and_says_what_to_check(monkeypatch):
    class Dead(SimAudio):
        def check(self) -> None:
            raise AudioUnavailable("no sound card")

    test = selftest(Dead())
    check_speaker(test)
    (result,) = test.report.results
    assert not result.ok and result.detail == "no sound card"
    assert "aplay -l" in result.hint and "GPIO 18, 19, 21" in result.hint


def test_a_silent_output_fails_the_part():
    class Mute(SimAudio):
        def play(self, chunks, pcm, **kw):
            return super().play([b"\0\0" * 100], pcm, **kw)

    test = selftest(Mute())
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    check_speaker(test)
    (result,) = test.report.results
    assert not result.ok and result.detail == "silent in en, de, fr"
