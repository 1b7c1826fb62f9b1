"""The sim backend records what a player would see and feeds what a player would do."""

from __future__ import annotations

import queue
import threading

import pytest
from PIL import Image, ImageDraw

from haleakala.config import Config
from haleakala.hal.base import Display, Hardware, Inputs, LedChain, ZoneMap
from haleakala.hal.events import (
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    Disc,
    EncoderTurned,
    LinkHealth,
)
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.hal.zones import DEFAULT_PIXELS_PER_SEGMENT, DEFAULT_ZONES


@pytest.fixture
def hw():
    hardware = SimHardware.from_config(Config())
    yield hardware
    hardware.close()


def started(hw: SimHardware) -> list:
    events: list = []
    hw.inputs.start(events.append)
    return events


def test_sim_parts_satisfy_the_protocols(hw):
    assert isinstance(hw, Hardware)
    assert isinstance(hw.leds, LedChain)
    assert isinstance(hw.display, Display)
    assert isinstance(hw.inputs, Inputs)
    assert hw.backend == "sim" and hw.leds.pixel_count == 6 * DEFAULT_PIXELS_PER_SEGMENT


def test_a_zone_frame_is_recorded_with_the_pixels_it_became(hw):
    frame = {(2, "crater"): (255, 0, 0)}
    pixels = hw.show_zones(frame)
    last = hw.leds.last
    assert last.zones == frame and last.pixels == tuple(pixels)
    crater = 2 * DEFAULT_PIXELS_PER_SEGMENT + DEFAULT_ZONES["crater"][0]
    assert last.pixels[crater] == (76, 0, 0)  # brightness 0.3 from the default config
    assert hw.leds.show_count == 1


def test_recorded_zone_frame_is_a_copy(hw):
    frame = {(0, "water"): (0, 0, 255)}
    hw.show_zones(frame)
    frame[(1, "water")] = (1, 1, 1)
    assert hw.leds.last.zones == {(0, "water"): (0, 0, 255)}


def test_raw_pixels_are_recorded_without_a_zone_frame(hw):
    hw.leds.show([(1, 2, 3)] * hw.leds.pixel_count)
    assert hw.leds.last.zones is None and hw.leds.last.pixels[0] == (1, 2, 3)


def test_a_pixel_list_of_the_wrong_length_is_refused(hw):
    with pytest.raises(ValueError, match="LED chain has 198 pixels, got 197"):
        hw.leds.show([(0, 0, 0)] * 197)


def test_history_is_bounded_but_counters_count_everything():
    hw = SimHardware(ZoneMap(), history=3)
    for i in range(10):
        hw.show_zones({(0, "water"): (i, 0, 0)})
    assert hw.leds.show_count == 10 and len(hw.leds.frames) == 3
    assert hw.leds.last.zones == {(0, "water"): (9, 0, 0)}


def test_display_keeps_a_copy_of_each_image(hw):
    canvas = Image.new("1", (128, 64))
    ImageDraw.Draw(canvas).rectangle((0, 0, 9, 9), fill=1)
    hw.display.show(canvas)
    ImageDraw.Draw(canvas).rectangle((0, 0, 127, 63), fill=1)  # the scene reuses its canvas
    assert hw.display.last.getbbox() == (0, 0, 10, 10)
    assert hw.display.show_count == 1


@pytest.mark.parametrize(("mode", "size"), [("L", (128, 64)), ("1", (64, 128))])
def test_display_refuses_an_image_the_panel_cannot_show(hw, mode, size):
    with pytest.raises(ValueError, match="display image must be mode '1' 128x64"):
        hw.display.show(Image.new(mode, size))


def test_clear_is_recorded_as_a_blank_panel(hw):
    hw.display.show(Image.new("1", (128, 64), 1))
    hw.display.clear()
    assert hw.display.last is None and hw.display.clear_count == 1


def test_helpers_post_the_events_a_player_would_cause(hw):
    events = started(hw)
    hw.press("back")
    hw.hold("back")
    hw.turn(-2)
    hw.place(3, ["red3", Disc("yellow", 0)])
    hw.inputs.link(False, "no reply from the Pico")
    assert events == [
        ButtonPressed("back"),
        ButtonHeld("back"),
        EncoderTurned(-2),
        BeachContents(3, frozenset({Disc("red", 3), Disc("yellow", 0)})),
        LinkHealth(False, "no reply from the Pico"),
    ]
    assert hw.inputs.injected_count == 5


def test_events_injected_before_start_arrive_at_start(hw):
    hw.press("select")
    events = started(hw)
    assert events == [ButtonPressed("select")]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda hw: hw.press("enter"), "unknown button 'enter'"),
        (lambda hw: hw.turn(0), "non-zero integer"),
        (lambda hw: hw.place(6, []), "beach 6 is not 0..5"),
        (lambda hw: hw.place(0, ["green2"]), "not a disc name"),
    ],
)
def test_helpers_refuse_what_no_player_could_do(hw, call, message):
    with pytest.raises(ValueError, match=message):
        call(hw)


def test_raw_edges_go_through_the_debouncer_on_the_sim_clock(hw):
    events = started(hw)
    hw.inputs.tap("beach2", bounces=9)
    assert events == [ButtonPressed("beach2")]
    hw.inputs.edge("back", True)
    hw.inputs.advance(0.799)
    assert events == [ButtonPressed("beach2")]
    hw.inputs.advance(0.001)
    assert events[-1] == ButtonHeld("back")


def test_injecting_after_close_is_an_error(hw):
    started(hw)
    hw.close()
    with pytest.raises(RuntimeError, match="inputs are closed"):
        hw.press("back")


def test_close_darkens_the_leds_and_clears_the_display_once():
    hw = SimHardware()
    hw.show_zones({(0, "water"): (9, 9, 9)})
    hw.close()
    hw.close()
    assert set(hw.leds.last.pixels) == {(0, 0, 0)}
    assert hw.leds.off_count == 1 and hw.display.clear_count == 1


def test_sim_clock_never_goes_back():
    clock = SimClock(5.0)
    assert clock.advance(1.5) == 6.5 and clock() == 6.5
    with pytest.raises(ValueError, match="time cannot go back"):
        clock.advance(-1)


def test_a_controller_thread_receives_every_event_in_order():
    hw = SimHardware()
    q: queue.Queue = queue.Queue()
    hw.inputs.start(q.put)
    received: list = []

    def controller():
        while (event := q.get()) is not None:
            received.append(event)
            hw.show_zones({(0, "water"): (len(received) % 256, 0, 0)})

    thread = threading.Thread(target=controller)
    thread.start()
    for i in range(2000):
        hw.turn(1 if i % 2 else -1)
    q.put(None)
    thread.join(timeout=10)
    assert [e.steps for e in received] == [-1 if i % 2 == 0 else 1 for i in range(2000)]
    assert hw.leds.show_count == 2000
