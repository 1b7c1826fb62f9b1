"""The kit's island in millimetres, read from ``data/geometry.toml``: zones as polygons, the
pixel chain, the beach sensors, the cable paths and the parts with their sizes.

This is the one physical truth: ``hw/placement.json`` is written from it, the CAD parts and the
overlay are built from it (``kit.parts``), ``haleakala kit check`` proves it against the config
(``kit.kitcheck``) and the simulator (hence the live view) places its island from it. It
imports only the standard library, so the simulator and ``config check`` on a Pi can read it
without the CAD extra.

Frame: island centre (0, 0) seen from above, +y out along segment 0's centre line, +x to its
right; segment n is segment 0 turned n × 60° clockwise. Positions in the data file are on
segment 0's tile and turned here.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from haleakala.kit.envelopes import default_envelopes
from haleakala.kit.lightparams import LightParams, parse_light
from haleakala.kit.shapes import (
    BAND_ZONES,
    BANDS,
    LIP_THICKNESS,
    PAPER,
    POCKET_DEPTH,
    RECESS,
    ZONES,
    Point,
    Polygon,
    circle,
    rectangle,
    rotate,
    segments_cross,
)

__all__ = [
    "BANDS",
    "BAND_ZONES",
    "ZONES",
    "GeometryError",
    "KitGeometry",
    "Point",
    "Polygon",
    "default_geometry",
    "load_geometry",
    "rectangle",
    "rotate",
]

PARTS_DIR = "hw/parts"
"""Where the generated part files live, relative to the repository (paths in placement)."""


class GeometryError(ValueError):
    """The geometry data is malformed: one sentence naming the key."""


@dataclass(frozen=True)
class ChainPixel:
    index: int
    segment: int
    zone: str
    x: float
    y: float


@dataclass(frozen=True)
class BeachSensor:
    segment: int
    kind: str  # "button" or "reader"
    x: float
    y: float


@dataclass(frozen=True)
class PartSpec:
    """A generated file and the bounding box of what it holds, in mm (its own coordinates):
    ((xmin, ymin, zmin), (xmax, ymax, zmax)); 2D files have z 0..0. ``copies`` is how many a
    maker makes; ``bed`` says whether it must fit the printer bed (3D prints do)."""

    file: str
    bbox: tuple[tuple[float, float, float], tuple[float, float, float]]
    copies: int
    printed: bool
    what: str


def _num(data: dict[str, Any], key: str, where: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GeometryError(f"geometry: {where}.{key} must be a number, got {value!r}")
    return float(value)


def _pair(data: dict[str, Any], key: str, where: str) -> tuple[float, float]:
    value = data.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise GeometryError(f"geometry: {where}.{key} must be two numbers [a, b], got {value!r}")
    return float(value[0]), float(value[1])


def _section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise GeometryError(f"geometry: the [{key}] table is missing")
    return value


@dataclass(frozen=True)
class KitGeometry:
    """The parsed data file, with the derived shapes as methods (all in mm)."""

    segments: int
    bed: tuple[float, float]
    bed_margin: float
    bands: dict[str, tuple[float, float]]
    arc_steps: int
    slot_centre: Point
    slot_size: tuple[float, float]
    pieces: dict[str, Any]
    wall: float
    edge_wall: float
    min_wall: float
    cell_height: float
    floor: float
    skirt: float
    diffuser: float
    pixel_clearance: float
    tile_pixels: tuple[tuple[str, float, float], ...]
    segment_order: tuple[int, ...]
    link_mm: float
    tile_link_mm: float
    routing_factor: float
    notch: tuple[float, float]
    floor_holes: tuple[Point, ...]
    hole_diameter: float
    skirt_notch: tuple[float, float]
    cable_rim_notch: tuple[float, float]
    cable_tie_slot: tuple[float, float]
    sensor_centre: Point
    button: Point
    post: tuple[float, float]
    cap_protrusion: tuple[float, float]
    reader: tuple[float, float]
    reader_toward: str
    landing: float
    bolt_radii: tuple[float, ...]
    bolt_hole: float
    dowel_radii: tuple[float, ...]
    dowel_hole: float
    centre_lip: float
    console: dict[str, Any]
    light: LightParams
    boards: dict[str, Any]
    """``[boards]``: the carrier boards' outlines, holes and places (``kit.boards``)."""
    harness: dict[str, Any]
    """``[harness]``: the tile cables and their route (``kit.harness``)."""
    power: dict[str, Any]
    """``[power]``: the 5 V supply, the fuses and the wires (``kit.power_scheme``)."""
    pi_models: dict[str, Any]
    """``[pi_models]``: each Pi's board and hole pattern, for the bay (``kit.kitreport``)."""

    # ------------------------------------------------------------------ outlines, tile frame

    @property
    def radius(self) -> float:
        """Outer radius of the island (the sea's outer edge)."""
        return self.bands["sea"][1]

    @property
    def centre_radius(self) -> float:
        """Radius of the centre piece: the crater's inner edge."""
        return self.bands["crater"][0]

    @property
    def half_angle(self) -> float:
        """Half a segment's angle, in radians (30° for six)."""
        return math.pi / self.segments

    def sector(self, inner: float, outer: float) -> Polygon:
        """A band of segment 0's tile between two radii, as a polygon (outer arc left to
        right, then the inner arc back)."""
        h, n = self.half_angle, self.arc_steps
        angles = [math.pi / 2 + h - 2 * h * i / n for i in range(n + 1)]
        ring = [(outer * math.cos(a), outer * math.sin(a)) for a in angles]
        ring += [(inner * math.cos(a), inner * math.sin(a)) for a in reversed(angles)]
        return tuple((round(x, 4), round(y, 4)) for x, y in ring)

    def slot_rect(self, zone: str) -> Polygon:
        """The card slot window of ``zone`` (slot_a left, slot_b right) on segment 0's tile."""
        cx, cy = self.slot_centre
        if zone == "slot_a":
            cx = -cx
        return rectangle((cx, cy), self.slot_size)

    def tile_zone(self, zone: str) -> Polygon:
        """Zone ``zone``'s polygon on segment 0's tile."""
        if zone in ("slot_a", "slot_b"):
            return self.slot_rect(zone)
        return self.sector(*self.bands[zone])

    def tile_outline(self) -> Polygon:
        """The whole tile: the sea's outer edge to the centre piece."""
        return self.sector(self.centre_radius, self.radius)

    def post_rect(self) -> Polygon:
        """The button post's footprint on the floor (buttons kit)."""
        return rectangle(self.button, self.post)

    def antenna_rect(self) -> Polygon:
        """The reader's antenna square under the beach (RFID kit), seen from above."""
        return rectangle(self.sensor_centre, self.reader)

    def landing_mark(self) -> Polygon:
        """The overlay's landing mark on the beach: where the discs are laid to be read,
        centred over the antenna."""
        return circle(self.sensor_centre, self.landing)

    # ------------------------------------------------------------------ the whole island

    def zone_polygon(self, segment: int, zone: str) -> Polygon:
        return tuple(rotate(p, segment, self.segments) for p in self.tile_zone(zone))

    def pixels(self) -> list[ChainPixel]:
        """Every pixel in chain order: the tiles in ``segment_order``, each tile's pixels in
        the data file's order."""
        out: list[ChainPixel] = []
        for segment in self.segment_order:
            for zone, x, y in self.tile_pixels:
                gx, gy = rotate((x, y), segment, self.segments)
                out.append(ChainPixel(len(out), segment, zone, gx, gy))
        return out

    @property
    def pixels_per_tile(self) -> int:
        return len(self.tile_pixels)

    def tile_zone_pixels(self) -> dict[str, tuple[int, ...]]:
        """Pixel indices within one tile of each zone: the config's ``[leds.zones]``."""
        out: dict[str, list[int]] = {z: [] for z in ZONES}
        for i, (zone, _x, _y) in enumerate(self.tile_pixels):
            out[zone].append(i)
        return {z: tuple(v) for z, v in out.items()}

    def beach_sensors(self, kit: str) -> list[BeachSensor]:
        kind, at = ("reader", self.sensor_centre) if kit == "rfid" else ("button", self.button)
        return [BeachSensor(s, kind, *rotate(at, s, self.segments)) for s in range(self.segments)]

    # ------------------------------------------------------------------ the bay

    def tray_boards(self) -> list[tuple[str, Point, tuple[float, float], list[Point], float]]:
        """The boards on the tray's standoffs, in the bay's frame (its centre at 0, 0, +y away
        from the island): (name, board centre, [wide, deep], hole centres, hole diameter)."""
        c = self.console
        px, py = (float(v) for v in c["pi_at"])
        pw, pd = (float(v) for v in c["pi_board"])
        hx, hy = (float(v) / 2 for v in c["pi_holes"])
        # The Pi's holes sit 3.5 mm in from its edge on the side away from its ports.
        pi_centre = (px - hx - 3.5 + pw / 2, py)
        pi_holes = [(px + dx, py + dy) for dx in (-hx, hx) for dy in (-hy, hy)]
        bx, by = (float(v) for v in c["hub_at"])
        bw, bd = (float(v) for v in self.boards["hub_size"])
        hub_holes = [
            (bx - bw / 2 + float(x), by + bd / 2 - float(y)) for x, y in self.boards["hub_holes"]
        ]
        return [
            ("Raspberry Pi", pi_centre, (pw, pd), pi_holes, 2.2),  # kit.bay's pilot holes
            ("hub board", (bx, by), (bw, bd), hub_holes, 2.5),
        ]

    # ------------------------------------------------------------------ parts

    @property
    def tile_height(self) -> float:
        return self.floor + self.cell_height

    @property
    def stack_height(self) -> float:
        """Table to the overlay's underside: riser, tile, diffuser."""
        return self.skirt + self.tile_height + self.diffuser

    def tile_bbox2d(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.tile_outline()]
        ys = [p[1] for p in self.tile_outline()]
        return min(xs), min(ys), max(xs), max(ys)

    # ------------------------------------------------------------------ the chain's path

    def chain_path(self) -> list[tuple[str, Point]]:
        """One tile's wiring from above, in order: ("hole", p) where the chain comes up
        through the floor, ("pixel", p) each pixel, ("notch", p) each wall the wire between
        two pixels crosses, ("hole", p) where it goes down again."""
        path: list[tuple[str, Point]] = [("hole", self.floor_holes[1])]
        pixels = [(x, y) for _z, x, y in self.tile_pixels]
        for i, p in enumerate(pixels):
            if i:
                for q in self.wall_crossings(pixels[i - 1], p):
                    path.append(("notch", q))
            path.append(("pixel", p))
        path.append(("hole", self.floor_holes[0]))
        return path

    def wall_crossings(self, a: Point, b: Point) -> list[Point]:
        """Where the straight wire a→b crosses a cell wall (a band's arc or a slot's edge),
        in order along it."""
        hits: list[tuple[float, Point]] = []
        dx, dy = b[0] - a[0], b[1] - a[1]
        qa = dx * dx + dy * dy
        if qa == 0:
            return []
        radii = sorted({r for band in BAND_ZONES for r in self.bands[band]} - {self.centre_radius})
        for r in radii:
            qb = 2 * (a[0] * dx + a[1] * dy)
            qc = a[0] ** 2 + a[1] ** 2 - r * r
            disc = qb * qb - 4 * qa * qc
            if disc < 0:
                continue
            for t in ((-qb - math.sqrt(disc)) / (2 * qa), (-qb + math.sqrt(disc)) / (2 * qa)):
                if 0 < t < 1:
                    hits.append((t, (a[0] + t * dx, a[1] + t * dy)))
        for zone in ("slot_a", "slot_b"):
            rect = self.slot_rect(zone)
            for i in range(4):
                c, d = rect[i], rect[(i + 1) % 4]
                hit = segments_cross(a, b, c, d)
                if hit is not None:
                    hits.append((math.hypot(hit[0] - a[0], hit[1] - a[1]) ** 2 / qa, hit))
        return [p for _t, p in sorted(hits)]

    def notches(self) -> list[tuple[Point, float]]:
        """Every wall notch of one tile: (where, direction of the wire in radians)."""
        out = []
        path = self.chain_path()
        for i, (kind, p) in enumerate(path):
            if kind != "notch":
                continue
            prev = next(q for k, q in reversed(path[:i]) if k == "pixel")
            nxt = next(q for k, q in path[i + 1 :] if k == "pixel")
            out.append((p, math.atan2(nxt[1] - prev[1], nxt[0] - prev[0])))
        return out

    # ------------------------------------------------------------------ the button

    @property
    def post_height(self) -> float:
        """The button post's height above the floor: the cap stands ``cap_protrusion[0]``
        above the overlay (its lower figure plus half the range between)."""
        e = default_envelopes()
        lo, hi = self.cap_protrusion
        cap_top = self.tile_height + self.diffuser + PAPER + (lo + hi) / 2
        plunger_top = cap_top - e.number("cap", "rise")
        seat = plunger_top - e.number("switch", "plunger_height")
        return seat + POCKET_DEPTH - self.floor

    # ------------------------------------------------------------------ parts

    def parts(self) -> list[PartSpec]:
        """Every generated part file with its bounding box (derived here, and checked
        against the built solid by the parts test)."""
        x0, y0, x1, y1 = self.tile_bbox2d()
        lip = self.centre_radius + self.centre_lip
        cw, cd, ch = (float(v) for v in self.console["size"])
        lid = float(self.console["wall"])
        n = self.segments
        pw, pd = self.post
        solids = [
            (
                "print/tile",
                (x0, y0, 0.0),
                (x1, y1, self.tile_height),
                n,
                "one segment's light cells: floor, walls with the chain's notches, the "
                "button post's socket",
            ),
            (
                "print/riser",
                (x0, y0, 0.0),
                (x1, y1, self.skirt),
                n,
                "the rim under a tile: the cavity for the reader and the cables, the dowels' "
                "bosses, bolts to its neighbours",
            ),
            (
                "print/button_post",
                (-pw / 2, -pd / 2, -RECESS),
                (pw / 2, pd / 2, self.post_height),
                n,
                "buttons kit: holds the beach's switch under its hole (its spigot in the "
                "tile's socket)",
            ),
            (
                "print/centre",
                (-lip, -lip, 0.0),
                (lip, lip, self.stack_height + PAPER + LIP_THICKNESS),
                1,
                "the summit: fills the middle of the six craters, its lip over their tips",
            ),
            (
                "print/console_tray",
                (-cw / 2, -cd / 2, 0.0),
                (cw / 2, cd / 2, ch - lid),
                1,
                "the electronics bay: the Pi and the hub board on standoffs, the lid's bosses",
            ),
            (
                "print/console_lid",
                (-cw / 2, -cd / 2, 0.0),
                (cw / 2, cd / 2, lid),
                1,
                "the bay's lid: OLED, encoder and back button; four screws into the tray",
            ),
        ]
        out = []
        for stem, lo, hi, copies, what in solids:
            for ext in ("stl", "step"):
                out.append(PartSpec(f"{PARTS_DIR}/{stem}.{ext}", (lo, hi), copies, True, what))
        out.append(
            PartSpec(
                f"{PARTS_DIR}/laser/diffuser.dxf",
                ((x0, y0, 0.0), (x1, y1, 0.0)),
                n,
                False,
                f"a tile's diffuser, {self.diffuser:g} mm opal acrylic: the tile's outline and "
                "the button's hole",
            )
        )
        R = self.radius
        for paper in ("a4", "a3"):
            out.append(
                PartSpec(
                    f"{PARTS_DIR}/overlay/overlay_{paper}.pdf",
                    ((-R, -R, 0.0), (R, R, 0.0)),
                    1,
                    False,
                    f"the top overlay at 1:1, tiled onto {paper.upper()}",
                )
            )
        return out


def load_geometry(text: str | None = None, validate: bool = True) -> KitGeometry:
    """Parse the geometry (the packaged file unless ``text`` is given); a malformed file
    raises ``GeometryError`` with a sentence naming the key, and (``validate``) so does one
    that parses but cannot work: a cell that misses its light target, a part bigger than
    its pocket, a landing mark off its antenna (``kit.refusals``: the part, the figure and
    the fix). ``default_geometry`` skips the (slower) proof: the suite proves the packaged
    file."""
    if text is None:
        text = resources.files("haleakala.kit").joinpath("data/geometry.toml").read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GeometryError(f"geometry: not TOML ({exc})") from None
    if data.get("units") != "mm":
        raise GeometryError('geometry: units must be "mm"')
    segments = data.get("segments")
    if segments != 6:
        raise GeometryError(f"geometry: segments must be 6 (the game's island), got {segments!r}")
    bed = _section(data, "bed")
    bands_t = _section(data, "bands")
    bands = {b: _pair(bands_t, b, "bands") for b in BANDS}
    for b in BANDS:
        inner, outer = bands[b]
        if not 0 < inner < outer:
            raise GeometryError(
                f"geometry: bands.{b} must be [inner, outer] with 0 < inner < outer"
            )
    slots = _section(data, "slots")
    cells = _section(data, "cells")
    pixels_t = _section(data, "pixels")
    order = pixels_t.get("order")
    if not isinstance(order, list) or not order:
        raise GeometryError("geometry: pixels.order must list [zone, x, y] for every pixel")
    tile_pixels = []
    for n, entry in enumerate(order):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or entry[0] not in ZONES
            or not all(isinstance(v, int | float) for v in entry[1:])
        ):
            raise GeometryError(
                f"geometry: pixels.order[{n}] must be [zone, x, y] with a zone of "
                f"{', '.join(ZONES)}, got {entry!r}"
            )
        tile_pixels.append((str(entry[0]), float(entry[1]), float(entry[2])))
    chain = _section(data, "chain")
    seg_order = chain.get("segment_order")
    if not isinstance(seg_order, list) or sorted(seg_order) != list(range(6)):
        raise GeometryError("geometry: chain.segment_order must list each segment 0..5 once")
    cable = _section(data, "cable")
    sensor = _section(data, "beach_sensor")
    joints = _section(data, "joints")
    holes = cable.get("floor_holes")
    if not isinstance(holes, list) or len(holes) != 2:
        raise GeometryError("geometry: cable.floor_holes must be two [x, y]: out, in")
    toward = sensor.get("reader_toward")
    if toward not in ("+x", "-x", "+y", "-y"):
        raise GeometryError('geometry: beach_sensor.reader_toward must be "+x", "-x", "+y" or "-y"')
    g = KitGeometry(
        segments=6,
        bed=_pair(bed, "size", "bed"),
        bed_margin=_num(bed, "margin", "bed"),
        bands=bands,
        arc_steps=int(_num(bands_t, "arc_steps", "bands")),
        slot_centre=_pair(slots, "centre", "slots"),
        slot_size=_pair(slots, "size", "slots"),
        pieces=dict(_section(data, "pieces")),
        wall=_num(cells, "wall", "cells"),
        edge_wall=_num(cells, "edge_wall", "cells"),
        min_wall=_num(cells, "min_wall", "cells"),
        cell_height=_num(cells, "height", "cells"),
        floor=_num(cells, "floor", "cells"),
        skirt=_num(cells, "skirt", "cells"),
        diffuser=_num(cells, "diffuser", "cells"),
        pixel_clearance=_num(cells, "pixel_clearance", "cells"),
        tile_pixels=tuple(tile_pixels),
        segment_order=tuple(int(s) for s in seg_order),
        link_mm=_num(chain, "link_mm", "chain"),
        tile_link_mm=_num(chain, "tile_link_mm", "chain"),
        routing_factor=_num(chain, "routing_factor", "chain"),
        notch=_pair(cable, "notch", "cable"),
        floor_holes=tuple(_pair({"h": h}, "h", "cable.floor_holes") for h in holes),
        hole_diameter=_num(cable, "hole_diameter", "cable"),
        skirt_notch=_pair(cable, "skirt_notch", "cable"),
        cable_rim_notch=_pair(cable, "rim_notch", "cable"),
        cable_tie_slot=_pair(cable, "tie_slot", "cable"),
        sensor_centre=_pair(sensor, "centre", "beach_sensor"),
        button=_pair(sensor, "button", "beach_sensor"),
        post=_pair(sensor, "post", "beach_sensor"),
        cap_protrusion=_pair(sensor, "cap_protrusion", "beach_sensor"),
        reader=_pair(sensor, "reader", "beach_sensor"),
        reader_toward=str(toward),
        landing=_num(sensor, "landing", "beach_sensor"),
        bolt_radii=tuple(float(r) for r in joints.get("bolt_radii", ())),
        bolt_hole=_num(joints, "bolt_hole", "joints"),
        dowel_radii=tuple(float(r) for r in joints.get("dowel_radii", ())),
        dowel_hole=_num(joints, "dowel_hole", "joints"),
        centre_lip=_num(joints, "centre_lip", "joints"),
        console=dict(_section(data, "console")),
        light=parse_light(_section(data, "light"), GeometryError),
        boards=dict(_section(data, "boards")),
        harness=dict(_section(data, "harness")),
        power=dict(_section(data, "power")),
        pi_models=dict(_section(data, "pi_models")),
    )
    if validate:
        from haleakala.kit.refusals import refusals

        problems = refusals(g)
        if problems:
            raise GeometryError("geometry: " + problems[0] + _more(problems))
    return g


def _more(problems: list[str]) -> str:
    return (
        f" (and {len(problems) - 1} more: run 'haleakala kit check')" if len(problems) > 1 else ""
    )


@cache
def default_geometry() -> KitGeometry:
    return load_geometry(validate=False)
