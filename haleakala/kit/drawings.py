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

from haleakala.kit import bay
from haleakala.kit.envelopes import default_envelopes
from haleakala.kit.fits import button_post, reader_rects
from haleakala.kit.geometry import BAND_ZONES, ZONES, KitGeometry, rotate
from haleakala.kit.light import Tile

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
    tile = Tile(g, "rfid")
    for z in ZONES:  # each cell's lit spot (>= the threshold of its peak), RFID kit
        peak = max(tile.irradiance(z, q) for q in tile.seen_points(z))
        for q in tile.seen_points(z):
            if tile.irradiance(z, q) >= g.light.threshold * peak:
                ax.add_patch(
                    Rectangle((q[0] - 0.75, q[1] - 0.75), 1.5, 1.5, fc="#fff59d", lw=0, alpha=0.55)
                )
    wire = g.chain_path()
    ax.plot([p[0] for _k, p in wire], [p[1] for _k, p in wire], "-", color="#1b5e20", lw=1.0)
    for (x, y), angle in g.notches():
        ax.add_patch(
            Rectangle(
                (x - 2, y - 3),
                4,
                6,
                angle=math.degrees(angle),
                rotation_point="center",
                fc="#1565c0",
                ec="none",
                zorder=5,
            )
        )
    px = [(x, y) for _z, x, y in g.tile_pixels]
    for i, (x, y) in enumerate(px):
        ax.add_patch(Circle((x, y), 5, fc="#222", ec="#1b5e20", zorder=4))
        ax.add_patch(Rectangle((x - 2.5, y - 2.5), 5, 5, fc="#fff", zorder=5))
        ax.text(x + 4, y + 4, f"{i}", fontsize=6.5, color="#1b5e20", weight="bold", zorder=6)
    post = button_post(g)
    bx, by = g.button
    pw, pd = g.post
    ax.add_patch(Rectangle((bx - pw / 2, by - pd / 2), pw, pd, fc="#999", ec="#333", zorder=4))
    ax.add_patch(Circle((bx, by), post.cap_hole / 2, fc="none", ec="#c62828", lw=1.5, zorder=6))
    ax.annotate(
        "button post and cap (buttons kit)",
        (bx, by + pd / 2),
        (bx + 5, by + 34),
        fontsize=7,
        arrowprops={"arrowstyle": "->"},
    )
    board, room = reader_rects(g, default_envelopes())
    for poly, style in ((board, ":"), (room, "-.")):
        ax.add_patch(
            Polygon(poly, closed=True, fill=False, ls=style, ec="#6a1b9a", lw=0.9, zorder=4)
        )
    ax.add_patch(
        Polygon(g.antenna_rect(), closed=True, fill=False, ls="--", ec="#6a1b9a", lw=1.6, zorder=5)
    )
    ax.add_patch(
        Polygon(g.landing_mark(), closed=True, fc="#ffffff", ec="#000", lw=1.4, zorder=6, alpha=0.8)
    )
    sx, sy = g.sensor_centre
    ax.annotate(
        "landing mark over the antenna (RFID kit):\nlay the discs here",
        (sx, sy),
        (-108, 96),
        fontsize=7,
        color="#4a148c",
        arrowprops={"arrowstyle": "->", "color": "#4a148c"},
    )
    ax.text(
        -108,
        60,
        "dashed: antenna square; dotted: reader board;\ndash-dot: its plug's room "
        "(under the floor)",
        fontsize=6.5,
        color="#6a1b9a",
    )
    for hx, hy in g.floor_holes:
        ax.add_patch(
            Circle((hx, hy), g.hole_diameter / 2, fc="#fff", ec="#000", hatch="xx", zorder=4)
        )
    ax.annotate(
        "chain in (from the previous tile, under the floor)",
        g.floor_holes[1],
        (22, 8),
        fontsize=7,
        arrowprops={"arrowstyle": "->"},
    )
    ax.annotate(
        "chain out and sensor leads down",
        g.floor_holes[0],
        (30, 203),
        fontsize=7,
        arrowprops={"arrowstyle": "->"},
    )
    ax.text(70, 60, "blue: wall notches\n(the wire's path)", fontsize=7, color="#1565c0")
    ax.text(70, 40, "yellow: lit >= 25 %\nof the cell's peak", fontsize=7, color="#8d6e00")
    for side in (-1, 1):
        for r in g.bolt_radii:
            x, y = rotate((0.0, r), side, 12)
            ax.plot([x], [y], marker="o", color="#6d4c41", ms=4)
        for r in g.dowel_radii:
            x, y = rotate((0.0, r), side, 12)
            ax.plot([x], [y], marker="s", color="#ef6c00", ms=4)
    ax.text(-100, 120, "o M3 bolts (risers)\n\u25a0 3 mm dowels", fontsize=7, color="#6d4c41")
    ax.set_title(
        "One segment tile from above (segment 0): pixels in chain order, lit spots, landing mark "
        "and antenna (mm)",
        fontsize=9,
    )
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


BAY_COLOURS = {"board": "#2e7d32", "plug": "#ef6c00", "lid": "#1565c0", "boss": "#555"}


def bay_view(g: KitGeometry, path: Path) -> Path:
    """The electronics bay from above with every part's envelope: each Pi model's board
    (outlined; the models the tray takes share the standoffs), the hub board with the Pico on
    it, each plug with its cable's bend room, the lid's parts hanging below it, the screw
    bosses; and the lid."""
    e = default_envelopes()
    c = g.console
    cw, cd, _ = (float(v) for v in c["size"])
    fig, axes = plt.subplots(1, 2, figsize=(13, 7.0), gridspec_kw={"width_ratios": [1.6, 1]})
    tray, lid = axes
    for ax in axes:
        ax.add_patch(Rectangle((-cw / 2, -cd / 2), cw, cd, fc="#eceff1", ec="#333", lw=1.5))
        ax.set_aspect("equal")
        ax.set_xlim(-cw / 2 - 8, cw / 2 + 8)
        ax.set_ylim(-cd / 2 - 14, cd / 2 + 8)
        ax.grid(True, lw=0.3, alpha=0.5)
    x0, y0, x1, y1, _lid = bay.inner(g)
    tray.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ec="#999", lw=0.8))
    drawn: set[str] = set()  # a part the Pi models share is drawn once
    styles = {"pi4": "-", "pi5": "--", "pi3": ":"}
    for model in bay.held_models(g):
        for item in bay.items_for(g, e, model):
            key = f"{item.name} {item.box}"
            if key in drawn:
                continue
            drawn.add(key)
            bx0, by0, _z0, bx1, by1, _z1 = item.box
            colour = BAY_COLOURS[item.kind]
            dashed = item.kind == "lid"
            tray.add_patch(
                Rectangle(
                    (bx0, by0),
                    bx1 - bx0,
                    by1 - by0,
                    fill=item.kind in ("plug", "boss"),
                    fc=colour,
                    alpha=0.25 if item.kind == "plug" else 0.9,
                    ec=colour,
                    lw=1.0,
                    ls=styles.get(item.owner, "--" if dashed else "-"),
                )
            )
    for x, y, screw in bay.standoffs(g, e):
        tray.add_patch(Circle((x, y), bay.STANDOFF / 2, fc="#fff", ec="#333", lw=0.8))
        tray.add_patch(Circle((x, y), bay.PILOT[screw] / 2, fc="#333"))
    placed = bay.placements(g, e)
    for key, label in (
        ("pi4", "Raspberry Pi 4/5/3 (85 x 56)"),
        ("hub", "hub board:\n74AHCT125, fuses,\ntile headers"),
        ("pico", "Pico\n(RFID kit,\non the hub)"),
    ):
        fx0, fy0, fx1, fy1 = placed[key].footprint()
        tray.text((fx0 + fx1) / 2, (fy0 + fy1) / 2, label, ha="center", va="center", fontsize=7)
    sw = float(c["cable_slot"][0])
    tray.add_patch(Rectangle((-sw / 2, -cd / 2 - 3), sw, 6, fc="#b71c1c"))
    tray.text(0, -cd / 2 - 10, "six tile ribbons to the island", ha="center", fontsize=7)
    sy, sw, _sh = (float(v) for v in c["supply_slot"])
    tray.add_patch(Rectangle((-cw / 2 - 3, sy - sw / 2), 6, sw, fc="#f57f17"))
    tray.text(-cw / 2 + 5, sy + sw / 2 + 2, "5 V in", ha="left", fontsize=7)
    tray.set_title(
        "Tray from above: boards (green; Pi 4 solid, Pi 5 dashed, Pi 3 dotted), the hub,\n"
        "plugs with their cables' bend room (orange), lid parts hanging below it (blue), "
        "standoffs, lid screw bosses (mm)",
        fontsize=8,
    )
    ox, oy = (float(v) for v in c["oled_at"])
    ww, wd = (float(v) for v in c["oled_window"])
    oled = e.boards["oled"]
    lid.add_patch(
        Rectangle(
            (ox - oled.board[0] / 2, oy - oled.board[1] / 2),
            oled.board[0],
            oled.board[1],
            fc="#1565c0",
            alpha=0.2,
            ls="--",
            ec="#1565c0",
        )
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
    for x, y in bay.lid_bosses(g):
        lid.add_patch(Circle((x, y), bay.CLEAR[str(c["lid_screw"])] / 2, fc="#fff", ec="#333"))
    lid.set_title("Lid from above: the player's controls, four M3 screws", fontsize=9)
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
        (g.skirt + gap, g.skirt + gap + g.floor, "#455a64", 0.45, "tile floor"),
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
                fc="#546e7a",
                ec="#263238",
                lw=0.2,
                alpha=0.35,
            )
        )
    for _z, x, y in g.tile_pixels:
        ax.scatter([x], [y], [zt + 1], color="#2e7d32", s=18, depthshade=False)
    ax.add_collection3d(
        Poly3DCollection(_prism(g.post_rect(), zt, zt + g.post_height), fc="#616161", alpha=0.9)
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
    board, _room = reader_rects(g, default_envelopes())
    z_reader = g.skirt - 2.0
    ax.add_collection3d(
        Poly3DCollection(_prism(board, z_reader, z_reader + 1.6), fc="#6a1b9a", alpha=0.7)
    )
    ax.add_collection3d(
        Poly3DCollection([[(x, y, zo + 0.5) for x, y in g.landing_mark()]], fc="#4a148c", ec="#000")
    )
    r = g.centre_radius
    ring = tuple(
        (r * math.cos(a / 12 * math.pi), r * math.sin(a / 12 * math.pi)) for a in range(24)
    )
    top = g.skirt + g.tile_height + g.diffuser
    ax.add_collection3d(Poly3DCollection(_prism(ring, 0, top), fc="#8d6e63", alpha=0.8, lw=0))
    for height, text in (
        (
            g.skirt / 2,
            "1 riser: the reader taped under the beach (purple),\ncables, M3 bolts to "
            "neighbours, 3 mm dowels",
        ),
        (zt + 4, "2 tile (opaque filament): a light cell per zone,\nits pixels, the button's post"),
        (zd + 1, "3 diffuser: 3 mm opal acrylic (laser/diffuser.dxf)"),
        (zo, "4 overlay: the printed island, landing mark\nover the antenna (PDF at 1:1)"),
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
