"""A two-layer grid router for the carrier boards: every net's pads joined by tracks on a
0.635 mm grid, front copper preferring horizontal runs and back copper vertical ones, vias
where a path changes layer, every track and via kept ``CLEARANCE`` from any other net's
copper, holes and the board's edge (checked on the true shapes, not on grid cells).

The boards are small and sparse, so a maze router (A* from the net's copper grown so far to
its nearest unjoined pad, the wide power nets first) routes them completely; a net it cannot
join is an error naming the net, never a board with an open. Deterministic: the same board
gives the same tracks, so the generated files can be compared byte for byte.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from haleakala.kit.boards.model import CLEARANCE, Board
from haleakala.kit.boards.placed import ORIGIN, Pad, keepouts, pads

GRID = 0.635
VIA_SIZE = 0.6
VIA_DRILL = 0.3
EDGE_CLEARANCE = 0.5
HOLE_CLEARANCE = 0.25
VIA_COST = 12
HEURISTIC = 1.3
WRONG_WAY = 3
_FREE = math.inf


class RoutingError(RuntimeError):
    """A net the router could not join: move parts apart or widen the board."""


@dataclass(frozen=True)
class Track:
    net: str
    layer: int
    x1: float
    y1: float
    x2: float
    y2: float
    width: float


@dataclass(frozen=True)
class Via:
    net: str
    x: float
    y: float


@dataclass
class Routed:
    tracks: list[Track] = field(default_factory=list)
    vias: list[Via] = field(default_factory=list)

    def length(self, net: str) -> float:
        return sum(math.hypot(t.x2 - t.x1, t.y2 - t.y1) for t in self.tracks if t.net == net)


@dataclass(frozen=True)
class _Item:
    """Copper (or a hole, or the board's edge) as a rounded rectangle on some layers."""

    net: str | None
    x0: float
    y0: float
    x1: float
    y1: float
    r: float
    layers: tuple[int, ...]


def _rect_distance(a: tuple[float, float, float, float], b: _Item) -> float:
    dx = max(0.0, b.x0 - a[2], a[0] - b.x1)
    dy = max(0.0, b.y0 - a[3], a[1] - b.y1)
    return math.hypot(dx, dy) - b.r


class _Grid:
    def __init__(self, board: Board) -> None:
        self.board = board
        w, h = board.size
        self.nx = int(w / GRID + 1e-6)
        self.ny = int(h / GRID + 1e-6)
        # near[layer][key] = [d1, net1, d2]: the nearest copper's distance and net, and the
        # nearest distance of any other net's copper (the only two figures a check needs)
        self.edge_near: list[dict[tuple[int, int, int], list[Any]]] = [{}, {}]
        self.node_near: list[dict[tuple[int, int], list[Any]]] = [{}, {}]
        self.reach = 1.5 + CLEARANCE + GRID
        self.own: dict[str, set[tuple[int, int, int]]] = {}

    def xy(self, i: int, j: int) -> tuple[float, float]:
        return ORIGIN[0] + i * GRID, ORIGIN[1] + j * GRID

    def add(self, item: _Item) -> None:
        """Record ``item``'s distance on every grid edge and node near it."""
        i0 = max(0, int((item.x0 - ORIGIN[0] - item.r - self.reach) / GRID))
        i1 = min(self.nx, int((item.x1 - ORIGIN[0] + item.r + self.reach) / GRID) + 1)
        j0 = max(0, int((item.y0 - ORIGIN[1] - item.r - self.reach) / GRID))
        j1 = min(self.ny, int((item.y1 - ORIGIN[1] + item.r + self.reach) / GRID) + 1)
        for layer in item.layers:
            edges, nodes = self.edge_near[layer], self.node_near[layer]
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    x, y = self.xy(i, j)
                    _note(nodes.setdefault((i, j), [_FREE, _NOBODY, _FREE]), item.net,
                          _rect_distance((x, y, x, y), item))  # fmt: skip
                    if i < self.nx:
                        _note(edges.setdefault((i, j, 0), [_FREE, _NOBODY, _FREE]), item.net,
                              _rect_distance((x, y, x + GRID, y), item))  # fmt: skip
                    if j < self.ny:
                        _note(edges.setdefault((i, j, 1), [_FREE, _NOBODY, _FREE]), item.net,
                              _rect_distance((x, y, x, y + GRID), item))  # fmt: skip

    def edge_ok(self, layer: int, key: tuple[int, int, int], net: str, half: float) -> bool:
        near = self.edge_near[layer].get(key)
        if near is None:
            return True
        foreign = near[2] if near[1] == net else near[0]
        return bool(foreign - half >= CLEARANCE - 1e-6)

    def via_ok(self, i: int, j: int, net: str) -> bool:
        for layer in (0, 1):
            near = self.node_near[layer].get((i, j))
            if near is not None:
                foreign = near[2] if near[1] == net else near[0]
                if foreign - VIA_SIZE / 2 < CLEARANCE - 1e-6:
                    return False
        return True


_NOBODY = object()
"""The net of no copper yet (a hole or the board's edge is the net None)."""


def _note(near: list[Any], net: str | None, d: float) -> None:
    if near[1] == net:
        near[0] = min(near[0], d)
    elif d < near[0]:
        near[2], near[1], near[0] = near[0], net, d
    else:
        near[2] = min(near[2], d)


def _pad_items(pad: Pad) -> list[_Item]:
    out = []
    if (pad.plated or pad.half_w > 0) and pad.plated:
        out.append(
            _Item(pad.net, pad.x - pad.half_w, pad.y - pad.half_h, pad.x + pad.half_w,
                  pad.y + pad.half_h, 0.0, (0, 1))
        )  # fmt: skip
    if pad.drill and not pad.plated:
        # A bare hole: no copper within the hole clearance of its edge.
        r = pad.drill / 2 + HOLE_CLEARANCE - CLEARANCE
        out.append(_Item(None, pad.x, pad.y, pad.x, pad.y, r, (0, 1)))
    return out


def _pad_nodes(grid: _Grid, pad: Pad) -> set[tuple[int, int, int]]:
    """Grid nodes inside the pad's copper, on both layers (every pad here is through-hole)."""
    out = set()
    for i in range(int((pad.x - pad.half_w - ORIGIN[0]) / GRID) - 1,
                   int((pad.x + pad.half_w - ORIGIN[0]) / GRID) + 2):  # fmt: skip
        for j in range(int((pad.y - pad.half_h - ORIGIN[1]) / GRID) - 1,
                       int((pad.y + pad.half_h - ORIGIN[1]) / GRID) + 2):  # fmt: skip
            x, y = grid.xy(i, j)
            inside = abs(x - pad.x) <= pad.half_w * 0.8 and abs(y - pad.y) <= pad.half_h * 0.8
            if inside and 0 <= i <= grid.nx and 0 <= j <= grid.ny:
                out |= {(i, j, 0), (i, j, 1)}
    if not out:
        i = round((pad.x - ORIGIN[0]) / GRID)
        j = round((pad.y - ORIGIN[1]) / GRID)
        raise RoutingError(
            f"pad {pad.ref}.{pad.number} at ({pad.x - ORIGIN[0]:.3f}, {pad.y - ORIGIN[1]:.3f}) "
            f"holds no grid node (nearest {i}, {j}): move {pad.ref} onto the {GRID} mm grid"
        )
    return out


def route(board: Board) -> Routed:
    """Every net of ``board`` joined by tracks and vias (raises ``RoutingError``)."""
    grid = _Grid(board)
    w, h = board.size
    x0, y0 = ORIGIN
    edge = EDGE_CLEARANCE - CLEARANCE
    for rect in ((x0 - 1, y0 - 1, x0 + w + 1, y0), (x0 - 1, y0 + h, x0 + w + 1, y0 + h + 1),
                 (x0 - 1, y0, x0, y0 + h), (x0 + w, y0, x0 + w + 1, y0 + h)):  # fmt: skip
        grid.add(_Item(None, *rect, edge, (0, 1)))
    by_net: dict[str, list[Pad]] = {}
    for part in board.parts:
        for box in keepouts(part):
            grid.add(_Item(None, *box, 0.0, (0, 1)))
        for pad in pads(part):
            for item in _pad_items(pad):
                grid.add(item)
            if pad.net is not None and pad.plated:
                by_net.setdefault(pad.net, []).append(pad)
    routed = Routed()
    order = sorted(by_net, key=lambda n: (-board.width(n), _span(by_net[n]), n))
    for net in order:
        _route_net(grid, board, net, by_net[net], routed)
    return routed


def _span(pads_: list[Pad]) -> float:
    xs, ys = [p.x for p in pads_], [p.y for p in pads_]
    return (max(xs) - min(xs)) + (max(ys) - min(ys))


def _route_net(grid: _Grid, board: Board, net: str, pads_: list[Pad], routed: Routed) -> None:
    half = board.width(net) / 2
    targets = [(_pad_nodes(grid, p), p) for p in sorted(pads_, key=lambda p: (p.x, p.y))]
    tree = set(targets[0][0])
    pending = targets[1:]
    while pending:
        pending = [(nodes, p) for nodes, p in pending if not nodes & tree]
        if not pending:
            break
        goal: set[tuple[int, int, int]] = set().union(*(nodes for nodes, _ in pending))
        path = _search(grid, net, half, tree, goal, pending)
        if path is None:
            names = ", ".join(f"{p.ref}.{p.number}" for _, p in pending)
            raise RoutingError(f"{board.name}: cannot route net {net} to {names}")
        _lay(grid, net, half * 2, path, routed)
        tree |= set(path)
        for nodes, _ in pending:
            if nodes & set(path):
                tree |= nodes


def _search(
    grid: _Grid,
    net: str,
    half: float,
    starts: Iterable[tuple[int, int, int]],
    goal: set[tuple[int, int, int]],
    pending: list[tuple[set[tuple[int, int, int]], Pad]],
) -> list[tuple[int, int, int]] | None:
    xs = [(p.x - ORIGIN[0]) / GRID for _, p in pending]
    ys = [(p.y - ORIGIN[1]) / GRID for _, p in pending]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)

    def h(i: int, j: int) -> float:
        """Steps to the box round the pads still to join, weighted (a greedier search)."""
        return (max(0.0, lo_x - i, i - hi_x) + max(0.0, lo_y - j, j - hi_y)) * HEURISTIC

    counter = itertools.count()
    best: dict[tuple[int, int, int], float] = {}
    came: dict[tuple[int, int, int], tuple[int, int, int] | None] = {}
    heap: list[tuple[float, int, tuple[int, int, int]]] = []
    for node in sorted(starts):
        best[node] = 0.0
        came[node] = None
        heapq.heappush(heap, (h(node[0], node[1]), next(counter), node))
    while heap:
        _f, _n, node = heapq.heappop(heap)
        if node in goal:
            path = [node]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])  # type: ignore[arg-type]
            return path[::-1]
        i, j, layer = node
        g = best[node]
        for nxt, cost in _moves(grid, net, half, i, j, layer):
            ng = g + cost
            if ng < best.get(nxt, math.inf):
                best[nxt] = ng
                came[nxt] = node
                heapq.heappush(heap, (ng + h(nxt[0], nxt[1]), next(counter), nxt))
    return None


def _moves(
    grid: _Grid, net: str, half: float, i: int, j: int, layer: int
) -> Iterable[tuple[tuple[int, int, int], float]]:
    horizontal_cost = 1.0 if layer == 0 else WRONG_WAY
    vertical_cost = 1.0 if layer == 1 else WRONG_WAY
    if i < grid.nx and grid.edge_ok(layer, (i, j, 0), net, half):
        yield (i + 1, j, layer), horizontal_cost
    if i > 0 and grid.edge_ok(layer, (i - 1, j, 0), net, half):
        yield (i - 1, j, layer), horizontal_cost
    if j < grid.ny and grid.edge_ok(layer, (i, j, 1), net, half):
        yield (i, j + 1, layer), vertical_cost
    if j > 0 and grid.edge_ok(layer, (i, j - 1, 1), net, half):
        yield (i, j - 1, layer), vertical_cost
    if grid.via_ok(i, j, net):
        yield (i, j, 1 - layer), VIA_COST


def _lay(
    grid: _Grid, net: str, width: float, path: list[tuple[int, int, int]], routed: Routed
) -> None:
    """Tracks (collinear steps merged) and vias along ``path``, recorded as copper."""
    runs: list[list[tuple[int, int, int]]] = []  # [start, end, (di, dj, layer)]
    for a, b in itertools.pairwise(path):
        if a[2] != b[2]:
            x, y = grid.xy(a[0], a[1])
            routed.vias.append(Via(net, x, y))
            grid.add(_Item(net, x, y, x, y, VIA_SIZE / 2, (0, 1)))
            continue
        step = (b[0] - a[0], b[1] - a[1], a[2])
        if runs and runs[-1][2] == step and runs[-1][1] == a:
            runs[-1][1] = b
        else:
            runs.append([a, b, step])
    for a, b, _step in runs:
        (xa, ya), (xb, yb) = grid.xy(a[0], a[1]), grid.xy(b[0], b[1])
        routed.tracks.append(Track(net, a[2], xa, ya, xb, yb, width))
        grid.add(_Item(net, min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb), width / 2,
                       (a[2],)))  # fmt: skip
