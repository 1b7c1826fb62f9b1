"""Speech engines: text in one of the catalogs' languages in, 16-bit PCM out, as it is made.

Why espeak-ng by default: it is in Debian and Raspberry Pi OS (``apt install espeak-ng``),
speaks English, German and French from one 2 MB package, starts in a few milliseconds on a
Pi and streams its samples while it synthesises (``--stdout``), so the first word is heard
long before the sentence is done. Its voice is robotic but clear, and its speed and volume
are options. It runs as a process per utterance: a crash or a hang costs that process (it is
killed after ``first_s`` without a sample or ``total_s`` in all), never the daemon.

Piper (``pip install piper-tts``; ``Piper`` below) sounds far more natural but needs a voice
model per language (an ``.onnx`` file of 20–60 MB that Piper's project publishes outside the
package registries). It is used for a language whose model is in ``[speech] piper_voices``;
any other language stays with espeak-ng.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from haleakala.hal.audio import Pcm

log = logging.getLogger("haleakala.speech")

ESPEAK = "espeak-ng"
ESPEAK_VOICES: dict[str, str] = {"en": "en", "de": "de", "fr": "fr"}
"""espeak-ng's voice for each catalog language (``espeak-ng --voices`` lists them)."""
RATE_WPM = 160
"""Words per minute: a little slower than espeak-ng's 175, for a table of players."""
FIRST_S = 5.0
"""An engine that gives no sample this long after the text is hung (killed)."""
TOTAL_S = 30.0
"""No sentence of the companion takes this long to synthesise (the longest is ~8 s)."""
CHUNK = 4096


class EngineMissing(RuntimeError):
    """The engine is not installed: what to install."""


class VoiceMissing(RuntimeError):
    """The engine has no voice for a language."""

    def __init__(self, language: str, message: str) -> None:
        super().__init__(message)
        self.language = language


class EngineFailed(RuntimeError):
    """The engine crashed or hung on one utterance."""


class Synthesis(Protocol):
    """One utterance being made: its samples' shape, the samples as they come, and a way
    to abandon it (another thread may call ``cancel``)."""

    pcm: Pcm

    def __iter__(self) -> Iterator[bytes]: ...

    def cancel(self) -> None: ...


class Engine(Protocol):
    name: str

    def check(self) -> None:
        """Raise ``EngineMissing`` when the engine cannot run at all."""

    def languages(self) -> set[str]:
        """The catalog languages this engine has a voice for."""

    def synthesize(self, text: str, language: str, volume: int) -> Synthesis:
        """Start making ``text`` in ``language`` at ``volume`` (0–100 %)."""


@dataclass
class _Process:
    """A synthesis by a subprocess that writes a WAV stream on stdout: the header is read
    first (its format), then the samples as they come, each read bounded in time."""

    command: list[str]
    text: str
    first_s: float = FIRST_S
    total_s: float = TOTAL_S
    pcm: Pcm = field(default_factory=Pcm)
    _proc: subprocess.Popen[bytes] | None = None
    _cancelled: bool = False
    _pending: bytes = b""

    def start(self) -> _Process:
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise EngineMissing(f"cannot start {self.command[0]}: {exc.strerror or exc}") from exc
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(self.text.encode("utf-8") + b"\n")
            self._proc.stdin.close()
        except BrokenPipeError:
            pass  # it died at once: the exit status says why
        self._started = time.monotonic()
        header = self._read_exactly(44, self._started + self.first_s)
        if len(header) < 44:
            self._fail("gave no sound")
        self.pcm, self._pending = parse_wav_header(header)
        return self

    def _read_exactly(self, n: int, deadline: float) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self._read(deadline, n - len(data))
            if not chunk:
                break
            data += chunk
        return data

    def _read(self, deadline: float, size: int = CHUNK) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill()
                if self._cancelled:
                    return b""
                raise EngineFailed(f"{self.command[0]} hung (no sound within its time): killed")
            ready, _w, _x = select.select([fd], [], [], min(left, 0.5))
            if ready:
                try:
                    return os.read(fd, size)
                except OSError:
                    return b""
            if self._cancelled:
                return b""

    def __iter__(self) -> Iterator[bytes]:
        if self._pending:
            yield self._pending
            self._pending = b""
        deadline = self._started + self.total_s
        while not self._cancelled:
            chunk = self._read(deadline)
            if not chunk:
                break
            yield chunk
        if not self._cancelled:
            self._finish()

    def _finish(self) -> None:
        proc = self._proc
        assert proc is not None
        try:
            code = proc.wait(timeout=max(0.1, self._started + self.total_s - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._kill()
            raise EngineFailed(f"{self.command[0]} did not exit: killed") from None
        if code != 0 and not self._cancelled:
            self._fail(f"exited with status {code}")

    def _fail(self, what: str) -> None:
        proc = self._proc
        self._kill(close=False)
        error = ""
        if proc is not None and proc.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                error = proc.stderr.read(400).decode(errors="replace").strip()
        self._kill()
        error = " ".join(error.split())
        raise EngineFailed(f"{self.command[0]} {what}" + (f": {error}" if error else ""))

    def _kill(self, close: bool = True) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=2.0)
            for pipe in (proc.stdout, proc.stderr) if close else ():
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()

    def cancel(self) -> None:
        self._cancelled = True
        self._kill()


def parse_wav_header(data: bytes) -> tuple[Pcm, bytes]:
    """The format of a streamed WAV (espeak-ng's ``--stdout`` writes a 44-byte header whose
    sizes are placeholders) and whatever samples followed it in ``data``."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE" or data[12:16] != b"fmt ":
        raise EngineFailed("the engine's output is not a WAV stream")
    fmt, channels, rate, _bps, _align, bits = struct.unpack_from("<HHIIHH", data, 20)
    if fmt != 1 or bits != 16 or channels not in (1, 2):
        raise EngineFailed(f"unexpected sample format (format {fmt}, {bits} bits, {channels} ch)")
    return Pcm(rate=rate, channels=channels, width=2), data[44:]


class Espeak:
    """espeak-ng as a process per utterance (see the module's docstring)."""

    name = "espeak-ng"

    def __init__(
        self,
        binary: str = ESPEAK,
        *,
        voices: Mapping[str, str] | None = None,
        rate: int = RATE_WPM,
        first_s: float = FIRST_S,
        total_s: float = TOTAL_S,
    ) -> None:
        self.binary = binary
        self.voices = dict(ESPEAK_VOICES if voices is None else voices)
        self.rate = rate
        self.first_s = first_s
        self.total_s = total_s
        self._known: set[str] | None = None

    def check(self) -> None:
        if shutil.which(self.binary) is None:
            raise EngineMissing(
                f"{self.binary} is not installed: sudo apt install espeak-ng "
                "(haleakala install and ./test do it)"
            )

    def languages(self) -> set[str]:
        """The languages whose voice ``espeak-ng --voices`` lists (asked once)."""
        if self._known is None:
            self.check()
            try:
                listed = subprocess.run(
                    [self.binary, "--voices"], capture_output=True, text=True, timeout=10
                ).stdout
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise EngineMissing(f"{self.binary} --voices failed: {exc}") from exc
            names = set()
            for line in listed.splitlines()[1:]:
                parts = line.split()
                if len(parts) >= 5:
                    names.update({parts[1], parts[4], parts[4].rsplit("/", 1)[-1]})
            self._known = {lang for lang, voice in self.voices.items() if voice in names}
        return self._known

    def command(self, language: str, volume: int) -> list[str]:
        voice = self.voices.get(language)
        if voice is None:
            raise VoiceMissing(language, f"{self.binary} has no voice configured for {language}")
        amplitude = max(0, min(200, int(volume)))
        return [self.binary, "-v", voice, "-s", str(self.rate), "-a", str(amplitude), "--stdout"]

    def synthesize(self, text: str, language: str, volume: int) -> Synthesis:
        return _Process(self.command(language, volume), text, self.first_s, self.total_s).start()


@dataclass
class _InProcess:
    """A synthesis made by a library on this (the speech worker's) thread."""

    pcm: Pcm
    make: Callable[[], Iterator[bytes]]
    _cancelled: threading.Event = field(default_factory=threading.Event)

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.make():
            if self._cancelled.is_set():
                return
            yield chunk

    def cancel(self) -> None:
        self._cancelled.set()


class Piper:
    """Piper's neural voices (``piper-tts``, imported when first used) for the languages
    whose model (``<language>_*.onnx``, e.g. ``de_DE-thorsten-medium.onnx`` with its
    ``.onnx.json``) is in ``folder``; every other language through ``fallback``."""

    name = "piper"

    def __init__(self, folder: Path | str, fallback: Engine) -> None:
        self.folder = Path(folder)
        self.fallback = fallback
        self._voices: dict[str, Any] = {}

    def models(self) -> dict[str, Path]:
        """Language -> the first model file found for it."""
        found: dict[str, Path] = {}
        for path in sorted(self.folder.glob("*.onnx")):
            language = path.name.split("_", 1)[0].split("-", 1)[0].lower()
            found.setdefault(language, path)
        return found

    def check(self) -> None:
        try:
            import piper  # noqa: F401
        except ImportError as exc:
            raise EngineMissing(
                "piper-tts is not installed: pip install piper-tts (or set [speech] "
                'engine = "espeak-ng")'
            ) from exc
        if not self.models():
            raise EngineMissing(
                f"no Piper voice in {self.folder}: put a <language>_*.onnx model and its "
                '.onnx.json there, or set [speech] engine = "espeak-ng"'
            )

    def languages(self) -> set[str]:
        return set(self.models()) | self.fallback.languages()

    def _voice(self, language: str) -> Any:
        if language not in self._voices:
            from piper import PiperVoice

            self._voices[language] = PiperVoice.load(str(self.models()[language]))
        return self._voices[language]

    def synthesize(self, text: str, language: str, volume: int) -> Synthesis:
        if language not in self.models():
            return self.fallback.synthesize(text, language, volume)
        voice = self._voice(language)
        gain = max(0.0, min(2.0, volume / 100))

        def chunks() -> Iterator[bytes]:
            from piper import SynthesisConfig

            for chunk in voice.synthesize(text, syn_config=SynthesisConfig(volume=gain)):
                yield chunk.audio_int16_bytes

        return _InProcess(Pcm(rate=int(voice.config.sample_rate)), chunks)


def make_engine(name: str, *, rate: int = RATE_WPM, piper_voices: str = "") -> Engine:
    """The engine the config names (``[speech] engine``)."""
    espeak = Espeak(rate=rate)
    if name == "piper":
        return Piper(piper_voices, espeak)
    return espeak
