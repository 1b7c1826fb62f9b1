"""The controller's event queue (issue 11): bounded, board reports coalesced, drops counted,
and coalescing never lets a board report overtake a button press."""

from __future__ import annotations

import queue
import threading

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from haleakala.hal.eventqueue import KEYS_MAX, EventQueue
from haleakala.hal.events import BeachContents, ButtonPressed, Disc, EncoderTurned, LinkHealth

RED3 = frozenset({Disc("red", 3)})


def drain(q: EventQueue) -> list:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_only_the_newest_report_per_beach_waits():
    q = EventQueue()
    for i in range(1000):
        q.put(BeachContents(0, RED3 if i % 2 else frozenset()))
        q.put(BeachContents(4, frozenset()))
        q.put(LinkHealth(i % 2 == 0, f"detail {i}"))
    assert drain(q) == [
        BeachContents(0, RED3),
        BeachContents(4, frozenset()),
        LinkHealth(False, "detail 999"),
    ]
    assert q.stats()["coalesced"] == 2997 and q.stats()["peak"] == 3


def test_a_report_never_overtakes_a_press():
    q = EventQueue()
    q.put(BeachContents(0, RED3))
    q.put(ButtonPressed("select"))
    q.put(BeachContents(0, frozenset()))  # after the press: must stay after it
    q.put(BeachContents(0, RED3))
    assert drain(q) == [BeachContents(0, RED3), ButtonPressed("select"), BeachContents(0, RED3)]


def test_presses_beyond_the_bound_are_dropped_and_counted_but_program_events_never():
    q = EventQueue(maxsize=10)
    stop = object()
    for i in range(10_000):
        q.put(ButtonPressed(f"beach{i % 6}"))
        q.put(EncoderTurned(1))
    q.put(stop)
    q.put(BeachContents(2, RED3))  # full, but the newest state of a beach always gets in
    stats = q.stats()
    assert stats["queued"] == 12 and stats["peak"] == 12
    assert stats["dropped"] == {"ButtonPressed": 9995, "EncoderTurned": 9995}
    assert stats["dropped_total"] == 19_990 and stats["put"] == 20_002
    events = drain(q)
    assert events[-2:] == [stop, BeachContents(2, RED3)]


def test_get_waits_for_a_put_from_another_thread_and_times_out_empty():
    q = EventQueue()
    with pytest.raises(queue.Empty):
        q.get(timeout=0.01)
    with pytest.raises(queue.Empty):
        q.get_nowait()
    threading.Timer(0.01, q.put, (ButtonPressed("back"),)).start()
    assert q.get(timeout=10) == ButtonPressed("back")


EVENTS = st.one_of(
    st.builds(BeachContents, st.integers(0, 5), st.sampled_from([frozenset(), RED3])),
    st.builds(ButtonPressed, st.sampled_from(["select", "back", "beach1"])),
    st.builds(LinkHealth, st.booleans(), st.just("link")),
)


@settings(max_examples=300, deadline=None)
@example(
    [
        (BeachContents(0, frozenset()), False),
        (ButtonPressed("back"), False),
        (BeachContents(0, RED3), False),
    ],
    2,
)
@given(st.lists(st.tuples(EVENTS, st.booleans()), max_size=120), st.integers(1, 30))
def test_the_board_seen_before_each_press_is_the_board_when_it_was_pressed(script, maxsize):
    """Puts interleaved with gets: (1) the queue never holds more than ``maxsize`` plus one
    report per key; (2) unless the queue was ever full, the board a consumer has seen when it
    gets a press is the board as reported when the press was put; (3) in the end every
    beach shows its newest report."""
    q = EventQueue(maxsize=maxsize)
    truth: dict = {}
    seen: dict = {}
    board_at_press: list[dict] = []
    got_presses: list[dict] = []

    def take() -> None:
        event = q.get_nowait()
        if isinstance(event, ButtonPressed):
            got_presses.append(dict(seen))
        else:
            seen[event.beach if isinstance(event, BeachContents) else "link"] = event

    for event, consume in script:
        q.put(event)
        if isinstance(event, ButtonPressed):
            board_at_press.append(dict(truth))
        else:
            truth[event.beach if isinstance(event, BeachContents) else "link"] = event
        assert q.qsize() <= maxsize + KEYS_MAX
        if consume and not q.empty():
            take()
    while not q.empty():
        take()
    assert seen == truth
    if not q.stats()["full"]:
        assert got_presses == board_at_press
