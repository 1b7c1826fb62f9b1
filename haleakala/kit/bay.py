"""The electronics bay's contents as boxes, from the geometry's ``[console]`` and the parts'
envelopes: each Pi model on the shared standoffs (the four models' lower-left holes
coincide), the Pico, the perfboard, the plugs in their ports with their cables' bend room,
the lid's OLED, encoder and back button hanging below it, the lid's screw bosses. ``bay_fits``
proves every box inside the tray and clear of every other for each Pi model in turn;
``kit.parts`` builds the tray and lid from the same positions and holes; the bay drawing
draws these boxes; ``kit.fits`` proves them.

Frame: the tray's centre seen from above, x along its width, y along its depth (-y faces the
island), z up from the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from haleakala.kit.envelopes import PI_MODELS, Board, Envelopes

if TYPE_CHECKING:
    from haleakala.kit.geometry import KitGeometry

PILOT = {"M2": 1.8, "M2.5": 2.2, "M3": 2.5}
"""The printed hole a screw of each size cuts its thread in (standoffs, the lid's bosses)."""
CLEAR = {"M2": 2.2, "M2.5": 2.9, "M3": 3.4}
"""The printed hole each size passes through (the lid)."""
STANDOFF = 6.0
BOSS = 7.0


@dataclass(frozen=True)
class Item:
    name: str
    box: tuple[float, float, float, float, float, float]
    """x0, y0, z0, x1, y1, z1."""
    kind: str  # "board", "plug", "lid", "boss"
    owner: str = ""
    """The board a plug goes into (a plug touches its own board's edge by design)."""


@dataclass(frozen=True)
class Placed:
    board: Board
    origin: tuple[float, float]
    turned: bool

    def to_bay(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board's own frame in the bay's frame."""
        if self.turned:  # a quarter turn anticlockwise: the board's x runs up the bay's y
            return self.origin[0] + self.board.board[1] - y, self.origin[1] + x
        return self.origin[0] + x, self.origin[1] + y

    def footprint(self) -> tuple[float, float, float, float]:
        length, width, _t = self.board.board
        w, d = (width, length) if self.turned else (length, width)
        return self.origin[0], self.origin[1], self.origin[0] + w, self.origin[1] + d

    def holes(self) -> list[tuple[float, float]]:
        return [self.to_bay(x, y) for x, y in self.board.holes]


def inner(g: KitGeometry) -> tuple[float, float, float, float, float]:
    """The tray's inside: x0, y0, x1, y1 and the lid's underside height."""
    cw, cd, ch = (float(v) for v in g.console["size"])
    t = float(g.console["wall"])
    return -cw / 2 + t, -cd / 2 + t, cw / 2 - t, cd / 2 - t, ch - t


def _centred(g: KitGeometry, board: Board, key: str, turned: bool = False) -> Placed:
    cx, cy = (float(v) for v in g.console[key])
    length, width, _t = board.board
    w, d = (width, length) if turned else (length, width)
    return Placed(board, (cx - w / 2, cy - d / 2), turned)


def placements(g: KitGeometry, e: Envelopes) -> dict[str, Placed]:
    """Every board in the bay: the four Pi models (one at a time) share the origin corner of
    the 85 x 56 mm boards, so their holes land on one set of standoffs."""
    big = e.boards["pi4"]
    pi = _centred(g, big, "pi_at")
    out = {model: Placed(e.boards[model], pi.origin, False) for model in PI_MODELS}
    out["pico"] = _centred(g, e.boards["pico"], "pico_at")
    out["perfboard"] = _centred(
        g, e.boards["perfboard"], "perfboard_at", bool(g.console.get("perfboard_turned"))
    )
    return out


def standoffs(g: KitGeometry, e: Envelopes) -> list[tuple[float, float, str]]:
    """(x, y, screw) of every standoff on the tray's floor, each once."""
    seen: dict[tuple[float, float], str] = {}
    for placed in placements(g, e).values():
        for x, y in placed.holes():
            seen.setdefault((round(x, 2), round(y, 2)), placed.board.screw)
    return [(x, y, s) for (x, y), s in sorted(seen.items())]


def lid_bosses(g: KitGeometry) -> list[tuple[float, float]]:
    cw, cd, _ch = (float(v) for v in g.console["size"])
    inset = float(g.console["lid_screw_inset"])
    return [(sx * (cw / 2 - inset), sy * (cd / 2 - inset)) for sx in (-1, 1) for sy in (-1, 1)]


def _board_items(g: KitGeometry, key: str, placed: Placed) -> list[Item]:
    t = float(g.console["wall"])
    z0 = t + STANDOFF
    x0, y0, x1, y1 = placed.footprint()
    top = z0 + placed.board.board[2]
    items = [Item(f"{key} board", (x0, y0, z0, x1, y1, top + placed.board.height), "board", key)]
    length, width, _ = placed.board.board
    for port in placed.board.ports:
        if not port.used:
            continue
        half = port.plug[1] / 2
        zc = top + port.size[1] / 2
        z = (zc - port.plug[2] / 2, zc + port.plug[2] / 2)
        # In the board's own frame, then to the bay's.
        if port.edge == "+x":
            a, b = (length + port.overhang, port.at - half), (length + port.reach, port.at + half)
        elif port.edge == "-x":
            a, b = (-port.reach, port.at - half), (-port.overhang, port.at + half)
        elif port.edge == "-y":
            a, b = (port.at - half, -port.reach), (port.at + half, -port.overhang)
        else:
            a, b = (port.at - half, width + port.overhang), (port.at + half, width + port.reach)
        (ax, ay), (bx, by) = placed.to_bay(*a), placed.to_bay(*b)
        box = (min(ax, bx), min(ay, by), z[0], max(ax, bx), max(ay, by), z[1])
        items.append(Item(f"{key}'s {port.name} plug", box, "plug", key))
    return items


def items_for(g: KitGeometry, e: Envelopes, model: str) -> list[Item]:
    """Everything in the bay with Pi ``model`` fitted (and the RFID kit's Pico)."""
    placed = placements(g, e)
    lid = inner(g)[4]
    out = _board_items(g, model, placed[model])
    out += _board_items(g, "Pico", placed["pico"])
    out += _board_items(g, "perfboard", placed["perfboard"])
    c = g.console
    for name, at, size, below in (
        ("the OLED module and its plug", "oled_at", e.boards["oled"].board[:2], "oled_below"),
        ("the encoder module and its plug", "encoder_at", (26.0, 19.0), "encoder_below"),
        ("the back switch on its perfboard", "back_at", (20.0, 20.0), "back_below"),
    ):
        cx, cy = (float(v) for v in c[at])
        w, d = float(size[0]), float(size[1])
        out.append(
            Item(
                name,
                (cx - w / 2, cy - d / 2, lid - float(c[below]), cx + w / 2, cy + d / 2, lid),
                "lid",
            )
        )
    t = float(c["wall"])
    for bx, by in lid_bosses(g):
        r = BOSS / 2
        out.append(Item("a lid screw's boss", (bx - r, by - r, t, bx + r, by + r, lid), "boss"))
    return out


def gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The gap between two boxes (negative: how far they overlap on the least axis)."""
    gaps = [max(b[i] - a[i + 3], a[i] - b[i + 3]) for i in range(3)]
    return max(gaps)
