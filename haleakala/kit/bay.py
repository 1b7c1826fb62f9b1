"""The electronics bay's contents as boxes, from the geometry's ``[console]`` and the parts'
envelopes: each Pi model the standoffs take (``[pi_models]`` with the tray's hole pattern) on
the shared standoffs, the hub board (issue 36) with the RFID kit's Pico on its sockets, the
plugs in their ports with their cables' bend room, the lid's OLED, encoder and back button
hanging below it, the lid's screw bosses. ``bay_fits`` proves every box inside the tray and
clear of every other for each Pi model in turn;
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
HUB_HEIGHT = 20.0
"""The hub's tallest part above its board: C1, the 1000 uF capacitor standing (10 x 20 mm);
the tile cables' IDC plugs on their box headers stand about 18 mm."""
PICO_SOCKET = 8.5
"""The Pico H's board above the hub's: the 1 x 20 pin sockets it plugs into."""
PICO_PIN1 = (73.66, 3.81)
"""The Pico's pin 1 on the hub (KiCad's frame, y down: ``kit.boards.hub``, A1); its pins run
down the board from there, its USB end towards the hub's top edge."""


@dataclass(frozen=True)
class Item:
    name: str
    box: tuple[float, float, float, float, float, float]
    """x0, y0, z0, x1, y1, z1."""
    kind: str  # "board", "plug", "lid", "boss"
    owner: str = ""
    """The board a plug goes into (a plug touches its own board's edge by design)."""
    carrier: str = ""
    """The board this one is plugged onto (the Pico on the hub): it stands in its box."""


@dataclass(frozen=True)
class Placed:
    board: Board
    origin: tuple[float, float]
    turned: bool
    clockwise: bool = False
    """With ``turned``: a quarter turn clockwise (the board's x runs down the bay's y)."""
    carrier: str = ""
    lift: float = 0.0
    """How far above a board on the standoffs it sits (on its carrier's sockets)."""

    def to_bay(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board's own frame in the bay's frame."""
        if self.turned and self.clockwise:
            return self.origin[0] + y, self.origin[1] + self.board.board[0] - x
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


def held_models(g: KitGeometry) -> tuple[str, ...]:
    """The Pi models whose holes the tray's standoffs take (``kit.kitreport.check_bay``
    refuses the others, so the bay is proved for these only)."""
    want = tuple(float(v) for v in g.console["pi_holes"])
    return tuple(
        m
        for m in PI_MODELS
        if m in g.pi_models and tuple(float(v) for v in g.pi_models[m]["holes"]) == want
    )


def hub_board(g: KitGeometry) -> Board:
    """The hub board (``[boards]``) as the bay sees it: its outline, its M3 holes (turned to
    the board's own frame, y up) and its tallest part."""
    w, d = (float(v) for v in g.boards["hub_size"])
    holes = tuple((float(x), d - float(y)) for x, y in g.boards["hub_holes"])
    return Board(
        "hub",
        "hub board (issue 36)",
        "hw/boards/hub: haleakala kit boards",
        (w, d, 1.6),
        holes,
        3.2,
        "M3",
        HUB_HEIGHT,
        (),
        False,
    )


def hub_origin(g: KitGeometry) -> tuple[float, float]:
    cx, cy = (float(v) for v in g.console["hub_at"])
    w, d = (float(v) for v in g.boards["hub_size"])
    return cx - w / 2, cy - d / 2


def placements(g: KitGeometry, e: Envelopes) -> dict[str, Placed]:
    """Every board in the bay: the Pi models the standoffs take (one at a time) share the
    origin corner of the 85 x 56 mm boards, ``console.pi_at`` the centre of their holes; the
    hub at ``console.hub_at``; the Pico on the hub's sockets, turned with its USB end away
    from the island."""
    px, py = (float(v) for v in g.console["pi_at"])
    hx, hy = (float(v) / 2 for v in g.console["pi_holes"])
    x0, y0 = e.boards["pi4"].holes[0]
    origin = (px - hx - x0, py - hy - y0)
    out = {model: Placed(e.boards[model], origin, False) for model in held_models(g)}
    hub = hub_board(g)
    ox, oy = hub_origin(g)
    out["hub"] = Placed(hub, (ox, oy), False)
    pico = e.boards["pico"]
    length, width, _t = pico.board
    # Pin 1 sits 1.61 mm in from the Pico's long edge and 1.37 mm from its USB end.
    left = ox + PICO_PIN1[0] - (width - 17.78) / 2
    top = oy + hub.board[1] - PICO_PIN1[1] + (length - 48.26) / 2
    out["pico"] = Placed(pico, (left, top - length), True, True, "hub", hub.board[2] + PICO_SOCKET)
    return out


def standoffs(g: KitGeometry, e: Envelopes) -> list[tuple[float, float, str]]:
    """(x, y, screw) of every standoff on the tray's floor, each once."""
    seen: dict[tuple[float, float], str] = {}
    for placed in placements(g, e).values():
        if placed.carrier:
            continue
        for x, y in placed.holes():
            seen.setdefault((round(x, 2), round(y, 2)), placed.board.screw)
    return [(x, y, s) for (x, y), s in sorted(seen.items())]


def lid_bosses(g: KitGeometry) -> list[tuple[float, float]]:
    cw, cd, _ch = (float(v) for v in g.console["size"])
    inset = float(g.console["lid_screw_inset"])
    return [(sx * (cw / 2 - inset), sy * (cd / 2 - inset)) for sx in (-1, 1) for sy in (-1, 1)]


def _board_items(g: KitGeometry, key: str, placed: Placed) -> list[Item]:
    t = float(g.console["wall"])
    z0 = t + STANDOFF + placed.lift
    x0, y0, x1, y1 = placed.footprint()
    top = z0 + placed.board.board[2]
    on = placed.carrier
    box = (x0, y0, z0, x1, y1, top + placed.board.height)
    items = [Item(f"{key} board", box, "board", key, on)]
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
        items.append(Item(f"{key}'s {port.name} plug", box, "plug", key, on))
    return items


def items_for(g: KitGeometry, e: Envelopes, model: str) -> list[Item]:
    """Everything in the bay with Pi ``model`` fitted (and the RFID kit's Pico)."""
    placed = placements(g, e)
    lid = inner(g)[4]
    out = _board_items(g, model, placed[model])
    out += _board_items(g, "hub", placed["hub"])
    out += _board_items(g, "Pico", placed["pico"])
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


def mounted(a: Item, b: Item) -> bool:
    """One stands on the other by design (the Pico and its plug on the hub)."""
    return bool(a.carrier and a.carrier == b.owner) or bool(b.carrier and b.carrier == a.owner)


def gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The gap between two boxes (negative: how far they overlap on the least axis)."""
    gaps = [max(b[i] - a[i + 3], a[i] - b[i + 3]) for i in range(3)]
    return max(gaps)
