"""The harness as data: every cable of the kit between the boards' keyed connectors, built
from the same board model (``kit.boards``) the KiCad projects are written from, the config's
pin map and the geometry. The YAML, the pin table and the drawings are all views of it.

The cables: the 40-way ribbon from the Pi's header to the hub, the supply's lead into the hub
and the Pi's power pigtail out of it, one 20-way ribbon per tile (cut to its length from the
geometry), the lid's OLED, encoder and back button on keyed Molex KK plugs, the Pico's USB
cable (RFID kit), and on every tile board the pixel chain in and out, and the beach button.
No loose jumpers: every wire ends in a housing that goes on one way only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from haleakala.config import Config
from haleakala.kit.boards.hub import hub, tile_ref
from haleakala.kit.boards.model import TILE_PINOUT, Board
from haleakala.kit.boards.tile import PN5180_PINS, tile
from haleakala.kit.cables import tile_cables
from haleakala.kit.geometry import KitGeometry, default_geometry
from haleakala.kit.pinout import PI_GPIO_PIN, PI_HEADER, PI_ROLES, PICO_USB, PicoPins
from haleakala.kit.power_scheme import Scheme, scheme
from haleakala.kit.wiring.boards import MODEL_NAMES


@dataclass
class Part:
    """A connector in WireViz terms: a board's connector, a module or a component."""

    name: str
    type: str
    pins: list[tuple[str | int, str]]
    kit: str = "both"
    notes: str = ""

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
    length_m: float = 0.0
    gauge: str = ""


@dataclass
class Harness:
    title: str
    config: Config
    pico: PicoPins
    scheme: Scheme
    hub: Board
    tile: Board
    parts: dict[str, Part] = field(default_factory=dict)
    cables: list[Cable] = field(default_factory=list)

    def add(self, part: Part) -> Part:
        self.parts[part.name] = part
        return part

    def cable(
        self,
        wires: Iterable[Wire],
        kit: str = "both",
        notes: str = "",
        length_m: float = 0.0,
        gauge: str = "",
    ) -> None:
        wires = list(wires)
        for w in wires:
            for name, pin in ((w.a, w.a_pin), (w.b, w.b_pin)):
                if pin not in dict(self.parts[name].pins):
                    raise ValueError(f"{name} has no pin {pin!r} (wire {w.signal})")
        self.cables.append(Cable(f"W{len(self.cables) + 1}", wires, kit, notes, length_m, gauge))


PI = "Raspberry Pi"
PI_POWER = "Pi power input"
PI_USB = "Pi USB port"
SUPPLY = "5 V supply"
PICO = "Pico"
OLED = "OLED"
ENCODER = "Encoder"
BACK = "Back button"

COLOURS = {"+5V": "RD", "GND": "BK", "+3V3": "OG", "+3V3_RFID": "OG", "VIN": "RD"}
SIGNAL_COLOURS = ("WH", "YE", "BU", "GN", "VT", "GY", "BN", "PK")


def hub_part(ref: str) -> str:
    return f"Hub {ref}"


def tile_part(segment: int, ref: str) -> str:
    return f"Tile {segment} {ref}"


def beach_button(beach: int) -> str:
    return f"Beach {beach} button"


def reader(beach: int) -> str:
    return f"Reader {beach}"


def _gpio_label(gpio: int) -> str:
    role = PI_ROLES.get(gpio)
    return f"GPIO{gpio} ({role})" if role else f"GPIO{gpio}"


def _colour(net: str, k: int) -> str:
    return COLOURS.get(net, SIGNAL_COLOURS[k % len(SIGNAL_COLOURS)])


def _pins(board: Board, ref: str) -> dict[str, str | None]:
    return board.part(ref).pins


def build(config: Config, pico: PicoPins, g: KitGeometry | None = None) -> Harness:
    """Every part and cable of the kit described by ``config`` (and the Pico's pins).

    The order of the steps is part of the output: the YAML and PINS.md list parts and cables
    as they are added, and ``--check`` compares those files byte for byte."""
    g = g or default_geometry()
    model = MODEL_NAMES.get(config.model, config.model)
    h = Harness(
        f"Haleakala companion wiring: {model}, {config.kit} kit",
        config,
        pico,
        scheme(g, config),
        hub(g, config.pins, pico),
        tile(g),
    )
    _power(h)
    _pi_ribbon(h)
    _lid(h)
    _tiles(h, g)
    if config.kit == "rfid":
        _pico_usb(h)
    return h


def _power(h: Harness) -> None:
    s = h.scheme
    lead = s.runs[0]
    pigtail = s.runs[2]
    h.add(
        Part(
            SUPPLY,
            f"5 V supply, {s.supply_v:g} V at no load (size it: haleakala power)",
            [("+", "+5V"), ("-", "GND")],
        )
    )
    h.add(
        Part(
            hub_part("J1"),
            "hub: supply in (screw terminal)",
            [(1, "VIN"), (2, "GND")],
            notes=f"5 V enters here. F1 (T{s.main_fuse_a:g}A slow-blow) protects the LED and "
            "reader rail after it; the last pixel gets "
            f"{s.full_white.last_pixel_v:.2f} V at full white, "
            f"{s.at_cap.last_pixel_v:.2f} V at the default cap",
        )
    )
    h.cable(
        [
            Wire(SUPPLY, "+", hub_part("J1"), 1, "+5V", "RD"),
            Wire(SUPPLY, "-", hub_part("J1"), 2, "GND", "BK"),
        ],
        notes=f"The supply's own lead, plug cut off: {lead['made_of']}",
        length_m=float(lead["made_of"].split(", ")[1].rstrip(" m")),
        gauge="18 AWG",
    )
    h.add(
        Part(hub_part("J2"), "hub: the Pi's power out (screw terminal)", [(1, "VIN"), (2, "GND")])
    )
    h.add(
        Part(
            PI_POWER, "USB-C (Pi 4/5) or micro-USB (Pi 3) power input", [(1, "VBUS 5V"), (2, "GND")]
        )
    )
    h.cable(
        [
            Wire(hub_part("J2"), 1, PI_POWER, 1, "+5V", "RD"),
            Wire(hub_part("J2"), 2, PI_POWER, 2, "GND", "BK"),
        ],
        notes=f"USB power pigtail: {pigtail['made_of']}",
        length_m=0.3,
        gauge="22 AWG",
    )


def _pi_ribbon(h: Harness) -> None:
    """The Pi's header to the hub's J3: the conductors the hub uses (the rest run unused)."""
    nets = _pins(h.hub, "J3")
    keys = {gpio: key for key, gpio in h.config.pins_in_use().items()}
    used = [(pin, net) for pin, net in ((int(p), n) for p, n in nets.items()) if net is not None]
    labels: list[tuple[str | int, str]] = []
    for pin, _net in used:
        name = PI_HEADER[pin]
        labels.append((pin, _gpio_label(int(name[4:])) if name.startswith("GPIO") else name))
    h.add(
        Part(
            PI,
            f"{MODEL_NAMES.get(h.config.model, h.config.model)}, 40-pin header",
            labels,
            notes="Pin numbers are physical header pins; labels give the BCM GPIO.",
        )
    )
    h.add(Part(hub_part("J3"), "hub: 2x20 box header from the Pi", [(p, n) for p, n in used]))
    wires = []
    for k, (pin, net) in enumerate(used):
        gpio = PI_HEADER[pin]
        signal = net if net in ("GND", "+3V3") else f"{net} ({gpio})"
        if gpio.startswith("GPIO") and int(gpio[4:]) in keys:
            signal = f"{net} ({keys[int(gpio[4:])]})"
        wires.append(Wire(PI, pin, hub_part("J3"), pin, signal, _colour(net, k)))
    h.cable(
        wires,
        notes="40-way ribbon with IDC sockets, keyed by the box header",
        length_m=0.2,
        gauge="28 AWG",
    )


def _lid(h: Harness) -> None:
    driver = h.config.display.driver.upper()
    lid: tuple[tuple[str, str, str, list[str | int]], ...] = (
        (
            "J10",
            OLED,
            f"{driver} 128x64 I2C, address {h.config.display.address:#04x}",
            ["GND", "VCC", "SCL", "SDA"],
        ),
        ("J11", ENCODER, "Rotary encoder with push (KY-040)", ["CLK", "DT", "SW", "+", "GND"]),
        ("J12", BACK, "Push button (back; hold = undo)", [1, 2]),
    )
    for ref, name, kind, module_pins in lid:
        nets = _pins(h.hub, ref)
        h.add(
            Part(
                hub_part(ref),
                f"hub: Molex KK {len(nets)}-pin, {name}",
                [(int(p), str(n)) for p, n in nets.items()],
            )
        )
        h.add(Part(name, kind, [(p, str(p)) for p in module_pins]))
        wires = [
            Wire(hub_part(ref), int(p), name, module_pins[k], str(n), _colour(str(n), k))
            for k, (p, n) in enumerate(nets.items())
        ]
        h.cable(
            wires,
            notes="KK housing at the hub (keyed), Dupont housing at the module",
            length_m=0.25,
            gauge="24 AWG",
        )


def _tiles(h: Harness, g: KitGeometry) -> None:
    cuts = {c.segment: c for c in tile_cables(g)}
    buttons = h.config.kit == "buttons"
    for segment in range(g.segments):
        ref = tile_ref(segment)
        nets = _pins(h.hub, ref)
        h.add(
            Part(
                hub_part(ref),
                f"hub: 2x10 box header, tile {segment}",
                [(int(p), str(n) if n else "-") for p, n in nets.items()],
            )
        )
        board = tile_part(segment, "J1")
        h.add(
            Part(
                board,
                f"tile {segment}'s board: 2x10 box header",
                [(n, role) for n, role in TILE_PINOUT.items()],
            )
        )
        wires = [
            Wire(hub_part(ref), n, board, n, role, _colour(role, n))
            for n, role in TILE_PINOUT.items()
        ]
        cut = cuts[segment].cut_mm / 1000
        h.cable(
            wires,
            notes=f"20-way ribbon, IDC socket at each end (keyed), cut {cut:g} m; "
            f"its 5 V behind the hub's {h.hub.part(f'F{2 + segment}').value} "
            f"(trips at {h.scheme.tile_fuse[1]:g} A)",
            length_m=cut,
            gauge="28 AWG",
        )
        _tile_board(h, segment, buttons)


def _tile_board(h: Harness, segment: int, buttons: bool) -> None:
    """What plugs into one tile board: the pixel chain in and out, the button or reader."""
    chain_in, chain_out = tile_part(segment, "J4"), tile_part(segment, "J5")
    first, last = f"Tile {segment} first pixel", f"Tile {segment} last pixel"
    for conn, pixel, net in ((chain_in, first, "DIN"), (chain_out, last, "DOUT")):
        h.add(
            Part(
                conn,
                f"tile {segment}'s board: Molex KK 3-pin, chain {'in' if net == 'DIN' else 'out'}",
                [(1, "+5V"), (2, net), (3, "GND")],
            )
        )
        h.add(Part(pixel, "WS2812B on its 10 mm PCB", [("5V", "5V"), (net, net), ("GND", "GND")]))
        h.cable(
            [
                Wire(conn, 1, pixel, "5V", "+5V", "RD"),
                Wire(conn, 2, pixel, net, net, "WH"),
                Wire(conn, 3, pixel, "GND", "GND", "BK"),
            ],
            notes="3-core LED wire; the pixels between are chained the same way",
            gauge="22 AWG",
        )
    if buttons:
        plug = tile_part(segment, "J3")
        h.add(
            Part(
                plug,
                f"tile {segment}'s board: Molex KK 2-pin, button",
                [(1, "BTN"), (2, "GND")],
                kit="buttons",
            )
        )
        h.add(
            Part(
                beach_button(segment),
                f"Push button under beach {segment} (notation {segment}B)",
                [(1, "1"), (2, "2")],
                kit="buttons",
            )
        )
        h.cable(
            [
                Wire(plug, 1, beach_button(segment), 1, f"beach {segment}", "YE"),
                Wire(plug, 2, beach_button(segment), 2, "GND", "BK"),
            ],
            kit="buttons",
            gauge="24 AWG",
        )
    else:
        socket = tile_part(segment, "J2")
        h.add(
            Part(
                socket,
                f"tile {segment}'s board: 1x13 socket for the PN5180",
                [(n, name) for n, name in enumerate(PN5180_PINS, start=1)],
                kit="rfid",
            )
        )
        r = h.pico.readers[segment]
        h.add(
            Part(
                reader(segment),
                f"{r.kind.upper()} reader under beach {segment}",
                [(n, name) for n, name in enumerate(PN5180_PINS[:9], start=1)],
                kit="rfid",
            )
        )
        h.cable(
            [
                Wire(socket, n, reader(segment), n, name, _colour(name, n))
                for n, name in enumerate(PN5180_PINS[:9], start=1)
            ],
            kit="rfid",
            notes="the module's own header, plugged in",
        )


def _pico_usb(h: Harness) -> None:
    h.add(Part(PI_USB, "Any USB-A port of the Pi", [(PICO_USB, "USB")], kit="rfid"))
    h.add(
        Part(
            PICO,
            "Raspberry Pi Pico on the hub (RFID firmware)",
            [(PICO_USB, "micro-USB")],
            kit="rfid",
            notes=f"Pins from {h.pico.source}; SPI bus and each reader's lines "
            "run to the tile headers on the hub",
        )
    )
    h.cable(
        [Wire(PI_USB, PICO_USB, PICO, PICO_USB, "USB data + 5 V", "BK")],
        kit="rfid",
        notes="USB-A to micro-USB data cable, right-angle micro plug (not charge-only)",
        length_m=0.3,
    )


def gpio_pin(gpio: int) -> int:
    return PI_GPIO_PIN[gpio]
