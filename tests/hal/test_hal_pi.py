"""The pi backend on x86, through the vendors' own mock modes.

gpiozero's ``MockFactory`` (pins we drive), Blinka's OS-agnostic board (the real
``neopixel.NeoPixel``; its wire write is a no-op, so we capture it), and luma's ``dummy``
device or a real ``ssd1306`` on a recording serial interface.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from typing import ClassVar

import pytest
from PIL import Image, ImageDraw
from support.paths import REPO_ROOT

from haleakala.config import Config, InputsConfig
from haleakala.hal.base import Display, Inputs, LedChain
from haleakala.hal.events import ButtonHeld, ButtonPressed, EncoderTurned
from haleakala.hal.pi import (
    HardwareError,
    PiDisplay,
    PiInputs,
    PiLeds,
    led_pin,
    open_display,
    open_pi_hardware,
)
from haleakala.hal.simulated import SimClock
from haleakala.hal.zones import DEFAULT_PIXELS_PER_SEGMENT, DEFAULT_ZONES

gpiozero_mock = pytest.importorskip("gpiozero.pins.mock")
luma_device = pytest.importorskip("luma.core.device")


@pytest.fixture
def factory():
    f = gpiozero_mock.MockFactory()
    yield f
    f.close()


@pytest.fixture
def blinka(monkeypatch):
    """Blinka on its OS-agnostic board, with the NeoPixel wire write captured."""
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    loaded = sys.modules.get("board")
    if loaded is not None and loaded.board_id != "OS_AGNOSTIC_BOARD":
        pytest.skip("board was imported earlier in this process without BLINKA_OS_AGNOSTIC")
    import board
    import neopixel

    wire: list[bytes] = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: wire.append(bytes(buf)))
    return board, wire


class RecordingNeoPixel:
    """Stand-in for neopixel.NeoPixel that keeps its constructor arguments and frames."""

    instances: ClassVar[list[RecordingNeoPixel]] = []

    def __init__(self, pin, n, *, brightness, auto_write, pixel_order):
        self.args = dict(
            pin=pin, n=n, brightness=brightness, auto_write=auto_write, pixel_order=pixel_order
        )
        self.buffer = [(0, 0, 0)] * n
        self.shown: list[list] = []
        self.deinit_called = False
        RecordingNeoPixel.instances.append(self)

    def __setitem__(self, index, value):
        self.buffer[index] = value

    def fill(self, colour):
        self.buffer = [colour] * len(self.buffer)

    def show(self):
        self.shown.append(list(self.buffer))

    def deinit(self):
        self.deinit_called = True


class FakeBoard:
    board_id = "RASPBERRY_PI_4B"
    D10 = "pin-D10"
    D18 = "pin-D18"


class RecordingSerial:
    """A luma serial interface that keeps every data byte sent to the panel."""

    def __init__(self):
        self.commands: list[tuple] = []
        self.data_bytes = bytearray()
        self.cleaned = False

    def command(self, *cmd):
        self.commands.append(cmd)

    def data(self, values):
        self.data_bytes.extend(values)

    def cleanup(self):
        self.cleaned = True


def drive(pin, pressed: bool) -> None:
    pin.drive_low() if pressed else pin.drive_high()


def turn(a, b, clockwise: bool) -> None:
    """One detent: a full quadrature cycle starting and ending with both lines high."""
    steps = [(0, 1), (0, 0), (1, 0), (1, 1)] if clockwise else [(1, 0), (0, 0), (0, 1), (1, 1)]
    for level_a, level_b in steps:
        a.drive_high() if level_a else a.drive_low()
        b.drive_high() if level_b else b.drive_low()


def started_inputs(factory, config=None, clock=None):
    events: list = []
    clock = clock or SimClock()
    inputs = PiInputs(config or Config(), pin_factory=factory, clock=clock, ticker=False)
    inputs.start(events.append)
    return inputs, events, clock


# --------------------------------------------------------------------------- inputs


def test_a_pressed_back_pin_comes_out_as_a_back_press(factory):
    inputs, events, clock = started_inputs(factory)
    try:
        pin = factory.pin(23)
        drive(pin, True)
        clock.advance(0.1)
        drive(pin, False)
        assert events == [ButtonPressed("back")]
        assert isinstance(inputs, Inputs)
    finally:
        inputs.close()


def test_a_chattering_beach_button_is_one_press_through_our_debouncer(factory):
    inputs, events, clock = started_inputs(factory)
    try:
        pin = factory.pin(Config().pins.beach3)
        for i in range(10):  # 10 edges within 5 ms: gpiozero's mock passes them all on
            drive(pin, i % 2 == 0)
            clock.advance(0.0005)
        clock.advance(0.1)
        inputs.debouncer.tick()
        assert events == [ButtonPressed("beach3")]
    finally:
        inputs.close()


def test_holding_the_encoder_push_is_a_held_select(factory):
    inputs, events, clock = started_inputs(factory)
    try:
        drive(factory.pin(22), True)
        clock.advance(0.8)
        inputs.debouncer.tick()
        drive(factory.pin(22), False)
        assert events == [ButtonHeld("select")]
    finally:
        inputs.close()


def test_encoder_detents_come_out_as_signed_steps(factory):
    inputs, events, _ = started_inputs(factory)
    try:
        a, b = factory.pin(17), factory.pin(27)
        turn(a, b, clockwise=True)
        turn(a, b, clockwise=True)
        turn(a, b, clockwise=False)
        assert events == [EncoderTurned(1), EncoderTurned(1), EncoderTurned(-1)]
    finally:
        inputs.close()


def test_the_rfid_kit_opens_no_beach_buttons(factory):
    inputs, _, _ = started_inputs(factory, replace(Config(), kit="rfid"))
    try:
        assert set(inputs.buttons) == {"select", "back"}
    finally:
        inputs.close()


def test_a_busy_pin_is_reported_with_the_button_name(factory):
    gpiozero = pytest.importorskip("gpiozero")
    squatter = gpiozero.DigitalInputDevice(23, pin_factory=factory)
    try:
        with pytest.raises(HardwareError, match="cannot open the button back on GPIO 23"):
            PiInputs(Config(), pin_factory=factory)
        # what was opened before the failure was released again
        gpiozero.DigitalInputDevice(22, pin_factory=factory).close()
    finally:
        squatter.close()


def test_edges_before_start_are_ignored_and_close_releases_the_pins(factory):
    inputs = PiInputs(Config(), pin_factory=factory, clock=SimClock(), ticker=False)
    drive(factory.pin(23), True)
    drive(factory.pin(23), False)
    inputs.close()
    gpiozero = pytest.importorskip("gpiozero")
    gpiozero.DigitalInputDevice(23, pin_factory=factory).close()  # free again


def test_gpiozero_pin_factory_env_selects_the_mock(monkeypatch):
    gpiozero = pytest.importorskip("gpiozero")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = gpiozero.Device.pin_factory
    gpiozero.Device.pin_factory = None
    try:
        clock = SimClock()
        inputs = PiInputs(Config(), clock=clock, ticker=False)
        events: list = []
        inputs.start(events.append)
        chosen = gpiozero.Device.pin_factory
        assert isinstance(chosen, gpiozero_mock.MockFactory)
        drive(chosen.pin(23), True)
        clock.advance(0.1)
        drive(chosen.pin(23), False)
        assert events == [ButtonPressed("back")]
        inputs.close()
        chosen.close()
    finally:
        gpiozero.Device.pin_factory = saved


def test_the_real_ticker_thread_reports_a_hold(factory):
    import threading

    got = threading.Event()
    events: list = []

    def post(event):
        events.append(event)
        got.set()

    config = replace(Config(), inputs=InputsConfig(bounce_ms=5, hold_ms=30))
    inputs = PiInputs(config, pin_factory=factory)
    inputs.start(post)
    try:
        drive(factory.pin(23), True)
        assert got.wait(2.0)
        assert events == [ButtonHeld("back")]
    finally:
        inputs.close()


# --------------------------------------------------------------------------- LEDs


def test_blinka_gives_a_real_neopixel_on_x86_and_frames_reach_its_wire(blinka):
    board, wire = blinka
    leds = PiLeds(72, 10, "GRB", board=board)
    assert isinstance(leds, LedChain)
    assert type(leds.strip).__module__ == "neopixel"
    pixels = [(0, 0, 0)] * 72
    pixels[0] = (255, 0, 0)
    pixels[71] = (1, 2, 3)
    leds.show(pixels)
    assert tuple(leds.strip[0]) == (255, 0, 0)
    frame = wire[-1]
    assert len(frame) == 72 * 3
    assert frame[0:3] == bytes([0, 255, 0])  # GRB on the wire
    assert frame[-3:] == bytes([2, 1, 3])
    leds.off()
    assert wire[-1] == bytes(72 * 3)
    leds.close()


def test_pixel_order_from_config_reaches_the_wire(blinka):
    board, wire = blinka
    leds = PiLeds(12, 10, "RGB", board=board)
    leds.show([(10, 20, 30)] + [(0, 0, 0)] * 11)
    assert wire[-1][:3] == bytes([10, 20, 30])
    leds.close()


def test_leds_are_built_with_full_brightness_and_no_auto_write():
    RecordingNeoPixel.instances.clear()
    leds = PiLeds(72, 18, "GRB", neopixel_class=RecordingNeoPixel, board=FakeBoard)
    strip = RecordingNeoPixel.instances[-1]
    assert strip.args == dict(
        pin="pin-D18", n=72, brightness=1.0, auto_write=False, pixel_order="GRB"
    )
    leds.show([(5, 5, 5)] * 72)
    assert strip.shown == [[(5, 5, 5)] * 72]
    with pytest.raises(ValueError, match="LED chain has 72 pixels, got 3"):
        leds.show([(0, 0, 0)] * 3)


def test_led_pin_falls_back_to_neopixel_only_on_the_agnostic_board():
    class Agnostic:
        board_id = "OS_AGNOSTIC_BOARD"
        NEOPIXEL = "np"

    class LinuxPc:
        board_id = "GENERIC_LINUX_PC"

    assert led_pin(FakeBoard, 10) == "pin-D10"
    assert led_pin(Agnostic, 10) == "np"
    with pytest.raises(HardwareError, match="has no GPIO 10 for the LED chain"):
        led_pin(LinuxPc, 10)


# --------------------------------------------------------------------------- OLED


def card_image() -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((4, 4, 40, 60), outline=1)
    return image


def test_image_shown_reaches_the_luma_dummy_device():
    device = luma_device.dummy(width=128, height=64, mode="1")
    display = PiDisplay(device)
    assert isinstance(display, Display) and (display.width, display.height) == (128, 64)
    display.show(card_image())
    assert device.image.tobytes() == card_image().tobytes()


def test_an_unchanged_frame_is_not_sent_again():
    display = PiDisplay(luma_device.dummy(mode="1"))
    display.show(card_image())
    display.show(card_image())
    assert (display.sent_count, display.skipped_count) == (1, 1)
    display.clear()
    display.show(card_image())
    assert display.sent_count == 2


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_real_luma_driver_sends_the_image_to_the_bus(driver):
    serial = RecordingSerial()
    display = open_display(replace(Config().display, driver=driver), serial=serial)
    serial.data_bytes.clear()
    display.show(Image.new("1", (128, 64), 1))
    assert len(serial.data_bytes) == 1024 and set(serial.data_bytes) == {0xFF}
    display.close()
    assert serial.cleaned


def test_a_missing_i2c_bus_names_the_bus_and_the_fix():
    with pytest.raises(
        HardwareError, match=r"OLED: /dev/i2c-99 does not exist \(I2C is off: .*reboot"
    ):
        open_display(replace(Config().display, i2c_port=99))


# --------------------------------------------------------------------------- bundle


def test_open_pi_hardware_end_to_end_on_vendor_mocks(factory, blinka):
    board, wire = blinka
    clock = SimClock()
    hw = open_pi_hardware(
        Config(),
        pin_factory=factory,
        board=board,
        display_device=luma_device.dummy(mode="1"),
        clock=clock,
        ticker=False,
    )
    events: list = []
    hw.inputs.start(events.append)
    pixels = hw.show_zones({(1, "beach"): (255, 255, 255)})
    beach = DEFAULT_PIXELS_PER_SEGMENT + DEFAULT_ZONES["beach"][0]  # segment 1's first
    assert wire[-1][beach * 3 : beach * 3 + 3] == bytes([76] * 3)  # at brightness 0.3
    assert pixels[beach] == (76, 76, 76)
    hw.display.show(card_image())
    assert hw.display.device.image.getbbox() == (4, 4, 41, 61)
    drive(factory.pin(23), True)
    clock.advance(0.05)
    drive(factory.pin(23), False)
    assert events == [ButtonPressed("back")]
    hw.close()
    assert wire[-1] == bytes(6 * DEFAULT_PIXELS_PER_SEGMENT * 3)  # LEDs dark after close


def test_a_failed_open_closes_what_was_already_opened(factory):
    RecordingNeoPixel.instances.clear()
    gpiozero = pytest.importorskip("gpiozero")
    squatter = gpiozero.DigitalInputDevice(17, pin_factory=factory)
    try:
        with pytest.raises(HardwareError, match="cannot open the encoder on GPIO 17/27"):
            open_pi_hardware(
                Config(),
                pin_factory=factory,
                neopixel_class=RecordingNeoPixel,
                board=FakeBoard,
                display_device=luma_device.dummy(mode="1"),
            )
        assert RecordingNeoPixel.instances[-1].deinit_called
    finally:
        squatter.close()


def test_vendor_libraries_are_not_imported_until_a_device_is_opened():
    code = (
        "import sys, haleakala.hal.pi, haleakala.hal.simulated, haleakala.hal.factory, "
        "haleakala.hal.debounce, haleakala.config, haleakala.cli.config; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'gpiozero', 'board', 'neopixel', 'luma', 'busio', 'lgpio', 'digitalio', "
        "'adafruit_blinka', 'RPi'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lgpio_gets_a_writable_directory_for_its_pipes_outside_the_cwd(tmp_path):
    """As the service user in / (ProtectSystem=strict) lgpio's import fails creating
    .lgd-nfy* in the current directory (found by the virtual Pi): the backend points LG_WD
    at the temporary directory before gpiozero loads lgpio, unless the user chose one."""
    pytest.importorskip("lgpio")
    env = {k: v for k, v in os.environ.items() if k != "LG_WD"}
    env["PYTHONPATH"] = str(REPO_ROOT)
    script = (
        "import os; from haleakala.hal.pi import lgpio_workdir; lgpio_workdir(); "
        "import lgpio; print(os.environ['LG_WD'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd="/", capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == tempfile.gettempdir()
    chosen = subprocess.run([sys.executable, "-c", script], env={**env, "LG_WD": str(tmp_path)},
                            cwd="/", capture_output=True, text=True)  # fmt: skip
    assert chosen.stdout.strip() == str(tmp_path)
