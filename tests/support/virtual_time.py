"""The daemon's loop under a clock the test moves, instead of real time and sleeps.

``VirtualTimeQueue`` stands in for the controller's event queue. A wait with a timeout ends
when an event is put or when the test moves the clock (a ``SimClock``) to its end, and no real
time passes in between: what the loop does over a stretch of time (watchdog pings, timers) is
exact on any machine, however loaded. Real timings are ``haleakala bench daemon``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from haleakala.hal.simulated import SimClock
from support.waiting import wait_for


class VirtualTimeQueue(queue.Queue):
    def __init__(self, clock: SimClock) -> None:
        super().__init__()
        self.clock = clock
        self.changed = threading.Condition()
        self.waits = 0  # blocking waits the loop has begun
        self.timeouts: list[float | None] = []  # what each wait asked for
        self.waiting = False
        self.waiting_until: float | None = None

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        with self.changed:
            self.changed.notify_all()

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        if not block or timeout == 0:
            return super().get(False)
        with self.changed:
            self.waits += 1
            self.timeouts.append(timeout)
            until = None if timeout is None else self.clock.now + timeout
            self.waiting, self.waiting_until = True, until
            try:
                while self.empty():
                    if until is not None and self.clock.now >= until:
                        raise queue.Empty
                    self.changed.wait()
            finally:
                self.waiting = False
        return super().get(False)

    def idle(self) -> bool:
        """The loop is blocked on this queue with nothing to handle."""
        with self.changed:
            return self.waiting and self.empty()

    def advance_to(self, when: float) -> None:
        with self.changed:
            if when > self.clock.now:
                self.clock.advance(when - self.clock.now)
            self.changed.notify_all()

    def _next_wait(self) -> None:
        """Move the clock to the end of the loop's current wait and let it start the next."""
        waits = self.waits
        assert self.waiting_until is not None
        self.advance_to(self.waiting_until)
        wait_for(lambda: self.waits > waits and self.idle(), "the loop's next wait")

    def run_for(self, seconds: float) -> None:
        """Let ``seconds`` of clock time pass, stopping at every deadline the loop waits for."""
        end = self.clock.now + seconds
        while True:
            wait_for(self.idle, "the daemon loop to wait on its queue")
            if self.waiting_until is None or self.waiting_until > end:
                self.advance_to(end)
                return
            self._next_wait()

    def run_until(self, condition: Callable[[], bool], what: str) -> None:
        """Let clock time pass, deadline by deadline, until ``condition`` holds (events from
        other threads, such as the solo bot's answer, arrive on their own)."""
        while not condition():
            wait_for(lambda: condition() or self.idle(), what)
            if condition():
                return
            if self.waiting_until is None:
                waits = self.waits
                wait_for(lambda waits=waits: condition() or self.waits > waits, what)
            else:
                self._next_wait()
