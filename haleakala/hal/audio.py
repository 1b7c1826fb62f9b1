"""The kit's loudspeaker, like its LEDs and OLED: one device protocol, one backend per place.

What the companion says is synthesised elsewhere (``haleakala.speech``); this module only
plays 16-bit mono PCM, chunk by chunk as the engine makes it, and stops at once when told:
a refusal interrupts the sentence before it. ``play`` blocks the thread that calls it (the
speech worker, never the daemon's loop); ``stop`` may be called from any thread.

Backends:
- ``AlsaAudio`` (the kit): ``aplay`` from alsa-utils (in every Raspberry Pi OS image) on an
  ALSA device (``default``, or the I2S amplifier's ``plughw:…``), started per utterance and
  fed through a pipe, so a hung or missing sound card costs a process, never the daemon.
- ``DesktopAudio`` (the simulator's window): pygame's mixer, imported when first used.
- ``FileAudio`` (tests, a maker listening later): each utterance a WAV file in a directory
  and a line in ``spoken.jsonl`` beside them, in the order they were spoken.
- ``SimAudio`` (the sim backend): kept in memory, as ``SimLeds`` keeps frames.

A device that is absent says so once with ``AudioUnavailable`` (a sentence naming what is
missing and how to fix it); the speech worker then goes on silently.
"""

from __future__ import annotations

import array
import contextlib
import json
import math
import os
import shutil
import subprocess
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

ASOUND_CARDS = Path("/proc/asound/cards")


class AudioUnavailable(RuntimeError):
    """The sound device cannot be used: what is missing, and how to fix it."""


@dataclass(frozen=True)
class Pcm:
    """The shape of the samples: signed 16-bit little-endian, ``rate`` Hz, ``channels``."""

    rate: int = 22050
    channels: int = 1
    width: int = 2


@dataclass(frozen=True)
class Spoken:
    """One utterance as played: what was said, in which language, its key (the journal
    position it belongs to), and the samples (``SimAudio`` and ``FileAudio`` keep them)."""

    key: str
    text: str
    language: str
    pcm: Pcm
    samples: bytes
    finished: bool  # False: stopped part-way (a refusal interrupted it)


@runtime_checkable
class AudioOutput(Protocol):
    """Where speech is heard."""

    name: str

    def check(self) -> None:
        """Raise ``AudioUnavailable`` if nothing can be played (said once, at start)."""

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        """Play ``chunks`` as they come; True when all were played, False if ``stop``
        cut it short. Raises ``AudioUnavailable`` when the device fails meanwhile."""

    def stop(self) -> None:
        """End the utterance being played now (from any thread)."""

    def close(self) -> None: ...


class _Stoppable:
    """The stop flag every backend shares: set by ``stop``, cleared by the next ``play``."""

    def __init__(self) -> None:
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self.stop()


class SimAudio(_Stoppable):
    """Recording output of the sim backend: the last ``history`` utterances in memory."""

    name = "sim"

    def __init__(self, history: int | None = 200) -> None:
        super().__init__()
        self.spoken: deque[Spoken] = deque(maxlen=history)
        self.count = 0
        self.on_play: Callable[[Spoken], None] | None = None  # tests: see each one

    def check(self) -> None:
        return None

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        self._stop.clear()
        data = bytearray()
        for chunk in chunks:
            if self._stop.is_set():
                break
            data += chunk
        done = not self._stop.is_set()
        said = Spoken(key, text, language, pcm, bytes(data), done)
        self.spoken.append(said)
        self.count += 1
        if self.on_play is not None:
            self.on_play(said)
        return done

    def texts(self) -> list[str]:
        return [s.text for s in self.spoken]


MANIFEST = "spoken.jsonl"


class FileAudio(SimAudio):
    """Each utterance a WAV file in ``directory`` (``0001-<key>.wav``) and a line in
    ``spoken.jsonl``: key, language, text, file, whether it was finished. The line is
    written and flushed after the file, so a process killed part-way leaves no line for a
    file it did not finish. A restart numbers on from the files already there."""

    name = "files"

    def __init__(self, directory: Path | str, history: int | None = 20) -> None:
        super().__init__(history)
        self.directory = Path(directory)
        self._number = 0

    def check(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AudioUnavailable(
                f"cannot write speech to {self.directory}: {exc.strerror or exc}; "
                "set [speech] directory to a writable folder"
            ) from exc
        self._number = sum(1 for _ in self.directory.glob("*.wav"))

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        done = super().play(chunks, pcm, key=key, text=text, language=language)
        said = self.spoken[-1]
        self._number += 1
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)[:80]
        name = f"{self._number:04d}-{safe or 'said'}.wav"
        try:
            write_wav(self.directory / name, said.samples, pcm)
            line = {"key": key, "language": language, "text": text, "file": name, "done": done}
            with (self.directory / MANIFEST).open("a", encoding="utf-8") as fp:
                fp.write(json.dumps(line, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise AudioUnavailable(f"cannot write speech to {self.directory}: {exc}") from exc
        return done


def rms(samples: bytes) -> float:
    """Root mean square of 16-bit samples (full scale 32768): speech at 60 % is 1,500-3,000,
    silence 0. (``audioop`` is gone from Python 3.13; this is the one measure needed.)"""
    values = array.array("h")
    values.frombytes(samples[: len(samples) // 2 * 2])
    if not values:
        return 0.0
    return math.sqrt(sum(v * v for v in values) / len(values))


HEARD_RMS = 300.0
"""Above this a sound is heard (speech at 20 % volume is ~500)."""


def write_wav(path: Path, samples: bytes, pcm: Pcm) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(pcm.channels)
        w.setsampwidth(pcm.width)
        w.setframerate(pcm.rate)
        w.writeframes(samples)


def sound_cards(cards: Path = ASOUND_CARDS) -> list[tuple[str, str]]:
    """The ALSA cards the kernel knows (``/proc/asound/cards``): (id, driver) per card,
    e.g. ("MAX98357A", "simple-card") or ("Device", "USB-Audio")."""
    try:
        text = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = []
    for line in text.splitlines():
        if "[" in line and "]:" in line:
            card_id = line.split("[", 1)[1].split("]", 1)[0].strip()
            driver = line.split("]:", 1)[1].split(" - ", 1)[0].strip()
            found.append((card_id, driver))
    return found


SPEAKERS = ("MAX98357A", "USB-Audio", "snd_rpi_hifiberry_dac")
"""What a kit's loudspeaker shows up as: the I2S amplifier's card (``dtoverlay=max98357a``;
hifiberry-dac, an older way to drive it) or a USB speaker's."""


def speaker_device(cards: Path = ASOUND_CARDS) -> str:
    """``[speech] device = "auto"``: the kit's loudspeaker (the I2S amplifier or a USB
    speaker, ``plughw:CARD=…``, converting the engine's rate), else ALSA's ``default`` (the
    Pi's headphone jack, or HDMI)."""
    for card_id, driver in sound_cards(cards):
        if card_id in SPEAKERS or driver in SPEAKERS:
            return f"plughw:CARD={card_id},DEV=0"
    return "default"


class AlsaAudio(_Stoppable):
    """The kit's loudspeaker through ``aplay -D DEVICE`` (alsa-utils): one process per
    utterance, fed the samples as the engine makes them. Killing it is the stop; a process
    that does not finish within the sound's length plus ``grace_s`` is killed too (a hung
    driver must not hold the speech worker)."""

    name = "alsa"

    def __init__(
        self,
        device: str = "auto",
        *,
        aplay: str = "aplay",
        cards: Path = ASOUND_CARDS,
        grace_s: float = 3.0,
    ) -> None:
        super().__init__()
        self.device = device
        self.aplay = aplay
        self.cards = cards
        self.grace_s = grace_s
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def check(self) -> None:
        if shutil.which(self.aplay) is None:
            raise AudioUnavailable(
                f"{self.aplay} is not installed: sudo apt install alsa-utils "
                "(haleakala install does it)"
            )
        if self.cards.parent.exists() and not sound_cards(self.cards):
            raise AudioUnavailable(
                "no sound card: plug in the USB speaker, or wire the I2S amplifier (MAX98357A, "
                'hw/MAKER.md) with [speech] speaker = "i2s" and run haleakala install (it adds '
                "dtoverlay=max98357a to /boot/firmware/config.txt), then reboot"
            )
        if self.device == "auto":
            self.device = speaker_device(self.cards)

    def stop(self) -> None:
        super().stop()
        with self._lock:
            proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        self._stop.clear()
        command = [self.aplay, "-q", "-D", self.device, "-t", "raw", "-f", "S16_LE"]
        command += ["-r", str(pcm.rate), "-c", str(pcm.channels)]
        try:
            proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as exc:
            raise AudioUnavailable(f"cannot start {self.aplay}: {exc.strerror or exc}") from exc
        with self._lock:
            self._proc = proc
        assert proc.stdin is not None
        played = 0
        started = time.monotonic()
        try:
            for chunk in chunks:
                if self._stop.is_set():
                    break
                proc.stdin.write(chunk)
                played += len(chunk)
            proc.stdin.close()
        except (BrokenPipeError, ValueError):
            pass  # aplay ended (stopped, or the device failed: its exit status says which)
        seconds = played / (pcm.rate * pcm.channels * pcm.width)
        limit = max(0.0, started + seconds + self.grace_s - time.monotonic())
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AudioUnavailable(
                f"{self.aplay} on {self.device} did not finish a {seconds:.1f} s sound "
                f"within {self.grace_s:g} s more: the sound device hangs"
            ) from None
        finally:
            with self._lock:
                self._proc = None
        if self._stop.is_set():
            return False
        if code != 0:
            error = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
            raise AudioUnavailable(
                f"{self.aplay} -D {self.device} failed ({error or f'exit status {code}'}): "
                "check [speech] device (aplay -L lists them)"
            )
        return True


class DesktopAudio(_Stoppable):
    """The desktop's sound through pygame's mixer (the simulator window's extra), opened on
    first use at the engine's rate; the whole utterance is played once it is made."""

    name = "desktop"

    def __init__(self) -> None:
        super().__init__()
        self._rate: int | None = None

    def _open(self, pcm: Pcm) -> None:
        if self._rate == pcm.rate:
            return
        try:
            import pygame
        except ImportError as exc:
            from haleakala.checkout import install_hint

            raise AudioUnavailable(f"pygame is not installed: {install_hint('sim')}") from exc
        try:
            if pygame.mixer.get_init():
                pygame.mixer.quit()
            pygame.mixer.init(frequency=pcm.rate, size=-16, channels=pcm.channels)
        except pygame.error as exc:
            raise AudioUnavailable(f"no desktop sound: {exc}") from exc
        self._rate = pcm.rate

    def check(self) -> None:
        self._open(Pcm())

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        self._stop.clear()
        self._open(pcm)
        import pygame

        data = b"".join(chunk for chunk in chunks if not self._stop.is_set())
        if self._stop.is_set() or not data:
            return not self._stop.is_set()
        channel = pygame.mixer.Sound(buffer=data).play()
        while channel is not None and channel.get_busy():
            if self._stop.wait(0.02):
                channel.stop()
                return False
        return True

    def close(self) -> None:
        super().close()
        if self._rate is not None:
            with contextlib.suppress(Exception):
                import pygame

                pygame.mixer.quit()


class NoAudio(_Stoppable):
    """Speech is switched off in the config (``output = "none"``)."""

    name = "none"

    def check(self) -> None:
        raise AudioUnavailable('speech output is "none" in the config ([speech] output)')

    def play(
        self,
        chunks: Iterable[bytes],
        pcm: Pcm,
        *,
        key: str = "",
        text: str = "",
        language: str = "",
    ) -> bool:
        return False


OUTPUTS = ("auto", "alsa", "desktop", "files", "none")
"""``[speech] output``: auto (the kit: ALSA; the simulator window: the desktop's sound;
the headless sim daemon: none), or one of them by name."""


def open_audio(
    output: str, backend: str, *, device: str = "auto", directory: str = "", window: bool = False
) -> SimAudio | AlsaAudio | DesktopAudio | NoAudio:
    """The audio output the config asks for on ``backend`` ("pi" or "sim")."""
    if output == "auto":
        output = "alsa" if backend == "pi" else "desktop" if window else "none"
    if output == "alsa":
        return AlsaAudio(device or "auto")
    if output == "desktop":
        return DesktopAudio()
    if output == "files":
        folder = directory or os.path.join(os.getcwd(), "speech")
        return FileAudio(folder)
    return NoAudio()
