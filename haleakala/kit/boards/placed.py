"""Footprints placed on a board: where each pad's copper is, where each courtyard is, in the
board's absolute frame (KiCad's: mm, y down, a rotation turns anticlockwise on screen).
The router routes between these pads, the layout check keeps courtyards apart, and the PCB
writer places the footprints by the same transform."""

from __future__ import annotations

import math
from dataclasses import dataclass

from haleakala.kit.boards import library
from haleakala.kit.boards.model import Board, Part
from haleakala.kit.boards.sexpr import Node, find, find_all

ORIGIN = (50.0, 50.0)
"""Where the board's top-left corner sits on KiCad's page."""


def transform(part: Part, x: float, y: float) -> tuple[float, float]:
    """A footprint-local point in the page frame."""
    a = math.radians(part.rotation)
    c, s = round(math.cos(a), 12), round(math.sin(a), 12)
    px, py = part.at
    return (ORIGIN[0] + px + x * c + y * s, ORIGIN[1] + py - x * s + y * c)


@dataclass(frozen=True)
class Pad:
    ref: str
    number: str
    net: str | None
    x: float
    y: float
    half_w: float
    half_h: float
    drill: float
    """0 for no hole; the holes of mounting pads carry no net."""
    plated: bool


def pads(part: Part) -> list[Pad]:
    fp = library.footprint(part.footprint)
    out = []
    for pad in find_all(fp, "pad"):
        number, kind = str(pad[1]), str(pad[2])
        at = find(pad, "at") or [0, 0, 0]
        size = find(pad, "size") or [0, 0, 0]
        drill = find(pad, "drill")
        x, y = transform(part, float(at[1]), float(at[2]))
        w, h = float(size[1]), float(size[2])
        angle = (part.rotation + (float(at[3]) if len(at) > 3 else 0.0)) % 180
        if angle == 90:
            w, h = h, w
        d = float(drill[1]) if drill and isinstance(drill[1], int | float) else 0.0
        out.append(
            Pad(part.ref, number, part.pins.get(number) if number else None, x, y, w / 2, h / 2,
                d, kind == "thru_hole")
        )  # fmt: skip
    return out


def _points(node: Node) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    centre = find(node, "center")
    end = find(node, "end")
    if node[0] == "fp_circle" and centre and end:
        r = math.hypot(end[1] - centre[1], end[2] - centre[2])
        cx, cy = centre[1], centre[2]
        return [(cx - r, cy - r), (cx + r, cy + r)]
    for key in ("start", "end", "mid", "center"):
        item = find(node, key)
        if item:
            out.append((float(item[1]), float(item[2])))
    pts = find(node, "pts")
    if pts:
        out += [(float(p[1]), float(p[2])) for p in pts[1:]]
    return out


def courtyard(part: Part) -> tuple[float, float, float, float]:
    """The footprint's front courtyard (graphics on F.CrtYd) as a page-frame box."""
    fp = library.footprint(part.footprint)
    local: list[tuple[float, float]] = []
    for item in fp:
        if isinstance(item, list) and item and str(item[0]).startswith("fp_"):
            layer = find(item, "layer")
            if layer and layer[1] == "F.CrtYd":
                local += _points(item)
    if not local:
        return (*transform(part, 0, 0), *transform(part, 0, 0))
    corners = [transform(part, x, y) for x, y in local]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def keepouts(part: Part) -> list[tuple[float, float, float, float]]:
    """Boxes where the footprint's rule areas forbid tracks (the Pico's antenna)."""
    fp = library.footprint(part.footprint)
    out = []
    for zone in find_all(fp, "zone"):
        keepout = find(zone, "keepout")
        tracks = find(keepout, "tracks") if keepout else None
        if not tracks or tracks[1] != "not_allowed":
            continue
        polygon = find(zone, "polygon")
        pts = find(polygon, "pts") if polygon else None
        if not pts:
            continue
        corners = [transform(part, float(p[1]), float(p[2])) for p in pts[1:]]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def overlaps(board: Board) -> list[str]:
    """Pairs of parts whose courtyards overlap, and parts off the board."""
    problems = []
    boxes = [(p, courtyard(p)) for p in board.parts]
    w, h = board.size
    x0, y0 = ORIGIN
    for i, (a, ba) in enumerate(boxes):
        if ba[0] < x0 - 0.01 or ba[1] < y0 - 0.01 or ba[2] > x0 + w + 0.01 or ba[3] > y0 + h:
            problems.append(f"{board.name}: {a.ref}'s courtyard {ba} leaves the board")
        for b, bb in boxes[i + 1 :]:
            if ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]:
                problems.append(f"{board.name}: {a.ref} and {b.ref} overlap")
    return problems
