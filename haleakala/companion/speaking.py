"""Giving the companion its voice: the engine, the worker and the narrator, from the config.

The config says how the kit speaks by default (``[speech]``: verbosity, volume, engine,
output); a choice made at the board's menu is in the journal and wins, as the language's does.
A kit whose output is ``none`` gets no narrator at all (and no voice entries in its menu).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from haleakala.hal.audio import NoAudio
from haleakala.speech.engine import make_engine
from haleakala.speech.settings import Settings
from haleakala.speech.voice import Voice

from .narrator import Narrator

if TYPE_CHECKING:
    from haleakala.config import Config

log = logging.getLogger("haleakala.speech")


def settings_of(config: Config, journal: Any = None) -> Settings:
    """The config's speech settings, unless the board's menu chose others (the journal)."""
    speech = config.speech
    default = Settings(speech.verbosity, speech.volume)
    chosen = getattr(journal, "speech", None) if journal is not None else None
    return Settings.of_record(chosen, default) or default


def attach(companion: Any, config: Config, *, engine: Any = None) -> Narrator | None:
    """Start the voice on ``companion``'s loudspeaker (``hardware.audio``) and let its
    narrator watch the game; None when the kit has no loudspeaker (output ``none``).
    A loudspeaker or engine that is missing is the voice's trouble (one log line, a note on
    the OLED), never an error: the game goes on silently."""
    audio = companion.hardware.audio
    if audio is None or isinstance(audio, NoAudio):
        return None
    speech = config.speech
    engine = engine or make_engine(
        speech.engine, rate=speech.rate, piper_voices=speech.piper_voices
    )
    settings = settings_of(config, companion.journal)
    voice = Voice(engine, audio, settings).start()
    narrator = Narrator(companion, voice)
    companion.narrator = narrator
    if voice.silent:  # the voice said why, once; the narrator puts it on the OLED
        return narrator
    log.info(
        "speech: %s through %s on %s, volume %d %%",
        settings.verbosity,
        engine.name,
        audio.name,
        settings.volume,
    )
    return narrator


def detach(companion: Any) -> None:
    """Stop the voice (shutdown): what is being said ends, nothing more is said."""
    narrator = getattr(companion, "narrator", None)
    if narrator is not None:
        narrator.voice.close()
        companion.narrator = None
