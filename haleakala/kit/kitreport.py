"""The electrical half of ``kit check``: the boards, the harness, the power scheme and the bay
against the config, each failure one sentence with its fix, and the figures behind them as
one report (``kit check --json``). ``config check`` runs the same checks, so a config the
kit cannot hold is refused before the daemon starts.

Pure arithmetic on the geometry and the board model (no KiCad, no CAD), so both run on a Pi.
"""

from __future__ import annotations

from typing import Any, Protocol

from haleakala.kit.boards.hub import tile_ref
from haleakala.kit.boards.model import TILE_PINOUT, TILE_PINS
from haleakala.kit.budget import KitConfig
from haleakala.kit.cables import check_harness, notches, tile_cables
from haleakala.kit.geometry import KitGeometry
from haleakala.kit.power_scheme import scheme


class BoardConfig(KitConfig, Protocol):
    """What these checks read of ``haleakala.config.Config``."""


def check_bay(g: KitGeometry, model: str) -> list[str]:
    """The config's Pi has holes the tray's standoffs take, and a board the tray holds."""
    known = g.pi_models
    if model not in known:
        return [
            f"the geometry has no Pi model {model!r} ([pi_models]): the bay cannot be proved "
            f"to hold it; choose one of {', '.join(sorted(known))}"
        ]
    want = tuple(float(v) for v in g.console["pi_holes"])
    have = tuple(float(v) for v in known[model]["holes"])
    fitting = sorted(m for m, d in known.items() if tuple(float(v) for v in d["holes"]) == want)
    if have != want:
        return [
            f"model = {model!r}: its holes are {have[0]:g} x {have[1]:g} mm but the bay's "
            f"standoffs are {want[0]:g} x {want[1]:g} mm (console.pi_holes), so it has nothing "
            f"to screw to: choose model {' / '.join(repr(m) for m in fitting)}, or give the "
            "tray that pattern in the geometry and print it again"
        ]
    board = tuple(float(v) for v in known[model]["board"])
    room = tuple(float(v) for v in g.console["pi_board"])
    if board[0] > room[0] or board[1] > room[1]:
        return [
            f"model = {model!r}: its {board[0]:g} x {board[1]:g} mm board is bigger than the "
            f"bay's {room[0]:g} x {room[1]:g} mm place for it (console.pi_board)"
        ]
    return []


def check_tray(g: KitGeometry) -> list[str]:
    """The boards on the tray stay apart and inside its walls."""
    cw, cd, _ = (float(v) for v in g.console["size"])
    wall = float(g.console["wall"])
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    problems = []
    for name, (cx, cy), (w, d), _holes, _drill in g.tray_boards():
        box = (cx - w / 2, cy - d / 2, cx + w / 2, cy + d / 2)
        inner = (-cw / 2 + wall, -cd / 2 + wall, cw / 2 - wall, cd / 2 - wall)
        if box[0] < inner[0] or box[1] < inner[1] or box[2] > inner[2] or box[3] > inner[3]:
            problems.append(
                f"the {name} ({w:g} x {d:g} mm at {cx:g}, {cy:g}) leaves the bay's inside: "
                "move it (console) or enlarge console.size"
            )
        for other, obox in boxes:
            if box[0] < obox[2] and obox[0] < box[2] and box[1] < obox[3] and obox[1] < box[3]:
                problems.append(
                    f"the {name} and the {other} overlap on the tray: move one (console)"
                )
        boxes.append((name, box))
    return problems


def check_chain_order(g: KitGeometry, ring_order: tuple[int, ...] | list[int]) -> list[str]:
    """The config's tile order on the data wire is the one the hub's copper makes."""
    if tuple(ring_order) != tuple(g.segment_order):
        return [
            f"leds.ring_order = {list(ring_order)} but the hub board chains the tiles "
            f"{list(g.segment_order)} (its copper follows chain.segment_order): set "
            f"leds.ring_order = {list(g.segment_order)}"
        ]
    return []


def check_electrics(g: KitGeometry, config: KitConfig) -> list[str]:
    """Every electrical problem of the kit for ``config``."""
    leds = config.leds
    problems = check_bay(g, config.model) + check_tray(g)
    problems += check_chain_order(g, tuple(leds.ring_order))
    if leds.pixels_per_ring != g.pixels_per_tile:
        problems.append(
            f"leds.pixels_per_ring = {leds.pixels_per_ring} but every tile of the geometry, "
            f"and so the power scheme and the fuses, has {g.pixels_per_tile}: set "
            f"leds.pixels_per_ring = {g.pixels_per_tile}, or change [pixels] in the geometry "
            "and run 'haleakala kit boards' and 'haleakala bom'"
        )
    problems += check_harness(g)
    problems += scheme(g, config).problems
    return problems


def report(g: KitGeometry, config: KitConfig, problems: list[str]) -> dict[str, Any]:
    """The figures ``kit check --json`` prints: boards, harness, power, bay."""
    from haleakala.kit.boards.hub import hub
    from haleakala.kit.boards.tile import tile
    from haleakala.kit.wiring.boards import load_pico_pins

    pins = getattr(config, "pins", None)
    boards: dict[str, Any] = {}
    if pins is not None:
        for board in (hub(g, pins, load_pico_pins()), tile(g)):
            boards[board.name] = {
                "size_mm": list(board.size),
                "parts": len([p for p in board.parts if not p.ref.startswith("H")]),
                "nets": len(board.nets()),
                "files": f"hw/boards/{board.name}/",
            }
        boards["hub"]["tile_headers"] = [tile_ref(s) for s in range(g.segments)]
    cables = tile_cables(g)
    return {
        "ok": not problems,
        "problems": problems,
        "boards": boards,
        "harness": {
            "cable": f"{TILE_PINS}-way 28 AWG ribbon, a 2x10 IDC socket at each end (keyed)",
            "pinout": {str(n): role for n, role in TILE_PINOUT.items()},
            "tiles": [
                {"segment": c.segment, "route_mm": round(c.route_mm, 1), "cut_mm": c.cut_mm}
                for c in cables
            ],
            "total_m": round(sum(c.cut_mm for c in cables) / 1000, 2),
            "notches": [
                {
                    "name": n.name,
                    "ribbons": n.cables,
                    "stack": list(n.stack),
                    "need_mm": [round(v, 2) for v in n.need],
                    "have_mm": list(n.have),
                    "need_mm2": round(n.need_mm2, 1),
                    "have_mm2": round(n.have_mm2, 1),
                    "fits": n.fits,
                }
                for n in notches(g)
            ],
        },
        "power": scheme(g, config).as_dict(),
        "bay": {
            "model": config.model,
            "standoffs_mm": [float(v) for v in g.console["pi_holes"]],
            "model_holes_mm": [
                float(v) for v in g.pi_models.get(config.model, {}).get("holes", [])
            ],
        },
    }
