"""The harness as data: parts, wires and cables, built from the config's pin map and the
Pico's pins. The YAML, the pin table and the drawings are all views of this one value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from haleakala.config import Config, PinsConfig
from haleakala.hal.base import SEGMENTS
from haleakala.kit.wiring.boards import (
    MODEL_NAMES,
    PI_GPIO_PIN,
    PI_ROLES,
    PICO_GP_PIN,
    PICO_PINS,
    PICO_USB,
    PicoPins,
)

# --------------------------------------------------------------------------- the harness


@dataclass
class Part:
    """A connector in WireViz terms: a board, module or component with named pins."""

    name: str
    type: str
    pins: list[tuple[str | int, str]]
    kit: str = "both"
    notes: str = ""
    style: str = ""

    def label(self, pin: str | int) -> str:
        return dict(self.pins)[pin]


@dataclass(frozen=True)
class Wire:
    a: str
    a_pin: str | int
    b: str
    b_pin: str | int
    signal: str
    colour: str


@dataclass
class Cable:
    name: str
    wires: list[Wire]
    kit: str = "both"
    notes: str = ""


@dataclass
class Harness:
    title: str
    config: Config
    pico: PicoPins
    parts: dict[str, Part] = field(default_factory=dict)
    cables: list[Cable] = field(default_factory=list)

    def add(self, part: Part) -> Part:
        self.parts[part.name] = part
        return part

    def cable(self, wires: Iterable[Wire], kit: str = "both", notes: str = "") -> None:
        wires = list(wires)
        for w in wires:
            for name, pin in ((w.a, w.a_pin), (w.b, w.b_pin)):
                if pin not in dict(self.parts[name].pins):
                    raise ValueError(f"{name} has no pin {pin!r} (wire {w.signal})")
        self.cables.append(Cable(f"W{len(self.cables) + 1}", wires, kit, notes))


PI = "Raspberry Pi"
PI_POWER = "Pi power input"
PI_USB = "Pi USB port"
SUPPLY = "5 V supply"
SHIFTER = "Level shifter"
RESISTOR = "R1"
CAPACITOR = "C1"
DECOUPLING = "C2"
OLED = "OLED"
ENCODER = "Encoder"
BACK = "Back button"
GROUND_BUS = "Ground bus"
PICO = "Pico"


def ring(pos: int) -> str:
    return f"Ring {pos + 1}"


def beach_button(beach: int) -> str:
    return f"Beach {beach} button"


def reader(beach: int) -> str:
    return f"Reader {beach}"


def _gpio_label(gpio: int) -> str:
    role = PI_ROLES.get(gpio)
    return f"GPIO{gpio} ({role})" if role else f"GPIO{gpio}"


def build(config: Config, pico: PicoPins) -> Harness:
    """Every part and wire of the kit described by ``config`` (and the Pico's pins).

    The order of the steps is part of the output: the YAML and PINS.md list parts and cables
    as they are added, and ``--check`` compares those files byte for byte."""
    model = MODEL_NAMES.get(config.model, config.model)
    h = Harness(f"Haleakala companion wiring: {model}, {config.kit} kit", config, pico)
    _add_pi(h, config, model)
    _add_pi_side_parts(h, config)
    _wire_led_chain(h, config.pins)
    _wire_controls(h, config.pins)
    if config.kit == "buttons":
        _add_beach_buttons(h, config.pins)
    _add_rfid(h, pico)
    return h


def _add_pi(h: Harness, config: Config, model: str) -> None:
    """The Pi's header: the pins this kit uses, each labelled with its BCM GPIO."""
    pins = config.pins
    buttons_kit = config.kit == "buttons"
    # Pi header pins used, with the config key that names each GPIO.
    header: dict[int, str] = {}
    gpio_use: dict[int, str] = {
        pins.led_data: "LED data",
        2: "OLED SDA",
        3: "OLED SCL",
        pins.encoder_a: "encoder A",
        pins.encoder_b: "encoder B",
        pins.encoder_push: "encoder push (select)",
        pins.back: "back",
    }
    if buttons_kit:
        gpio_use.update({pins.beach(b): f"beach {b}" for b in range(SEGMENTS)})
    for gpio in gpio_use:
        header[PI_GPIO_PIN[gpio]] = _gpio_label(gpio)
    power_pins = {1: "3V3", 2: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND"}
    if buttons_kit:
        power_pins[30] = "GND"
    header.update(power_pins)
    h.add(
        Part(
            PI,
            f"{model}, 40-pin header",
            sorted(header.items()),
            notes="Pin numbers are physical header pins; labels give the BCM GPIO.",
        )
    )


def _add_pi_side_parts(h: Harness, config: Config) -> None:
    """Supply, level shifter and its passives, the rings, the OLED, the encoder, back."""
    h.add(
        Part(
            PI_POWER,
            "USB-C (Pi 4/5) or micro-USB (Pi 3, Zero 2 W) power input",
            [(1, "VBUS 5V"), (2, "GND")],
            notes="Through a USB pigtail from the supply.",
        )
    )
    h.add(
        Part(SUPPLY, "5 V DC supply (size it with: haleakala power)", [("+", "+5V"), ("-", "GND")])
    )
    h.add(
        Part(
            SHIFTER,
            "74AHCT125 quad buffer, 3.3 V to 5 V",
            [(1, "1OE"), (2, "1A"), (3, "1Y"), (7, "GND"), (14, "VCC")],
            notes="Tie 1OE (1) to GND on the board, and the unused 2OE, 3OE, 4OE "
            "(4, 10, 13) to VCC.",
        )
    )
    h.add(
        Part(
            DECOUPLING,
            "Ceramic 100 nF (decoupling)",
            [(1, "1"), (2, "2")],
            notes="Across the 74AHCT125's VCC (14) and GND (7), leads as short as possible.",
        )
    )
    h.add(
        Part(RESISTOR, "Resistor 390 Ω (330-470 Ω)", [(1, "1"), (2, "2")], notes="At ring 1's DIN.")
    )
    h.add(
        Part(
            CAPACITOR,
            "Electrolytic 1000 µF, 10 V+",
            [("+", "+"), ("-", "-")],
            notes="Across ring 1's 5 V and GND pads; mind the polarity.",
        )
    )
    ppr = config.leds.pixels_per_ring
    for pos, segment in enumerate(config.leds.ring_order):
        h.add(
            Part(
                ring(pos),
                f"NeoPixel ring, {ppr} x WS2812B, under segment {segment}"
                if ppr == 12
                else f"Tile of segment {segment}: {ppr} x WS2812B pixels chained crater to "
                "slot b (the ring's label is kept: one group on the data wire)",
                [("DIN", "DIN"), ("5V", "5V"), ("GND", "GND"), ("DOUT", "DOUT")],
            )
        )
    driver = config.display.driver.upper()
    h.add(
        Part(
            OLED,
            f"{driver} 128x64 I2C, address {config.display.address:#04x}",
            [("GND", "GND"), ("VCC", "VCC"), ("SCL", "SCL"), ("SDA", "SDA")],
        )
    )
    h.add(
        Part(
            ENCODER,
            "Rotary encoder with push (KY-040)",
            [
                ("CLK", "CLK (A)"),
                ("DT", "DT (B)"),
                ("SW", "SW (push)"),
                ("+", "+ 3.3V"),
                ("GND", "GND"),
            ],
        )
    )
    h.add(Part(BACK, "Push button (back; hold = undo)", [(1, "1"), (2, "2")]))


def _wire_led_chain(h: Harness, pins: PinsConfig) -> None:
    """Pi → shifter → resistor → ring 1 → ...; the LED power comes straight from the supply."""
    h.cable(
        [
            Wire(PI, 2, SHIFTER, 14, "5V", "RD"),
            Wire(PI, 6, SHIFTER, 7, "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[pins.led_data], SHIFTER, 2, "LED data 3.3 V", "WH"),
        ]
    )
    h.cable(
        [
            Wire(SHIFTER, 14, DECOUPLING, 1, "5V", "RD"),
            Wire(SHIFTER, 7, DECOUPLING, 2, "GND", "BK"),
        ],
        notes="On the perfboard, at the chip.",
    )
    h.cable([Wire(SHIFTER, 3, RESISTOR, 1, "LED data 5 V", "WH")])
    h.cable([Wire(RESISTOR, 2, ring(0), "DIN", "LED data 5 V", "WH")])
    h.cable(
        [
            Wire(SUPPLY, "+", CAPACITOR, "+", "+5V", "RD"),
            Wire(SUPPLY, "-", CAPACITOR, "-", "GND", "BK"),
        ]
    )
    h.cable(
        [
            Wire(SUPPLY, "+", ring(0), "5V", "+5V", "RD"),
            Wire(SUPPLY, "-", ring(0), "GND", "GND", "BK"),
        ],
        notes="22 AWG or thicker: carries the LED current.",
    )
    h.cable(
        [Wire(SUPPLY, "+", PI_POWER, 1, "+5V", "RD"), Wire(SUPPLY, "-", PI_POWER, 2, "GND", "BK")],
        notes="Also joins the Pi's ground to the LED ground.",
    )
    for pos in range(SEGMENTS - 1):
        h.cable(
            [
                Wire(ring(pos), "DOUT", ring(pos + 1), "DIN", "LED data", "WH"),
                Wire(ring(pos), "5V", ring(pos + 1), "5V", "+5V", "RD"),
                Wire(ring(pos), "GND", ring(pos + 1), "GND", "GND", "BK"),
            ]
        )


def _wire_controls(h: Harness, pins: PinsConfig) -> None:
    """The OLED on I2C1, the encoder and the back button."""
    h.cable(
        [
            Wire(PI, 1, OLED, "VCC", "3V3", "OG"),
            Wire(PI, 9, OLED, "GND", "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[3], OLED, "SCL", "SCL", "YE"),
            Wire(PI, PI_GPIO_PIN[2], OLED, "SDA", "SDA", "BU"),
        ]
    )
    h.cable(
        [
            Wire(PI, 17, ENCODER, "+", "3V3", "OG"),
            Wire(PI, 14, ENCODER, "GND", "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_a], ENCODER, "CLK", "encoder A", "GN"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_b], ENCODER, "DT", "encoder B", "VT"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_push], ENCODER, "SW", "select", "GY"),
        ]
    )
    h.cable(
        [
            Wire(PI, PI_GPIO_PIN[pins.back], BACK, 1, "back", "BN"),
            Wire(PI, 20, BACK, 2, "GND", "BK"),
        ]
    )


def _add_beach_buttons(h: Harness, pins: PinsConfig) -> None:
    """Buttons kit: a button under each beach, grounded through one strip."""
    h.add(
        Part(
            GROUND_BUS,
            "Ground strip on the perfboard",
            [(i, "GND") for i in range(1, SEGMENTS + 2)],
            kit="buttons",
            notes="One wire from the Pi, one to every beach button.",
        )
    )
    h.cable([Wire(PI, 30, GROUND_BUS, 1, "GND", "BK")], kit="buttons")
    for b in range(SEGMENTS):
        h.add(
            Part(
                beach_button(b),
                f"Push button under beach {b} (notation {b}B)",
                [(1, "1"), (2, "2")],
                kit="buttons",
            )
        )
        h.cable(
            [
                Wire(PI, PI_GPIO_PIN[pins.beach(b)], beach_button(b), 1, f"beach {b}", "YE"),
                Wire(GROUND_BUS, b + 2, beach_button(b), 2, "GND", "BK"),
            ],
            kit="buttons",
        )


def _add_rfid(h: Harness, pico: PicoPins) -> None:
    h.add(
        Part(
            PI_USB,
            "Any USB-A port of the Pi (micro-USB OTG port on a Zero 2 W)",
            [(PICO_USB, "USB")],
            kit="rfid",
        )
    )
    used: dict[int, str] = {
        PICO_GP_PIN[pico.sck]: f"GP{pico.sck} SPI SCK",
        PICO_GP_PIN[pico.mosi]: f"GP{pico.mosi} SPI MOSI",
        PICO_GP_PIN[pico.miso]: f"GP{pico.miso} SPI MISO",
        36: "3V3(OUT)",
        40: "VBUS 5V",
    }
    grounds = [p for p, n in sorted(PICO_PINS.items(), reverse=True) if n == "GND"]
    for b, r in enumerate(pico.readers):
        used[PICO_GP_PIN[r.cs]] = f"GP{r.cs} CS beach {b}"
        used[PICO_GP_PIN[r.rst]] = f"GP{r.rst} RST beach {b}"
        if r.kind == "pn5180" and r.busy is not None:
            used[PICO_GP_PIN[r.busy]] = f"GP{r.busy} BUSY beach {b}"
        used[grounds[b]] = "GND"
    pico_pins: list[tuple[str | int, str]] = [(PICO_USB, "micro-USB")]
    pico_pins += sorted(used.items())
    h.add(
        Part(
            PICO,
            "Raspberry Pi Pico (RFID firmware)",
            pico_pins,
            kit="rfid",
            notes=f"Pins from {pico.source}. SCK, MOSI, MISO, 3V3 and VBUS are shared by "
            "all readers: run them as a bus.",
        )
    )
    h.cable(
        [Wire(PI_USB, PICO_USB, PICO, PICO_USB, "USB data + 5 V", "BK")],
        kit="rfid",
        notes="USB-A to micro-USB data cable (not charge-only).",
    )
    for b, r in enumerate(pico.readers):
        gnd = grounds[b]
        if r.kind == "pn5180":
            h.add(
                Part(
                    reader(b),
                    f"PN5180 reader under beach {b}",
                    [
                        ("+5V", "+5V"),
                        ("+3.3V", "+3.3V"),
                        ("RST", "RST"),
                        ("NSS", "NSS"),
                        ("MOSI", "MOSI"),
                        ("MISO", "MISO"),
                        ("SCK", "SCK"),
                        ("BUSY", "BUSY"),
                        ("GND", "GND"),
                    ],
                    kit="rfid",
                )
            )
            wires = [
                Wire(PICO, 40, reader(b), "+5V", "5V", "RD"),
                Wire(PICO, 36, reader(b), "+3.3V", "3V3", "OG"),
                Wire(PICO, PICO_GP_PIN[r.rst], reader(b), "RST", "RST", "GY"),
                Wire(PICO, PICO_GP_PIN[r.cs], reader(b), "NSS", "CS", "WH"),
                Wire(PICO, PICO_GP_PIN[pico.mosi], reader(b), "MOSI", "MOSI", "BU"),
                Wire(PICO, PICO_GP_PIN[pico.miso], reader(b), "MISO", "MISO", "GN"),
                Wire(PICO, PICO_GP_PIN[pico.sck], reader(b), "SCK", "SCK", "YE"),
            ]
            if r.busy is not None:
                wires.append(Wire(PICO, PICO_GP_PIN[r.busy], reader(b), "BUSY", "BUSY", "VT"))
            wires.append(Wire(PICO, gnd, reader(b), "GND", "GND", "BK"))
        else:
            h.add(
                Part(
                    reader(b),
                    f"MFRC522 reader under beach {b}",
                    [
                        ("SDA", "SDA (SS)"),
                        ("SCK", "SCK"),
                        ("MOSI", "MOSI"),
                        ("MISO", "MISO"),
                        ("GND", "GND"),
                        ("RST", "RST"),
                        ("3.3V", "3.3V"),
                    ],
                    kit="rfid",
                )
            )
            wires = [
                Wire(PICO, PICO_GP_PIN[r.cs], reader(b), "SDA", "CS", "WH"),
                Wire(PICO, PICO_GP_PIN[pico.sck], reader(b), "SCK", "SCK", "YE"),
                Wire(PICO, PICO_GP_PIN[pico.mosi], reader(b), "MOSI", "MOSI", "BU"),
                Wire(PICO, PICO_GP_PIN[pico.miso], reader(b), "MISO", "MISO", "GN"),
                Wire(PICO, gnd, reader(b), "GND", "GND", "BK"),
                Wire(PICO, PICO_GP_PIN[r.rst], reader(b), "RST", "RST", "GY"),
                Wire(PICO, 36, reader(b), "3.3V", "3V3", "OG"),
            ]
        h.cable(wires, kit="rfid")
