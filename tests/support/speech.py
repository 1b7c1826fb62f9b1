"""Speech without a speech engine: a fake engine whose sounds are tones, which can hang,
crash or lack a voice on demand; and the measures of a real one's output (RMS)."""

from __future__ import annotations

import array
import math
import threading
import wave
from pathlib import Path

from haleakala.hal.audio import Pcm
from haleakala.speech.engine import EngineFailed, VoiceMissing


def tone(seconds: float = 0.05, rate: int = 22050, amplitude: int = 8000) -> bytes:
    n = int(seconds * rate)
    samples = array.array("h", (int(amplitude * math.sin(2 * math.pi * 440 * i / rate))
                                for i in range(n)))  # fmt: skip
    return samples.tobytes()


class FakeSynthesis:
    def __init__(self, engine: FakeEngine, text: str) -> None:
        self.engine = engine
        self.text = text
        self.pcm = Pcm()
        self.cancelled = threading.Event()

    def __iter__(self):
        if self.engine.hold.is_set():  # hang until released or cancelled
            self.engine.holding.set()
            while not self.engine.release.wait(0.01):
                if self.cancelled.is_set():
                    return
        for _ in range(self.engine.chunks):
            if self.cancelled.is_set():
                return
            yield tone()

    def cancel(self) -> None:
        self.cancelled.set()


class FakeEngine:
    """``hold.set()``: every synthesis waits for ``release``; ``fail``: that many failures
    to come; ``voices``: the languages it has."""

    name = "fake"

    def __init__(self, voices=("en", "de", "fr"), chunks: int = 2) -> None:
        self.voices = set(voices)
        self.chunks = chunks
        self.texts: list[str] = []
        self.hold = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()
        self.fail = 0

    def check(self) -> None:
        return None

    def languages(self) -> set[str]:
        return set(self.voices)

    def synthesize(self, text: str, language: str, volume: int) -> FakeSynthesis:
        if language not in self.voices:
            raise VoiceMissing(language, f"fake has no {language} voice")
        if self.fail:
            self.fail -= 1
            raise EngineFailed("fake crashed")
        self.texts.append(text)
        return FakeSynthesis(self, text)


from haleakala.hal.audio import rms  # noqa: E402


def wav_rms(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2
        return rms(w.readframes(w.getnframes()))
