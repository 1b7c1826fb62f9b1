"""The companion's voice: a worker thread that says utterances one after another, so the
daemon's loop never waits for speech.

``say`` only queues (a lock, a list, a notify: microseconds) and returns; the worker makes
the sound with the engine and plays it on the audio output. What it promises:

- **Bounded.** At most ``maxsize`` utterances wait; when a flood of events fills the queue
  the least important and oldest is dropped (counted, logged once per flood), never the loop.
- **By priority.** An ``ALERT`` (a refusal, an error) interrupts what is being said and goes
  first; ``EVENT``\\s are said in the order they happened; a ``DETAIL`` (the line under the
  OLED's cursor) replaces the one before it on its ``channel``, so turning the encoder fast
  says only where it stopped.
- **Once.** An utterance's ``key`` names the journal position it belongs to; a key already
  queued or said is ignored, and the narrator only makes keys for what it saw happen after
  the daemon started, so nothing is said twice after a restart (``repeat`` is the one way
  to hear something again).
- **Silent, not stuck.** No audio device, no engine, no voice for a language, an engine that
  crashes or hangs (killed by the engine's time limits): the game goes on silently, with one
  log line and a ``trouble`` the narrator shows on the OLED once.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from haleakala.hal.audio import AudioOutput, AudioUnavailable

from .engine import Engine, EngineFailed, EngineMissing, Synthesis, VoiceMissing
from .settings import Settings

log = logging.getLogger("haleakala.speech")

DETAIL, EVENT, ALERT = 0, 1, 2
"""Priorities: a line under the cursor, something that happened, a refusal or error."""
MAXSIZE = 8
"""Utterances that may wait. At ~2 s each that is 15 s of speech: more is a flood, and what
happened longest ago is the first to go."""
FAILURES = 3
"""An engine that fails this many utterances in a row is not asked again (until the menu
switches speech off and on)."""
REMEMBERED = 512
"""Keys remembered to refuse a second saying (a whole game has ~150 decisions)."""


@dataclass(frozen=True)
class Utterance:
    """One thing to say, already in its language."""

    key: str
    text: str
    language: str
    priority: int = EVENT
    level: str = "events"
    full: str = ""  # the long form, for "repeat" ("" : the same as text)
    channel: str = ""  # a DETAIL replaces the one before it on the same channel
    at: float = field(default=0.0, compare=False)  # perf_counter() when it was asked for


@dataclass
class Trouble:
    """Why the voice is (partly) silent: ``kind`` is "device", "engine", "failing" or
    "voice" (one language: ``language``), ``detail`` the log's sentence."""

    kind: str
    detail: str
    language: str = ""


class Voice:
    """Speech on a worker thread (see the module's docstring)."""

    def __init__(
        self,
        engine: Engine,
        audio: AudioOutput,
        settings: Settings | None = None,
        *,
        maxsize: int = MAXSIZE,
    ) -> None:
        self.engine = engine
        self.audio = audio
        self.settings = settings or Settings()
        self.maxsize = maxsize
        self._queue: list[Utterance] = []
        self._cond = threading.Condition()
        self._current: Utterance | None = None
        self._synthesis: Synthesis | None = None
        self._stop_current = threading.Event()  # set: the utterance being said ends now
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._disabled = False
        self._failures = 0
        self._flooded = False
        self._mute: set[str] = set()  # languages without a voice
        self.recent: deque[Utterance] = deque(maxlen=2)  # what "repeat" says again
        self.troubles: list[Trouble] = []  # appended by the worker, read by the loop
        self.on_idle: Callable[[], None] | None = None
        self.said = 0
        self.dropped = 0
        self.interrupted = 0
        self.failed = 0
        self.latencies: list[float] = []  # asked -> first sample handed to the audio, in s

    # -- the loop's side: never blocks ---------------------------------------------------

    def start(self) -> Voice:
        """Check the engine and the device (a problem is a ``trouble``: silence, not an
        error) and start the worker."""
        try:
            self.engine.check()
            self.audio.check()
            missing = {"en", "de", "fr"} - self.engine.languages()
        except (EngineMissing, AudioUnavailable) as exc:
            kind = "device" if isinstance(exc, AudioUnavailable) else "engine"
            self._give_up(Trouble(kind, str(exc)))
            missing = set()
        for language in sorted(missing):
            self._mute_language(language, f"{self.engine.name} has no {language} voice")
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()
        return self

    @property
    def silent(self) -> bool:
        """Nothing will be said (switched off, or given up)."""
        return self._disabled or self.settings.silent

    def say(self, utterance: Utterance) -> bool:
        """Queue ``utterance`` (True), or not: off at this verbosity, said before, a
        language without a voice, or a full queue of more important ones (False)."""
        if self.silent or not self.settings.says(utterance.level):
            return False
        if utterance.language in self._mute:
            return False
        if not utterance.at:
            utterance = replace(utterance, at=time.perf_counter())
        with self._cond:
            if self._closed or utterance.key in self._seen:
                return False
            self._remember(utterance.key)
            current = self._current
            if utterance.channel:
                self._queue = [u for u in self._queue if u.channel != utterance.channel]
            interrupt = current is not None and (
                utterance.priority == ALERT > current.priority
                or (utterance.channel and utterance.channel == current.channel)
            )
            if len(self._queue) >= self.maxsize and not self._make_room(utterance):
                self._count_drop()
                return False
            self._queue.append(utterance)
            self._cond.notify()
            if interrupt:  # under the lock: the worker cannot have moved on to another
                self._interrupt()
        return True

    def repeat(self) -> bool:
        """Say the last two things said (a decision and whose turn it is now, say) again,
        the decision in its long form, at once."""
        recent = list(self.recent)
        if not recent:
            return False
        last = recent[-1]
        again = replace(
            last,
            key=f"{last.key}#again{time.perf_counter_ns()}",
            text=" ".join(u.full or u.text for u in recent),
            priority=ALERT,
            level="events",
            channel="",
            at=0.0,
        )
        return self.say(again)

    def set(self, settings: Settings) -> None:
        """New settings from the menu; switched off, what waits is forgotten and what is
        being said stops. Switching on again gives a failed engine another chance."""
        was = self.settings
        self.settings = settings
        if settings.silent:
            with self._cond:
                self._queue.clear()
            self._interrupt()
        elif was.silent and self._disabled and self._failures:
            self._disabled, self._failures = False, 0

    def idle(self) -> bool:
        with self._cond:
            return not self._queue and self._current is None

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or said (tests, ``--autoplay`` with speech)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._closed or (not self._queue and self._current is None), timeout
            )

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        self._interrupt()
        if self._thread is not None:
            self._thread.join(timeout)
        with contextlib.suppress(Exception):
            self.audio.close()

    def stats(self) -> dict[str, int]:
        return {
            "said": self.said,
            "dropped": self.dropped,
            "interrupted": self.interrupted,
            "failed": self.failed,
        }

    # -- queue keeping (under the lock) ----------------------------------------------------

    def _remember(self, key: str) -> None:
        self._seen[key] = None
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)

    def _make_room(self, newcomer: Utterance) -> bool:
        """Drop the least important, oldest waiting utterance if it matters no more than
        ``newcomer``; False: everything waiting matters more."""
        victim = min(range(len(self._queue)), key=lambda i: (self._queue[i].priority, i))
        if self._queue[victim].priority > newcomer.priority:
            return False
        del self._queue[victim]
        self._count_drop()
        return True

    def _count_drop(self) -> None:
        self.dropped += 1
        if not self._flooded:
            self._flooded = True
            log.warning(
                "speech: too much to say, the oldest is left out (%d waiting)", self.maxsize
            )

    def _next(self) -> Utterance | None:
        if not self._queue:
            return None
        best = max(range(len(self._queue)), key=lambda i: (self._queue[i].priority, -i))
        return self._queue.pop(best)

    def _interrupt(self) -> None:
        self._stop_current.set()
        synthesis = self._synthesis
        if synthesis is not None:
            with contextlib.suppress(Exception):
                synthesis.cancel()
        with contextlib.suppress(Exception):
            self.audio.stop()

    # -- the worker ------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not self._queue:
                    self._current = None
                    self._cond.notify_all()  # wait_idle
                    if self._flooded:
                        self._flooded = False
                    idle = self.on_idle
                    if idle is not None:
                        self._cond.release()
                        try:
                            idle()
                        finally:
                            self._cond.acquire()
                        if self._queue or self._closed:
                            break
                    self._cond.wait()
                if self._closed:
                    self._current = None
                    self._cond.notify_all()
                    return
                utterance = self._next()
                self._current = utterance
                self._stop_current.clear()
            if utterance is None:
                continue
            try:
                self._speak(utterance)
            except Exception:  # the worker must never die: silence, one line
                log.exception("speech: the voice failed")
                self._give_up(Trouble("failing", "the voice failed (see the log)"))
            finally:
                self._synthesis = None

    def _speak(self, utterance: Utterance) -> None:
        if self.silent or utterance.language in self._mute:
            return
        if utterance.priority > DETAIL and "#again" not in utterance.key:
            self.recent.append(utterance)
        try:
            synthesis = self.engine.synthesize(
                utterance.text, utterance.language, self.settings.volume
            )
        except VoiceMissing as exc:
            self._mute_language(exc.language, str(exc))
            return
        except EngineMissing as exc:
            self._give_up(Trouble("engine", str(exc)))
            return
        except EngineFailed as exc:
            self._engine_failed(exc)
            return
        self._synthesis = synthesis
        if self._stop_current.is_set():  # interrupted while the engine started
            synthesis.cancel()
            self.interrupted += 1
            return
        try:
            finished = self.audio.play(
                self._timed(synthesis, utterance),
                synthesis.pcm,
                key=utterance.key,
                text=utterance.text,
                language=utterance.language,
            )
        except EngineFailed as exc:
            synthesis.cancel()
            self._engine_failed(exc)
            return
        except AudioUnavailable as exc:
            synthesis.cancel()
            self._give_up(Trouble("device", str(exc)))
            return
        if finished and not self._stop_current.is_set():
            self.said += 1
            self._failures = 0
        else:
            self.interrupted += 1
            synthesis.cancel()

    def _timed(self, chunks: Synthesis, utterance: Utterance) -> Iterator[bytes]:
        first = True
        for chunk in chunks:
            if self._stop_current.is_set():
                return
            if first and chunk:
                self.latencies.append(time.perf_counter() - utterance.at)
                first = False
            yield chunk

    def _engine_failed(self, exc: Exception) -> None:
        self.failed += 1
        self._failures += 1
        if self._failures == 1:
            log.error("speech: %s; the game goes on", exc)
        if self._failures >= FAILURES:
            self._give_up(Trouble("failing", f"{self.engine.name} failed {FAILURES} times: {exc}"))

    def _give_up(self, trouble: Trouble) -> None:
        if self._disabled:
            return
        self._disabled = True
        log.error("speech off: %s; the game goes on silently", trouble.detail)
        self.troubles.append(trouble)
        with self._cond:
            self._queue.clear()

    def _mute_language(self, language: str, detail: str) -> None:
        if language in self._mute:
            return
        self._mute.add(language)
        log.error("speech: %s; %s is not spoken, the game goes on", detail, language)
        self.troubles.append(Trouble("voice", detail, language))
