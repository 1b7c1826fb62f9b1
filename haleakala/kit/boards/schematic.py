"""The ``.kicad_sch`` of a board: KiCad's own symbols (every unit of a multi-unit part),
a net label on every connected pin and a no-connect flag on every other, and a power flag
where a supply enters a net that only has power inputs.

Labels instead of drawn wires: the schematic is read net by net (as the pin table is), KiCad
joins pins through their labels exactly as through wires, and a generated layout stays legible
however the pin map changes. Symbols are packed on the sheet in the board model's order.
"""

from __future__ import annotations

import copy

from haleakala.kit.boards import library
from haleakala.kit.boards.library import SymbolPin, pins
from haleakala.kit.boards.model import Board, Part, uid
from haleakala.kit.boards.sexpr import Node, S, Sym, dumps, find, find_all

PAPER = ("A2", 594.0, 420.0)
GRID = 1.27
LABEL_ROOM = 22.86
"""Room beside a symbol for its pins' labels."""
FONT = S("effects", S("font", S("size", 1.27, 1.27)))


def units(sym: list[Node]) -> list[int]:
    found = sorted({p.unit for p in pins(sym)} - {0})
    return found or [1]


def _bounds(sym: list[Node], unit: int) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of a unit in symbol coordinates (y up), pins included."""
    xs: list[float] = [0.0]
    ys: list[float] = [0.0]
    for unit_sym in find_all(sym, "symbol"):
        u = int(str(unit_sym[1]).rsplit("_", 2)[-2])
        if u not in (0, unit):
            continue
        for item in unit_sym[2:]:
            if not isinstance(item, list):
                continue
            for key in ("start", "end", "center", "at"):
                node = find(item, key)
                if node:
                    xs.append(float(node[1]))
                    ys.append(float(node[2]))
            pts = find(item, "pts")
            if pts:
                xs += [float(p[1]) for p in pts[1:]]
                ys += [float(p[2]) for p in pts[1:]]
    return min(xs), min(ys), max(xs), max(ys)


def _snap(v: float) -> float:
    return round(round(v / GRID) * GRID, 4)


def _label(net: str, x: float, y: float, pin_angle: int, key: str) -> list[Node]:
    angle = {0: 180, 180: 0, 90: 270, 270: 90}[pin_angle % 360]
    justify = S("justify", Sym("right" if angle in (180, 270) else "left"), Sym("bottom"))
    font = S("font", S("size", 1.27, 1.27))
    return S("label", net, S("at", x, y, angle), S("fields_autoplaced", Sym("yes")),
             S("effects", font, justify), S("uuid", uid(key)))  # fmt: skip


def _property(name: str, value: str, x: float, y: float, hide: bool = False) -> list[Node]:
    effects = S("effects", S("font", S("size", 1.27, 1.27)))
    if hide:
        effects.append(S("hide", Sym("yes")))
    return [Sym("property"), name, value, S("at", x, y, 0), effects]


def _instance(board: Board, part: Part, unit: int, x: float, y: float,
              top: float, bottom: float, fp: str) -> list[Node]:  # fmt: skip
    sym = library.symbol(part.symbol)
    props = {p[1]: p[2] for p in find_all(sym, "property")}
    sym_id = library.SYMBOLS[part.symbol].lib_id
    out: list[Node] = [
        Sym("symbol"), S("lib_id", sym_id), S("at", x, y, 0), S("unit", unit),
        S("exclude_from_sim", Sym("no")), find(sym, "in_bom"), find(sym, "on_board"),
        S("dnp", Sym("no")),
        S("uuid", symbol_uuid(board, part.ref, unit)),
        _property("Reference", part.ref, x, _snap(y - top - 1.27)),
        _property("Value", part.value, x, _snap(y - bottom + 2.54)),
        _property("Footprint", fp, x, y, hide=True),
        _property("Datasheet", str(props.get("Datasheet", "~")), x, y, hide=True),
        _property("Description", part.what, x, y, hide=True),
    ]  # fmt: skip
    for pin in pins(sym):
        if pin.unit in (0, unit):
            out.append(
                S("pin", pin.number, S("uuid", uid(board.name, part.ref, "pin", pin.number)))
            )
    out.append(
        S("instances", S("project", board.name, S("path", f"/{root_uuid(board)}",
                                                 S("reference", part.ref), S("unit", unit))))
    )  # fmt: skip
    return out


def root_uuid(board: Board) -> str:
    return uid(board.name, "schematic")


def symbol_uuid(board: Board, ref: str, unit: int = 1) -> str:
    """The UUID of a part's (first) symbol: the PCB footprint's link to it."""
    return uid(board.name, "symbol", ref, unit)


def _flag(board: Board, net: str, n: int) -> Part:
    return Part(f"#FLG0{n}", "pwr_flag", "", "PWR_FLAG", f"{net} is driven by the supply",
                pins={"1": net})  # fmt: skip


def power_flags(board: Board) -> list[Part]:
    """A PWR_FLAG on every net that has a power input but nothing driving it."""
    kinds: dict[str, set[str]] = {}
    for part in board.parts:
        sym_pins = {p.number: p.kind for p in pins(library.symbol(part.symbol))}
        for number, net in part.pins.items():
            if net is not None:
                kinds.setdefault(net, set()).add(sym_pins[number])
    wanted = [n for n, k in sorted(kinds.items()) if "power_in" in k and "power_out" not in k]
    return [_flag(board, net, k) for k, net in enumerate(wanted, start=1)]


def schematic(board: Board) -> str:
    used = sorted({p.symbol for p in board.parts} | {"pwr_flag"})
    lib_symbols: list[Node] = [Sym("lib_symbols")]
    for role in used:
        sym = copy.deepcopy(library.symbol(role))
        sym[1] = library.SYMBOLS[role].lib_id
        lib_symbols.append(sym)
    items: list[Node] = []
    x_cursor, y_cursor, row_height = 25.4, 38.1, 0.0
    _, width, height = PAPER
    for part in [*board.parts, *power_flags(board)]:
        sym = library.symbol(part.symbol)
        fp = "" if part.ref.startswith("#") else library.FOOTPRINTS[part.footprint].lib_id
        sym_pins = pins(sym)
        for unit in units(sym):
            x0, y0, x1, y1 = _bounds(sym, unit)
            w = (x1 - x0) + 2 * LABEL_ROOM
            h = (y1 - y0) + 12.7
            if x_cursor + w > width - 25.4:
                x_cursor, y_cursor, row_height = 25.4, y_cursor + row_height, 0.0
            x = _snap(x_cursor + LABEL_ROOM - x0)
            y = _snap(y_cursor + 5.08 + y1)
            items.append(_instance(board, part, unit, x, y, y1, y0, fp))
            for pin in sym_pins:
                if pin.unit not in (0, unit):
                    continue
                px, py = round(x + pin.x, 4), round(y - pin.y, 4)
                net = part.pins.get(pin.number)
                key = (board.name, part.ref, unit, pin.number)
                if net is None:
                    items.append(S("no_connect", S("at", px, py), S("uuid", uid(*key, "nc"))))
                elif _first_at(sym_pins, pin, unit):
                    items.append(_label(net, px, py, pin.angle, "/".join(map(str, key))))
            x_cursor += w
            row_height = max(row_height, h)
    if y_cursor + row_height > height - 25.4:
        raise ValueError(f"{board.name}: the symbols do not fit an {PAPER[0]} sheet")
    tree: list[Node] = [
        Sym("kicad_sch"),
        S("version", 20250114),
        S("generator", "haleakala"),
        S("generator_version", "9.0"),
        S("uuid", root_uuid(board)),
        S("paper", PAPER[0]),
        S("title_block", S("title", board.title), S("rev", "1"),
          S("company", "Haleakala Companion"),
          S("comment", 1, "Generated by haleakala kit boards from the geometry and the pin map")),
        lib_symbols,
        *items,
        S("sheet_instances", S("path", "/", S("page", "1"))),
        S("embedded_fonts", Sym("no")),
    ]  # fmt: skip
    return dumps(tree)


def _first_at(sym_pins: list[SymbolPin], pin: SymbolPin, unit: int) -> bool:
    """Whether ``pin`` is the first of the unit's pins stacked on its point (one label each)."""
    for other in sym_pins:
        if other.unit in (0, unit) and (other.x, other.y) == (pin.x, pin.y):
            return other is pin
    return True
