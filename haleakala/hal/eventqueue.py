"""The controller's event queue: bounded, and it coalesces board reports.

A plain ``queue.Queue`` grows without limit when a sensor floods it (a faulty RFID link
sending thousands of valid frames a second queued ~11,000 events, seconds of backlog). Two
rules keep it short without losing anything that matters:

* **Reports of a state are coalesced.** ``BeachContents`` (one beach's full contents) and
  ``LinkHealth`` (the link's state) describe *what is*, so only the newest one per beach
  (per link) matters: a new report replaces a queued one for the same beach instead of
  queueing behind it. Only within the reports queued after the last other event, so the
  board the controller sees before a button press is still a board from before that press.
  When the queue is full a report replaces the newest queued one for its beach wherever it
  is; so reports never make the queue longer than ``maxsize`` plus one per key.
* **Presses beyond the bound are dropped and counted.** Button presses, holds and encoder
  turns are refused once ``maxsize`` events wait (a backlog no player could have meant).
  Events the program posts itself (a bot's decision, the stop sentinel) are never dropped.

``stats()`` exposes the counters; the daemon logs them now and then, never per event.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Hashable
from queue import Empty
from typing import Any, Generic, TypeVar

from haleakala.hal.events import BeachContents, ButtonHeld, ButtonPressed, EncoderTurned, LinkHealth

__all__ = ["EVENTS_MAX", "Empty", "EventQueue"]

EVENTS_MAX = 256
"""Events that may wait. At ~1 ms per event that is a quarter second of backlog at most."""

KEYS_MAX = 8
"""Coalescing keys that may each add one report beyond ``maxsize``: six beaches, the link."""

E = TypeVar("E")
"""What a queue carries: the hardware's ``InputEvent`` and whatever its program posts."""

DROPPABLE = (ButtonPressed, ButtonHeld, EncoderTurned, BeachContents, LinkHealth)
"""Hardware inputs: refused when the queue is full and they cannot be coalesced."""


def coalesce_key(event: object) -> Hashable | None:
    """Reports whose newest value is all that matters share a key; other events have none."""
    if isinstance(event, BeachContents):
        beach = event.beach
        return ("beach", beach) if isinstance(beach, int) else None
    if isinstance(event, LinkHealth):
        return ("link",)
    return None


class _Cell(Generic[E]):
    __slots__ = ("event", "key")

    def __init__(self, event: E, key: Hashable | None) -> None:
        self.event = event
        self.key = key


class EventQueue(Generic[E]):
    """Thread-safe FIFO with the ``queue.Queue`` calls the controller and daemon use
    (``put``, ``get``, ``get_nowait``, ``empty``, ``qsize``) plus ``stats``."""

    def __init__(self, maxsize: int = EVENTS_MAX) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize {maxsize} must be at least 1")
        self.maxsize = maxsize
        self._cells: deque[_Cell[E]] = deque()
        self._tail: dict[Hashable, _Cell[E]] = {}  # keyed reports after the last other event
        self._last: dict[Hashable, _Cell[E]] = {}  # newest queued report per key, anywhere
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self.put_count = 0
        self.coalesced = 0
        self.dropped: Counter[str] = Counter()
        self.peak = 0
        self.full_count = 0

    # ------------------------------------------------------------------ producers

    def put(self, event: E, block: bool = True, timeout: float | None = None) -> None:
        """Queue ``event`` (never blocks: a full queue coalesces or drops instead)."""
        key = coalesce_key(event)
        with self._lock:
            self.put_count += 1
            full = len(self._cells) >= self.maxsize
            self.full_count += full
            if key is not None:
                cell = self._tail.get(key) or (self._last.get(key) if full else None)
                if cell is not None:
                    cell.event = event
                    self.coalesced += 1
                    return
                # Full, and nothing of this beach waits: its newest state still goes in
                # (at most one per key), unless a faulty producer invents keys.
                full = full and len(self._last) >= KEYS_MAX
            if full and isinstance(event, DROPPABLE):
                self.dropped[type(event).__name__] += 1
                return
            cell = _Cell(event, key)
            self._cells.append(cell)
            if key is None:
                self._tail.clear()  # later reports must not overtake this event
            else:
                self._tail[key] = cell
                self._last[key] = cell
            if len(self._cells) > self.peak:
                self.peak = len(self._cells)
            self._ready.notify()

    put_nowait = put

    # ------------------------------------------------------------------ the consumer

    def get(self, block: bool = True, timeout: float | None = None) -> E:
        """The oldest event; waits up to ``timeout`` (None: forever) unless ``block`` is
        false; raises ``queue.Empty`` when there is none."""
        with self._lock:
            if not self._cells:
                if not block or (timeout is not None and timeout <= 0):
                    raise Empty
                if timeout is None:
                    while not self._cells:
                        self._ready.wait()
                else:
                    end = time.monotonic() + timeout
                    while not self._cells:
                        left = end - time.monotonic()
                        if left <= 0:
                            raise Empty
                        self._ready.wait(left)
            cell = self._cells.popleft()
            key = cell.key
            if key is not None:
                if self._tail.get(key) is cell:
                    del self._tail[key]
                if self._last.get(key) is cell:
                    del self._last[key]
            return cell.event

    def get_nowait(self) -> E:
        return self.get(block=False)

    def empty(self) -> bool:
        with self._lock:
            return not self._cells

    def qsize(self) -> int:
        with self._lock:
            return len(self._cells)

    def stats(self) -> dict[str, Any]:
        """Counters for logs and benchmarks: events put, reports coalesced, events dropped
        (by kind), the deepest the queue has been, how many puts found it full (then a
        report may replace one queued before a press), and how many wait now."""
        with self._lock:
            return {
                "put": self.put_count,
                "coalesced": self.coalesced,
                "dropped": dict(self.dropped),
                "dropped_total": sum(self.dropped.values()),
                "peak": self.peak,
                "full": self.full_count,
                "queued": len(self._cells),
                "maxsize": self.maxsize,
            }
