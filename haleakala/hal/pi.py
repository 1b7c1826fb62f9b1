"""The real kit on a Raspberry Pi: gpiozero inputs, NeoPixel chain, luma OLED.

Vendor libraries are imported here only, and only inside functions, so that importing the HAL
(or running the simulator) never needs them. Each device can be handed a stand-in, which is
how CI runs the vendors' own code paths on x86:

- inputs: gpiozero with ``pin_factory=MockFactory()`` (or ``GPIOZERO_PIN_FACTORY=mock``). The
  edges go through *our* ``Debouncer`` (gpiozero's ``bounce_time`` stays off: its mock ignores
  it, so it could never be tested), and the encoder through gpiozero's quadrature decoder.
- LEDs: adafruit-circuitpython-neopixel on Blinka. A Pi 3/4/Zero 2 W drives the chain on
  GPIO 10 (SPI0 MOSI, no root) or 18 (PWM, root); on a Pi 5 the very same ``NeoPixel`` call is
  served by Blinka's PIO driver (package ``adafruit-blinka-raspberry-pi5-neopixel``, any GPIO,
  ``/dev/pio0`` readable by group gpio). With ``BLINKA_OS_AGNOSTIC=1`` Blinka offers a generic
  board whose only LED pin is ``board.NEOPIXEL``; ``led_pin`` falls back to it there.
- OLED: luma.oled ``ssd1306``/``sh1106`` over ``luma.core.interface.serial.i2c``; any luma
  device (``luma.core.device.dummy`` in tests) can be passed instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from haleakala.checkout import install_hint
from haleakala.hal.base import (
    DISPLAY_HEIGHT,
    DISPLAY_WIDTH,
    Hardware,
    Pixel,
    RfidLink,
    ZoneMap,
    check_display_image,
    check_pixels,
)
from haleakala.hal.debounce import Debouncer, DebounceTicker
from haleakala.hal.events import EncoderTurned, InputEvent

if TYPE_CHECKING:
    from PIL.Image import Image

    from haleakala.config import Config, DisplayConfig
    from haleakala.hal.audio import AudioOutput

OS_AGNOSTIC_BOARD = "OS_AGNOSTIC_BOARD"
PI5_NEOPIXEL_HINT = (
    "on a Pi 5 install adafruit-blinka-raspberry-pi5-neopixel and let group "
    'gpio use /dev/pio0 (udev: SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660")'
)
INSTALL_FIX = "run 'sudo python3 -m haleakala install' in the checkout (it sets {bus}), then reboot"


def led_device(model: str, gpio: int) -> str:
    """The device node the NeoPixel driver opens on this model for data on ``gpio``.

    Pi 5: Blinka's PIO driver, any GPIO, ``/dev/pio0``. Pi 3/4/Zero 2 W: rpi_ws281x, which
    drives GPIO 10 through SPI0 (``/dev/spidev0.0``, group spi) and every other LED pin by
    PWM/PCM DMA through ``/dev/mem`` (root only).
    """
    if model == "pi5":
        return "/dev/pio0"
    return "/dev/spidev0.0" if gpio == 10 else "/dev/mem"


def check_led_device(device: str) -> None:
    """Refuse, with the fix, before the vendor driver meets a missing or forbidden device:
    rpi_ws281x answers those with a bare error code, the PIO driver with an errno."""
    import os

    if not os.path.exists(device):
        why = {
            "/dev/spidev0.0": "SPI is off: " + INSTALL_FIX.format(bus="dtparam=spi=on"),
            "/dev/pio0": "this kernel has no RP1 PIO driver: update Raspberry Pi OS "
            "(sudo apt full-upgrade) and reboot",
            "/dev/mem": "this system has no /dev/mem: move the LED data to GPIO 10 (SPI)",
        }[device]
        raise HardwareError(f"cannot open the LED chain: {device} does not exist ({why})")
    if not os.access(device, os.R_OK | os.W_OK):
        group = {"/dev/spidev0.0": "spi", "/dev/pio0": "gpio"}.get(device)
        fix = (
            f"add the user to group {group} (haleakala install does this for the service "
            "user) and log in again"
            if group
            else "only root may drive the LEDs by PWM: move the LED data to GPIO 10 (SPI)"
        )
        raise HardwareError(f"cannot open the LED chain: no permission for {device} ({fix})")


def lgpio_workdir() -> None:
    """Give lgpio a writable directory for its notification pipes before it is imported.

    lgpio creates ``.lgd-nfy*`` in the current directory at import time (unless ``LG_WD``
    names another). The service runs in ``/`` as an unprivileged user under
    ``ProtectSystem=strict``, where that fails and gpiozero cannot load its pin driver; the
    temporary directory (private to the service with ``PrivateTmp=``) is writable everywhere.
    """
    import os
    import tempfile

    os.environ.setdefault("LG_WD", tempfile.gettempdir())


class HardwareError(RuntimeError):
    """A device could not be opened: says which one and what to check."""


# --------------------------------------------------------------------------- LEDs


def led_pin(board: Any, gpio: int) -> Any:
    """Blinka's pin object for BCM ``gpio`` (``board.D10``).

    Blinka's OS-agnostic board (``BLINKA_OS_AGNOSTIC=1``, for CI) has no numbered pins, only
    ``board.NEOPIXEL``: use it there so the real NeoPixel code still runs.
    """
    pin = getattr(board, f"D{gpio}", None)
    if pin is not None:
        return pin
    if getattr(board, "board_id", None) == OS_AGNOSTIC_BOARD and hasattr(board, "NEOPIXEL"):
        return board.NEOPIXEL
    raise HardwareError(
        f"this board ({getattr(board, 'board_id', '?')}) has no GPIO {gpio} "
        "for the LED chain: check pins.led_data and model"
    )


class PiLeds:
    """The chain as one ``neopixel.NeoPixel``: brightness 1.0 (the ZoneMap applies ours, so
    the current limit sees what is sent), ``auto_write=False`` (one transfer per frame)."""

    def __init__(
        self,
        pixel_count: int,
        gpio: int,
        pixel_order: str = "GRB",
        *,
        neopixel_class: Callable[..., Any] | None = None,
        board: Any = None,
        model: str = "pi4",
    ) -> None:
        vendor_driver = neopixel_class is None
        if neopixel_class is None or board is None:
            try:
                if board is None:
                    import board as board_module

                    board = board_module
                if neopixel_class is None:
                    import neopixel

                    neopixel_class = neopixel.NeoPixel
            except (ImportError, NotImplementedError, RuntimeError) as exc:
                hint = (
                    f"{install_hint('pi5')}; {PI5_NEOPIXEL_HINT}"
                    if model == "pi5"
                    else install_hint("pi")
                )
                raise HardwareError(f"cannot load the NeoPixel driver: {exc} ({hint})") from exc
        self._pixel_count = pixel_count
        self.gpio = gpio
        pin = led_pin(board, gpio)
        # On a real board (not Blinka's OS-agnostic one, not a stand-in class) the chain is
        # opened now, so a missing device fails at start-up naming itself, not at the first
        # frame. Everything up to here (board, neopixel, the platform driver module, the pin)
        # is built the same on x86 with a forced board and in the virtual Pi.
        real_board = vendor_driver and getattr(board, "board_id", None) != OS_AGNOSTIC_BOARD
        self.device = led_device(model, gpio) if real_board else None
        if self.device is not None:
            check_led_device(self.device)
        try:
            self.strip = neopixel_class(
                pin,
                pixel_count,
                brightness=1.0,
                auto_write=False,
                pixel_order=pixel_order,
            )
        except HardwareError:
            raise
            if self.device is not None:
                self.off()  # the first transfer opens the SPI/PIO device
        except Exception as exc:  # vendor errors vary by platform: name the device
            raise HardwareError(
                f"cannot open the LED chain on GPIO {gpio}"
                f"{f' ({self.device})' if self.device else ''}: {exc}"
            ) from exc

    @property
    def pixel_count(self) -> int:
        return self._pixel_count

    def show(self, pixels: Sequence[Pixel]) -> None:
        check_pixels(pixels, self._pixel_count)
        self.strip[0 : self._pixel_count] = list(pixels)
        self.strip.show()

    def off(self) -> None:
        self.strip.fill((0, 0, 0))
        self.strip.show()

    def close(self) -> None:
        deinit = getattr(self.strip, "deinit", None)
        if callable(deinit):
            deinit()


# --------------------------------------------------------------------------- OLED


class PiDisplay:
    """A luma device behind the ``Display`` protocol.

    Skips a frame identical to the one on the panel: over I2C a full frame costs ≥ 23 ms, and
    scenes redraw on every event.
    """

    def __init__(self, device: Any) -> None:
        self.device = device
        self._last: bytes | None = None
        self.sent_count = 0
        self.skipped_count = 0

    @property
    def width(self) -> int:
        return int(self.device.width)

    @property
    def height(self) -> int:
        return int(self.device.height)

    def show(self, image: Image) -> None:
        check_display_image(image, self.width, self.height)
        data = image.tobytes()
        if data == self._last:
            self.skipped_count += 1
            return
        self.device.display(image)
        self._last = data
        self.sent_count += 1

    def clear(self) -> None:
        self.device.clear()
        self._last = None

    def close(self) -> None:
        self.device.cleanup()


def open_display(display: DisplayConfig, *, serial: Any = None) -> PiDisplay:
    """The configured OLED; ``serial`` replaces the I2C bus (tests pass a recording one)."""
    try:
        from luma.oled.device import sh1106, ssd1306
    except ImportError as exc:
        raise HardwareError(f"cannot load luma.oled: {exc} ({install_hint('pi')})") from exc
    drivers = {"ssd1306": ssd1306, "sh1106": sh1106}
    if display.driver not in drivers:
        raise HardwareError(f"unknown OLED driver {display.driver!r}: use ssd1306 or sh1106")
    if serial is None:
        import os

        from luma.core.interface.serial import i2c

        bus = f"/dev/i2c-{display.i2c_port}"
        if not os.path.exists(bus):
            raise HardwareError(
                f"cannot open the OLED: {bus} does not exist (I2C is off: "
                + INSTALL_FIX.format(bus="dtparam=i2c_arm=on and loads i2c-dev")
                + ")"
            )
        try:
            serial = i2c(port=display.i2c_port, address=display.address)
        except Exception as exc:  # luma raises DeviceNotFoundError / DevicePermissionError
            raise HardwareError(
                f"cannot open the OLED on I2C bus {display.i2c_port} at "
                f"{display.address:#04x}: {exc} (enable I2C with raspi-config, "
                "add the user to group i2c, check with i2cdetect -y "
                f"{display.i2c_port})"
            ) from exc
    try:
        device = drivers[display.driver](
            serial, width=DISPLAY_WIDTH, height=DISPLAY_HEIGHT, rotate=display.rotate
        )
    except Exception as exc:
        raise HardwareError(
            f"the {display.driver} OLED at {display.address:#04x} did not "
            f"answer: {exc} (check wiring and display.address)"
        ) from exc
    return PiDisplay(device)


# --------------------------------------------------------------------------- inputs


class PiInputs:
    """Encoder, its push (``select``), ``back`` and the beach buttons through gpiozero.

    Buttons switch to ground against the internal pull-up. Each is a ``DigitalInputDevice``
    rather than a ``Button``: ``Button`` only adds gpiozero's hold detection, which runs a
    thread per button (eight on the buttons kit, each taking 0.1 s to close) and which our
    ``Debouncer`` replaces. Devices are opened in the constructor so that a wrong or busy pin
    fails at start-up, naming the button. ``rfid`` (the RFID kit's Pico link, from the
    factory) is started and closed with them.
    """

    def __init__(
        self,
        config: Config,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        ticker: bool = True,
        rfid: RfidLink | None = None,
    ) -> None:
        self.rfid = rfid
        lgpio_workdir()
        try:
            from gpiozero import DigitalInputDevice, RotaryEncoder
        except ImportError as exc:
            raise HardwareError(f"cannot load gpiozero: {exc} ({install_hint('pi')})") from exc
        self.bounce_s = config.inputs.bounce_ms / 1000
        self.hold_s = config.inputs.hold_ms / 1000
        self.clock = clock
        self._use_ticker = ticker
        self.buttons: dict[str, Any] = {}
        self.encoder: Any = None
        self.debouncer: Debouncer | None = None
        self._ticker: DebounceTicker | None = None
        self._lock = threading.Lock()
        what = ""
        try:
            for name, gpio in config.buttons_in_use().items():
                what = f"button {name} on GPIO {gpio}"
                self.buttons[name] = DigitalInputDevice(
                    gpio, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
            pins = config.pins
            what = f"encoder on GPIO {pins.encoder_a}/{pins.encoder_b}"
            self.encoder = RotaryEncoder(
                pins.encoder_a,
                pins.encoder_b,
                bounce_time=None,
                max_steps=0,
                pin_factory=pin_factory,
            )
        except Exception as exc:
            self.close()
            raise HardwareError(f"cannot open the {what}: {exc}") from exc

    def start(self, post: Callable[[InputEvent], None]) -> None:
        with self._lock:
            if self.debouncer is not None:
                raise RuntimeError("inputs already started")
            self.debouncer = Debouncer(
                post, bounce_s=self.bounce_s, hold_s=self.hold_s, clock=self.clock
            )
            if self._use_ticker:
                self._ticker = DebounceTicker(self.debouncer)
        for name, button in self.buttons.items():
            button.when_activated = self._edge_handler(name, True)
            button.when_deactivated = self._edge_handler(name, False)
        self.encoder.when_rotated_clockwise = lambda: post(EncoderTurned(1))
        self.encoder.when_rotated_counter_clockwise = lambda: post(EncoderTurned(-1))
        if self._ticker is not None:
            self._ticker.start()
        if self.rfid is not None:
            self.rfid.start(post)

    def _edge_handler(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            debouncer = self.debouncer
            if debouncer is None:
                return
            debouncer.edge(name, pressed)
            if self._ticker is not None:
                self._ticker.poke()

        return on_edge

    def close(self) -> None:
        if self.rfid is not None:
            self.rfid.close()
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        for device in (*self.buttons.values(), self.encoder):
            if device is not None:
                device.close()
        self.buttons = {}
        self.encoder = None
        self.debouncer = None


# --------------------------------------------------------------------------- bundle


def open_pi_hardware(
    config: Config,
    *,
    pin_factory: Any = None,
    neopixel_class: Callable[..., Any] | None = None,
    board: Any = None,
    display_device: Any = None,
    display_serial: Any = None,
    clock: Callable[[], float] = time.monotonic,
    ticker: bool = True,
    rfid: RfidLink | None = None,
    audio: AudioOutput | None = None,
) -> Hardware:
    """Open every device of the kit; on failure close what was opened and raise
    ``HardwareError``. The keyword arguments replace a vendor piece (tests, bench rigs);
    ``rfid`` is the Pico link ``hal.factory`` made for an RFID kit (it opens its port only
    when the inputs start); ``audio`` the loudspeaker (``hal.audio.AlsaAudio``: aplay, no
    library to import, checked by the speech worker, never here)."""
    zone_map = ZoneMap.from_config(config.leds)
    opened: list[Any] = []
    try:
        leds = PiLeds(
            zone_map.pixel_count,
            config.pins.led_data,
            config.leds.pixel_order,
            neopixel_class=neopixel_class,
            board=board,
            model=config.model,
        )
        opened.append(leds)
        display = (
            PiDisplay(display_device)
            if display_device is not None
            else open_display(config.display, serial=display_serial)
        )
        opened.append(display)
        inputs = PiInputs(config, pin_factory=pin_factory, clock=clock, ticker=ticker, rfid=rfid)
    except BaseException:
        for part in reversed(opened):
            part.close()
        raise
    return Hardware(leds, display, inputs, zone_map, backend="pi", rfid=rfid, audio=audio)
