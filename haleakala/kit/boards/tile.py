"""The tile board: one under every tile, the same board six times.

J1, the 2x10 box header of the tile's ribbon from the hub; J2, the 13-way socket the PN5180
module plugs into (RFID kit); J3, the beach button's keyed plug (buttons kit); J4, the pixel
chain in (5 V, data, ground to the tile's first pixel) and J5, the chain out (from its last
pixel: the data goes back to the hub through R1, and 5 V and ground feed the chain's far end
too); C1, a local reservoir for the pixels.
"""

from __future__ import annotations

from haleakala.kit.boards.model import NC, TILE_PINOUT, Board, Part, pin_map
from haleakala.kit.geometry import KitGeometry

PN5180_PINS = (
    "+5V", "+3V3", "RST", "NSS", "MOSI", "MISO", "SCK", "BUSY", "GND", "GPIO", "IRQ", "AUX",
    "REQ",
)  # fmt: skip
"""The common PN5180 module's 13-pin header, pin 1 first."""
TILE_POWER_WIDTH = 0.8


def tile(g: KitGeometry) -> Board:
    size = tuple(float(v) for v in g.boards["tile_size"])
    b = Board(
        "tile",
        "Haleakala companion tile board",
        (size[0], size[1]),
        widths={"+5V": TILE_POWER_WIDTH, "GND": TILE_POWER_WIDTH},
    )
    b.add(
        Part("J1", "conn_2x10", "tile_header", "HUB", "20-way ribbon from the hub",
             (11.43, 6.35), pins=pin_map(range(1, 21), TILE_PINOUT), bom="tile_header")
    )  # fmt: skip
    reader: dict[int | str, str | None] = {
        n: (name if name not in ("GPIO", "IRQ", "AUX", "REQ") else NC)
        for n, name in enumerate(PN5180_PINS, start=1)
    }
    b.add(
        Part("J2", "conn_1x13", "pn5180_socket", "PN5180", "the PN5180 module's header",
             (36.83, 6.35), pins=pin_map(range(1, 14), reader), bom="pn5180_socket",
             kit="rfid")
    )  # fmt: skip
    b.add(
        Part("J3", "conn_1x02", "kk2", "BUTTON", "the beach button", (22.86, 5.08),
             pins={"1": "BTN", "2": "GND"}, bom="kk2", kit="buttons")
    )  # fmt: skip
    b.add(
        Part("J4", "conn_1x03", "kk3", "CHAIN IN", "to the tile's first pixel",
             (21.59, 20.32), pins={"1": "+5V", "2": "DIN", "3": "GND"}, bom="kk3")
    )  # fmt: skip
    b.add(
        Part("J5", "conn_1x03", "kk3", "CHAIN OUT", "from the tile's last pixel",
             (21.59, 29.21), pins={"1": "+5V", "2": "DOUT_PIX", "3": "GND"}, bom="kk3")
    )  # fmt: skip
    b.add(
        Part("R1", "r", "resistor", "100", "series resistor of the returning data",
             (19.05, 36.83), pins={"1": "DOUT_PIX", "2": "DOUT"}, bom="return_resistor")
    )  # fmt: skip
    b.add(
        Part("C1", "cp", "tile_cap", "100uF", "reservoir for the tile's pixels, 10 V",
             (22.86, 12.7), pins={"1": "+5V", "2": "GND"}, bom="tile_cap")
    )  # fmt: skip
    for n, (x, y) in enumerate(g.boards["tile_holes"], start=1):
        b.add(Part(f"H{n}", "hole", "hole_m25", "MountingHole", "M2.5 hole", (x, y)))
    return b
