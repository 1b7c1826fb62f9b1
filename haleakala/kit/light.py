"""How each zone's light cell reads: a pure optical model of one tile, from the pixel's
datasheet intensity, the depth of the cell, the diffuser and the overlay.

The model, every figure of which is in the geometry's ``[light]`` table:

- **The pixel** is a Lambertian emitter (a WS2812B's 120° viewing angle is the full width at
  half intensity of I(θ) = I₀·cos θ) on the floor, its emitting face ``emitter_height`` above
  the floor; I₀ per channel is the datasheet's *minimum* (red 390, green 660, blue 180 mcd).
  The irradiance it puts on the underside of the diffuser, a depth D above it, at a distance r
  across is E = I₀·D² / (D² + r²)² (cos θ out of the pixel, cos θ onto the sheet, 1/d²): a
  quarter of the on-axis value at r = D.
- **The walls** are opaque and matt (printed in opaque filament): a ray that meets a wall is
  lost, none is credited for bouncing (a conservative figure: light walls only add light).
  A ray reaches a point of the diffuser when the straight line from the pixel's face to it
  stays inside the cell seen from above (the only concave cell edge is a band's inner arc;
  the beach's button post is an obstacle). No ray passes a wall's cable notch when the notch
  is no higher than the emitter's face (``cable.notch``, checked).
- **The diffuser** turns irradiance into luminance as a Lambertian sheet (L = τ·E/π) and
  spreads it sideways: the light that crosses over a wall's top into the next cell falls off
  as exp(−d/λ) with λ = ``diffuser_spread`` (diffusion in a slab of thickness t decays
  sideways as exp(−π·x/t): λ ≈ t/π); at a distance d beyond the lit cell's edge half of the
  edge's light times exp(−d/λ) is seen.
- **The overlay** (printed paper on the diffuser) passes ``paper_transmission`` ×
  ``ink_transmission`` of the light from below; lit by the room (``room_lux``) it reflects
  ink² × (paper + paper_transmission² × diffuser_reflectance / (1 − paper ×
  diffuser_reflectance)), the diffuser under it reflecting back through it.
- **What is seen** of a zone is its polygon less the overlay's printed border over its walls
  (``border`` wide, and the centre piece's lip over the craters).

Figures per zone: ``coverage`` — the share of the seen area at ≥ ``threshold`` of the zone's
peak with only its own pixels lit; ``bleed`` — the most light any other zone's pixels put
anywhere in it (the neighbours on this tile and the two next tiles), as a share of its own
peak; ``contrast`` — per role colour and palette mode, (L_led + L_room) / L_room: the zone lit
in that colour at the config's brightness against the same overlay unlit, with L_led its mean
over the seen area. Plain Python on a grid of ``grid`` mm: one tile (the six are the same
part turned), a few tenths of a second.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from haleakala.kit.shapes import BAND_ZONES, ZONES, Point, Polygon, rotate

if TYPE_CHECKING:
    from haleakala.kit.geometry import KitGeometry

LIT_ZONES = ZONES
_C30, _S30 = math.cos(math.pi / 6), math.sin(math.pi / 6)
GAME_ROLES = ("player.red", "player.yellow", "lava", "legal")
"""The roles the contrast target holds for (the players' colours, lava, the legal target)."""


@dataclass(frozen=True)
class ZoneLight:
    zone: str
    pixels: int
    coverage: float
    bleed: float
    bleed_from: str
    peak_lux_per_cd: float
    mean_lux_per_cd: float
    contrast: dict[str, dict[str, float]]
    """mode -> role -> contrast (1 + L_led / L_room)."""

    def to_json(self) -> dict[str, object]:
        return {
            "pixels": self.pixels,
            "coverage": round(self.coverage, 3),
            "bleed": round(self.bleed, 4),
            "bleed_from": self.bleed_from,
            "contrast": {
                mode: {role: round(v, 2) for role, v in roles.items()}
                for mode, roles in self.contrast.items()
            },
        }


# --------------------------------------------------------------------------- cells


@dataclass(frozen=True)
class Cell:
    """A zone's light cell on segment 0's tile: where light can go (``open``) and what the
    players see of it (``seen``), both as tests on a point, plus the open outline."""

    zone: str
    band: tuple[float, float] | None  # inner, outer radius of the open cell (bands)
    seen_band: tuple[float, float] | None
    rect: tuple[float, float, float, float] | None  # x0, y0, x1, y1 (slots)
    seen_rect: tuple[float, float, float, float] | None
    edge: float  # open: distance kept from the tile's radial edges
    seen_edge: float
    outline: Polygon

    def is_open(self, p: Point) -> bool:
        return self._inside(p, self.band, self.rect, self.edge)

    def nearest_open(self, p: Point) -> tuple[float, Point]:
        """(distance, nearest point) from ``p`` to the open cell (0 and ``p`` inside)."""
        x, y = p
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            q = (min(max(x, x0), x1), min(max(y, y0), y1))
            return math.hypot(x - q[0], y - q[1]), q
        assert self.band is not None
        r0, r1 = self.band
        r = math.hypot(x, y) or 1e-9
        rc = min(max(r, r0), r1)
        qx, qy = x * rc / r, y * rc / r
        # Keep ``edge`` from both radial edge lines (unit normals pointing into the tile).
        for nx, ny in ((_C30, _S30), (-_C30, _S30)):
            inside = qx * nx + qy * ny
            if inside < self.edge:
                qx, qy = qx + (self.edge - inside) * nx, qy + (self.edge - inside) * ny
        return math.hypot(x - qx, y - qy), (qx, qy)

    def is_seen(self, p: Point) -> bool:
        return self._inside(p, self.seen_band, self.seen_rect, self.seen_edge)

    @staticmethod
    def _inside(
        p: Point,
        band: tuple[float, float] | None,
        rect: tuple[float, float, float, float] | None,
        edge: float,
    ) -> bool:
        x, y = p
        if rect is not None:
            x0, y0, x1, y1 = rect
            return x0 <= x <= x1 and y0 <= y <= y1
        assert band is not None
        r = math.hypot(x, y)
        if not band[0] <= r <= band[1]:
            return False
        # Distance from each radial edge line of the 60° wedge (through the origin at ±30°
        # from +y): both must be at least ``edge`` on the inside.
        return x * _C30 + y * _S30 >= edge and -x * _C30 + y * _S30 >= edge


def sector_polygon(inner: float, outer: float, edge: float, steps: int) -> Polygon:
    """The open band between two radii, kept ``edge`` from the tile's radial edges."""
    pts: list[Point] = []
    for radius, forward in ((outer, True), (inner, False)):
        half = math.pi / 6 - math.asin(min(1.0, edge / radius))
        angles = [math.pi / 2 + half - 2 * half * i / steps for i in range(steps + 1)]
        if not forward:
            angles.reverse()
        pts += [(radius * math.cos(a), radius * math.sin(a)) for a in angles]
    return tuple(pts)


def cells(g: KitGeometry) -> dict[str, Cell]:
    """Every lit zone's cell on segment 0's tile."""
    half = g.wall / 2
    seen = max(g.light.border / 2, half)
    seen_edge = max(g.light.border / 2, g.edge_wall)
    out: dict[str, Cell] = {}
    for zone in BAND_ZONES:
        inner, outer = g.bands[zone]
        seen_inner = inner + (g.centre_lip if zone == "crater" else seen)
        out[zone] = Cell(
            zone,
            (inner + half, outer - half),
            (max(seen_inner, inner + half), outer - seen),
            None,
            None,
            g.edge_wall,
            seen_edge,
            sector_polygon(inner + half, outer - half, g.edge_wall, g.arc_steps * 2),
        )
    for zone in ("slot_a", "slot_b"):
        xs = [p[0] for p in g.slot_rect(zone)]
        ys = [p[1] for p in g.slot_rect(zone)]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        out[zone] = Cell(
            zone,
            None,
            None,
            (x0 + half, y0 + half, x1 - half, y1 - half),
            (x0 + seen, y0 + seen, x1 - seen, y1 - seen),
            0.0,
            0.0,
            (
                (x0 + half, y0 + half),
                (x1 - half, y0 + half),
                (x1 - half, y1 - half),
                (x0 + half, y1 - half),
            ),
        )
    return out


# --------------------------------------------------------------------------- rays


def _segment_clears_radius(a: Point, b: Point, radius: float) -> bool:
    """Whether the straight segment a→b stays at or beyond ``radius`` from the origin."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length2))
    return math.hypot(ax + t * dx, ay + t * dy) >= radius - 1e-9


def _segment_misses_rect(a: Point, b: Point, rect: tuple[float, float, float, float]) -> bool:
    """Liang–Barsky: whether the segment a→b misses the axis-aligned rectangle."""
    x0, y0, x1, y1 = rect
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return True
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return True
    return False


class Tile:
    """The light of one tile's pixels on its diffuser (segment 0's frame, lux per candela of
    on-axis intensity)."""

    def __init__(self, g: KitGeometry, kit: str) -> None:
        self.g = g
        self.cells = cells(g)
        self.depth = g.cell_height - g.light.emitter_height
        self.obstacles: list[tuple[float, float, float, float]] = []
        if kit == "buttons":
            (bx, by), (pw, pd) = g.button, g.post
            self.obstacles.append((bx - pw / 2, by - pd / 2, bx + pw / 2, by + pd / 2))
        self.pixels: dict[str, list[Point]] = {z: [] for z in LIT_ZONES}
        for zone, x, y in g.tile_pixels:
            self.pixels[zone].append((x, y))
        # The obstacles standing in each cell (the post stands in the beach's).
        self.blocks = {
            zone: [r for r in self.obstacles if self.cells[zone].is_open(_centroid(_rect(r)))]
            for zone in LIT_ZONES
        }

    def reaches(self, zone: str, pixel: Point, q: Point) -> bool:
        cell = self.cells[zone]
        if cell.band is not None and not _segment_clears_radius(pixel, q, cell.band[0]):
            return False
        return all(_segment_misses_rect(pixel, q, r) for r in self.blocks[zone])

    def irradiance(self, zone: str, q: Point) -> float:
        """Lux per candela at ``q`` on the diffuser's underside from ``zone``'s own pixels
        (zero outside the zone's open cell)."""
        cell = self.cells[zone]
        if not cell.is_open(q):
            return 0.0
        d2 = self.depth * self.depth
        total = 0.0
        inner = cell.band[0] if cell.band is not None else None
        blocks = self.blocks[zone]
        qx, qy = q
        for p in self.pixels[zone]:
            px, py = p
            dx, dy = qx - px, qy - py
            r2 = dx * dx + dy * dy
            if inner is not None:
                # The closest approach of the ray's plan to the centre: the band's inner arc
                # (the only concave edge of a cell) must not come between.
                t = 0.0 if r2 == 0 else max(0.0, min(1.0, -(px * dx + py * dy) / r2))
                cx, cy = px + t * dx, py + t * dy
                if cx * cx + cy * cy < inner * inner - 1e-9:
                    continue
            if blocks and not all(_segment_misses_rect(p, q, r) for r in blocks):
                continue
            total += d2 / (d2 + r2) ** 2
        return total * 1e6  # mm -> m: cd / m²

    def seen_points(self, zone: str) -> list[Point]:
        cell = self.cells[zone]
        step = self.g.light.grid
        xs = [p[0] for p in cell.outline]
        ys = [p[1] for p in cell.outline]
        x0 = math.floor(min(xs) / step) * step + step / 2
        y0 = math.floor(min(ys) / step) * step + step / 2
        points = []
        y = y0
        while y < max(ys):
            x = x0
            while x < max(xs):
                q = (x, y)
                if cell.is_seen(q) and not any(
                    r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in self.obstacles
                ):
                    points.append(q)
                x += step
            y += step
        return points


def _inward(p: Point, towards: Point, by: float = 0.05) -> Point:
    dx, dy = towards[0] - p[0], towards[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    return (p[0] + dx / n * by, p[1] + dy / n * by)


# --------------------------------------------------------------------------- the figures


@dataclass(frozen=True)
class ZoneField:
    zone: str
    points: int
    peak: float
    mean: float
    coverage: float
    bleed: float
    bleed_from: str


def _neighbours(tile: Tile, zone: str) -> Iterable[tuple[str, int]]:
    """Every other lit cell near ``zone``: (zone, tile offset) with offset -1, 0, +1."""
    for other in LIT_ZONES:
        for offset in (-1, 0, 1):
            if offset == 0 and other == zone:
                continue
            if tile.pixels[other]:
                yield other, offset


def zone_field(tile: Tile, zone: str) -> ZoneField:
    """Coverage and bleed of one zone."""
    g = tile.g
    points = tile.seen_points(zone)
    values = [tile.irradiance(zone, q) for q in points]
    peak = max(values, default=0.0)
    mean = sum(values) / len(values) if values else 0.0
    lit = sum(1 for v in values if v >= g.light.threshold * peak) if peak > 0 else 0
    coverage = lit / len(values) if values else 0.0
    reach = g.light.diffuser_spread * 12
    worst, worst_from = 0.0, ""
    for other, offset in _neighbours(tile, zone):
        cell = tile.cells[other]
        x0, y0, x1, y1 = _box(tuple(rotate(p, offset) for p in cell.outline), reach)
        for q in points:
            if not (x0 <= q[0] <= x1 and y0 <= q[1] <= y1):
                continue
            d, p = cell.nearest_open(rotate(q, -offset))
            if d > reach or d == 0:
                continue
            e = tile.irradiance(other, _inward(p, _centroid(cell.outline)))
            light = 0.5 * e * math.exp(-d / g.light.diffuser_spread)
            if light > worst:
                where = {-1: " of the tile anticlockwise", 1: " of the tile clockwise"}
                worst, worst_from = light, other + where.get(offset, "")
    bleed = worst / peak if peak > 0 else math.inf
    return ZoneField(zone, len(points), peak, mean, coverage, bleed, worst_from)


def _rect(r: tuple[float, float, float, float]) -> Polygon:
    x0, y0, x1, y1 = r
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _box(poly: Sequence[Point], grow: float) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow


def _centroid(poly: Sequence[Point]) -> Point:
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


_FIELDS: dict[tuple[int, str], tuple[KitGeometry, dict[str, ZoneField]]] = {}


def tile_fields(g: KitGeometry, kit: str) -> dict[str, ZoneField]:
    """Every zone's figures for one tile of ``kit`` (computed once per geometry)."""
    key = (id(g), kit)
    if key not in _FIELDS or _FIELDS[key][0] is not g:
        tile = Tile(g, kit)
        _FIELDS[key] = (g, {zone: zone_field(tile, zone) for zone in LIT_ZONES})
    return _FIELDS[key][1]


def overlay_factors(g: KitGeometry) -> tuple[float, float]:
    """(the stack's transmission from the diffuser's underside up, its reflectance to the
    room's light)."""
    paper, t_paper, ink = (
        g.light.paper_reflectance,
        g.light.paper_transmission,
        g.light.ink_transmission,
    )
    rd = g.light.diffuser_reflectance
    reflectance = ink * ink * (paper + t_paper * t_paper * rd / (1 - paper * rd))
    return g.light.diffuser_transmission * t_paper * ink, reflectance


def role_intensity(g: KitGeometry, drive: Sequence[int], brightness: float) -> float:
    """On-axis candela of a pixel sent ``drive`` at ``brightness`` (PWM: linear in drive)."""
    return brightness * sum(c / 255 * i for c, i in zip(drive, g.light.intensity_cd, strict=True))


def room_luminance(g: KitGeometry) -> float:
    return overlay_factors(g)[1] * g.light.room_lux / math.pi


def zone_roles(zone: str) -> tuple[str, ...]:
    """The LED roles a zone shows (``palette.PLACES``)."""
    from haleakala.palette import PLACES

    place = {
        "water": "water",
        "beach": "beach",
        "grassland": "land",
        "forest": "land",
        "mountain": "land",
        "crater": "crater",
        "slot_a": "slots",
        "slot_b": "slots",
    }[zone]
    return PLACES["led"][place]


def light_report(g: KitGeometry, kit: str, brightness: float) -> dict[str, ZoneLight]:
    """Every zone's figures for ``kit`` at ``brightness`` (the config's)."""
    from haleakala import palette

    transmission, _ = overlay_factors(g)
    room = room_luminance(g)
    out = {}
    for zone, f in tile_fields(g, kit).items():
        contrast: dict[str, dict[str, float]] = {}
        for mode in palette.MODES:
            contrast[mode] = {}
            for role in zone_roles(zone):
                cd = role_intensity(g, palette.led(role, mode), brightness)
                led = transmission * cd * f.mean / math.pi
                contrast[mode][role] = (led + room) / room
        out[zone] = ZoneLight(
            zone,
            len(Tile(g, kit).pixels[zone]),
            f.coverage,
            f.bleed,
            f.bleed_from,
            f.peak,
            f.mean,
            contrast,
        )
    return out


def light_problems(g: KitGeometry, kit: str, brightness: float | None = None) -> list[str]:
    """Each zone that misses a light target, one sentence with the figure and the fix
    (contrast only when ``brightness`` is given: it is the config's)."""
    problems = []
    fields = tile_fields(g, kit)
    for zone, f in fields.items():
        if f.coverage < g.light.coverage_target:
            problems.append(
                f"the {zone}'s cell is lit on {f.coverage:.0%} of its area at ≥ "
                f"{g.light.threshold:.0%} of its peak, less than the "
                f"{g.light.coverage_target:.0%} target "
                f"({kit} kit): add pixels to the {zone} in [pixels] order or spread them out"
            )
        if f.bleed > g.light.bleed_target:
            problems.append(
                f"the {zone}'s cell gets {f.bleed:.1%} of its peak from the {f.bleed_from}'s "
                f"pixels, more than the {g.light.bleed_target:.0%} target: widen light.border or "
                "cells.wall, or move the neighbour's pixels from the wall"
            )
    if brightness is None:
        return problems
    for zone, light in light_report(g, kit, brightness).items():
        for mode, roles in light.contrast.items():
            for role, value in roles.items():
                if role in GAME_ROLES and value < g.light.contrast_target:
                    problems.append(
                        f"the {zone} lit as {role} ({mode} colours) reads {value:.2f}:1 "
                        f"against the overlay at {g.light.room_lux:g} lx, less than "
                        f"{g.light.contrast_target:g}:1: add pixels to the {zone}, raise "
                        "leds.brightness or print the overlay on paper that passes more light"
                    )
    return problems
