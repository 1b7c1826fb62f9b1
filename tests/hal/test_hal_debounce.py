"""Our debouncer: bursts of contact chatter are one press; long presses are told apart."""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haleakala.hal.debounce import Debouncer, DebounceTicker
from haleakala.hal.events import ButtonHeld, ButtonPressed
from haleakala.hal.simulated import SimClock

BOUNCE = 0.020
HOLD = 0.800


def make(clock=None):
    events: list = []
    clock = clock or SimClock()
    return Debouncer(events.append, bounce_s=BOUNCE, hold_s=HOLD, clock=clock), events, clock


def feed(debouncer: Debouncer, edges: list[tuple[float, str, bool]], settle: float = 10.0):
    for t, button, pressed in edges:
        debouncer.edge(button, pressed, at=t)
    end = (edges[-1][0] if edges else 0.0) + settle
    debouncer.tick(end)


def test_a_burst_of_10_edges_within_5_ms_is_exactly_one_press():
    debouncer, events, _ = make()
    burst = [(1.0 + i * 0.0005, "beach3", i % 2 == 0) for i in range(10)]  # 4.5 ms
    feed(debouncer, burst)
    assert events == [ButtonPressed("beach3")]


def test_a_bouncy_press_then_bouncy_release_is_one_press():
    debouncer, events, _ = make()
    down = [(1.0 + i * 0.0004, "select", i % 2 == 0) for i in range(9)]  # ends pressed
    up = [(1.3 + i * 0.0004, "select", i % 2 == 1) for i in range(9)]  # ends released
    feed(debouncer, down + up)
    assert events == [ButtonPressed("select")]


def test_a_press_is_reported_on_release_not_before():
    debouncer, events, _ = make()
    debouncer.edge("back", True, at=1.0)
    debouncer.tick(1.2)
    assert events == []
    debouncer.edge("back", False, at=1.3)
    assert events == [ButtonPressed("back")]


def test_holding_past_the_hold_time_reports_held_once_and_no_press():
    debouncer, events, _ = make()
    debouncer.edge("back", True, at=1.0)
    debouncer.tick(1.0 + HOLD - 0.001)
    assert events == []
    debouncer.tick(1.0 + HOLD)
    assert events == [ButtonHeld("back")]
    debouncer.tick(5.0)
    debouncer.edge("back", False, at=5.1)
    debouncer.tick(9.0)
    assert events == [ButtonHeld("back")]


def test_next_deadline_is_the_hold_time_while_pressed():
    debouncer, _, _ = make()
    assert debouncer.next_deadline() is None
    debouncer.edge("back", True, at=2.0)
    assert debouncer.next_deadline() == pytest.approx(2.0 + HOLD)
    debouncer.edge("back", False, at=2.005)  # inside the lockout: pending
    assert debouncer.next_deadline() == pytest.approx(2.0 + BOUNCE)


def test_release_inside_the_lockout_is_caught_up_when_it_ends():
    debouncer, events, _ = make()
    debouncer.edge("select", True, at=1.0)
    debouncer.edge("select", False, at=1.005)
    assert events == [] and debouncer.is_pressed("select")
    debouncer.tick(1.0 + BOUNCE)
    assert events == [ButtonPressed("select")] and not debouncer.is_pressed("select")


def test_buttons_are_debounced_independently():
    debouncer, events, _ = make()
    feed(
        debouncer,
        [
            (1.0, "beach0", True),
            (1.001, "beach1", True),
            (1.1, "beach0", False),
            (1.101, "beach1", False),
        ],
    )
    assert events == [ButtonPressed("beach0"), ButtonPressed("beach1")]


def test_the_clock_is_used_when_no_time_is_given():
    debouncer, events, clock = make()
    debouncer.edge("back", True)
    clock.advance(HOLD)
    debouncer.tick()
    assert events == [ButtonHeld("back")]


@pytest.mark.parametrize(
    ("bounce", "hold", "message"),
    [
        (0, 1, "bounce time 0 s must be positive"),
        (0.02, 0.01, "hold time 0.01 s must be longer than bounce time"),
    ],
)
def test_nonsense_timings_are_refused(bounce, hold, message):
    with pytest.raises(ValueError, match=message):
        Debouncer(lambda e: None, bounce_s=bounce, hold_s=hold)


# --------------------------------------------------------------------------- invariants

gaps = st.floats(0.0, 0.05, allow_nan=False)


@st.composite
def random_edges(draw, buttons=("back", "select")):
    t = 0.0
    edges = []
    for _ in range(draw(st.integers(0, 60))):
        t += draw(gaps)
        edges.append((t, draw(st.sampled_from(buttons)), draw(st.booleans())))
    return edges


def raw_press_transitions(edges, button):
    level, count = False, 0
    for _, b, pressed in edges:
        if b == button:
            if pressed and not level:
                count += 1
            level = pressed
    return count


@given(random_edges())
def test_random_edges_never_give_more_presses_than_contact_closures(edges):
    debouncer, events, _ = make()
    feed(debouncer, edges)
    for button in ("back", "select"):
        reported = [e for e in events if e.button == button]
        assert len(reported) <= raw_press_transitions(edges, button)


@given(random_edges(buttons=("back",)))
def test_reports_are_at_least_two_bounce_windows_apart(edges):
    times: list[float] = []
    clock = SimClock()
    debouncer = Debouncer(
        lambda e: times.append(clock.now), bounce_s=BOUNCE, hold_s=HOLD, clock=clock
    )
    for t, button, pressed in edges:
        while (d := debouncer.next_deadline()) is not None and d <= t:
            clock.now = d
            debouncer.tick()
        clock.now = t
        debouncer.edge(button, pressed)
    span = edges[-1][0] if edges else 0.0
    assert len(times) <= 1 + span / (2 * BOUNCE)
    assert all(b - a >= 2 * BOUNCE - 1e-9 for a, b in itertools.pairwise(times))


@given(random_edges())
def test_after_a_quiet_bounce_window_the_state_is_the_contact_level(edges):
    debouncer, _, _ = make()
    feed(debouncer, edges, settle=BOUNCE)
    for button in ("back", "select"):
        levels = [p for _, b, p in edges if b == button]
        assert debouncer.is_pressed(button) == (levels[-1] if levels else False)


@st.composite
def clean_presses(draw):
    """Alternating press/release runs, each longer than the bounce window."""
    t, runs = 0.0, []
    for _ in range(draw(st.integers(0, 8))):
        t += draw(st.floats(BOUNCE * 2, 0.5))
        down = t
        t += draw(st.floats(BOUNCE * 2, 1.5))
        runs.append((down, t))
    return runs


def expected(runs, button):
    return [ButtonHeld(button) if up >= down + HOLD else ButtonPressed(button) for down, up in runs]


@given(clean_presses())
def test_every_clean_press_is_one_event_held_iff_longer_than_hold_time(runs):
    debouncer, events, _ = make()
    feed(debouncer, [e for d, u in runs for e in ((d, "back", True), (u, "back", False))])
    assert events == expected(runs, "back")


@given(clean_presses(), st.data())
def test_contact_chatter_shorter_than_the_window_changes_nothing(runs, data):
    edges = []
    for down, up in runs:
        for t, level in ((down, True), (up, False)):
            k = data.draw(st.integers(0, 5))  # k extra flips, then back to level
            offsets = sorted(
                data.draw(st.lists(st.floats(0, BOUNCE * 0.9), min_size=2 * k, max_size=2 * k))
            )
            edges.append((t, "select", level))
            for i, off in enumerate(offsets):
                edges.append((t + off, "select", level if i % 2 else not level))
    debouncer, events, _ = make()
    feed(debouncer, edges)
    assert events == expected(runs, "select")


@given(clean_presses(), clean_presses())
def test_interleaved_buttons_report_what_each_would_alone(runs_a, runs_b):
    def edges(runs, button):
        return [e for d, u in runs for e in ((d, button, True), (u, button, False))]

    both = sorted(edges(runs_a, "beach0") + edges(runs_b, "beach5"), key=lambda e: e[0])
    debouncer, events, _ = make()
    feed(debouncer, both)
    assert [e for e in events if e.button == "beach0"] == expected(runs_a, "beach0")
    assert [e for e in events if e.button == "beach5"] == expected(runs_b, "beach5")


# --------------------------------------------------------------------------- ticker


def test_ticker_thread_reports_a_hold_without_further_edges():
    got = threading.Event()
    events: list = []

    def post(event):
        events.append(event)
        got.set()

    debouncer = Debouncer(post, bounce_s=0.005, hold_s=0.03)
    ticker = DebounceTicker(debouncer)
    ticker.start()
    try:
        debouncer.edge("back", True)
        ticker.poke()
        assert got.wait(2.0), "no ButtonHeld from the ticker"
        assert events == [ButtonHeld("back")]
    finally:
        ticker.stop()
