"""The self-test's loudspeaker step: one sentence in each catalog language, through the
engine and the output the daemon uses, and the question whether it was heard.

Its own module because the self-test's steps module is full (the 600-line rule); the self-test
calls ``check_speaker`` after the OLED when the kit has a loudspeaker (``[speech] output`` is
not ``none``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala import i18n
from haleakala.hal.audio import AudioUnavailable
from haleakala.i18n import N_
from haleakala.kit.selftest_steps import PartResult, VisualCheck
from haleakala.speech.engine import EngineFailed, EngineMissing, Espeak, VoiceMissing

if TYPE_CHECKING:
    from haleakala.kit.selftest import SelfTest

PHRASE = N_("This is the companion's voice.")
HINT = (
    "the speaker: a USB speaker plugged in, or the MAX98357A wired to GPIO 18, 19, 21, 5 V and "
    'GND with [speech] speaker = "i2s" (haleakala install, then reboot); aplay -l should list '
    "its card; espeak-ng installed (sudo apt install espeak-ng)"
)


def phrases() -> list[tuple[str, str]]:
    """(language, the sentence in it), the language in use left as it was."""
    was = i18n.current()
    out = []
    try:
        for language in i18n.LANGUAGES:
            try:
                i18n.use(language)
            except i18n.CatalogNotCompiled:
                continue
            out.append((language, i18n._(PHRASE)))
    finally:
        i18n.use(was)
    return out


def check_speaker(test: SelfTest) -> None:
    audio = test.hw.audio
    if audio is None:
        return
    speech = test.config.speech
    engine = Espeak(rate=speech.rate)
    said = phrases()
    try:
        engine.check()
        audio.check()
        for language, text in said:
            synthesis = engine.synthesize(text, language, max(speech.volume, 60))
            audio.play(synthesis, synthesis.pcm, key=f"selftest/{language}", text=text,
                       language=language)  # fmt: skip
    except (EngineMissing, EngineFailed, VoiceMissing, AudioUnavailable) as exc:
        test.add(PartResult("speaker", False, str(exc), HINT))
        return
    names = ", ".join(i18n.NAMES[language] for language, _ in said)
    ok, remark = test.op.confirm(
        VisualCheck("speaker", f"Did you hear one sentence each in {names}?", heard=len(said))
    )
    if ok:
        test.add(PartResult("speaker", True, f"a sentence in {names}"))
    else:
        test.add(PartResult("speaker", False, remark, HINT))
