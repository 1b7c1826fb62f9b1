"""``haleakala kit parts``: build the kit's parts from the geometry (``kit.geometry``).

3D prints (STL and STEP, build123d on OpenCASCADE): a segment tile (floor, light-cell walls
with a notch wherever the chain's wire crosses one, the button post's recess, the dowels'
half-holes), the riser under it (the cavity for the reader and the cables, the dowels'
half-bosses, bolt holes to its neighbours), the button post, the centre piece with its lip,
and the electronics bay (tray with a standoff for every board's hole, lid screwed to it). The
diffuser per tile (DXF at 1:1, through build123d's ezdxf exporter). The overlay: the island
at 1:1 as PDF (fpdf2), tiled onto A4 and A3 with registration marks, its borders over the
walls, the buttons' holes and the landing marks. ``hw/placement.json`` and ``hw/PLAN.md``
(filament and hours from the solids' volumes: ``kit.plan``).

Every file is deterministic (fixed STEP and PDF dates, ezdxf's fixed metadata, tessellation
at fixed tolerances), so CI regenerates them and ``--check`` compares bytes. The CAD
libraries are the ``cad`` extra: a maker's desktop, never the Pi.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import build123d as bd
import ezdxf
from fpdf import FPDF

from haleakala.kit import bay, fits
from haleakala.kit.common import REPO_ROOT, check_or_write
from haleakala.kit.envelopes import default_envelopes
from haleakala.kit.geometry import (
    BAND_ZONES,
    KitGeometry,
    Polygon,
    default_geometry,
    rotate,
)
from haleakala.kit.light import cells, sector_polygon
from haleakala.kit.placement import placement_json
from haleakala.kit.plan import estimate, plan_markdown
from haleakala.kit.shapes import LIP_THICKNESS, PAPER, RECESS

FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
"""Written into STEP headers and PDF info instead of the clock, so the bytes never drift."""
DOWEL_DEPTH = 1.5
"""How far a dowel enters a tile's floor from below (the floor is 2 mm)."""
DOWEL_IN_RISER = 8.5
"""How deep the dowel's hole goes into the risers' half-bosses."""
STL_TOLERANCE = (0.02, 0.2)  # linear mm, angular rad: round holes show as 30-odd facets
OVERLAY_LINE = 0.35
OVERLAY_TINT = {
    "sea": (226, 238, 248),
    "water": (200, 226, 246),
    "beach": (250, 240, 205),
    "grassland": (218, 240, 200),
    "forest": (196, 224, 190),
    "mountain": (226, 220, 210),
    "crater": (246, 212, 200),
}
"""Pale fills: the overlay lies over the light cells and must let the pixels through."""


# --------------------------------------------------------------------------- 2D helpers


def face(points: Polygon) -> bd.Face:
    return bd.Face(bd.Wire.make_polygon([bd.Vector(x, y, 0) for x, y in points], close=True))


def inset(shape: bd.Face, amount: float) -> bd.Face:
    result = bd.offset(shape, -amount, kind=bd.Kind.INTERSECTION)
    faces = result.faces()
    return faces[0]


def rect(cx: float, cy: float, w: float, d: float) -> bd.Face:
    return face(
        (
            (cx - w / 2, cy - d / 2),
            (cx + w / 2, cy - d / 2),
            (cx + w / 2, cy + d / 2),
            (cx - w / 2, cy + d / 2),
        )
    )


def open_cells(g: KitGeometry) -> bd.Sketch:
    """The light cells' insides on segment 0's tile (``kit.light.cells``: every zone inset by
    half a wall, by a whole edge wall at the tile's radial edges); the sea (unlit) around the
    two slot windows. The walls are the tile less these."""
    half = g.wall / 2
    light_cells = cells(g)
    faces: list[bd.Face] = [face(light_cells[z].outline) for z in BAND_ZONES]
    sea_inner, _ = g.bands["sea"]
    sea = face(
        sector_polygon(sea_inner + half, g.radius - g.edge_wall, g.edge_wall, g.arc_steps * 2)
    )
    for zone in ("slot_a", "slot_b"):
        window = face(g.tile_zone(zone))
        faces.append(face(light_cells[zone].outline))
        sea = sea - bd.offset(window, half, kind=bd.Kind.INTERSECTION)
    total = bd.Sketch() + faces
    return total + sea


def cylinder(x: float, y: float, z: float, d: float, h: float) -> bd.Part:
    return bd.Pos(x, y, z) * bd.Cylinder(
        d / 2, h, align=(bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN)
    )


def box(x: float, y: float, z: float, w: float, d: float, h: float) -> bd.Part:
    return bd.Pos(x, y, z) * bd.Box(w, d, h, align=(bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN))


# --------------------------------------------------------------------------- solids


def tile(g: KitGeometry) -> bd.Part:
    """One segment's tile, printed floor down: floor, walls, the chain's notches where its
    wires cross the walls, the cable holes, the button post's recess and the dowels'
    half-holes under its two edges."""
    outline = face(g.tile_outline())
    walls2d = outline - open_cells(g)
    part = bd.extrude(outline, g.floor, dir=(0, 0, 1)) + bd.extrude(
        walls2d, g.tile_height, dir=(0, 0, 1)
    )
    nw, nh = g.notch
    for (x, y), angle in g.notches():
        part -= (
            bd.Pos(x, y, g.floor)
            * bd.Rot(0, 0, math.degrees(angle))
            * bd.Box(g.wall + 6, nw, nh, align=(bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN))
        )
    for hx, hy in g.floor_holes:
        part -= cylinder(hx, hy, -1, g.hole_diameter, g.floor + 2)
    post = button_post(g)
    bx, by = g.button
    part -= box(bx, by, g.floor - RECESS, post.recess, post.recess, RECESS + 0.01)
    part -= box(bx, by, -1, post.hollow[0], post.hollow[1], g.floor + 2)
    for side in (-1, 1):
        for r in g.dowel_radii:
            x, y = rotate((0.0, r), side, 12)
            part -= cylinder(x, y, -1, g.dowel_hole, 1 + DOWEL_DEPTH)
    return part


def button_post(g: KitGeometry) -> fits.ButtonPost:
    return fits.button_post(g)


def button_post_part(g: KitGeometry) -> bd.Part:
    """The post under a beach's switch (buttons kit), standing in the tile's recess: the
    switch's body in the pocket on top, its legs and their wires down the hollow."""
    post = button_post(g)
    (pw, pd), h = g.post, post.height
    part = box(0, 0, -RECESS, pw, pd, h + RECESS)
    part -= box(0, 0, h - post.pocket_depth, post.pocket, post.pocket, post.pocket_depth + 1)
    part -= box(0, 0, -RECESS - 1, post.hollow[0], post.hollow[1], h + RECESS + 2)
    return part


def riser(g: KitGeometry) -> bd.Part:
    """The rim under a tile: a wall round the tile's outline with cable notches, the bolts to
    its neighbours and, at each joint, half-bosses for the dowels that key the tiles."""
    outline = face(g.tile_outline())
    ring = outline - inset(outline, g.wall)
    part = bd.extrude(ring, g.skirt, dir=(0, 0, 1))
    dowel_boss = 2 * (g.dowel_hole / 2 + g.min_wall + 1.0)
    for side in (-1, 1):
        for r in g.dowel_radii:
            x, y = rotate((0.0, r), side, 12)
            part += cylinder(x, y, 0, dowel_boss, g.skirt) & bd.extrude(outline, g.skirt)
    w, h = g.skirt_notch
    for side in (-1, 1):
        x, y = rotate((0.0, 100.0), side, 12)  # 30 degrees: on the tile's edge
        part -= (
            bd.Pos(x, y, g.skirt - h)
            * bd.Rot(0, 0, -30 * side)
            * bd.Box(g.wall * 4, w, h, align=(bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN))
        )
        for r in g.bolt_radii:
            bx, by = rotate((0.0, r), side, 12)
            part -= (
                bd.Pos(bx, by, g.skirt / 2)
                * bd.Rot(0, 0, -30 * side)
                * bd.Rot(0, 90, 0)
                * bd.Cylinder(g.bolt_hole / 2, g.wall * 4)
            )
        for r in g.dowel_radii:
            x, y = rotate((0.0, r), side, 12)
            part -= cylinder(x, y, g.skirt - DOWEL_IN_RISER, g.dowel_hole, DOWEL_IN_RISER + 1)
    rw, rh = g.cable_rim_notch
    part -= box(0, g.radius, g.skirt - rh, rw, g.wall * 6, rh)
    # Strain relief: a cable tie through a slot either side of the rim notch, round the
    # ribbons and the wall between.
    tw, th = g.cable_tie_slot
    for side in (-1, 1):
        part -= box(side * (rw / 2 + 4.0), g.radius, g.skirt - rh - th - 0.5, tw, g.wall * 6, th)
    return part


def centre(g: KitGeometry) -> bd.Part:
    """The summit: a plug in the ring of craters, its lip over their tips holding the tiles,
    diffusers and overlay down (print it upside down, the lip on the bed)."""
    total = g.stack_height + PAPER
    lip = g.centre_radius + g.centre_lip
    return cylinder(0, 0, 0, 2 * (g.centre_radius - 0.2), total) + cylinder(
        0, 0, total, 2 * lip, LIP_THICKNESS
    )


def console_tray(g: KitGeometry) -> bd.Part:
    c = g.console
    cw, cd, ch = (float(v) for v in c["size"])
    t = float(c["wall"])
    h = ch - t
    part = box(0, 0, 0, cw, cd, h) - box(0, 0, t, cw - 2 * t, cd - 2 * t, h)
    e = default_envelopes()
    for x, y, screw in bay.standoffs(g, e):
        part += cylinder(x, y, t - 0.5, bay.STANDOFF, bay.STANDOFF + 0.5)
        part -= cylinder(x, y, t, bay.PILOT[screw], bay.STANDOFF + 1)
    for x, y in bay.lid_bosses(g):
        part += cylinder(x, y, t - 0.5, bay.BOSS, h - t + 0.5)
        part -= cylinder(x, y, t + 2, bay.PILOT[str(c["lid_screw"])], h)
    # The tile cables to the island (the wall facing it, -y) and the supply (-x wall).
    sw, sh = (float(v) for v in c["cable_slot"])
    part -= box(0, -cd / 2, h - sh + 0.5, sw, t * 4, sh)
    sy, sw, sh = (float(v) for v in c["supply_slot"])
    part -= box(-cw / 2, sy, t + 4, t * 4, sw, sh)
    return part


def console_lid(g: KitGeometry) -> bd.Part:
    c = g.console
    cw, cd, _ = (float(v) for v in c["size"])
    t = float(c["wall"])
    e = default_envelopes()
    part = box(0, 0, 0, cw, cd, t)
    ox, oy = (float(v) for v in c["oled_at"])
    ww, wd = (float(v) for v in c["oled_window"])
    part -= box(ox, oy, -1, ww, wd, t + 2)
    oled = e.boards["oled"]
    bw, bh, _ = oled.board
    for hx, hy in oled.holes:
        part -= cylinder(ox - bw / 2 + hx, oy - bh / 2 + hy, -1, bay.CLEAR[oled.screw], t + 2)
    ex, ey = (float(v) for v in c["encoder_at"])
    part -= cylinder(ex, ey, -1, float(c["encoder_hole"]), t + 2)
    kx, ky = (float(v) for v in c["back_at"])
    part -= cylinder(kx, ky, -1, float(c["back_hole"]), t + 2)
    for x, y in bay.lid_bosses(g):
        part -= cylinder(x, y, -1, bay.CLEAR[str(c["lid_screw"])], t + 2)
    return part


SOLIDS = {
    "tile": tile,
    "riser": riser,
    "button_post": button_post_part,
    "centre": centre,
    "console_tray": console_tray,
    "console_lid": console_lid,
}


# --------------------------------------------------------------------------- files


@contextlib.contextmanager
def _fixed_dxf_metadata() -> Iterator[None]:
    old = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = old


def _via_file(suffix: str, write: Callable[[Path], object]) -> bytes:
    """Run an exporter that wants a path; return the bytes it wrote."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"part{suffix}"
        write(path)
        return path.read_bytes()


def stl_bytes(part: bd.Part) -> bytes:
    lin, ang = STL_TOLERANCE
    return _via_file(".stl", lambda p: bd.export_stl(part, p, lin, ang))


def step_bytes(part: bd.Part, name: str) -> bytes:
    part.label = name
    return _via_file(".step", lambda p: bd.export_step(part, p, timestamp=FIXED_DATE))


def dxf_bytes(shapes: list[bd.Face | bd.Sketch]) -> bytes:
    with _fixed_dxf_metadata():  # the document's creation stamp is taken when it is made
        exporter = bd.ExportDXF(unit=bd.Unit.MM)
        exporter.add_layer("cut")
        for s in shapes:
            for f in s.faces():
                exporter.add_shape(f.wires(), layer="cut")
        # ezdxf adds the CLASSES of the entity types in use from a set when it writes: their
        # order follows the process's string hashing. Add them now, sorted; the write then
        # finds them present and keeps this order.
        doc = exporter._document
        doc.classes.add_required_classes(doc.dxfversion)
        classes = doc.classes.classes
        ordered = sorted(classes.items(), key=lambda item: str(item[0]))
        classes.clear()
        classes.update(ordered)
        return _via_file(".dxf", exporter.write)


def diffuser(g: KitGeometry) -> bd.Face | bd.Sketch:
    """A tile's diffuser: the tile's outline (0.25 mm in, so six sheets lie side by side)
    and the button's hole; no cable holes (light would leak up through them)."""
    sheet = inset(face(g.tile_outline()), 0.25)
    bx, by = g.button
    return sheet - bd.Pos(bx, by) * bd.Circle(button_post(g).cap_hole / 2)


# --------------------------------------------------------------------------- overlay PDF


def overlay_pdf(g: KitGeometry, paper: str) -> bytes:
    """The island at 1:1 on as many ``paper`` sheets as it takes, portrait, 10 mm margins,
    10 mm overlap between neighbours, registration crosses on the shared grid and each
    sheet's place (row, column) printed in its corner."""
    pw, ph = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}[paper]
    margin, overlap = 10.0, 10.0
    win_w, win_h = pw - 2 * margin, ph - 2 * margin
    step_x, step_y = win_w - overlap, win_h - overlap
    r = g.radius + 2
    cols = max(1, -(-int((2 * r - overlap) * 100) // int(step_x * 100)))
    rows = max(1, -(-int((2 * r - overlap) * 100) // int(step_y * 100)))
    x0 = -(cols * step_x + overlap) / 2
    y1 = (rows * step_y + overlap) / 2  # top edge of the whole drawing, island frame
    pdf = FPDF(unit="mm", format=paper.upper())
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(f"Haleakala kit overlay, 1:1, {paper.upper()}")
    pdf.set_author("haleakala kit parts")
    pdf.set_auto_page_break(False)
    for row in range(rows):
        for col in range(cols):
            pdf.add_page()
            wx = x0 + col * step_x  # island x at the window's left edge
            wy = y1 - row * step_y  # island y at the window's top edge

            def page(x: float, y: float, wx: float = wx, wy: float = wy) -> tuple[float, float]:
                return margin + (x - wx), margin + (wy - y)

            with pdf.rect_clip(margin, margin, win_w, win_h):
                _draw_island(pdf, g, page)
            pdf.set_draw_color(0, 0, 0)
            pdf.set_line_width(0.2)
            for k in range(cols + 1):
                for m in range(rows + 1):
                    for gx in (x0 + k * step_x, x0 + k * step_x + overlap):
                        for gy in (y1 - m * step_y, y1 - m * step_y - overlap):
                            px, py = page(gx, gy)
                            if margin - 0.1 <= px <= pw - margin + 0.1 and (
                                margin - 0.1 <= py <= ph - margin + 0.1
                            ):
                                _cross(pdf, px, py)
            pdf.set_font("helvetica", size=7)
            pdf.set_text_color(0, 0, 0)
            pdf.text(
                margin,
                ph - margin / 2,
                f"Haleakala kit overlay 1:1 - sheet row {row + 1}/{rows}, column {col + 1}/"
                f"{cols} - check: the scale bar is 50 mm - overlap 10 mm, align the crosses",
            )
            pdf.set_line_width(0.5)
            pdf.line(pw - margin - 50, ph - margin / 2 - 1, pw - margin, ph - margin / 2 - 1)
    return bytes(pdf.output())


def _cross(pdf: FPDF, x: float, y: float) -> None:
    pdf.line(x - 4, y, x + 4, y)
    pdf.line(x, y - 4, x, y + 4)
    pdf.circle(x, y, 1.5)


def _draw_island(
    pdf: FPDF, g: KitGeometry, page: Callable[[float, float], tuple[float, float]]
) -> None:
    def outlines(segment: int) -> list[tuple[str, Polygon]]:
        sea = tuple(rotate(p, segment) for p in g.sector(*g.bands["sea"]))
        return [
            ("sea", sea),
            *((z, g.zone_polygon(segment, z)) for z in (*BAND_ZONES, "slot_a", "slot_b")),
        ]

    for segment in range(g.segments):  # the tints first, then every border over them
        for band, polygon in outlines(segment):
            pdf.set_fill_color(*OVERLAY_TINT.get(band, (255, 255, 255)))
            pdf.polygon([page(x, y) for x, y in polygon], style="F")
    pdf.set_line_width(g.light.border)  # printed over every wall: the light model's border
    pdf.set_draw_color(60, 60, 60)
    for segment in range(g.segments):
        for _band, polygon in outlines(segment):
            pdf.polygon([page(x, y) for x, y in polygon], style="D")
    for segment in range(g.segments):
        pdf.set_font("helvetica", size=9)
        pdf.set_text_color(40, 40, 40)
        for k, band in enumerate(("grassland", "forest", "mountain")):
            inner, _outer = g.bands[band]
            x, y = page(*rotate((0.0, inner + 6.5), segment))
            label = f"{segment}{'GFM'[k]}"
            pdf.text(x - pdf.get_string_width(label) / 2, y, label)
        x, y = page(*rotate((0.0, g.radius - 8), segment))
        label = f"segment {segment}"
        pdf.text(x - pdf.get_string_width(label) / 2, y, label)
        # The beach button's hole (buttons kit): cut it out after gluing the sheets.
        bx, by = page(*rotate(g.button, segment))
        pdf.set_line_width(OVERLAY_LINE)
        pdf.set_draw_color(200, 0, 0)
        pdf.circle(bx, by, button_post(g).cap_hole / 2)
        # The landing mark over the reader's antenna (RFID kit): lay the discs here.
        lx, ly = page(*rotate(g.sensor_centre, segment))
        pdf.set_draw_color(40, 20, 90)
        pdf.set_line_width(0.8)
        pdf.circle(lx, ly, g.landing / 2)
        pdf.set_line_width(0.3)
        pdf.circle(lx, ly, 1.0)
    pdf.set_draw_color(60, 60, 60)
    cx, cy = page(0.0, 0.0)
    pdf.set_fill_color(120, 90, 80)
    pdf.circle(cx, cy, g.centre_radius, style="DF")


# --------------------------------------------------------------------------- all files


def generate(g: KitGeometry, hw_dir: Path, kit: str = "buttons") -> dict[Path, bytes]:
    """Every file this command owns, as bytes, keyed by path."""
    parts_dir = hw_dir / "parts"
    files: dict[Path, bytes] = {hw_dir / "placement.json": placement_json(g, kit).encode()}
    copies = {p.file.rsplit("/", 1)[1].rsplit(".", 1)[0]: p.copies for p in g.parts()}
    estimates = []
    for name, build in SOLIDS.items():
        solid = build(g)
        files[parts_dir / "print" / f"{name}.stl"] = stl_bytes(solid)
        files[parts_dir / "print" / f"{name}.step"] = step_bytes(solid, name)
        box = solid.bounding_box()
        estimates.append(
            estimate(name, copies[name], solid.volume, solid.area, box.max.Z - box.min.Z)
        )
    files[hw_dir / "PLAN.md"] = plan_markdown(g, estimates).encode()
    files[parts_dir / "laser" / "diffuser.dxf"] = dxf_bytes([diffuser(g)])
    for paper in ("a4", "a3"):
        files[parts_dir / "overlay" / f"overlay_{paper}.pdf"] = overlay_pdf(g, paper)
    return files


def run(args: argparse.Namespace) -> int:
    hw_dir = args.hw or REPO_ROOT / "hw"
    g = default_geometry()
    files = generate(g, hw_dir)
    summary = f"{len(files)} files under {hw_dir}"
    code = check_or_write(files, args.check, "haleakala kit parts", summary)
    if args.check:
        return code
    from haleakala.kit import drawings

    for path in drawings.render_all(g, hw_dir / "assembly"):
        print(f"drew: {path}")
    return 0
