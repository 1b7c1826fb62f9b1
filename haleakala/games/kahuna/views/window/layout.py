"""Where everything sits in the 1280x800 Kahuna window: pure geometry, no pygame.

The board is drawn from above: the 12 islands where the printed board roughly has them (ALOA
top left ... LALE bottom left, KAHU bottom right), placed so that no line crosses another and
none passes through a third island (a test checks both), and the right-hand panel with the
scores, the display, the pile and the acting player's hand. Keeping this pure means the hit
tests (which line did the click land on?) are tested without a display, and the window, the
screenshot checks and the tests agree on every coordinate.
"""

from __future__ import annotations

import math

WIDTH, HEIGHT = 1280, 800
BOARD_RECT = (0, 0, 800, 800)
ISLAND_RADIUS = 38
STONE_RADIUS = 15
LINE_HIT = 12.0
"""A click within this many pixels of a line (between the two island rims) picks it."""

ISLANDS: dict[str, tuple[int, int]] = {
    "ALOA": (90, 110),
    "BARI": (350, 80),
    "COCO": (745, 105),
    "DUDA": (215, 285),
    "ELAI": (390, 345),
    "FAAA": (560, 230),
    "GOLA": (615, 425),
    "HUNA": (150, 530),
    "IFFI": (360, 580),
    "JOJO": (465, 470),
    "KAHU": (690, 700),
    "LALE": (215, 735),
}

# The right-hand panel.
PANEL_X = 812
TURN_RECT = (824, 12, 444, 58)
SCORES_RECT = (824, 80, 444, 128)
CARD_SIZE = (92, 120)
DISPLAY_Y = 250
PILE_X = 824
DISPLAY_X = (930, 1032, 1134)
HAND_Y = 430
HAND_X = tuple(824 + i * 88 for i in range(5))
HAND_CARD = (82, 112)
END_RECT = (824, 570, 140, 44)
DISCARD_RECT = (976, 570, 140, 44)
CLEAR_RECT = (1128, 570, 140, 44)
MESSAGE_RECT = (824, 626, 444, 162)


def island_at(pos: tuple[float, float]) -> str | None:
    """The island whose disc contains ``pos``."""
    x, y = pos
    for name, (cx, cy) in ISLANDS.items():
        if (x - cx) ** 2 + (y - cy) ** 2 <= ISLAND_RADIUS**2:
            return name
    return None


def line_ends(line: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the line ``A-B`` leaves island A's rim and reaches island B's rim."""
    a, b = line.split("-")
    (ax, ay), (bx, by) = ISLANDS[a], ISLANDS[b]
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    r = ISLAND_RADIUS + 2
    return (ax + ux * r, ay + uy * r), (bx - ux * r, by - uy * r)


def line_middle(line: str) -> tuple[float, float]:
    (x1, y1), (x2, y2) = line_ends(line)
    return (x1 + x2) / 2, (y1 + y2) / 2


def distance_to_segment(
    pos: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    (px, py), (ax, ay), (bx, by) = pos, a, b
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / span))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def line_at(pos: tuple[float, float], lines: list[str]) -> str | None:
    """The nearest of ``lines`` within ``LINE_HIT`` pixels of ``pos`` (outside the islands)."""
    if island_at(pos) is not None:
        return None
    best, best_d = None, LINE_HIT
    for line in lines:
        d = distance_to_segment(pos, *line_ends(line))
        if d <= best_d:
            best, best_d = line, d
    return best


def display_rect(slot: int) -> tuple[int, int, int, int]:
    """Display slot 1..3."""
    return (DISPLAY_X[slot - 1], DISPLAY_Y, *CARD_SIZE)


def pile_rect() -> tuple[int, int, int, int]:
    return (PILE_X, DISPLAY_Y, *CARD_SIZE)


def hand_rect(index: int) -> tuple[int, int, int, int]:
    return (HAND_X[index], HAND_Y, *HAND_CARD)


def centre(rect: tuple[int, int, int, int]) -> tuple[int, int]:
    x, y, w, h = rect
    return x + w // 2, y + h // 2


def inside(pos: tuple[float, float], rect: tuple[int, int, int, int]) -> bool:
    x, y, w, h = rect
    return x <= pos[0] < x + w and y <= pos[1] < y + h
