"""The counts a BOM row's quantity may follow beyond the geometry's own: what the carrier
boards carry (``part:<bom id>:<kit>``: one hub, one tile board per tile), the harness's
ribbon and wire by the metre, the screws every hole takes. A change to the geometry, the
boards or the pixels per tile changes the order with it."""

from __future__ import annotations

import itertools
import math

from haleakala.kit.geometry import KitGeometry


def board_parts(g: KitGeometry) -> dict[str, int]:
    """``part:<bom id>:<kit>`` → how many the kit's boards carry (the tile board once per
    tile), for every part bought separately."""
    from haleakala import config as cfg
    from haleakala.kit.boards.hub import hub
    from haleakala.kit.boards.tile import tile
    from haleakala.kit.wiring.boards import load_pico_pins

    out: dict[str, int] = {}
    for board, copies in ((hub(g, cfg.Config().pins, load_pico_pins()), 1),
                          (tile(g), g.segments)):  # fmt: skip
        for part in board.parts:
            if part.bom:
                key = f"part:{part.bom}:{part.kit}"
                out[key] = out.get(key, 0) + copies
    return out


def pixel_wire_mm(g: KitGeometry) -> float:
    """3-core wire on one tile: the board to the first pixel, pixel to pixel, the last pixel
    back to the board (routed, not straight)."""
    board = tuple(float(v) for v in g.boards["tile_at"])
    points = [board, *((x, y) for _zone, x, y in g.tile_pixels), board]
    straight = sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    return straight * g.routing_factor


def power_figures(g: KitGeometry) -> dict[str, int | float]:
    """The power scheme's figures for the default kit, for the BOM's notes to quote."""
    from haleakala import config as cfg
    from haleakala.kit.power_scheme import scheme

    s = scheme(g, cfg.Config())
    return {
        "last_pixel_v": round(s.full_white.last_pixel_v, 2),
        "last_pixel_v_cap": round(s.at_cap.last_pixel_v, 2),
        "main_fuse_a": s.main_fuse_a,
        "tile_fuse_hold_a": s.tile_fuse[0],
        "tile_fuse_trip_a": s.tile_fuse[1],
    }


def derived(g: KitGeometry) -> dict[str, int | float]:
    from haleakala.kit.cables import tile_cables

    ribbon = sum(c.cut_mm for c in tile_cables(g)) / 1000
    counts: dict[str, int | float] = dict(board_parts(g))
    counts.update(power_figures(g))
    counts.update(
        {
            "ribbon_m": math.ceil(ribbon),
            "pixel_wire_m": math.ceil(pixel_wire_mm(g) * g.segments / 1000),
            "hub_screw": len(g.boards["hub_holes"]),
            "tile_screw": len(g.boards["tile_holes"]) * g.segments,
            "pi_screw": 4,
            "oled_screw": 4,
            "lid_screw": 4,  # kit.bay.lid_bosses: one in each corner of the tray
            "idc_socket": 2 * g.segments,
            "cable_tie": g.segments + 2,
        }
    )
    return counts
