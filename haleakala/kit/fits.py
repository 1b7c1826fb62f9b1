"""Every bought part against the printed part that holds it: the switch in its post, the
cap through its holes, the pixel boards in their cells, the reader and its plug in the riser's
cavity, the landing mark on the antenna, screws and dowels in their holes, the walls thick
enough, and every board of the bay (each Pi model the tray takes, the hub, the Pico on it)
with its plugs' room and the lid's parts above them. Pure arithmetic on the geometry and the
envelopes (``kit.envelopes``); ``kit check`` prints each fit with its clearance in mm.

The sizes the printed parts are built with (the switch's pocket, the post's hollow, the
holes for the cap) are derived here from the envelopes and the clearances asked for, so the
part (``kit.parts``) and the check use the same figures.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from haleakala.kit import bay
from haleakala.kit.envelopes import Board, Envelopes, Port, default_envelopes
from haleakala.kit.shapes import (
    PAPER,
    POCKET_DEPTH,
    Point,
    Polygon,
    bounds,
    edge_distance,
    inside,
    rectangle,
    segment_hits_polygon,
)

if TYPE_CHECKING:
    from haleakala.kit.geometry import KitGeometry


@dataclass(frozen=True)
class Fit:
    part: str
    where: str
    clearance: float
    """The smallest gap found, mm (negative: an overlap)."""
    needed: float
    fix: str

    @property
    def ok(self) -> bool:
        return self.clearance >= self.needed - 1e-6

    def to_json(self) -> dict[str, object]:
        return {
            "where": self.where,
            "fit": self.ok,
            "clearance_mm": round(self.clearance, 2),
            "needed_mm": round(self.needed, 2),
        }

    def sentence(self) -> str:
        return (
            f"{self.part} does not fit {self.where}: {self.clearance:.2f} mm of room where "
            f"{self.needed:g} mm is needed; {self.fix}"
        )


# --------------------------------------------------------------------------- the button


@dataclass(frozen=True)
class ButtonPost:
    """The printed post under a beach's switch, sized from the switch's envelope."""

    footprint: tuple[float, float]
    pocket: float
    """Side of the square pocket on top that holds the switch's body."""
    pocket_depth: float
    hollow: tuple[float, float]
    """The channel down the post (and through the floor) for the legs and their wires."""
    height: float
    recess: float
    """Side of the 1 mm recess in the floor the post stands in."""
    cap_hole: float
    """Diameter of the cap's hole in the diffuser and the overlay."""
    cap_top: float
    """The cap's top above the overlay's top."""


def button_post(g: KitGeometry, e: Envelopes | None = None) -> ButtonPost:
    e = e or default_envelopes()
    gap = e.clearance["pocket"]
    tol = e.number("switch", "tolerance")
    body = e.numbers("switch", "body", 3)
    pitch = e.numbers("switch", "leg_pitch", 2)
    leg = e.numbers("switch", "leg", 3)
    hole_gap = e.clearance["hole"]
    pocket = body[0] + tol + 2 * gap
    hollow = (
        pitch[0] + leg[1] + 2 * (tol / 2 + hole_gap),
        pitch[1] + leg[0] + 2 * (tol / 2 + hole_gap),
    )
    height = g.post_height
    lo, hi = g.cap_protrusion
    return ButtonPost(
        g.post,
        pocket,
        POCKET_DEPTH,
        hollow,
        height,
        g.post[0] + 2 * gap,
        e.number("cap", "diameter") + 2 * 0.5,
        (lo + hi) / 2,
    )


def _button_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    post = button_post(g, e)
    body = e.numbers("switch", "body", 3)
    tol = e.number("switch", "tolerance")
    pitch = e.numbers("switch", "leg_pitch", 2)
    leg = e.numbers("switch", "leg", 3)
    cap = e.number("cap", "diameter")
    fix_post = "enlarge beach_sensor.post (or measure the switch: envelopes.toml [switch])"
    fits = [
        Fit(
            "the switch's body (12 x 12 mm, +0.4)",
            "its pocket on the button post",
            (post.pocket - body[0] - tol) / 2,
            e.clearance["pocket"],
            fix_post,
        ),
        Fit(
            "the switch's legs (12.5 x 5.0 mm pitch)",
            "the button post's hollow",
            min(
                (post.hollow[0] - pitch[0] - leg[1]) / 2 - tol / 2,
                (post.hollow[1] - pitch[1] - leg[0]) / 2 - tol / 2,
            ),
            e.clearance["hole"],
            fix_post,
        ),
        Fit(
            "the button post",
            "inside the beach's cell",
            min(_cell_room(g, "beach", corner, 0.0) for corner in rectangle(g.button, g.post)),
            0.5,
            "move beach_sensor.button towards the middle of the beach",
        ),
        Fit(
            "the button post's wall",
            "beside its hollow and pocket",
            min((post.footprint[0] - post.hollow[0]) / 2, (post.footprint[0] - post.pocket) / 2),
            g.min_wall,
            f"beach_sensor.post must be at least {post.hollow[0] + 2 * g.min_wall:.1f} mm",
        ),
        Fit(
            "the switch's cap",
            "its hole in the diffuser and the overlay",
            (post.cap_hole - cap) / 2,
            0.5,
            "the hole is the cap's diameter + 1 mm: measure the cap (envelopes.toml [cap])",
        ),
    ]
    lo, hi = g.cap_protrusion
    travel = e.number("switch", "travel")
    fits.append(
        Fit(
            "the switch's cap",
            "above the overlay (a finger finds it, the click is reached)",
            post.cap_top - travel,
            max(0.5, lo - travel),
            "set beach_sensor.cap_protrusion (the post's height follows)",
        )
    )
    if hi < lo:
        fits.append(Fit("beach_sensor.cap_protrusion", "[least, most]", hi - lo, 0, "swap them"))
    return fits


# --------------------------------------------------------------------------- the tile


def _cell_room(g: KitGeometry, zone: str, p: Point, radius: float) -> float:
    """Room between a disc of ``radius`` at ``p`` and the walls of ``zone``'s cell (negative
    when it crosses them)."""
    from haleakala.kit.light import cells

    cell = cells(g)[zone]
    if not cell.is_open(p):
        return -edge_distance(p, cell.outline) - radius
    return edge_distance(p, cell.outline) - radius


def _pixel_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    board = e.number("pixel", "board_diameter") / 2
    fits = []
    worst: dict[str, tuple[float, str]] = {}
    post = rectangle(g.button, g.post)
    holes = [(h, g.hole_diameter / 2) for h in g.floor_holes]
    pixels = [(z, (x, y)) for z, x, y in g.tile_pixels]
    for i, (zone, p) in enumerate(pixels):
        room = _cell_room(g, zone, p, board)
        what = f"its {zone} cell's walls"
        if zone == "beach":
            post_room = (
                -edge_distance(p, post) - board
                if inside(p, post)
                else edge_distance(p, post) - board
            )
            if post_room < room:
                room, what = post_room, "the button post"
        for h, r in holes:
            d = math.hypot(p[0] - h[0], p[1] - h[1]) - board - r
            if d < room:
                room, what = d, "a cable hole in the floor"
        for j, (_z2, q) in enumerate(pixels):
            if j != i:
                d = math.hypot(p[0] - q[0], p[1] - q[1]) - 2 * board
                if d < room:
                    room, what = d, "the next pixel's board"
        if zone not in worst or room < worst[zone][0]:
            worst[zone] = (room, what)
    for zone, (room, what) in worst.items():
        fits.append(
            Fit(
                f"the {zone}'s pixel boards (10 mm)",
                what,
                room,
                g.pixel_clearance,
                f"move the {zone}'s pixels in [pixels] order",
            )
        )
    return fits


def _antenna_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    """Nothing over the antenna but what must be there: the beach's own pixels (they light the
    landing mark) and the wire between them."""
    antenna = rectangle(g.sensor_centre, g.reader)
    board = e.number("pixel", "board_diameter") / 2
    fits = []
    crossing = []
    for zone, x, y in g.tile_pixels:
        if zone == "beach":
            continue
        d = edge_distance((x, y), antenna)
        if inside((x, y), antenna) or d < board:
            crossing.append(f"a {zone} pixel")
    for h in g.floor_holes:
        if inside(h, antenna) or edge_distance(h, antenna) < g.hole_diameter / 2:
            crossing.append("a cable hole")
    path = g.chain_path()
    for (ka, a), (kb, b) in itertools.pairwise(path):
        zones = {_zone_at(g, a), _zone_at(g, b)}
        if zones == {"beach"} or (ka == "notch" and kb == "notch"):
            continue
        if segment_hits_polygon(a, b, antenna) and "beach" not in zones:
            crossing.append(f"the chain's wire from {ka} to {kb}")
    for item in crossing:
        fits.append(
            Fit(
                item,
                "clear of the reader's antenna square",
                -1.0,
                0.0,
                "move it off beach_sensor.centre ± reader/2 (only the beach's own pixels may "
                "lie over the antenna)",
            )
        )
    landing = g.landing_mark()
    ax0, ay0, ax1, ay1 = bounds(antenna)
    lx0, ly0, lx1, ly1 = bounds(landing)
    fits.append(
        Fit(
            "the landing mark",
            "inside its antenna square",
            min(lx0 - ax0, ly0 - ay0, ax1 - lx1, ay1 - ly1),
            0.0,
            "centre beach_sensor.centre's mark on the antenna or make beach_sensor.landing "
            "smaller than beach_sensor.reader",
        )
    )
    distance = PAPER + g.diffuser + g.cell_height + g.floor
    reach = e.number("reader", "read_range")
    fits.append(
        Fit(
            "a disc's tag",
            f"the reader's range through the stack ({distance:.1f} mm of overlay, diffuser, "
            f"cell and floor; range {reach:g} mm)",
            reach - distance,
            10.0,
            "lower cells.height or use a reader with a larger antenna",
        )
    )
    return fits


def _zone_at(g: KitGeometry, p: Point) -> str | None:
    from haleakala.kit.light import cells

    for zone, cell in cells(g).items():
        if cell.is_open(p):
            return zone
    return None


def reader_rects(g: KitGeometry, e: Envelopes) -> tuple[Polygon, Polygon]:
    """The reader's board and the room its plug and cable need, under the floor (segment 0's
    frame): the antenna centred on the sensor, the rest of the board ``reader_toward``."""
    length, width, _t = e.numbers("reader", "board", 3)
    antenna = e.numbers("reader", "antenna", 2)
    plug = e.numbers("reader", "plug", 3)
    bend = e.number("reader", "bend")
    cx, cy = g.sensor_centre
    sx = {"+x": 1, "-x": -1, "+y": 0, "-y": 0}[g.reader_toward]
    sy = {"+x": 0, "-x": 0, "+y": 1, "-y": -1}[g.reader_toward]
    near = -antenna[0] / 2
    far = near + length
    reach = far + plug[0] + bend
    if sx:
        board = rectangle((cx + sx * (near + far) / 2, cy), (length, width))
        room = rectangle((cx + sx * (far + reach) / 2, cy), (reach - far, plug[1]))
    else:
        board = rectangle((cx, cy + sy * (near + far) / 2), (width, length))
        room = rectangle((cx, cy + sy * (far + reach) / 2), (plug[1], reach - far))
    return board, room


def _cavity_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    board, room = reader_rects(g, e)
    cavity = _inset_outline(g, g.wall)
    gap = e.clearance["wall"]
    fits = []
    for what, rect, needed in (
        ("the reader's board", board, gap),
        ("the reader's plug and its cable's bend", room, e.clearance["plug"]),
    ):
        room_mm = min(
            edge_distance(p, cavity) if inside(p, cavity) else -edge_distance(p, cavity)
            for p in _densify(rect)
        )
        fits.append(Fit(what, "the riser's cavity, seen from above", room_mm, needed, "move it"))
    if "tile_size" in g.boards and "tile_at" in g.boards:
        carrier = rectangle(
            tuple(float(v) for v in g.boards["tile_at"]),  # type: ignore[arg-type]
            tuple(float(v) for v in g.boards["tile_size"]),  # type: ignore[arg-type]
        )
        gaps = [_rect_gap(carrier, other) for other in (board, room)]
        fits.append(
            Fit(
                "the tile's carrier board (boards.tile_at)",
                "the riser's cavity, clear of the reader, its plug and its antenna",
                min(gaps),
                gap,
                "move boards.tile_at away from beach_sensor.centre",
            )
        )
    thickness = e.numbers("reader", "board", 3)[2]
    below = max(e.number("reader", "parts_below"), e.numbers("reader", "plug", 3)[2] + 1.0)
    fits.append(
        Fit(
            "the reader with its header and plug",
            f"the riser's cavity ({g.skirt:g} mm deep)",
            g.skirt - thickness - below - 0.2,
            2.0,
            "raise cells.skirt",
        )
    )
    return fits


def _rect_gap(a: Polygon, b: Polygon) -> float:
    """The gap between two axis-aligned rectangles (negative: how far they overlap)."""
    ax0, ay0, ax1, ay1 = bounds(a)
    bx0, by0, bx1, by1 = bounds(b)
    return max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1)


def _inset_outline(g: KitGeometry, by: float) -> Polygon:
    from haleakala.kit.light import sector_polygon

    return sector_polygon(g.centre_radius + by, g.radius - by, by, g.arc_steps * 2)


def _densify(rect: Polygon, step: float = 2.0) -> list[Point]:
    out = []
    n = len(rect)
    for i in range(n):
        a, b = rect[i], rect[(i + 1) % n]
        k = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        out += [(a[0] + (b[0] - a[0]) * j / k, a[1] + (b[1] - a[1]) * j / k) for j in range(k)]
    return out


def _joint_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    m3 = e.screws["M3"]
    dowel = e.number("dowel", "diameter")
    fits = [
        Fit(
            "an M3 bolt",
            "its hole through two risers' sides",
            min(g.bolt_hole - m3.clearance[0], m3.clearance[1] - g.bolt_hole),
            0.0,
            f"joints.bolt_hole must be {m3.clearance[0]:g}-{m3.clearance[1]:g} mm",
        ),
        Fit(
            "a 3 mm dowel",
            "its half-holes in the risers' bosses and the tiles' floors",
            (g.dowel_hole - dowel) / 2,
            e.clearance["hole"],
            "joints.dowel_hole must be the dowel + 0.3 mm",
        ),
        Fit(
            "the centre piece's lip",
            "over the craters' tips (it holds them down)",
            g.centre_lip,
            1.0,
            "joints.centre_lip: at least 1 mm",
        ),
    ]
    for name, value in (
        ("cells.wall", g.wall),
        ("cells.edge_wall", g.edge_wall),
        ("cells.floor", g.floor),
        ("console.wall", float(g.console["wall"])),
    ):
        fits.append(
            Fit(
                name,
                f"the least wall that survives handling (cells.min_wall = {g.min_wall:g} mm)",
                value,
                g.min_wall,
                f"make {name} at least {g.min_wall:g} mm",
            )
        )
    fits.append(
        Fit(
            "a pixel's light",
            "under a wall's cable notch (no ray passes below the emitter's face)",
            g.light.emitter_height - g.notch[1],
            0.0,
            "make cable.notch's height no more than light.emitter_height",
        )
    )
    return fits


def bay_fits(g: KitGeometry, e: Envelopes) -> list[Fit]:
    x0, y0, x1, y1, lid = bay.inner(g)
    need = e.clearance["wall"]
    worst: dict[str, tuple[float, str, str]] = {}
    for model in bay.held_models(g):
        items = bay.items_for(g, e, model)
        for i, a in enumerate(items):
            if a.kind == "boss":
                continue
            name = a.name.replace(model, "the Pi")
            bx0, by0, _z0, bx1, by1, bz1 = a.box
            room = min(bx0 - x0, by0 - y0, x1 - bx1, y1 - by1)
            if a.kind != "lid":
                room = min(room, lid - bz1)
            what = "the tray's walls and lid"
            for j, b in enumerate(items):
                mine = a.owner and a.owner == b.owner and "plug" in (a.kind, b.kind)
                mine = mine or bay.mounted(a, b)
                if j != i and not mine and not (a.kind == "lid" and b.kind == "lid"):
                    gap = bay.gap(a.box, b.box)
                    if gap < room:
                        room, what = gap, b.name.replace(model, "the Pi")
            if name not in worst or room < worst[name][0]:
                worst[name] = (room, what, model)
    fits = [
        Fit(
            name,
            f"the bay, clear of {what} (worst with the {model})",
            room,
            need,
            "move it in [console] (pi_at, hub_at, *_at on the lid)",
        )
        for name, (room, what, model) in worst.items()
    ]
    for placed_key, placed in bay.placements(g, e).items():
        if placed.carrier:  # on its carrier's sockets, not screwed
            continue
        screw = e.screws[placed.board.screw]
        fits.append(
            Fit(
                f"the {placed_key}'s {screw.name} screws",
                f"the board's {placed.board.hole_diameter:g} mm holes",
                placed.board.hole_diameter - screw.clearance[0],
                0.0,
                "use the next smaller screw",
            )
        )
    for name, screw in e.screws.items():
        if name in bay.PILOT:
            lo, hi = screw.pilot
            fits.append(
                Fit(
                    f"an {name} screw",
                    f"its {bay.PILOT[name]:g} mm pilot hole in a printed standoff or boss",
                    min(bay.PILOT[name] - lo, hi - bay.PILOT[name]),
                    0.0,
                    f"the pilot for {name} must be {lo:g}-{hi:g} mm",
                )
            )
            if name in bay.CLEAR:
                lo, hi = screw.clearance
                fits.append(
                    Fit(
                        f"an {name} screw",
                        f"its {bay.CLEAR[name]:g} mm hole through the lid",
                        min(bay.CLEAR[name] - lo, hi - bay.CLEAR[name]),
                        0.0,
                        f"the clearance hole for {name} must be {lo:g}-{hi:g} mm",
                    )
                )
    return fits


def check_fits(g: KitGeometry, e: Envelopes | None = None) -> list[Fit]:
    """Every fit of the kit (both kits' parts: a geometry serves both)."""
    e = e or default_envelopes()
    return (
        _button_fits(g, e)
        + _pixel_fits(g, e)
        + _antenna_fits(g, e)
        + _cavity_fits(g, e)
        + _joint_fits(g, e)
        + bay_fits(g, e)
    )


__all__ = ["Board", "ButtonPost", "Fit", "Port", "button_post", "check_fits"]
