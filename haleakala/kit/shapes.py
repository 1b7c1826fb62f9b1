"""Plane shapes in the island's millimetre frame, shared by the geometry and the checks that
run on it (light, fits): points, polygons, the zone names, and the few measures they need.
Standard library only."""

from __future__ import annotations

import math

Point = tuple[float, float]
Polygon = tuple[Point, ...]

ZONES = ("water", "beach", "grassland", "forest", "mountain", "crater", "slot_a", "slot_b")
"""The daemon's zone names (``hal.zones.ZONES``), repeated so these modules import nothing."""
BAND_ZONES = ("water", "beach", "grassland", "forest", "mountain", "crater")
BANDS = ("sea", *BAND_ZONES)
PAPER = 0.1
"""The overlay's thickness (paper)."""
POCKET_DEPTH = 1.5
"""How deep the switch's body sits in the top of its post."""
LIP_THICKNESS = 2.0
"""The centre piece's lip over the craters' tips."""
RECESS = 1.0
"""How deep the button post stands in the tile's floor."""


def rectangle(centre: Point, size: tuple[float, float]) -> Polygon:
    """The axis-aligned rectangle of ``size`` (width, depth) around ``centre``, anticlockwise."""
    (cx, cy), (w, d) = centre, size
    return (
        (cx - w / 2, cy - d / 2),
        (cx + w / 2, cy - d / 2),
        (cx + w / 2, cy + d / 2),
        (cx - w / 2, cy + d / 2),
    )


def circle(centre: Point, diameter: float, steps: int = 32) -> Polygon:
    cx, cy = centre
    r = diameter / 2
    return tuple(
        (
            round(cx + r * math.cos(2 * math.pi * i / steps), 4),
            round(cy + r * math.sin(2 * math.pi * i / steps), 4),
        )
        for i in range(steps)
    )


def rotate(point: Point, segment: int, segments: int = 6) -> Point:
    """``point`` on segment 0's tile, turned to ``segment`` (clockwise seen from above)."""
    a = -2.0 * math.pi * segment / segments
    x, y = point
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))


def inside(point: Point, polygon: Polygon) -> bool:
    """Even-odd rule: whether ``point`` lies inside ``polygon`` (boundary counts as out)."""
    x, y = point
    hit = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def edge_distance(point: Point, polygon: Polygon) -> float:
    """Shortest distance from ``point`` to the outline of ``polygon``."""
    return nearest_on_outline(point, polygon)[0]


def nearest_on_outline(point: Point, polygon: Polygon) -> tuple[float, Point]:
    """(distance, nearest point) from ``point`` to the outline of ``polygon``."""
    px, py = point
    best, where = math.inf, polygon[0]
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length2))
        qx, qy = x1 + t * dx, y1 + t * dy
        d = math.hypot(px - qx, py - qy)
        if d < best:
            best, where = d, (qx, qy)
    return best, where


def bounds(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> Point | None:
    """Where segment a→b crosses segment c→d, or None."""
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    denom = rx * sy - ry * sx
    if abs(denom) < 1e-12:
        return None
    t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / denom
    u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / denom
    if 0 <= t <= 1 and 0 <= u <= 1:
        return (a[0] + t * rx, a[1] + t * ry)
    return None


def segment_hits_polygon(a: Point, b: Point, polygon: Polygon) -> bool:
    """Whether segment a→b crosses into ``polygon`` (an end inside, or an edge crossed)."""
    if inside(a, polygon) or inside(b, polygon):
        return True
    n = len(polygon)
    return any(segments_cross(a, b, polygon[i], polygon[(i + 1) % n]) for i in range(n))
