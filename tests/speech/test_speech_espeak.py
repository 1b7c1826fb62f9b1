"""espeak-ng itself (issue 40): each catalog language is heard, its stream is read as it comes,
and a missing voice, a crash or a hang is one sentence and a killed process, never a stuck
worker. Skipped only where espeak-ng cannot be installed (./test installs it)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from support.speech import rms

from haleakala.hal.audio import AlsaAudio, AudioUnavailable, Pcm
from haleakala.speech.engine import EngineFailed, EngineMissing, Espeak, VoiceMissing

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (./test installs it)"
)

SENTENCES = {
    "en": "Red places 3 on beach 2.",
    "de": "Rot: 3 auf Strand 2.",
    "fr": "Rouge : 3 sur la plage 2.",
}


@needs_espeak
@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_each_language_is_heard(language):
    engine = Espeak()
    assert language in engine.languages()
    synthesis = engine.synthesize(SENTENCES[language], language, 60)
    samples = b"".join(synthesis)
    assert synthesis.pcm == Pcm(22050, 1, 2)
    seconds = len(samples) / 2 / synthesis.pcm.rate
    assert 0.8 < seconds < 5  # a short sentence, said at 160 words a minute
    assert rms(samples) > 500  # not silence


@needs_espeak
def test_volume_scales_what_is_heard():
    engine = Espeak()
    loud = rms(b"".join(engine.synthesize(SENTENCES["en"], "en", 100)))
    soft = rms(b"".join(engine.synthesize(SENTENCES["en"], "en", 20)))
    assert soft < loud / 3


def script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "fake-espeak"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_an_engine_that_is_not_installed_says_what_to_install(tmp_path):
    engine = Espeak(str(tmp_path / "no-such-espeak"))
    with pytest.raises(EngineMissing, match="apt install espeak-ng"):
        engine.check()


def test_a_language_without_a_configured_voice_is_a_missing_voice():
    with pytest.raises(VoiceMissing):
        Espeak(voices={"en": "en"}).synthesize("Hallo", "de", 60)


@needs_espeak
def test_a_voice_espeak_does_not_have_is_a_failure_with_its_sentence():
    engine = Espeak(voices={"en": "zz-nowhere"})
    assert engine.languages() == set()
    with pytest.raises(EngineFailed, match="voice does not exist"):
        engine.synthesize("hello", "en", 60)


def test_an_engine_that_crashes_is_one_failure(tmp_path):
    engine = Espeak(script(tmp_path, "echo 'segmentation fault' >&2\nkill -SEGV $$\n"))
    with pytest.raises(EngineFailed, match="segmentation fault"):
        engine.synthesize("hello", "en", 60)


def test_an_engine_that_hangs_is_killed_within_its_limits(tmp_path):
    engine = Espeak(script(tmp_path, "exec sleep 600\n"), first_s=0.3)
    with pytest.raises(EngineFailed, match="hung"):
        engine.synthesize("hello", "en", 60)


def test_an_engine_that_hangs_mid_sentence_is_killed_too(tmp_path):
    header = (
        r"printf 'RIFF\044\360\377\177WAVEfmt \020\000\000\000\001\000\001\000"
        r"\042\126\000\000\104\254\000\000\002\000\020\000data\000\360\377\177'"
    )
    engine = Espeak(script(tmp_path, f"{header}\nprintf 'abcd'\nexec sleep 600\n"), total_s=0.5)
    synthesis = engine.synthesize("hello", "en", 60)
    with pytest.raises(EngineFailed, match="hung"):
        b"".join(synthesis)


def test_the_kit_without_a_sound_card_is_said_once(tmp_path):
    cards = tmp_path / "asound" / "cards"
    cards.parent.mkdir()
    cards.write_text("--- no soundcards ---\n")
    aplay = script(tmp_path, "cat > /dev/null\n")
    with pytest.raises(AudioUnavailable, match="dtoverlay=max98357a"):
        AlsaAudio(aplay=aplay, cards=cards).check()


def test_alsa_output_streams_to_aplay_and_a_stop_ends_it(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(" 0 [sndrpihifiberry]: RPi-simple - snd_rpi_hifiberry_dac\n")
    heard = tmp_path / "heard.raw"
    aplay = script(tmp_path, f'echo "$@" > {tmp_path}/args\ncat > {heard}\n')
    out = AlsaAudio("plughw:CARD=sndrpihifiberry", aplay=aplay, cards=cards)
    out.check()
    assert out.play([b"\x01\x02" * 100, b"\x03\x04" * 100], Pcm(22050, 1, 2)) is True
    assert heard.read_bytes() == b"\x01\x02" * 100 + b"\x03\x04" * 100
    args = (tmp_path / "args").read_text().split()
    assert args[args.index("-D") + 1] == "plughw:CARD=sndrpihifiberry"
    assert args[args.index("-r") + 1] == "22050"


def test_an_aplay_that_fails_is_the_device_failing(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(" 0 [Headphones]: bcm2835\n")
    busy = "echo 'audio open error: Device or resource busy' >&2"
    aplay = script(tmp_path, f"cat > /dev/null\n{busy}\nexit 1\n")
    with pytest.raises(AudioUnavailable, match="resource busy"):
        AlsaAudio(aplay=aplay, cards=cards).play([b"\0\0" * 10], Pcm())


def test_an_aplay_that_hangs_is_killed(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(" 0 [Headphones]: bcm2835\n")
    aplay = script(tmp_path, "exec sleep 600 < /dev/null\n")
    with pytest.raises(AudioUnavailable, match="hangs"):
        AlsaAudio(aplay=aplay, cards=cards, grace_s=0.3).play([b"\0\0" * 10], Pcm())
    assert os.path.exists(aplay)
