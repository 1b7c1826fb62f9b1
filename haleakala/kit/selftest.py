"""``haleakala selftest``: walk every LED ring, the OLED, each button, the encoder and every
beach reader, and say per part whether it works and, when not, which wire to look at.

It drives the HAL directly (``open_hardware(config)``), not the daemon, so it works on a kit
whose game code has never run. Each part is one step:

- **LED zone map**: every zone has pixels (a zone without pixels can never be shown);
- **LED ring n**: the n-th ring on the data wire lights *segment + 1* pixels from its pixel 0
  (so a ring under the wrong segment shows at once), then each zone in turn;
- **OLED**: a test pattern (border, corner squares, text);
- **select, back, encoder clockwise / anticlockwise**, and per beach either the **beach
  button** (buttons kit) or the **beach reader** (RFID kit: any tagged disc, enrolled or
  not), after the **RFID link** is up. ``--tile N``: one tile on the bench (``selftest_tile``).

Who answers is an ``Operator``: a person at the console (``ConsoleOperator``: instructions
and y/n questions), or, on the sim backend with ``--auto``, ``SimOperator``, which makes the
simulated parts answer by themselves: it injects the expected events into the ``SimHardware``
and checks the LED frames and OLED image the self-test produced, so a broken part (an encoder
that never turns, a display that raises, a chain that drops rings) fails exactly as on a Pi.
On an RFID kit the link comes from ``hal.factory`` with the hardware: the Pico on a Pi, a
virtual Pico read by the same driver on the sim backend (``SimOperator`` lays a tag on it).
"""

from __future__ import annotations

import argparse
import queue
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from haleakala.cli import UsageError, add_config_option
from haleakala.config import Config
from haleakala.hal.base import (
    SEGMENTS,
    ZONES,
    Hardware,
    Pixel,
    apply_brightness,
    limit_current,
)
from haleakala.hal.events import (
    BEACHES,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    EncoderTurned,
    InputEvent,
    LinkHealth,
)
from haleakala.kit.common import load_for_kit
from haleakala.kit.selftest_steps import (
    ConsoleOperator,
    InputStep,
    LedFrameCheck,
    Operator,
    PartResult,
    Report,
    SimOperator,
    TagsRelay,
    TagsSeen,
    VisualCheck,
)
from haleakala.kit.selftest_tile import run_tile
from haleakala.kit.wiring import PI_GPIO_PIN, load_pico_pins

if TYPE_CHECKING:
    from PIL.Image import Image


WHITE = (255, 255, 255)
ZONE_COLOUR = {
    "water": (0, 60, 255),
    "beach": (255, 200, 0),
    "grassland": (120, 255, 40),
    "forest": (0, 120, 0),
    "mountain": (160, 160, 160),
    "crater": (255, 0, 0),
    "slot_a": (255, 0, 200),
    "slot_b": (0, 230, 230),
}
INTERACTIVE_TIMEOUT_S = 10.0
AUTO_TIMEOUT_S = 2.0
"""Long enough for the virtual Pico's link to come back after the simulated replug (a few
snapshot frames); a part that answers costs only its answer time."""


# --------------------------------------------------------------------------- the test pattern


def oled_test_pattern(width: int = 128, height: int = 64) -> Image:
    """Border, a checkered square in each corner, and text: shows the panel is whole,
    upright, and driven by the right controller (a wrong one shows noise or a shifted
    picture)."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    for x0, y0 in ((2, 2), (width - 10, 2), (2, height - 10), (width - 10, height - 10)):
        for dx in range(8):
            for dy in range(8):
                if (dx // 2 + dy // 2) % 2 == 0:
                    draw.point((x0 + dx, y0 + dy), fill=1)
    draw.text((22, 14), "HALEAKALA", fill=1)
    draw.text((22, 28), "SELF-TEST", fill=1)
    draw.text((22, 42), f"{width}x{height} OK?", fill=1)
    draw.line((14, 60, width - 15, 60), fill=1)
    return image


# --------------------------------------------------------------------------- the self-test


class SelfTest:
    """Runs every step on an open ``Hardware`` and collects a ``Report``."""

    def __init__(
        self,
        config: Config,
        hardware: Hardware,
        operator: Operator,
        *,
        timeout_s: float = INTERACTIVE_TIMEOUT_S,
        pause: Callable[[float], None] = time.sleep,
        title: str = "",
        extra_inputs: Sequence[Any] = (),
        speaker: bool = False,
    ) -> None:
        self.config = config
        self.speaker = speaker  # a sentence per language (kit.selftest_speaker)
        self.hw = hardware
        self.op = operator
        self.timeout_s = timeout_s
        self.pause = pause if operator.interactive else (lambda _s: None)
        self.report = Report(title or f"Haleakala self-test: {config.model}, {config.kit} kit")
        self.events: queue.Queue[InputEvent | TagsSeen] = queue.Queue()
        self.extra_inputs = list(extra_inputs)

    def post(self, event: InputEvent | TagsSeen) -> None:
        self.events.put(event)

    def add(self, result: PartResult) -> None:
        self.report.results.append(result)
        self.op.say(result.line())

    def run(self) -> Report:
        try:
            self.hw.inputs.start(self.post)
        except Exception as exc:
            self.add(PartResult("inputs", False, f"cannot start: {exc}", "the GPIO wiring"))
        for source in self.extra_inputs:
            source.start(self.post)
        try:
            self.check_zone_map()
            for position in range(SEGMENTS):
                self.check_ring(position)
            self.check_display()
            if self.speaker:
                from haleakala.kit.selftest_speaker import check_speaker

                check_speaker(self)
            self.check_inputs()
        finally:
            for source in self.extra_inputs:
                source.close()
        return self.report

    # -- LEDs

    def check_zone_map(self) -> None:
        zm = self.hw.zone_map
        missing = [z for z in ZONES if not zm.zones[z]]
        if missing:
            self.add(
                PartResult(
                    "LED zone map",
                    False,
                    f"zone(s) {', '.join(missing)} have no pixels, so the game can never show them",
                    "[leds.zones] in the config: give each zone pixel indices (hw/OVERLAY.md)",
                )
            )
        else:
            self.add(
                PartResult(
                    "LED zone map",
                    True,
                    f"{len(ZONES)} zones on {zm.pixels_per_ring}-pixel rings",
                )
            )

    def _send(self, pixels: list[Pixel]) -> None:
        zm = self.hw.zone_map
        sent = limit_current(apply_brightness(pixels, zm.brightness), zm.current_limit_ma)[0]
        self.hw.leds.show(sent)

    def check_ring(self, position: int) -> None:
        zm = self.hw.zone_map
        segment = zm.ring_order[position]
        ppr = zm.pixels_per_ring
        start = position * ppr
        part = f"LED ring {position + 1} (under segment {segment})"
        prev = "R1 and the level shifter" if position == 0 else f"ring {position}'s DOUT"
        hint = (
            f"ring {position + 1}'s DIN wire from {prev}, its 5 V and GND; if the count lit "
            f"under another segment, fix leds.ring_order; wrong colours: leds.pixel_order"
        )
        frames: list[LedFrameCheck] = []
        count = min(segment + 1, ppr)
        try:
            pixels: list[Pixel] = [(0, 0, 0)] * zm.pixel_count
            for i in range(count):
                pixels[start + i] = WHITE
            self._send(pixels)
            frames.append(
                LedFrameCheck(f"{count} white pixel(s)", frozenset(range(start, start + count)))
            )
            self.pause(1.5)
            for zone in ZONES:
                if not zm.zones[zone]:
                    continue
                self.hw.show_zones({(segment, zone): ZONE_COLOUR[zone]})
                frames.append(LedFrameCheck(f"zone {zone}", frozenset(zm.pixels_of(segment, zone))))
                self.pause(0.6)
        except Exception as exc:
            self.add(PartResult(part, False, f"the LED chain refused a frame: {exc}", hint))
            return
        if zm.brightness * 255 < 0.5:
            self.add(
                PartResult(
                    part, False, "leds.brightness is 0: nothing can light", "leds.brightness"
                )
            )
            self.hw.leds.off()
            return
        zones = ", ".join(z for z in ZONES if zm.zones[z])
        ok, remark = self.op.confirm(
            VisualCheck(
                part,
                f"Ring {position + 1} on the data wire: did {count} white pixel(s) light under "
                f"segment {segment}, starting at its pixel 0, then {zones} one after another?",
                frames=tuple(frames),
            )
        )
        self.hw.leds.off()
        if ok:
            self.add(PartResult(part, True, f"{count} pixel(s), then {len(frames) - 1} zones"))
        else:
            self.add(PartResult(part, False, remark, hint))

    # -- OLED

    def check_display(self) -> None:
        display = self.config.display
        pin = "SDA to GPIO2 (pin 3), SCL to GPIO3 (pin 5), VCC to 3.3 V (pin 1), GND (pin 9)"
        hint = (
            f"the OLED wiring: {pin}; 'i2cdetect -y {display.i2c_port}' should show "
            f"{display.address:#04x}; garbled picture: try display.driver = "
            f"{'sh1106' if display.driver == 'ssd1306' else 'ssd1306'}; upside down: "
            "display.rotate = 2"
        )
        image = oled_test_pattern(self.hw.display.width, self.hw.display.height)
        try:
            self.hw.display.show(image)
        except Exception as exc:
            self.add(PartResult("OLED", False, f"showing the test pattern failed: {exc}", hint))
            return
        ok, remark = self.op.confirm(
            VisualCheck(
                "OLED",
                "Does the OLED show a border, a checkered square in each corner and "
                "HALEAKALA SELF-TEST, the right way up?",
                image=image,
            )
        )
        try:
            self.hw.display.clear()
        except Exception as exc:
            ok, remark = False, f"clearing the display failed: {exc}"
        if ok:
            self.add(PartResult("OLED", True, "test pattern shown"))
        else:
            self.add(PartResult("OLED", False, remark, hint))

    # -- inputs

    def _drain(self) -> None:
        while True:
            try:
                self.events.get_nowait()
            except queue.Empty:
                return

    def _wait(
        self, step: InputStep, matches: Callable[[InputEvent | TagsSeen], str | None]
    ) -> tuple[str | None, list[str]]:
        """Ask for ``step`` and wait; returns (verdict, other events seen). The verdict is
        "ok", a reason it is wrong, or None on timeout."""
        self._drain()
        self.op.act(step)
        deadline = time.monotonic() + self.timeout_s
        others: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, others
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return None, others
            verdict = matches(event)
            if verdict is not None:
                return verdict, others
            seen = _describe(event)
            if seen and seen not in others:
                others.append(seen)

    def _result(
        self, step: InputStep, verdict: str | None, others: list[str], missing: str, hint: str
    ) -> PartResult:
        if verdict == "ok":
            return PartResult(step.part, True, "seen")
        if verdict is None:
            saw = f" (saw instead: {', '.join(others)})" if others else ""
            return PartResult(step.part, False, f"{missing} in {self.timeout_s:g} s{saw}", hint)
        return PartResult(step.part, False, verdict, hint)

    def _gpio(self, gpio: int) -> str:
        return f"GPIO{gpio} (header pin {PI_GPIO_PIN.get(gpio, '?')})"

    def check_button(self, part: str, button: str, gpio: int, what: str) -> None:
        step = InputStep(part, f"Press {what}", ("press", button))

        def matches(event: InputEvent | TagsSeen) -> str | None:
            if isinstance(event, ButtonPressed | ButtonHeld) and event.button == button:
                return "ok"
            return None

        verdict, others = self._wait(step, matches)
        hint = f"the wire on {self._gpio(gpio)} and the button's other leg to ground"
        swapped = [o for o in others if o.startswith("press ")]
        if verdict is None and swapped:
            hint += f"; another button answered ({', '.join(swapped)}): are two wires swapped?"
        self.add(self._result(step, verdict, others, "no press seen", hint))

    def check_encoder(self, clockwise: bool) -> None:
        pins = self.config.pins
        direction = "clockwise" if clockwise else "anticlockwise"
        step = InputStep(
            f"encoder {direction}",
            f"Turn the encoder one click {direction}",
            ("turn", 1 if clockwise else -1),
        )

        def matches(event: InputEvent | TagsSeen) -> str | None:
            if not isinstance(event, EncoderTurned):
                return None
            if (event.steps > 0) == clockwise:
                return "ok"
            return (
                f"it turned {'anticlockwise' if clockwise else 'clockwise'} instead: swap the "
                "CLK and DT wires, or swap pins.encoder_a and pins.encoder_b"
            )

        verdict, others = self._wait(step, matches)
        hint = (
            f"CLK to {self._gpio(pins.encoder_a)}, DT to {self._gpio(pins.encoder_b)}, "
            "+ to 3.3 V and GND"
        )
        self.add(self._result(step, verdict, others, "no turn seen", hint))

    def check_link(self) -> bool:
        step = InputStep("RFID link", "Plug the RFID Pico into a USB port of the Pi", ("link",))
        last: list[str] = []

        def matches(event: InputEvent | TagsSeen) -> str | None:
            if isinstance(event, LinkHealth):
                if event.ok:
                    return "ok"
                last[:] = [event.detail]
            return None

        verdict, _others = self._wait(step, matches)
        hint = (
            "that the Pico is plugged in with a data cable (not charge-only) and runs "
            "firmware/ (ls /dev/serial/by-id/ should list it), and rfid.port in the config"
        )
        missing = f"the Pico did not answer ({last[0]})" if last else "the Pico did not answer"
        result = self._result(step, verdict, [], missing, hint)
        self.add(result)
        return result.ok

    def check_reader(self, beach: int, link_ok: bool) -> None:
        part = f"beach {beach} reader"
        pico = load_pico_pins()
        reader = pico.readers[beach]
        busy = f", BUSY to GP{reader.busy}" if reader.kind == "pn5180" else ""
        hint = (
            f"reader {beach} ({reader.kind.upper()}): NSS to GP{reader.cs}, RST to "
            f"GP{reader.rst}{busy}, SCK/MOSI/MISO to GP{pico.sck}/GP{pico.mosi}/GP{pico.miso}, "
            "its 5 V, 3.3 V and GND"
        )
        if not link_ok:
            self.add(PartResult(part, False, "not tested: the RFID link is down", "the RFID link"))
            return
        step = InputStep(
            part, f"Place any tagged disc on beach {beach}, then take it off", ("place", beach)
        )

        def matches(event: InputEvent | TagsSeen) -> str | None:
            seen = (isinstance(event, BeachContents) and bool(event.discs)) or (
                isinstance(event, TagsSeen) and bool(event.uids)
            )
            if not seen:
                return None
            assert isinstance(event, BeachContents | TagsSeen)
            found = event.beach
            if found == beach:
                return "ok"
            cs = pico.readers[found].cs
            return (
                f"the tag was read on beach {found} instead: readers {beach} and {found} "
                f"have their chip selects swapped (GP{reader.cs} / GP{cs}), or the readers "
                "sit under the wrong beaches"
            )

        verdict, others = self._wait(step, matches)
        self.add(self._result(step, verdict, others, "no tag read", hint))

    def check_inputs(self) -> None:
        pins = self.config.pins
        self.check_button("select (encoder push)", "select", pins.encoder_push, "the encoder knob")
        self.check_button("back button", "back", pins.back, "the back button")
        self.check_encoder(clockwise=True)
        self.check_encoder(clockwise=False)
        if self.config.kit == "buttons":
            for beach in range(BEACHES):
                self.check_button(
                    f"beach {beach} button",
                    f"beach{beach}",
                    pins.beach(beach),
                    f"the button of beach {beach}",
                )
        else:
            link_ok = self.check_link()
            for beach in range(BEACHES):
                self.check_reader(beach, link_ok)


def _describe(event: InputEvent | TagsSeen) -> str:
    if isinstance(event, ButtonPressed | ButtonHeld):
        return f"press {event.button}"
    if isinstance(event, EncoderTurned):
        return f"encoder {'+' if event.steps > 0 else ''}{event.steps}"
    if isinstance(event, BeachContents) and event.discs:
        return f"disc on beach {event.beach}"
    if isinstance(event, TagsSeen) and event.uids:
        return f"tag on beach {event.beach}"
    return ""


# --------------------------------------------------------------------------- the command


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "selftest",
        help="light every ring, test the OLED, every button, the encoder and the readers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_option(parser)
    parser.add_argument(
        "--hardware",
        choices=("sim", "pi"),
        default=None,
        help="backend (default: $HALEAKALA_HARDWARE, the config, else pi on a Pi)",
    )
    parser.add_argument(
        "--auto",
        action="store_true",
        help="sim backend only: the simulated parts answer by themselves",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds to wait for each input (default {INTERACTIVE_TIMEOUT_S:g}, "
        f"{AUTO_TIMEOUT_S:g} with --auto)",
    )
    parser.add_argument(
        "--tile",
        type=int,
        choices=range(SEGMENTS),
        metavar="N",
        help="bench-test segment N's tile alone: its pixels one by one, its button or reader",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from haleakala.hal.factory import BackendError, choose_backend

    config, label = load_for_kit(args.config)
    try:
        backend = choose_backend(config, args.hardware)
    except BackendError as exc:
        raise UsageError(str(exc)) from None
    if args.auto and backend != "sim":
        raise UsageError(
            "--auto needs the sim backend (--hardware sim): on a real kit a person presses "
            "the buttons"
        )
    if backend == "sim" and not args.auto:
        raise UsageError(
            "the sim backend has nobody to press its buttons: add --auto (the simulated "
            "parts answer by themselves), or run on the Pi with --hardware pi"
        )
    timeout = (
        args.timeout
        if args.timeout is not None
        else (AUTO_TIMEOUT_S if args.auto else INTERACTIVE_TIMEOUT_S)
    )
    if timeout <= 0:
        raise UsageError(f"--timeout {timeout:g} must be positive")
    title = f"Haleakala self-test: {config.model}, {config.kit} kit, {backend} backend ({label})"
    if backend == "pi":
        from haleakala.kit.service import service_paused

        with service_paused("selftest"):
            return _run_on(config, backend, args, timeout, title)
    return _run_on(config, backend, args, timeout, title)


def _run_on(config: Any, backend: str, args: argparse.Namespace, timeout: float, title: str) -> int:
    from haleakala.hal.factory import open_hardware

    # An RFID kit's link comes from the factory with the hardware: the Pico on the Pi, a
    # virtual Pico (read by the same driver) on the sim backend.
    relay = TagsRelay() if config.kit == "rfid" else None
    try:
        hardware = open_hardware(
            config,
            backend,
            rfid=relay is not None,
            rfid_options={"on_uids": relay.seen, "warn_unknown": False} if relay else None,
        )
    except Exception as exc:
        report = Report(
            title,
            [
                PartResult(
                    "hardware", False, f"cannot open: {exc}", "the device it names, then run again"
                )
            ],
        )
        print("\n".join(report.lines()))
        return 1
    extra: list[Any] = [relay] if relay is not None else []
    try:
        if args.auto:
            operator: Operator = SimOperator(hardware)  # type: ignore[arg-type]
        else:
            operator = ConsoleOperator(timeout_s=timeout)
            operator.say(title)
        from haleakala.hal.audio import NoAudio

        speaker = hardware.audio is not None and not isinstance(hardware.audio, NoAudio)
        test = SelfTest(config, hardware, operator, timeout_s=timeout, title=title,
                        extra_inputs=extra, speaker=speaker)  # fmt: skip
        tile = getattr(args, "tile", None)
        report = test.run() if tile is None else run_tile(test, tile)
    finally:
        hardware.close()
    if not args.auto:
        print("\nSummary:")
    print("\n".join(report.lines()))
    return 0 if report.ok else 1
