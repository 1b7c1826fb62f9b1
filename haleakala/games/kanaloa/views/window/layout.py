"""Where everything sits in the 1280x800 Kanaloa window: pure geometry, no pygame.

The islands go where the map data's layout hint puts them (KANALOA-RULINGS N1: x to the
right, y upwards, the Dolphin at the top), scaled into the left 820 pixels; the right-hand
panel holds whose decision it is, one box per player (cards, temples, tiles held) and the
decisions a click offers. Pure, so the hit tests (which island, current or tile did the
click land on?) are tested without a display, and the window and the tests agree on every
coordinate.
"""

from __future__ import annotations

import math

from haleakala.games.kanaloa.material import Material

WIDTH, HEIGHT = 1280, 800
MAP_RECT = (0, 0, 820, 800)
ISLAND_RADIUS = 44
PIECE_RADIUS = 11
TILE_SIZE = (84, 17)
CURRENT_HIT = 12.0
"""A click within this many pixels of a current (between the two island rims) picks it."""
MAP_LEFT, MAP_RIGHT, MAP_TOP, MAP_BOTTOM = 70, 750, 70, 690

PANEL_X = 832
TURN_RECT = (832, 10, 438, 62)
PLAYER_Y = 80
PLAYER_H = 118
PLAYER_W = 438
HAND_TILE = (78, 18)
HAND_SHOWN = 9  # tiles drawn per player (two rows); a tenth place says +n
CHOICES_Y = 80 + 4 * PLAYER_H + 8
CHOICE_SIZE = (214, 24)
CHOICE_COLUMNS = 2
CHOICE_ROWS = 5
MESSAGE_RECT = (832, 740, 438, 52)
TRACK_Y = 740


def _bounds(m: Material) -> tuple[float, float, float, float]:
    xs = [p[0] for p in m.positions]
    ys = [p[1] for p in m.positions] + [m.dolphin[1]]
    return min(xs), max(xs), min(ys), max(ys)


def point(m: Material, x: float, y: float) -> tuple[int, int]:
    """A point of the map data (x right, y up) in window pixels."""
    x0, x1, y0, y1 = _bounds(m)
    px = MAP_LEFT + (x - x0) / (x1 - x0) * (MAP_RIGHT - MAP_LEFT)
    py = MAP_TOP + (y1 - y) / (y1 - y0) * (MAP_BOTTOM - MAP_TOP)
    return round(px), round(py)


def island_centre(m: Material, island: int) -> tuple[int, int]:
    return point(m, *m.positions[island])


def dolphin_centre(m: Material) -> tuple[int, int]:
    return point(m, *m.dolphin)


def current_ends(m: Material, current: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The visible part of a current: from rim to rim of its two islands."""
    a, b = m.currents[current]
    (ax, ay), (bx, by) = island_centre(m, a), island_centre(m, b)
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    r = ISLAND_RADIUS
    return (ax + ux * r, ay + uy * r), (bx - ux * r, by - uy * r)


def fish_centre(m: Material, current: int) -> tuple[float, float]:
    """Where a current's fish is drawn: its middle, or the nearest point along it that
    keeps the fish clear of every island (a current may pass close to a third island)."""
    (ax, ay), (bx, by) = current_ends(m, current)
    for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
        x, y = ax + (bx - ax) * t, ay + (by - ay) * t
        clear = all(
            math.hypot(x - cx, y - cy) > ISLAND_RADIUS + 20
            for cx, cy in (island_centre(m, i) for i in range(len(m.islands)))
        )
        if clear:
            return x, y
    return (ax + bx) / 2, (ay + by) / 2


def island_at(m: Material, islands: tuple[int, ...], pos: tuple[float, float]) -> int | None:
    x, y = pos
    for i in islands:
        cx, cy = island_centre(m, i)
        if (x - cx) ** 2 + (y - cy) ** 2 <= ISLAND_RADIUS**2:
            return i
    return None


def tile_rect(m: Material, island: int, slot: int) -> tuple[int, int, int, int]:
    """The two tiles of an island, one under the other inside its disc."""
    cx, cy = island_centre(m, island)
    w, h = TILE_SIZE
    return (cx - w // 2, cy - 6 + slot * (h + 2), w, h)


def island_tile_at(m: Material, islands: tuple[int, ...], pos) -> tuple[int, int] | None:
    for i in islands:
        for slot in (0, 1):
            if inside(pos, tile_rect(m, i, slot)):
                return i, slot
    return None


def current_at(m: Material, currents: tuple[int, ...], pos: tuple[float, float]) -> int | None:
    """The current nearest to ``pos`` within ``CURRENT_HIT`` pixels (rim to rim)."""
    best, best_d = None, CURRENT_HIT
    for c in currents:
        (x1, y1), (x2, y2) = current_ends(m, c)
        d = _segment_distance(pos, (x1, y1), (x2, y2))
        if d <= best_d:
            best, best_d = c, d
    return best


def _segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy or 1.0
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def piece_pos(m: Material, island: int, k: int) -> tuple[int, int]:
    """The k-th piece on an island, around its upper rim."""
    cx, cy = island_centre(m, island)
    angle = math.radians(-150 + 40 * k)
    out = ISLAND_RADIUS + 6  # just outside the rim, clear of the name
    return round(cx + math.cos(angle) * out), round(cy + math.sin(angle) * out)


def player_rect(p: int) -> tuple[int, int, int, int]:
    return (PANEL_X, PLAYER_Y + p * PLAYER_H, PLAYER_W, PLAYER_H - 6)


def hand_tile_rect(p: int, k: int) -> tuple[int, int, int, int]:
    """The k-th tile a player holds, in rows of five under the temples (the score keeps
    the bottom right corner)."""
    x, y, _w, _h = player_rect(p)
    w, th = HAND_TILE
    row, col = divmod(k, 5)
    return (x + 8 + col * (w + 4), y + 60 + row * (th + 4), w, th)


def hand_tile_at(players: int, counts: list[int], pos) -> tuple[int, int] | None:
    for p in range(players):
        for k in range(counts[p]):
            if inside(pos, hand_tile_rect(p, k)):
                return p, k
    return None


def choice_rect(k: int) -> tuple[int, int, int, int]:
    row, col = divmod(k, CHOICE_COLUMNS)
    w, h = CHOICE_SIZE
    return (PANEL_X + col * (w + 10), CHOICES_Y + 22 + row * (h + 4), w, h)


def choice_at(count: int, pos) -> int | None:
    for k in range(count):
        if inside(pos, choice_rect(k)):
            return k
    return None


def inside(pos, rect) -> bool:
    x, y = pos
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


def centre(rect) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2
