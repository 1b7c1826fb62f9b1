"""The hub: the carrier board in the bay, between the Pi, the supply and the six tiles.

Its nets follow the config's pin map (``[pins]``) and the Pico firmware's reader pins, its
tile connectors the geometry's segments and chain order; where every part sits is the layout
below (mm from the board's top-left corner, KiCad's frame). What it holds:

- J1, the supply's screw terminal, where 5 V enters; J2 beside it, the screw terminal of the
  Pi's USB power pigtail (the Pi has its own input protection, the supply its current
  limit); F1, the main fuse of the LED and reader rail; C1, the rail's bulk capacitor;
- J3, a 2x20 box header: a 40-way ribbon to the Pi's header (GPIO, 3.3 V, ground);
- U1, the 74AHCT125 that lifts the LED data from 3.3 V to 5 V, its C2 and the 390 ohm R1;
- one 2x10 box header per tile (J4...), each behind its resettable fuse (F2...); the LED data
  runs out to a tile and back, then on to the next tile in the geometry's chain order;
- A1, the Pico (RFID kit; the buttons kit leaves it out): its SPI bus goes to every tile
  header, each reader's chip select, BUSY and reset to its own;
- J10-J12, the lid's OLED, encoder and back button on keyed Molex KK plugs.
"""

from __future__ import annotations

from typing import Protocol

from haleakala.kit.boards.model import NC, TILE_PINOUT, Board, Part, pin_map
from haleakala.kit.geometry import KitGeometry
from haleakala.kit.pinout import PI_HEADER, PICO_GP_PIN, PICO_PINS, PicoPins


class HubPins(Protocol):
    """What the hub reads of the config's ``[pins]`` (``haleakala.config.PinsConfig``)."""

    @property
    def led_data(self) -> int: ...
    @property
    def encoder_a(self) -> int: ...
    @property
    def encoder_b(self) -> int: ...
    @property
    def encoder_push(self) -> int: ...
    @property
    def back(self) -> int: ...
    def beach(self, index: int) -> int: ...


POWER_WIDTH = 1.5
TILE_POWER_WIDTH = 0.8
TILE_HEADER_PITCH = 13.97
FIRST_TILE_HEADER = (11.43, 65.405)


def tile_ref(segment: int) -> str:
    return f"J{4 + segment}"


def fuse_ref(segment: int) -> str:
    return f"F{2 + segment}"


def data_net(position: int) -> str:
    """The LED data into the tile at ``position`` on the chain (0 = the first)."""
    return f"DATA{position}"


def hub(g: KitGeometry, pins: HubPins, pico: PicoPins) -> Board:
    size = tuple(float(v) for v in g.boards["hub_size"])
    b = Board(
        "hub",
        "Haleakala companion hub",
        (size[0], size[1]),
        widths={"VIN": POWER_WIDTH, "+5V": POWER_WIDTH, "GND": POWER_WIDTH},
    )
    for s in range(g.segments):
        b.widths[f"+5V_T{s}"] = TILE_POWER_WIDTH
    _power(b, float(g.power["main_fuse"][0]))
    _pi_header(b, pins)
    _shifter(b, pins)
    _tiles(b, g, pins, pico)
    _pico(b, pico)
    _lid(b)
    for n, (x, y) in enumerate(g.boards["hub_holes"], start=1):
        b.add(Part(f"H{n}", "hole", "hole_m3", "MountingHole", "M3 hole", (x, y), bom=""))
    return b


def _power(b: Board, fuse_a: float) -> None:
    b.add(
        Part("J1", "screw_2", "terminal2", "5V IN", "supply in (+, -)", (6.35, 22.86),
             pins={"1": "VIN", "2": "GND"}, bom="hub_terminal")
    )  # fmt: skip
    b.add(
        Part("F1", "fuse", "fuse_holder", f"T{fuse_a:g}A", "main fuse, 5 x 20 mm slow-blow",
             (19.05, 22.86),
             pins={"1": "VIN", "2": "+5V"}, bom="main_fuse")
    )  # fmt: skip
    b.add(
        Part("C1", "cp", "bulk_cap", "1000uF", "bulk capacitor, 10 V", (46.99, 22.86),
             pins={"1": "+5V", "2": "GND"}, bom="bulk_cap")
    )  # fmt: skip
    b.add(
        Part("J2", "screw_2", "terminal2", "PI 5V", "to the Pi's USB power pigtail",
             (6.35, 35.56), pins={"1": "VIN", "2": "GND"}, bom="hub_terminal")
    )  # fmt: skip


def _pi_header(b: Board, pins: HubPins) -> None:
    gpio_net = {
        pins.led_data: "LED_3V3",
        2: "SDA",
        3: "SCL",
        pins.encoder_a: "ENC_A",
        pins.encoder_b: "ENC_B",
        pins.encoder_push: "ENC_SW",
        pins.back: "BACK",
    }
    for beach in range(6):
        gpio_net[pins.beach(beach)] = f"BTN{beach}"
    nets: dict[int | str, str | None] = {}
    for pin, name in PI_HEADER.items():
        if name == "GND":
            nets[pin] = "GND"
        elif name == "3V3":
            nets[pin] = "+3V3"
        elif name.startswith("GPIO"):
            nets[pin] = gpio_net.get(int(name[4:]), NC)
    b.add(
        Part("J3", "conn_2x20", "pi_header", "PI HEADER", "40-way ribbon to the Pi's header",
             (13.97, 11.43), 90, pin_map(range(1, 41), nets), bom="pi_header")
    )  # fmt: skip


def _shifter(b: Board, pins: HubPins) -> None:
    nets: dict[int | str, str | None] = {
        1: "GND", 2: "LED_3V3", 3: "LED_5V",
        4: "+5V", 5: "GND", 6: NC,
        7: "GND",
        8: NC, 9: "GND", 10: "+5V",
        11: NC, 12: "GND", 13: "+5V",
        14: "+5V",
    }  # fmt: skip
    b.add(
        Part("U1", "buffer", "dip14", "74AHCT125", f"lifts GPIO {pins.led_data}'s data to 5 V",
             (19.05, 33.02), pins=pin_map(range(1, 15), nets), bom="shifter")
    )  # fmt: skip
    b.add(
        Part("C2", "c", "ceramic", "100nF", "decouples U1", (19.05, 52.07),
             pins={"1": "+5V", "2": "GND"}, bom="decoupling")
    )  # fmt: skip
    b.add(
        Part("R1", "r", "resistor", "390", "in series with the first tile's data",
             (5.08, 45.72), pins={"1": "LED_5V", "2": data_net(0)}, bom="data_resistor")
    )  # fmt: skip


def _tiles(b: Board, g: KitGeometry, pins: HubPins, pico: PicoPins) -> None:
    position = {segment: n for n, segment in enumerate(g.segment_order)}
    x0, y0 = FIRST_TILE_HEADER
    for segment in range(g.segments):
        at = (round(x0 + segment * TILE_HEADER_PITCH, 4), y0)
        pos = position[segment]
        last = pos == g.segments - 1
        reader = pico.readers[segment]
        tile_nets = {
            "+5V": f"+5V_T{segment}",
            "GND": "GND",
            "DIN": data_net(pos),
            "DOUT": NC if last else data_net(pos + 1),
            "BTN": f"BTN{segment}",
            "+3V3": "+3V3_RFID",
            "SCK": "SCK",
            "MOSI": "MOSI",
            "MISO": "MISO",
            "NSS": f"CS{segment}",
            "BUSY": f"BUSY{segment}" if reader.busy is not None else NC,
            "RST": f"RST{segment}",
        }
        nets: dict[int | str, str | None] = {n: tile_nets[r] for n, r in TILE_PINOUT.items()}
        b.add(
            Part(tile_ref(segment), "conn_2x10", "tile_header", f"TILE {segment}",
                 f"20-way ribbon to segment {segment}'s tile board", at,
                 pins=pin_map(range(1, 21), nets), bom="tile_header")
        )  # fmt: skip
        b.add(
            Part(fuse_ref(segment), "polyfuse", "ptc", "MF-RHT200",
                 f"resettable fuse of tile {segment}'s feed", (at[0] - 1.27, 57.15),
                 pins={"1": "+5V", "2": f"+5V_T{segment}"}, bom="tile_fuse")
        )  # fmt: skip


def _pico(b: Board, pico: PicoPins) -> None:
    nets: dict[int | str, str | None] = {
        PICO_GP_PIN[pico.sck]: "SCK",
        PICO_GP_PIN[pico.mosi]: "MOSI",
        PICO_GP_PIN[pico.miso]: "MISO",
        36: "+3V3_RFID",
    }
    for segment, r in enumerate(pico.readers):
        nets[PICO_GP_PIN[r.cs]] = f"CS{segment}"
        nets[PICO_GP_PIN[r.rst]] = f"RST{segment}"
        if r.busy is not None:
            nets[PICO_GP_PIN[r.busy]] = f"BUSY{segment}"
    for pin, name in PICO_PINS.items():
        if name == "GND" and pin != 33:  # 33 is the ADC's ground (AGND): left alone
            nets[pin] = "GND"
    b.add(
        Part("A1", "pico", "pico", "Pico", "RFID kit: the readers' Pico (USB to the Pi)",
             (73.66, 3.81), 0, pin_map(range(1, 41), nets), bom="", kit="rfid")
    )  # fmt: skip


def _lid(b: Board) -> None:
    b.add(
        Part("J10", "conn_1x04", "kk4", "OLED", "OLED: GND, VCC, SCL, SDA", (57.15, 22.86),
             pins={"1": "GND", "2": "+3V3", "3": "SCL", "4": "SDA"}, bom="kk4")
    )  # fmt: skip
    b.add(
        Part("J11", "conn_1x05", "kk5", "ENCODER", "encoder: CLK, DT, SW, +, GND",
             (33.02, 33.02),
             pins={"1": "ENC_A", "2": "ENC_B", "3": "ENC_SW", "4": "+3V3", "5": "GND"},
             bom="kk5")
    )  # fmt: skip
    b.add(
        Part("J12", "conn_1x02", "kk2", "BACK", "back button", (48.26, 33.02),
             pins={"1": "BACK", "2": "GND"}, bom="kk2")
    )  # fmt: skip
