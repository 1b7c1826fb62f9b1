"""The daemon's loop under a flood of events, on an injected clock that advances by a fixed
step for every event handled (issue 11: draining the whole queue first starved the watchdog
for 12 s). Whatever the queue holds, the watchdog ping and the controller's timers come at
least every ``SLICE_S`` (100 ms) of loop time, and the queue stays bounded."""

from __future__ import annotations

import itertools

import pytest
from support.companion_rig import Rig

from haleakala.companion.daemon import SLICE_S, Daemon, Notifier
from haleakala.hal.eventqueue import EVENTS_MAX, KEYS_MAX
from haleakala.hal.events import BeachContents, ButtonPressed, Disc

STEP_S = 0.007  # loop time one event costs on the injected clock
FLOOD = 10_000


class ClockedNotifier(Notifier):
    """Records when (on the injected clock) each message was sent."""

    def __init__(self, clock, watchdog_s: float) -> None:
        super().__init__({})
        self.watchdog_s = watchdog_s
        self.clock = clock
        self.pings: list[float] = []

    def notify(self, message: str) -> bool:
        if message == "WATCHDOG=1":
            self.pings.append(self.clock())
        return True


def flood_of(kind: str):
    if kind == "rfid":
        yellow = frozenset({Disc("yellow", 3)})  # out of turn: refused, then taken off
        return itertools.cycle(
            [BeachContents(2, yellow), BeachContents(2, frozenset()), BeachContents(5, frozenset())]
        )
    return itertools.cycle([ButtonPressed("beach2"), ButtonPressed("back")])


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(times)]


@pytest.mark.parametrize("kit", ["rfid", "buttons"])
def test_pings_and_timers_come_every_100ms_of_loop_time_under_a_flood(kit):
    rig = Rig(kit)
    companion = rig.c
    clock = rig.clock
    notifier = ClockedNotifier(clock, watchdog_s=2 * SLICE_S)  # a ping due every 100 ms
    daemon = Daemon(companion, notifier=notifier)
    source = flood_of(kit)
    posted = 0
    handled: list[float] = []
    ticks: list[float] = []
    handle, tick = companion.handle, companion.tick

    def handle_and_flood(event) -> None:
        # The producer is always ahead: three new events for every one handled.
        nonlocal posted
        for _ in range(3):
            if posted < FLOOD:
                companion.post(next(source))
                posted += 1
            elif posted == FLOOD:
                daemon.stop()  # the loop ends after this slice
                posted += 1
        handle(event)
        clock.advance(STEP_S)
        handled.append(clock())

    def timed_tick() -> None:
        ticks.append(clock())
        tick()

    companion.handle = handle_and_flood
    companion.tick = timed_tick
    companion.post(next(source))
    start = clock()
    assert daemon.run() == 0
    stats = daemon.queue_stats()
    loop_time = clock() - start
    assert loop_time > 30 * SLICE_S  # a long flood, not a short burst
    # Pings: the first at once, then every 100 ms of loop time (plus at most one event).
    assert notifier.pings[0] == start
    assert max(gaps(notifier.pings)) <= SLICE_S + STEP_S + 1e-9
    assert len(notifier.pings) >= loop_time / (SLICE_S + STEP_S)
    # Timers (and the board settling) run at least once per slice while events wait.
    assert max(gaps([start, *ticks])) <= SLICE_S + STEP_S + 1e-9
    # Bounded: reports coalesced, presses beyond the bound dropped and counted.
    assert stats["peak"] <= EVENTS_MAX + KEYS_MAX
    if kit == "rfid":
        assert stats["peak"] <= 3 and stats["coalesced"] > FLOOD // 2
        assert stats["dropped_total"] == 0
    else:
        assert stats["dropped_total"] > 0 and stats["dropped"].keys() == {"ButtonPressed"}
        left = stats["queued"] - 1  # still queued when the loop stopped, less the stop sentinel
        assert len(handled) + stats["dropped_total"] + left == FLOOD + 1


def test_the_flood_is_logged_in_one_line_per_period_not_per_event(caplog):
    rig = Rig("buttons")
    daemon = Daemon(rig.c, notifier=ClockedNotifier(rig.clock, 2 * SLICE_S))
    for i in range(3 * EVENTS_MAX):
        rig.c.post(ButtonPressed("beach2" if i % 2 else "back"))
    daemon.stop()
    with caplog.at_level("INFO", "haleakala.daemon"):
        daemon.run()
    lines = [r.getMessage() for r in caplog.records if "event queue" in r.getMessage()]
    assert len(lines) == 1
    assert f"{2 * EVENTS_MAX} inputs dropped" in lines[0]
