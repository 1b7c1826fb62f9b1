"""The harness: one keyed ribbon per tile, from its box header on the hub to the tile board's,
its length from the geometry, and the notches it passes through sized for the stack of
ribbons that share them.

The route of tile *s*'s cable: from its header on the hub, out of the bay's cable slot, in
under segment 0's rim through the rim notch, along segment 0's centre line to the ring at
``harness.route_radius``, round the island at that radius through the risers' edge notches
(the shorter way; the cable of the segment opposite goes with the first half), then out to
the tile board. Its cut length is that route times ``routing_factor``, plus ``slack_mm``,
rounded up to ``cut_step_mm``. Pure arithmetic on the geometry, so ``kit check`` runs it on
a Pi.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from haleakala.kit.boards.hub import FIRST_TILE_HEADER, TILE_HEADER_PITCH
from haleakala.kit.boards.model import TILE_PINS
from haleakala.kit.geometry import KitGeometry, rotate


@dataclass(frozen=True)
class TileCable:
    segment: int
    route_mm: float
    """The route's length, before the routing factor and the slack."""
    cut_mm: float
    """The length to cut (with routing factor, slack and the cut step)."""
    ways: int
    """Which way round the island: +1 clockwise, -1 anticlockwise, 0 straight in."""


@dataclass(frozen=True)
class Notch:
    name: str
    cables: int
    need: tuple[float, float]
    """[wide, high] the stack of ribbons needs, with the clearance round it."""
    have: tuple[float, float]
    stack: tuple[int, int]
    """How the ribbons lie: [side by side, on top of each other]."""

    @property
    def fits(self) -> bool:
        return self.need[0] <= self.have[0] + 1e-9 and self.need[1] <= self.have[1] + 1e-9

    @property
    def need_mm2(self) -> float:
        return self.need[0] * self.need[1]

    @property
    def have_mm2(self) -> float:
        return self.have[0] * self.have[1]


def _h(g: KitGeometry, key: str) -> float:
    return float(g.harness[key])


def ribbon_width(g: KitGeometry) -> float:
    return TILE_PINS * _h(g, "ribbon_pitch")


def hub_header(g: KitGeometry, segment: int) -> tuple[float, float]:
    """Where tile ``segment``'s box header is, in the island frame (the hub lies in the bay
    with its tile headers towards the island)."""
    c = g.console
    bx, by = (float(v) for v in c["position"])
    hx, hy = (float(v) for v in c["hub_at"])
    w, h = (float(v) for v in g.boards["hub_size"])
    x0, y0 = FIRST_TILE_HEADER
    kx, ky = x0 + segment * TILE_HEADER_PITCH + 1.27, y0 + 11.43  # the header's middle
    return bx + hx - w / 2 + kx, by + hy + h / 2 - ky


def direction(g: KitGeometry, segment: int) -> int:
    """+1: the cable goes clockwise (segments 1..3), -1: anticlockwise, 0: segment 0."""
    half = g.segments // 2
    if segment == 0:
        return 0
    return 1 if segment <= half else -1


def tile_cables(g: KitGeometry) -> list[TileCable]:
    c = g.console
    bx, by = (float(v) for v in c["position"])
    depth = float(c["size"][1])
    slot = (bx, by - depth / 2)
    rim = (0.0, g.radius)
    r = _h(g, "route_radius")
    out = []
    for segment in range(g.segments):
        hx, hy = hub_header(g, segment)
        way = direction(g, segment)
        steps = segment if way >= 0 else g.segments - segment
        arc = r * steps * 2 * math.pi / g.segments
        tx, ty = rotate(tuple(float(v) for v in g.boards["tile_at"]), segment, g.segments)  # type: ignore[arg-type]
        end = rotate((0.0, r), segment, g.segments)
        route = (
            math.hypot(hx - slot[0], hy - slot[1])
            + math.hypot(slot[0] - rim[0], slot[1] - rim[1])
            + (g.radius - r)
            + arc
            + math.hypot(tx - end[0], ty - end[1])
        )
        raw = route * _h(g, "routing_factor") + _h(g, "slack_mm")
        step = _h(g, "cut_step_mm")
        out.append(TileCable(segment, route, math.ceil(raw / step - 1e-9) * step, way))
    return out


def _stack(g: KitGeometry, name: str, cables: int, have: tuple[float, float]) -> Notch:
    """The flattest stack of ``cables`` ribbons that fits ``have``'s width."""
    width, thick, clear = ribbon_width(g), _h(g, "ribbon_thickness"), _h(g, "notch_clearance")
    best = None
    for across in range(1, max(cables, 1) + 1):
        high = math.ceil(cables / across)
        need = (across * width + (across + 1) * clear, high * thick + 2 * clear)
        candidate = Notch(name, cables, need, have, (across, high))
        if best is None or (candidate.fits and not best.fits):
            best = candidate
        if candidate.fits:
            return candidate
    assert best is not None
    return best


def notches(g: KitGeometry) -> list[Notch]:
    """Every opening the tile cables share, with what they need and what it has."""
    n = g.segments
    cw = sum(1 for s in range(n) if direction(g, s) > 0)
    acw = sum(1 for s in range(n) if direction(g, s) < 0)
    slot = tuple(float(v) for v in g.console["cable_slot"])
    rim = tuple(float(v) for v in g.cable_rim_notch)
    edge = tuple(float(v) for v in g.skirt_notch)
    return [
        _stack(g, "bay cable slot (console.cable_slot)", n, (slot[0], slot[1])),
        _stack(g, "segment 0's rim notch (cable.rim_notch)", n, (rim[0], rim[1])),
        _stack(g, "edge notch, clockwise (cable.skirt_notch)", cw, (edge[0], edge[1])),
        _stack(g, "edge notch, anticlockwise (cable.skirt_notch)", acw, (edge[0], edge[1])),
    ]


def check_harness(g: KitGeometry) -> list[str]:
    problems = []
    for notch in notches(g):
        if not notch.fits:
            problems.append(
                f"the {notch.name} is {notch.have[0]:g} x {notch.have[1]:g} mm but its "
                f"{notch.cables} ribbons ({notch.stack[0]} side by side, {notch.stack[1]} "
                f"high) need {notch.need[0]:.1f} x {notch.need[1]:.1f} mm: enlarge it in "
                "the geometry"
            )
    for cable in tile_cables(g):
        if cable.route_mm <= 0:
            problems.append(f"tile {cable.segment}'s cable has no route")
    return problems
