"""Lines as int codes and as notation: ``h R C`` is the horizontal line above box row R
(R = 3: the bottom edge) from dot column C; ``v R C`` the vertical line left of box column
C (C = 3: the right edge) in box row R. Codes: the 12 horizontal lines, then the 12
vertical ones."""

from __future__ import annotations

import re

from haleakala.core.errors import NotationError

SIZE = 3  # boxes per row and per column
H = (SIZE + 1) * SIZE  # horizontal lines
LINES = H + SIZE * (SIZE + 1)
BOXES = SIZE * SIZE
_TEXT = re.compile(r"^\s*([hv])\s*(\d+)\s*[ ,.]?\s*(\d+)\s*$", re.IGNORECASE)


def format_decision(code: int) -> str:
    if 0 <= code < H:
        row, col = divmod(code, SIZE)
        return f"h {row} {col}"
    if H <= code < LINES:
        row, col = divmod(code - H, SIZE + 1)
        return f"v {row} {col}"
    raise NotationError(f"{code} is not a line of the grid")


def parse_decision(text: str) -> int:
    match = _TEXT.match(text)
    if match is None:
        raise NotationError(f"{text!r} is not a line: write h ROW COL or v ROW COL (h 0 1)")
    kind, row, col = match.group(1).lower(), int(match.group(2)), int(match.group(3))
    if kind == "h" and row <= SIZE and col < SIZE:
        return row * SIZE + col
    if kind == "v" and row < SIZE and col <= SIZE:
        return H + row * (SIZE + 1) + col
    raise NotationError(f"{text!r} is off the grid of {SIZE} by {SIZE} boxes")


def lines_of_box(box: int) -> tuple[int, int, int, int]:
    """A box's four sides: top, bottom, left, right."""
    row, col = divmod(box, SIZE)
    left = H + row * (SIZE + 1) + col
    return (row * SIZE + col, (row + 1) * SIZE + col, left, left + 1)


def box_lines(code: int) -> list[int]:
    """The boxes a line is a side of (one at the edge, else two)."""
    return [b for b in range(BOXES) if code in lines_of_box(b)]


def all_codes() -> list[int]:
    return list(range(LINES))
