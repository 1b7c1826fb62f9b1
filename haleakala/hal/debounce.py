"""Button debouncing and long-press detection, with a clock the tests can drive.

Why our own: gpiozero's ``MockFactory`` ignores ``bounce_time``, so a debouncer inside the
vendor library could never be tested on CI; and long-press must be known *before* the short
press is reported (``back`` held means undo, not back-then-undo).

Model (leading edge + lockout): the first edge after a quiet period is accepted at once, then
the line is ignored for ``bounce_s``; when the lockout ends the debounced state catches up
with the raw level if they differ. So a bouncing contact costs no latency, a burst of edges is
one change, and the debounced state always converges to the settled level.

Reporting: a press shorter than ``hold_s`` is reported as ``ButtonPressed`` when it is
released; a press still held at ``hold_s`` is reported once as ``ButtonHeld`` at that moment
and its release reports nothing. Every debounced press therefore yields exactly one event.

Time only moves when ``edge`` or ``tick`` is called: a backend calls ``tick`` at
``next_deadline()`` (see ``DebounceTicker``); tests call it with a fake clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from haleakala.hal.events import ButtonHeld, ButtonPressed

DEFAULT_BOUNCE_S = 0.020
DEFAULT_HOLD_S = 0.800

Clock = Callable[[], float]
Post = Callable[[ButtonPressed | ButtonHeld], None]


@dataclass
class _Line:
    raw: bool = False  # True = contact closed (pressed)
    state: bool = False  # debounced
    locked_until: float = float("-inf")
    pressed_at: float = 0.0
    held: bool = False


class Debouncer:
    """Edges in (``edge(button, pressed)``), debounced ``ButtonPressed``/``ButtonHeld`` out.

    Thread-safe: edges may arrive from a GPIO callback thread while a ticker thread calls
    ``tick``. ``post`` is called with the lock released, in time order per button.
    """

    def __init__(
        self,
        post: Post,
        *,
        bounce_s: float = DEFAULT_BOUNCE_S,
        hold_s: float = DEFAULT_HOLD_S,
        clock: Clock = time.monotonic,
    ) -> None:
        if bounce_s <= 0:
            raise ValueError(f"bounce time {bounce_s} s must be positive")
        if hold_s <= bounce_s:
            raise ValueError(f"hold time {hold_s} s must be longer than bounce time {bounce_s} s")
        self.post = post
        self.bounce_s = bounce_s
        self.hold_s = hold_s
        self.clock = clock
        self._lines: dict[str, _Line] = {}
        self._lock = threading.Lock()

    def edge(self, button: str, pressed: bool, at: float | None = None) -> None:
        """The raw contact of ``button`` changed to ``pressed`` (at ``at``, default now)."""
        now = self.clock() if at is None else at
        with self._lock:
            out = self._advance(now)
            line = self._lines.setdefault(button, _Line())
            line.raw = pressed
            if now >= line.locked_until and line.state != pressed:
                self._accept(button, line, pressed, now, out)
        self._emit(out)

    def tick(self, now: float | None = None) -> None:
        """Let time pass: finish lockouts and report holds that are due."""
        now = self.clock() if now is None else now
        with self._lock:
            out = self._advance(now)
        self._emit(out)

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing until the next edge)."""
        with self._lock:
            deadlines = []
            for line in self._lines.values():
                if line.raw != line.state:
                    deadlines.append(line.locked_until)
                if line.state and not line.held:
                    deadlines.append(line.pressed_at + self.hold_s)
            return min(deadlines, default=None)

    def is_pressed(self, button: str) -> bool:
        """Debounced state of ``button``."""
        with self._lock:
            line = self._lines.get(button)
            return bool(line and line.state)

    def _advance(self, now: float) -> list[ButtonPressed | ButtonHeld]:
        out: list[ButtonPressed | ButtonHeld] = []
        for button, line in self._lines.items():
            if line.raw != line.state and line.locked_until <= now:
                self._accept(button, line, line.raw, line.locked_until, out)
            if line.state and not line.held and now >= line.pressed_at + self.hold_s:
                line.held = True
                out.append(ButtonHeld(button))
        return out

    def _accept(
        self,
        button: str,
        line: _Line,
        pressed: bool,
        at: float,
        out: list[ButtonPressed | ButtonHeld],
    ) -> None:
        line.state = pressed
        line.locked_until = at + self.bounce_s
        if pressed:
            line.pressed_at = at
            line.held = False
        elif not line.held:
            out.append(ButtonPressed(button))

    def _emit(self, events: list[ButtonPressed | ButtonHeld]) -> None:
        for event in events:
            self.post(event)


class DebounceTicker:
    """A daemon thread that calls ``debouncer.tick()`` when its next deadline comes.

    Used by the ``pi`` backend, where edges arrive from gpiozero's callback thread and nothing
    else would let time pass. ``poke()`` after every edge re-reads the deadline.
    """

    def __init__(self, debouncer: Debouncer, *, idle_s: float = 0.5) -> None:
        self.debouncer = debouncer
        self.idle_s = idle_s
        self._wake = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="haleakala-debounce", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def poke(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop:
            deadline = self.debouncer.next_deadline()
            wait = self.idle_s if deadline is None else deadline - self.debouncer.clock()
            if wait > 0:
                self._wake.wait(min(wait, self.idle_s))
                self._wake.clear()
            if not self._stop:
                self.debouncer.tick()
