"""The controller on the real pi backend, through the vendors' own mock modes.

``GPIOZERO_PIN_FACTORY=mock`` (gpiozero's MockFactory), ``BLINKA_OS_AGNOSTIC=1`` (the real
``neopixel.NeoPixel`` on Blinka's generic board, its wire write captured) and luma's ``dummy``
OLED: a mock pin press becomes a decision, and the scene reaches the NeoPixel buffer and the
display.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from haleakala.companion.controller import Companion
from haleakala.config import Config
from haleakala.hal.simulated import SimClock

gpiozero = pytest.importorskip("gpiozero")
luma_device = pytest.importorskip("luma.core.device")


@pytest.fixture
def vendor_mocks(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    loaded = sys.modules.get("board")
    if loaded is not None and loaded.board_id != "OS_AGNOSTIC_BOARD":
        pytest.skip("board was imported earlier in this process without BLINKA_OS_AGNOSTIC")
    import board
    import neopixel

    wire: list[bytes] = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: wire.append(bytes(buf)))
    saved = gpiozero.Device.pin_factory
    gpiozero.Device.pin_factory = None  # chosen again from GPIOZERO_PIN_FACTORY
    yield board, wire
    factory = gpiozero.Device.pin_factory
    gpiozero.Device.pin_factory = saved
    if factory is not None and factory is not saved:
        factory.close()


def tap(pin, clock: SimClock) -> None:
    pin.drive_low()  # buttons switch to ground against the pull-up
    clock.advance(0.1)
    pin.drive_high()


def detent(a, b) -> None:
    for level_a, level_b in ((0, 1), (0, 0), (1, 0), (1, 1)):
        a.drive_high() if level_a else a.drive_low()
        b.drive_high() if level_b else b.drive_low()


def test_a_mock_pin_press_becomes_a_decision_and_the_scene_reaches_the_neopixels(
    vendor_mocks, tmp_path
):
    from haleakala.hal.pi import open_pi_hardware

    board, wire = vendor_mocks
    config = replace(Config(), kit="buttons")
    clock = SimClock(50.0)
    hardware = open_pi_hardware(
        config,
        board=board,
        display_device=luma_device.dummy(width=128, height=64, mode="1"),
        clock=clock,
        ticker=False,
    )
    try:
        factory = gpiozero.Device.pin_factory
        assert type(factory).__name__ == "MockFactory"
        companion = Companion(hardware, config, clock=clock, seed=3, start="red")
        companion.start()
        strip = hardware.leds.strip
        assert type(strip).__module__ == "neopixel"
        # The opening scene is in the NeoPixel buffer: the boat (white) on segment 0's water,
        # at the configured brightness 0.3, and every legal beach in red.
        water = hardware.zone_map.pixels_of(0, "water")[0]
        beach = hardware.zone_map.pixels_of(2, "beach")[0]
        assert tuple(strip[water]) == (76, 76, 76)
        assert tuple(strip[beach]) == (23, 0, 0)
        assert wire, "a frame went down the (captured) wire"

        tap(factory.pin(config.pins.beach2), clock)
        assert companion.pump() == 1
        assert companion.shown.subject == 2
        for _ in range(2):
            detent(factory.pin(config.pins.encoder_a), factory.pin(config.pins.encoder_b))
        tap(factory.pin(config.pins.encoder_push), clock)
        assert companion.pump() == 3
        assert companion.game.format(companion.game.history[-1]) == "3@2"

        # The new scene (shaman candidates in white) reached the strip, and the OLED shows
        # exactly the controller's image.
        candidate = hardware.zone_map.pixels_of(0, "grassland")[0]
        assert tuple(strip[candidate]) == (27, 27, 27)
        assert hardware.display.device.image.tobytes() == companion.screen.last_image
        assert "RED: SHAMAN" in companion.prompt
    finally:
        hardware.close()
    assert wire[-1] == bytes(len(wire[-1]))  # dark after close
