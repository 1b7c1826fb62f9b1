"""Tactile marks: how a player who cannot see the board finds each beach (issue 40).

Beach *n* (1–5) has *n* raised dots in the pattern of a die's face, beach 0 a washer glued on (a
flat M5 one, 10 mm), on the sea rim right behind that beach's water, on the segment's
centre line between its two card slots: a hand running along the island's edge meets them
before any piece, and from there the beach is straight inward across the water. They are
stuck on (the BOM's 8 mm bump dots) or printed raised; the companion says the same words
("beach 2, 2 raised dots", ``games.haleakala.words.speech.tactile``) whenever it names a
beach.

Pure geometry from ``kit.geometry`` (mm, the island's centre at the origin, segment 0's centre
line on +y), written as a 1:1 SVG (``hw/tactile.svg``: lay it on the overlay, or print it on
the overlay sheets) and a table in ``hw/OVERLAY.md``.
"""

from __future__ import annotations

import math

from haleakala.kit.geometry import KitGeometry, Point, default_geometry, rotate

PITCH = 7.0
"""Centre to centre of two dots of a die face: the 7.9 mm bump dots just do not touch."""
DOT = 7.9
RING = 10.0
"""The ring's outer diameter (a flat M5 washer, DIN 125: 10 mm, 1 mm thick)."""
FACES: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
}
"""A die's faces: the pattern is read by touch at once, without counting dot by dot."""


def mark_centre(g: KitGeometry) -> Point:
    """Where the mark sits on segment 0's tile: on the centre line, in the sea rim, a dot's
    width in from the water's edge (between the two card slots)."""
    inner, _outer = g.bands["sea"]
    return (0.0, inner + 2.0 + PITCH + DOT / 2)


def dots(g: KitGeometry, beach: int) -> list[Point]:
    """The dots' centres of beach ``beach`` (none for beach 0: it has the ring)."""
    cx, cy = mark_centre(g)
    face = FACES.get(beach, ())
    return [rotate((cx + dx * PITCH, cy + dy * PITCH), beach, g.segments) for dx, dy in face]


def ring(g: KitGeometry) -> Point:
    """Beach 0's ring centre."""
    return rotate(mark_centre(g), 0, g.segments)


def overlay_section(g: KitGeometry | None = None) -> list[str]:
    """The marks as OVERLAY.md lists them."""
    g = g or default_geometry()
    _x, cy = mark_centre(g)
    lines = [
        "## Tactile marks",
        "",
        "So that a player who cannot see the board finds each beach: on the sea rim behind",
        f"each beach's water, on the segment's centre line ({cy:g} mm from the island's",
        "centre), beach *n* has *n* raised dots in a die's pattern and beach 0 a washer glued",
        f"on (flat, M5, {RING:g} mm). Stick on the BOM's {DOT:g} mm bump dots at the centres",
        "below (1:1 drawing: [tactile.svg](tactile.svg)); the companion names a beach the same",
        'way ("beach 2, 2 raised dots").',
        "",
        "| Beach | Mark | Centres (x, y mm) |",
        "|---:|---|---|",
    ]
    rx, ry = ring(g)
    lines.append(f"| 0 | washer | ({rx:.1f}, {ry:.1f}) |")
    for beach in range(1, g.segments):
        centres = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in dots(g, beach))
        mark = f"{beach} dot" + ("s" if beach > 1 else "")
        lines.append(f"| {beach} | {mark} | {centres} |")
    return [*lines, ""]


def svg(g: KitGeometry | None = None) -> str:
    """The island's outline, the beaches and the marks at 1:1 (mm), for printing."""
    g = g or default_geometry()
    size = 2 * g.radius + 10
    half = size / 2
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:g}mm" height="{size:g}mm" '
        f'viewBox="{-half:g} {-half:g} {size:g} {size:g}">',
        "<title>Haleakala kit: tactile marks, 1:1</title>",
        f'<circle cx="0" cy="0" r="{g.radius:g}" fill="none" stroke="#888" stroke-width="0.3"/>',
    ]
    for segment in range(g.segments):
        outline = g.zone_polygon(segment, "beach")
        points = " ".join(f"{x:.2f},{-y:.2f}" for x, y in outline)
        parts.append(
            f'<polygon points="{points}" fill="#faf0cd" stroke="#666" stroke-width="0.3"/>'
        )
        angle = 2 * math.pi * segment / g.segments
        lx, ly = rotate((0.0, (g.bands["beach"][0] + g.bands["beach"][1]) / 2), segment)
        parts.append(
            f'<text x="{lx:.2f}" y="{-ly:.2f}" font-size="6" text-anchor="middle" '
            f'font-family="sans-serif" transform="rotate({-math.degrees(angle):.1f} '
            f'{lx:.2f} {-ly:.2f})">beach {segment}</text>'
        )
    rx, ry = ring(g)
    parts.append(
        f'<circle cx="{rx:.2f}" cy="{-ry:.2f}" r="{RING / 2:g}" fill="none" stroke="#000" '
        'stroke-width="1.5"/>'
    )
    for beach in range(1, g.segments):
        for x, y in dots(g, beach):
            parts.append(f'<circle cx="{x:.2f}" cy="{-y:.2f}" r="{DOT / 2:g}" fill="#000"/>')
    return "\n".join([*parts, "</svg>", ""])
