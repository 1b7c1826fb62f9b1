"""The assembly guide's drawings (hw/assembly/*.png), drawn with matplotlib from the kit's
geometry: the exploded view, one segment tile, the pixel chain's path, the electronics bay.

Made by ``haleakala kit parts`` with the part files; not compared byte for byte in CI (font
rasterisation differs between matplotlib releases), the part files and placement.json are.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Circle, Polygon, Rectangle
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from haleakala.kit.geometry import BAND_ZONES, ZONES, KitGeometry, rotate

TINT = {
    "sea": "#e2eef8",
    "water": "#9fcbef",
    "beach": "#f6e3a6",
    "grassland": "#bfe3a0",
    "forest": "#8fc48a",
    "mountain": "#c9bfae",
    "crater": "#f0a890",
    "slot_a": "#ffffff",
    "slot_b": "#ffffff",
}
PNG_META = {"Software": None}


def _save(fig: plt.Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata=PNG_META)
    plt.close(fig)
    return path


def _sea(g: KitGeometry, segment: int) -> tuple[tuple[float, float], ...]:
    return tuple(rotate(p, segment) for p in g.sector(*g.bands["sea"]))


def _island(ax: plt.Axes, g: KitGeometry, segments: range, labels: bool = True) -> None:
    for s in segments:
        ax.add_patch(Polygon(_sea(g, s), closed=True, fc=TINT["sea"], ec="#555", lw=0.6))
        for z in ZONES:
            ax.add_patch(Polygon(g.zone_polygon(s, z), closed=True, fc=TINT[z], ec="#444", lw=0.8))
        if labels:
            x, y = rotate((0.0, g.radius - 10), s)
            ax.text(x, y, f"segment {s}", ha="center", va="center", fontsize=7, rotation=-60 * s)


def tile_view(g: KitGeometry, path: Path) -> Path:
    """Segment 0's tile from above: cells, pixels in chain order, sensor, holes, notches."""
    fig, ax = plt.subplots(figsize=(8.5, 8.0))
    _island(ax, g, range(1), labels=False)
    for z in ZONES:
        pts = g.tile_zone(z)
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        if z in BAND_ZONES:
            cx, cy = 55.0, (g.bands[z][0] + g.bands[z][1]) / 2
        ax.text(cx, cy, z, ha="center", va="center", fontsize=8, color="#333")
    px = [(x, y) for _z, x, y in g.tile_pixels]
    ax.plot([p[0] for p in px], [p[1] for p in px], "-", color="#1b5e20", lw=1.2, zorder=3)
    for i, (x, y) in enumerate(px):
        ax.add_patch(Circle((x, y), 5, fc="#222", ec="#1b5e20", zorder=4))
        ax.add_patch(Rectangle((x - 2.5, y - 2.5), 5, 5, fc="#fff", zorder=5))
        ax.text(x + 6.5, y + 2, f"{i}", fontsize=9, color="#1b5e20", weight="bold", zorder=6)
    bx, by = g.sensor_centre
    ax.add_patch(
        Rectangle((bx - g.boss[0] / 2, by - g.boss[1] / 2), *g.boss, fc="#999", ec="#333", zorder=4)
    )
    ax.add_patch(
        Rectangle((bx - g.switch[0] / 2, by - g.switch[1] / 2), *g.switch, fc="#333", zorder=5)
    )
    ax.add_patch(Circle((bx, by), 3.5, fc="#c62828", zorder=6))
    rw, rd = g.reader
    ax.add_patch(
        Rectangle(
            (bx - rw / 2, by - rd / 2), rw, rd, fill=False, ls="--", ec="#6a1b9a", lw=1.2, zorder=4
        )
    )
    ax.text(
        bx + rw / 2 + 2, by - rd / 2, "RFID reader\n(under the floor)", fontsize=7, color="#6a1b9a"
    )
    ax.text(bx + g.boss[0] / 2 + 2, by + 4, "button boss", fontsize=7)
    for hx, hy in g.floor_holes:
        ax.add_patch(
            Circle((hx, hy), g.hole_diameter / 2, fc="#fff", ec="#000", hatch="xx", zorder=4)
        )
    ax.annotate(
        "chain in (from the previous tile, under the floor)",
        g.floor_holes[1],
        (30, 10),
        fontsize=7,
        arrowprops={"arrowstyle": "->"},
    )
    ax.annotate(
        "chain out and sensor leads down",
        g.floor_holes[0],
        (25, 200),
        fontsize=7,
        arrowprops={"arrowstyle": "->"},
    )
    nw = g.notch[0]
    ax.add_patch(
        Rectangle(
            (-nw / 2, g.centre_radius),
            nw,
            g.bands["water"][1] - g.centre_radius,
            fill=False,
            ec="#1565c0",
            ls=":",
            lw=1,
        )
    )
    ax.text(-nw / 2 - 1, 60, "wall notches\n(cable path)", fontsize=7, color="#1565c0", ha="right")
    for side in (-1, 1):
        for r in g.bolt_radii:
            x, y = rotate((0.0, r), side, 12)
            ax.plot([x], [y], marker="o", color="#6d4c41", ms=5)
    ax.text(-92, 140, "M3 bolts to\nthe next riser", fontsize=7, color="#6d4c41")
    ax.set_title("One segment tile from above (segment 0), pixels numbered in chain order (mm)")
    ax.set_aspect("equal")
    ax.set_xlim(-110, 110)
    ax.set_ylim(5, 212)
    ax.grid(True, lw=0.3, alpha=0.5)
    return _save(fig, path)


def chain_view(g: KitGeometry, path: Path) -> Path:
    """The whole island: every pixel numbered along the chain, and the bay it starts from."""
    fig, ax = plt.subplots(figsize=(8.5, 10.5))
    _island(ax, g, range(g.segments))
    ax.add_patch(Circle((0, 0), g.centre_radius, fc="#8d6e63", ec="#333"))
    pixels = g.pixels()
    cw, cd, _ = (float(v) for v in g.console["size"])
    cx, cy = (float(v) for v in g.console["position"])
    ax.add_patch(Rectangle((cx - cw / 2, cy - cd / 2), cw, cd, fc="#eceff1", ec="#333"))
    ax.text(cx, cy + 20, "electronics bay\n(Pi, Pico, level shifter)", ha="center", fontsize=8)
    first = pixels[0]
    ax.annotate(
        "",
        (first.x, first.y),
        (cx, cy - cd / 2),
        arrowprops={"arrowstyle": "->", "color": "#b71c1c", "lw": 1.5, "ls": "--"},
    )
    for a, b in itertools.pairwise(pixels):
        same = a.segment == b.segment
        ax.plot(
            [a.x, b.x],
            [a.y, b.y],
            "-" if same else "--",
            color="#1b5e20" if same else "#b71c1c",
            lw=1.0 if same else 1.4,
        )
    for p in pixels:
        ax.add_patch(Circle((p.x, p.y), 4.5, fc="#222", zorder=4))
        ax.text(
            p.x, p.y, str(p.index), color="#fff", fontsize=5.5, ha="center", va="center", zorder=5
        )
    ax.set_title(
        "The LED chain: data in from the bay (red dashes: under the island, JST pigtails),\n"
        "then crater to slot b on every tile (green: 3-core wire on the tile)",
        fontsize=10,
    )
    ax.set_aspect("equal")
    lim = g.radius + 10
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, cy + cd / 2 + 10)
    ax.axis("off")
    return _save(fig, path)


def bay_view(g: KitGeometry, path: Path) -> Path:
    """The electronics bay: the tray with its boards, and the lid's controls."""
    c = g.console
    cw, cd, _ = (float(v) for v in c["size"])
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    tray, lid = axes
    for ax in axes:
        ax.add_patch(Rectangle((-cw / 2, -cd / 2), cw, cd, fc="#eceff1", ec="#333", lw=1.5))
        ax.set_aspect("equal")
        ax.set_xlim(-cw / 2 - 8, cw / 2 + 8)
        ax.set_ylim(-cd / 2 - 12, cd / 2 + 8)
        ax.grid(True, lw=0.3, alpha=0.5)
    colours = {"Raspberry Pi": "#2e7d32", "hub board": "#1565c0"}
    labels = {"hub board": "hub board:\n74AHCT125, fuses,\nPico (RFID kit),\ntile headers"}
    for name, (cx, cy), (bw, bh), holes, _d in g.tray_boards():
        colour = colours.get(name, "#8d6e63")
        tray.add_patch(
            Rectangle((cx - bw / 2, cy - bh / 2), bw, bh, fc=colour, alpha=0.35, ec=colour)
        )
        tray.text(cx, cy, labels.get(name, name), ha="center", va="center", fontsize=8)
        for hx, hy in holes:
            tray.add_patch(Circle((hx, hy), 3, fc="#fff", ec="#333"))
    sw = float(c["cable_slot"][0])
    tray.add_patch(Rectangle((-sw / 2, -cd / 2 - 3), sw, 6, fc="#b71c1c"))
    tray.text(0, -cd / 2 - 9, "six tile ribbons to the island", ha="center", fontsize=7)
    sy, sw, _sh = (float(v) for v in c["supply_slot"])
    tray.add_patch(Rectangle((-cw / 2 - 3, sy - sw / 2), 6, sw, fc="#f57f17"))
    tray.text(-cw / 2 + 5, sy + sw / 2 + 2, "5 V in", ha="left", fontsize=7)
    tray.set_title("Tray from above: standoffs, boards, cut-outs (mm)")
    ox, oy = (float(v) for v in c["oled_at"])
    ww, wd = (float(v) for v in c["oled_window"])
    lid.add_patch(
        Rectangle((ox - 14, oy - 14), 28, 28, fc="#1565c0", alpha=0.25, ls="--", ec="#1565c0")
    )
    lid.add_patch(Rectangle((ox - ww / 2, oy - wd / 2), ww, wd, fc="#111"))
    lid.text(ox, oy - 20, "OLED window", ha="center", fontsize=8)
    ex, ey = (float(v) for v in c["encoder_at"])
    lid.add_patch(Circle((ex, ey), float(c["encoder_hole"]) / 2, fc="#fff", ec="#333"))
    lid.add_patch(Circle((ex, ey), 12, fill=False, ec="#333", ls="--"))
    lid.text(ex, ey - 20, "encoder (M7 nut)", ha="center", fontsize=8)
    kx, ky = (float(v) for v in c["back_at"])
    lid.add_patch(Circle((kx, ky), float(c["back_hole"]) / 2, fc="#fff", ec="#333"))
    lid.text(kx, ky - 13, "back", ha="center", fontsize=8)
    lid.set_title("Lid from above: the player's controls")
    fig.tight_layout()
    return _save(fig, path)


def _prism(
    outline: tuple[tuple[float, float], ...], z0: float, z1: float
) -> list[list[tuple[float, float, float]]]:
    faces = [[(x, y, z1) for x, y in outline]]
    n = len(outline)
    for i in range(n):
        (ax, ay), (bx, by) = outline[i], outline[(i + 1) % n]
        faces.append([(ax, ay, z0), (bx, by, z0), (bx, by, z1), (ax, ay, z1)])
    return faces


def exploded_view(g: KitGeometry, path: Path) -> Path:
    """One segment's stack pulled apart: riser, tile (walls, pixels, boss), diffuser, overlay,
    and the centre piece."""
    fig = plt.figure(figsize=(11, 8.5))
    ax = fig.add_subplot(projection="3d")
    gap = 45.0
    outline = g.tile_outline()
    layers = [
        (0.0, g.skirt, "#8d6e63", 0.55, "riser (cavity: reader, cables)"),
        (g.skirt + gap, g.skirt + gap + g.floor, "#b0bec5", 0.35, "tile floor"),
    ]
    for z0, z1, colour, alpha, _ in layers:
        ax.add_collection3d(
            Poly3DCollection(_prism(outline, z0, z1), fc=colour, ec="#333", lw=0.3, alpha=alpha)
        )
    zt = g.skirt + gap + g.floor
    for z in ZONES:
        poly = g.tile_zone(z)
        ax.add_collection3d(
            Poly3DCollection(
                _prism(poly, zt, zt + g.cell_height)[1:],
                fc="#eceff1",
                ec="#555",
                lw=0.2,
                alpha=0.35,
            )
        )
    for _z, x, y in g.tile_pixels:
        ax.scatter([x], [y], [zt + 1], color="#2e7d32", s=18, depthshade=False)
    ax.add_collection3d(
        Poly3DCollection(_prism(g.boss_rect(), zt, zt + 9), fc="#616161", alpha=0.9)
    )
    zd = zt + g.cell_height + gap
    ax.add_collection3d(
        Poly3DCollection(
            _prism(outline, zd, zd + g.diffuser), fc="#ffffff", ec="#999", lw=0.3, alpha=0.6
        )
    )
    zo = zd + g.diffuser + gap
    ax.add_collection3d(
        Poly3DCollection(
            [[(x, y, zo) for x, y in g.sector(*g.bands["sea"])]], fc=TINT["sea"], ec="#555", lw=0.4
        )
    )
    for z in ZONES:
        ax.add_collection3d(
            Poly3DCollection(
                [[(x, y, zo) for x, y in g.tile_zone(z)]], fc=TINT[z], ec="#444", lw=0.4
            )
        )
    r = g.centre_radius
    ring = tuple(
        (r * math.cos(a / 12 * math.pi), r * math.sin(a / 12 * math.pi)) for a in range(24)
    )
    top = g.skirt + g.tile_height + g.diffuser
    ax.add_collection3d(Poly3DCollection(_prism(ring, 0, top), fc="#8d6e63", alpha=0.8, lw=0))
    for height, text in (
        (g.skirt / 2, "1 riser: the reader taped under the beach,\ncables, M3 bolts to neighbours"),
        (zt + 4, "2 tile: a light cell per zone,\na pixel in each, button on the boss"),
        (zd + 1, "3 diffuser: 3 mm opal acrylic or white PETG"),
        (zo, "4 overlay: the printed island (PDF at 1:1)"),
    ):
        ax.text(-110, 0, height, text, fontsize=8, ha="right")
    ax.text(-20, -10, top + 6, "centre piece", fontsize=8)
    ax.set_xlim(-110, 110)
    ax.set_ylim(0, 210)
    ax.set_zlim(0, zo + 10)
    ax.set_box_aspect((220, 210, zo + 10))
    ax.view_init(elev=22, azim=-62)
    ax.set_axis_off()
    ax.set_title("Exploded view of one segment (the other five are the same, turned)")
    return _save(fig, path)


def render_all(g: KitGeometry, out_dir: Path) -> list[Path]:
    return [
        exploded_view(g, out_dir / "exploded.png"),
        tile_view(g, out_dir / "tile.png"),
        chain_view(g, out_dir / "chain.png"),
        bay_view(g, out_dir / "bay.png"),
    ]
