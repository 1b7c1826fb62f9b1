"""Scenario time: a clock that moves only when told, and can later go live."""

from __future__ import annotations

import time

from haleakala.hal.simulated import SimClock


class ScenarioClock(SimClock):
    """Scenario time (moves only when told) that can later go live: a scenario watched in
    the window becomes an ordinary interactive session once it has finished."""

    def __init__(self, start: float = 0.0) -> None:
        super().__init__(start)
        self._live_since: float | None = None

    def __call__(self) -> float:
        if self._live_since is None:
            return self.now
        return self.now + (time.monotonic() - self._live_since)

    def go_live(self) -> None:
        if self._live_since is None:
            self._live_since = time.monotonic()

    @property
    def live(self) -> bool:
        return self._live_since is not None
