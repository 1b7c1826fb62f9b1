"""The ``.kicad_pcb`` of a board: its outline, KiCad's own footprints placed as the board model
says (each linked to its schematic symbol, every pad on its net), and the router's tracks.

Footprints are copied from the vendored library and placed as KiCad itself places them:
graphics and pads stay in the footprint's frame, pad and text angles and the footprint's rule
areas turn with it (checked against pcbnew's own output when this was written). Every UUID is
derived from the board and the item's name, so the file is the same bytes every time.
"""

from __future__ import annotations

import copy
import math

from haleakala.kit.boards import library
from haleakala.kit.boards.model import CLEARANCE, Board, Part, uid
from haleakala.kit.boards.placed import ORIGIN, courtyard, pads, transform
from haleakala.kit.boards.router import VIA_DRILL, VIA_SIZE, Routed
from haleakala.kit.boards.sexpr import Node, S, Sym, dumps, find, find_all, get

LAYER_NAMES = ("F.Cu", "B.Cu")
LAYERS = [
    (0, "F.Cu", "signal"), (2, "B.Cu", "signal"),
    (9, "F.Adhes", "user", "F.Adhesive"), (11, "B.Adhes", "user", "B.Adhesive"),
    (13, "F.Paste", "user"), (15, "B.Paste", "user"),
    (5, "F.SilkS", "user", "F.Silkscreen"), (7, "B.SilkS", "user", "B.Silkscreen"),
    (1, "F.Mask", "user"), (3, "B.Mask", "user"),
    (17, "Dwgs.User", "user", "User.Drawings"), (19, "Cmts.User", "user", "User.Comments"),
    (21, "Eco1.User", "user", "User.Eco1"), (23, "Eco2.User", "user", "User.Eco2"),
    (25, "Edge.Cuts", "user"), (27, "Margin", "user"),
    (31, "F.CrtYd", "user", "F.Courtyard"), (29, "B.CrtYd", "user", "B.Courtyard"),
    (35, "F.Fab", "user"), (33, "B.Fab", "user"),
]  # fmt: skip
"""Two copper layers and KiCad 9's technical layers, numbered as pcbnew 9 writes them."""


def kicad_net(net: str) -> str:
    """The name KiCad gives a net labelled ``net`` on the root sheet."""
    return f"/{net}"


def unconnected(part: Part, number: str) -> str:
    """The net KiCad gives a pin with a no-connect flag."""
    names = {p.number: p.name for p in library.symbol_pins(part.symbol)}
    name = names.get(number, "")
    shown = f"-{name}" if name and name != "~" else ""
    return f"unconnected-({part.ref}{shown}-Pad{number})"


def net_numbers(board: Board) -> dict[str, int]:
    """KiCad net name -> number: the labelled nets, then every no-connect pin's own."""
    names = [kicad_net(n) for n in board.nets()]
    for part in board.parts:
        names += [unconnected(part, pin) for pin, net in part.pins.items() if net is None]
    return {name: n for n, name in enumerate(names, start=1)}


def _turn_angle(node: list[Node], rotation: int) -> None:
    """Add the footprint's rotation to an ``(at x y [angle])`` child of ``node``."""
    at = find(node, "at")
    if at is None or not rotation:
        return
    angle = (float(at[3]) if len(at) > 3 else 0.0) + rotation
    angle = angle % 360
    at[3:] = [int(angle) if angle == int(angle) else angle]


def _fresh_uuids(node: Node, *names: object) -> None:
    """Replace every uuid under ``node`` by one derived from ``names`` and its position."""
    counter = [0]

    def walk(n: Node) -> None:
        if isinstance(n, list):
            if n and n[0] == "uuid":
                counter[0] += 1
                n[1] = uid(*names, counter[0])
                return
            for child in n:
                walk(child)

    walk(node)


def footprint(
    board: Board,
    part: Part,
    nets: dict[str, int],
    symbol_uuid: str,
    reference_at: tuple[float, float] | None = None,
) -> list[Node]:
    lib = copy.deepcopy(library.footprint(part.footprint))
    fp_id = library.FOOTPRINTS[part.footprint].lib_id
    x, y = part.at[0] + ORIGIN[0], part.at[1] + ORIGIN[1]
    at = S("at", x, y, part.rotation) if part.rotation else S("at", x, y)
    out: list[Node] = [Sym("footprint"), fp_id, S("layer", "F.Cu"), S("uuid", ""), at]
    skip = {"version", "generator", "generator_version", "layer"}
    items = [i for i in lib[2:] if isinstance(i, list) and i[0] not in skip]
    heads = [i for i in items if i[0] in ("descr", "tags")]
    props = {p[1]: p for p in items if p[0] == "property"}
    props["Reference"][2] = part.ref
    props["Value"][2] = part.value
    for name in ("Datasheet", "Description"):
        props.setdefault(
            name,
            [Sym("property"), name, "", S("at", 0, 0, 0), S("layer", "F.Fab"), S("hide", True),
             S("uuid", ""), S("effects", S("font", S("size", 1.27, 1.27)))],
        )  # fmt: skip
    links = [
        S("path", f"/{symbol_uuid}"),
        S("sheetname", "/"),
        S("sheetfile", f"{board.name}.kicad_sch"),
    ]
    rest = [i for i in items if i[0] not in ("descr", "tags", "property")]
    body = heads + list(props.values()) + links + rest
    for item in body:
        if not isinstance(item, list):
            continue
        if item[0] in ("property", "fp_text"):
            _turn_angle(item, part.rotation)
        elif item[0] == "pad":
            _turn_angle(item, part.rotation)
            number = str(item[1])
            if number and number in part.pins:
                net = part.pins[number]
                name = kicad_net(net) if net is not None else unconnected(part, number)
                layers_at = next(k for k, c in enumerate(item) if isinstance(c, list) and
                                 c[0] in ("remove_unused_layers", "layers"))  # fmt: skip
                item.insert(layers_at + 1, S("net", nets[name], name))
        elif item[0] == "zone":
            for pts in find_all(find(item, "polygon") or [], "pts"):
                for p in pts[1:]:
                    p[1], p[2] = (round(v, 6) for v in transform(part, p[1], p[2]))
    if reference_at is not None:
        lx, ly = local(part, *reference_at)
        at = get(props["Reference"], "at")
        at[1:] = [round(lx, 4), round(ly, 4), 0]
    out += body
    _fresh_uuids(out, board.name, part.ref)
    return out


def local(part: Part, x: float, y: float) -> tuple[float, float]:
    """A page-frame point in the footprint's own frame (``transform`` undone)."""
    a = math.radians(part.rotation)
    c, s = round(math.cos(a), 12), round(math.sin(a), 12)
    dx, dy = x - ORIGIN[0] - part.at[0], y - ORIGIN[1] - part.at[1]
    return dx * c - dy * s, dx * s + dy * c


def _outline(board: Board) -> list[Node]:
    w, h = board.size
    x0, y0 = ORIGIN
    return S("gr_rect", S("start", x0, y0), S("end", x0 + w, y0 + h),
             S("stroke", S("width", 0.1), S("type", Sym("default"))), S("fill", Sym("no")),
             S("layer", "Edge.Cuts"), S("uuid", uid(board.name, "outline")))  # fmt: skip


def _label(board: Board, text: str, x: float, y: float, name: str) -> list[Node]:
    return S("gr_text", text, S("at", x, y, 0), S("layer", "F.SilkS"),
             S("uuid", uid(board.name, "text", name)),
             S("effects", S("font", S("size", 1.2, 1.2), S("thickness", 0.18)),
               S("justify", Sym("left"))))  # fmt: skip


def board_file(
    board: Board,
    routed: Routed,
    symbol_uuids: dict[str, str],
    labels: tuple[tuple[str, float, float], ...] = (),
) -> str:
    nets = net_numbers(board)
    tree: list[Node] = [
        Sym("kicad_pcb"),
        S("version", 20241229),
        S("generator", "haleakala"),
        S("generator_version", "9.0"),
        S("general", S("thickness", 1.6), S("legacy_teardrops", Sym("no"))),
        S("paper", "A4"),
        S("title_block", S("title", board.title), S("rev", "1"),
          S("company", "Haleakala Companion"),
          S("comment", 1, "Generated by haleakala kit boards from the geometry and the pin map")),
        [Sym("layers"), *([n, name, Sym(kind), *rest] for n, name, kind, *rest in LAYERS)],
        S("setup", S("pad_to_mask_clearance", 0),
          S("allow_soldermask_bridges_in_footprints", Sym("no")),
          S("tenting", Sym("front"), Sym("back"))),
        S("net", 0, ""),
        *(S("net", n, name) for name, n in nets.items()),
    ]  # fmt: skip
    spots = reference_spots(board)
    for part in board.parts:
        tree.append(footprint(board, part, nets, symbol_uuids[part.ref], spots.get(part.ref)))
    tree.append(_outline(board))
    for text, x, y in labels:
        tree.append(_label(board, text, ORIGIN[0] + x, ORIGIN[1] + y, text))
    for k, t in enumerate(routed.tracks):
        tree.append(
            S("segment", S("start", round(t.x1, 4), round(t.y1, 4)),
              S("end", round(t.x2, 4), round(t.y2, 4)), S("width", t.width),
              S("layer", LAYER_NAMES[t.layer]), S("net", nets[kicad_net(t.net)]),
              S("uuid", uid(board.name, "track", k)))
        )  # fmt: skip
    for k, v in enumerate(routed.vias):
        tree.append(
            S("via", S("at", round(v.x, 4), round(v.y, 4)), S("size", VIA_SIZE),
              S("drill", VIA_DRILL), S("layers", "F.Cu", "B.Cu"), S("net", nets[kicad_net(v.net)]),
              S("uuid", uid(board.name, "via", k)))
        )  # fmt: skip
    tree.append(S("embedded_fonts", Sym("no")))
    return dumps(tree)


DESIGN_RULES = {
    "min_clearance": CLEARANCE,
    "min_track_width": 0.2,
    "min_via_diameter": 0.5,
    "min_through_hole_diameter": 0.3,
    "min_copper_edge_clearance": 0.5,
    "min_hole_clearance": 0.25,
    "min_hole_to_hole": 0.25,
}


TEXT_H = 1.0
TEXT_W = 1.0
"""A 1 mm reference designator: about as wide per character as it is high, with its
stroke."""


def _text_box(ref: str, x: float, y: float) -> tuple[float, float, float, float]:
    w = len(ref) * TEXT_W * 0.75 + 0.3
    return x - w / 2, y - TEXT_H / 2 - 0.15, x + w / 2, y + TEXT_H / 2 + 0.15


def _hits(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def reference_spots(board: Board) -> dict[str, tuple[float, float]]:
    """Where each reference designator goes: just outside its courtyard, on the first side
    where it touches no other courtyard, no pad, no other designator and stays 0.6 mm
    inside the board's edge."""
    boxes = {p.ref: courtyard(p) for p in board.parts}
    copper = []
    for p in board.parts:
        for pad in pads(p):
            copper.append((pad.x - pad.half_w - 0.2, pad.y - pad.half_h - 0.2,
                           pad.x + pad.half_w + 0.2, pad.y + pad.half_h + 0.2))  # fmt: skip
    w, h = board.size
    edge = (ORIGIN[0] + 0.6, ORIGIN[1] + 0.6, ORIGIN[0] + w - 0.6, ORIGIN[1] + h - 0.6)
    taken: list[tuple[float, float, float, float]] = []
    out: dict[str, tuple[float, float]] = {}
    for part in board.parts:
        x0, y0, x1, y1 = boxes[part.ref]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        gap = TEXT_H / 2 + 0.35
        candidates = [(cx, y0 - gap), (cx, y1 + gap), (x0 - 2.2, cy), (x1 + 2.2, cy),
                      (x0 + 2.0, y0 - gap), (x1 - 2.0, y1 + gap), (x0 + 2.0, y1 + gap),
                      (x1 - 2.0, y0 - gap), (cx, cy)]  # fmt: skip
        for x, y in candidates:
            box = _text_box(part.ref, x, y)
            inside = edge[0] <= box[0] and edge[1] <= box[1] and box[2] <= edge[2]
            if not (inside and box[3] <= edge[3]):
                continue
            others = [b for r, b in boxes.items() if r != part.ref]
            if any(_hits(box, b) for b in others + copper + taken):
                continue
            out[part.ref] = (round(x, 3), round(y, 3))
            taken.append(box)
            break
    return out
