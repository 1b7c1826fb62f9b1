"""Where everything sits in the 1280×800 window: pure geometry, no pygame.

The island is seen from above, segment 0 at the top and numbered clockwise like the rules
(R1). Each segment is a 60° wedge cut into concentric bands, outside in: the sea where the
palm-tree cards lie (the two card slots), the water (the boat), the beach (the number
discs), grassland, forest, mountain and the crater (lava). Keeping this pure means the hit
tests (which beach did the click land on?) and the LED positions are tested without a
display, and the window, the screenshot checks and the tests agree on every coordinate.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from haleakala.kit.geometry import default_geometry, rotate

WIDTH, HEIGHT = 1280, 800
SEGMENTS = 6
CENTRE = (376.0, 400.0)

KIT = default_geometry()
"""The kit's island in mm (``haleakala/kit/data/geometry.toml``): the window draws the same
island the maker prints, scaled so the sea's outer edge stays 372 px from the centre."""
MM = 372.0 / KIT.radius
"""Window pixels per millimetre of the kit's board."""

# Band edges (outer radius, inner radius) in pixels from the island's centre.
BANDS: dict[str, tuple[float, float]] = {
    band: (KIT.bands[band][1] * MM, KIT.bands[band][0] * MM)
    for band in ("sea", "water", "beach", "grassland", "forest", "mountain", "crater")
}
LAND_BANDS = ("grassland", "forest", "mountain")
"""Land band of a shaman space ``segment * 3 + k`` (the rules' numbering)."""

CARD_SIZE = (round(KIT.slot_size[0] * MM), round(KIT.slot_size[1] * MM))
CARD_RADIUS = math.hypot(*KIT.slot_centre) * MM
CARD_SPREAD_DEG = math.degrees(math.atan2(KIT.slot_centre[0], KIT.slot_centre[1]))
"""Slot a sits this many degrees anticlockwise of the segment's centre line, slot b clockwise."""

DISC_RADIUS = 11
DISC_ROWS = (BANDS["beach"][0] - 12.0, BANDS["beach"][0] - 38.0)
DISC_COLUMNS_DEG = (9.0, 16.5, 24.0)
BEACH_BUTTON = (math.hypot(*KIT.sensor_centre) * MM, 0.0)
"""(radius, degrees off the centre line) of a beach's button in the buttons kit."""
HUT = (BANDS["beach"][1] + 8.0, 0.0)

# The right-hand panel, top to bottom: the OLED (3x) with the controls beside it, the
# whose-turn banner, the scoring board (score track, scoring cards, piles), the players'
# trays, the status line and the log.
PANEL_X = 752
OLED_SCALE = 3
OLED_RECT = (762, 12, 128 * OLED_SCALE, 64 * OLED_SCALE)
ENCODER_CENTRE = (1210, 56)
ENCODER_RADIUS = 38
TURN_LEFT_RECT = (1156, 100, 52, 26)
TURN_RIGHT_RECT = (1214, 100, 52, 26)
BACK_CENTRE = (1186, 160)
BACK_RADIUS = 22
STATUS_RECT = (760, 574, 512, 20)
BANNER_RECT = (760, 212, 512, 34)
BOARD_RECT = (760, 252, 512, 192)
TRACK_RECT = (776, 280, 480, 22)
ITEM_SIZE = (164, 40)
PILES_RECT = (768, 404, 496, 36)
TRAY_RECTS = {"red": (760, 450, 252, 120), "yellow": (1020, 450, 252, 120)}
LOG_RECT = (760, 598, 512, 194)
END_RECT = (46, 120, 660, 560)
"""The end-of-game table, over the island."""


def item_rect(index: int) -> tuple[int, int, int, int]:
    """Scoring card ``index`` (``BOARD_ITEMS`` order) on the scoring board: three by two."""
    row, column = divmod(index, 3)
    w, h = ITEM_SIZE
    return 768 + column * (w + 2), 310 + row * (h + 4), w, h


def track_x(points: int, top: int) -> float:
    """Where ``points`` sit on the score track, which runs from 0 to ``top``."""
    x, _y, w, _h = TRACK_RECT
    return x + w * min(points, top) / max(top, 1)


def centre_angle(segment: int) -> float:
    """Screen angle (degrees, clockwise from +x) of a segment's centre line; 0 is at the top."""
    return -90.0 + 360.0 / SEGMENTS * segment


def polar(radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return CENTRE[0] + radius * math.cos(a), CENTRE[1] + radius * math.sin(a)


def at(segment: int, radius: float, offset_deg: float = 0.0) -> tuple[int, int]:
    """Pixel position ``radius`` from the centre, ``offset_deg`` clockwise of the centre line."""
    x, y = polar(radius, centre_angle(segment) + offset_deg)
    return round(x), round(y)


def band_mid(band: str) -> float:
    outer, inner = BANDS[band]
    return (outer + inner) / 2


def wedge(segment: int, band: str, steps: int = 12) -> list[tuple[float, float]]:
    """Outline of one band of one segment, as a polygon (for drawing and glow masks); a
    fresh list of the cached outline."""
    return list(_wedge(segment, band, steps))


@functools.lru_cache(maxsize=512)
def _wedge(segment: int, band: str, steps: int) -> tuple[tuple[float, float], ...]:
    outer, inner = BANDS[band]
    start = centre_angle(segment) - 180.0 / SEGMENTS
    span = 360.0 / SEGMENTS
    ring = [polar(outer, start + span * i / steps) for i in range(steps + 1)]
    ring += [polar(inner, start + span * (steps - i) / steps) for i in range(steps + 1)]
    return tuple(ring)


def locate(x: float, y: float) -> tuple[int, str] | None:
    """(segment, band) under a window position, or None off the island."""
    dx, dy = x - CENTRE[0], y - CENTRE[1]
    r = math.hypot(dx, dy)
    for band, (outer, inner) in BANDS.items():
        if inner <= r < outer:
            angle = (math.degrees(math.atan2(dy, dx)) + 90.0 + 180.0 / SEGMENTS) % 360.0
            return int(angle // (360.0 / SEGMENTS)) % SEGMENTS, band
    return None


def beach_at(x: float, y: float) -> int | None:
    """The beach (segment) under a click, counting its water too: the beach is a thin band
    and a player aiming at it should not miss by a few pixels."""
    spot = locate(x, y)
    if spot is None or spot[1] not in ("beach", "water"):
        return None
    return spot[0]


def card_rect(slot: int) -> tuple[int, int, int, int]:
    """Rectangle of card slot ``slot`` (segment * 2 + 0 for a, 1 for b), upright."""
    segment, side = divmod(slot, 2)
    cx, cy = at(segment, CARD_RADIUS, -CARD_SPREAD_DEG if side == 0 else CARD_SPREAD_DEG)
    w, h = CARD_SIZE
    return cx - w // 2, cy - h // 2, w, h


def disc_position(segment: int, colour: str, index: int) -> tuple[int, int]:
    """Where the ``index``-th disc of ``colour`` lies on a beach: red anticlockwise of the
    button, yellow clockwise, two rows of three."""
    row, column = divmod(index, len(DISC_COLUMNS_DEG))
    radius = DISC_ROWS[row % len(DISC_ROWS)]
    offset = DISC_COLUMNS_DEG[column]
    return at(segment, radius, -offset if colour == "red" else offset)


def space_position(space: int, who: str) -> tuple[int, int]:
    """Spot of a statue (``who="statue"``) or a shaman (``"red"``/``"yellow"``) on a shaman
    space: land ``segment * 3 + k``, or the hut beach ``18 + segment``."""
    if space >= SEGMENTS * 3:
        segment = space - SEGMENTS * 3
        spread = {"statue": 0.0, "red": -4.5, "yellow": 4.5}[who]
        return at(segment, HUT[0], spread)
    segment, k = divmod(space, 3)
    outer, inner = BANDS[LAND_BANDS[k]]
    radius = (outer + inner) / 2 + 5  # outward: the space's name is printed inside
    # An arc of 11 px from the centre line at any radius (wider on the cramped mountain, but
    # clear of its borders).
    step = math.degrees(11.0 / radius) * (1.3 if k == 2 else 1.0)
    offset = {"statue": -step * 1.3, "red": step * 0.6, "yellow": step * 1.9}[who]
    return at(segment, radius, offset)


def boat_position(segment: int) -> tuple[int, int]:
    return at(segment, band_mid("water"))


def lava_position(segment: int, index: int) -> tuple[int, int]:
    """Lava disc ``index`` (0..3) on a crater: a small fan around the centre line."""
    offsets = (-9.0, 9.0, -22.0, 22.0)
    return at(segment, band_mid("crater") + 2, offsets[index % 4])


KIT_PIXEL = {zone: (x, y) for zone, x, y in KIT.tile_pixels}
"""Where the kit's board puts each zone's pixel on segment 0's tile, in mm."""

ZONE_BANDS = {
    "water": "water",
    "beach": "beach",
    "grassland": "grassland",
    "forest": "forest",
    "mountain": "mountain",
    "crater": "crater",
}


def led_position(segment: int, zone: str, index: int, count: int) -> tuple[int, int]:
    """Where pixel ``index`` of ``count`` of a zone's LEDs shows through the board.

    The kit's board (one pixel per zone): where the geometry puts that pixel, except under
    the card slots, whose pixel the card would hide here (on the board it lights the
    window's rim round the card): there, as for the other layouts, a row above the card.
    Other layouts
    (a ring build's several pixels per zone): band zones along the anticlockwise border of
    the wedge, 13 px apart, so they never hide under the pieces in the middle; card slots a
    row just above (inside) the card.
    """
    if count == 1 and zone in KIT_PIXEL and zone not in ("slot_a", "slot_b"):
        x, y = rotate(KIT_PIXEL[zone], segment)
        return round(CENTRE[0] + x * MM), round(CENTRE[1] - y * MM)
    if zone in ("slot_a", "slot_b"):
        x, y, w, _ = card_rect(segment * 2 + (0 if zone == "slot_a" else 1))
        spacing = 12
        first = x + w / 2 - spacing * (count - 1) / 2
        return round(first + spacing * index), y - 7
    band = ZONE_BANDS[zone]
    outer, inner = BANDS[band]
    radius = (outer + inner) / 2
    if count > 1 and outer - inner >= 40:  # deep bands: a short radial row
        radius = outer - 11 - (outer - inner - 22) * index / (count - 1)
        arc = 9.0
    else:
        arc = 9.0 + 13.0 * index
    offset = -180.0 / SEGMENTS + math.degrees(arc / radius)
    return at(segment, radius, offset)


@dataclass(frozen=True)
class Button:
    """A clickable control of the panel."""

    name: str
    kind: str  # "circle" or "rect"
    shape: tuple[int, ...]

    def contains(self, x: float, y: float) -> bool:
        if self.kind == "circle":
            cx, cy, r = self.shape
            return math.hypot(x - cx, y - cy) <= r
        rx, ry, rw, rh = self.shape
        return rx <= x < rx + rw and ry <= y < ry + rh


PANEL_BUTTONS = (
    Button("select", "circle", (*ENCODER_CENTRE, ENCODER_RADIUS)),
    Button("turn-", "rect", TURN_LEFT_RECT),
    Button("turn+", "rect", TURN_RIGHT_RECT),
    Button("back", "circle", (*BACK_CENTRE, BACK_RADIUS)),
)


def panel_button_at(x: float, y: float) -> str | None:
    for button in PANEL_BUTTONS:
        if button.contains(x, y):
            return button.name
    return None


def tray_position(colour: str, value: int) -> tuple[int, int]:
    """Spot of a disc in its player's tray (RFID kit): 1..5 then the invocation disc (0)."""
    x, y, _, _ = TRAY_RECTS[colour]
    column = 5 if value == 0 else value - 1
    return x + 22 + column * 40, y + 40


def tray_at(x: float, y: float) -> str | None:
    for colour, (rx, ry, rw, rh) in TRAY_RECTS.items():
        if rx <= x < rx + rw and ry <= y < ry + rh:
            return colour
    return None


def space_label_position(space: int) -> tuple[int, int]:
    """Where a land space's name is printed: on its centre line near the inner edge, below
    the statue and shaman spots (which sit further out), so pieces never cover it."""
    segment, k = divmod(space, 3)
    return at(segment, BANDS[LAND_BANDS[k]][1] + 5, 0.0)


def sum_position(segment: int, colour: str) -> tuple[int, int]:
    """Where a player's sum on a beach is shown: in the water just outside their discs."""
    return at(segment, 268.0, -16.0 if colour == "red" else 16.0)
