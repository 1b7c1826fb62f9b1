"""``haleakala kit check``: prove from the geometry and the config that the printed kit works.

Every zone of every segment has a pixel inside its polygon and clear of its walls; every
beach has its sensor inside the beach; consecutive pixels on the chain are no further apart
than the wire in the BOM allows; every printed part fits the bed; the config's zone map lights
the very pixels the placement puts under each zone; the game's pieces (as assumed in the
geometry) fit their zones. Each failure is one sentence naming the zone, pixel or part and
the fix. Pure arithmetic on the standard library, so ``config check`` runs it on a Pi too.

``haleakala kit parts`` (``kit.parts``, the ``cad`` extra) regenerates hw/placement.json and
the part files; ``--check`` compares them with what is committed, as CI does.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

from haleakala.cli import INSTALLED_CONFIG, UsageError, add_config_option
from haleakala.kit.fits import Fit, check_fits
from haleakala.kit.geometry import (
    ZONES,
    GeometryError,
    KitGeometry,
    default_geometry,
    load_geometry,
)
from haleakala.kit.light import light_problems, light_report
from haleakala.kit.refusals import landing_problems
from haleakala.kit.shapes import Point, edge_distance, inside, rotate
from haleakala.kit.zonecheck import check_config, zone_name

__all__ = ["edge_distance", "inside"]


def check_zones_lit(g: KitGeometry) -> list[str]:
    """Every (segment, zone) has pixels, each inside its zone's polygon (how far their boards
    stand from the walls is a fit: ``kit.fits``)."""
    problems = []
    pixels = g.pixels()
    for segment in range(g.segments):
        for zone in ZONES:
            polygon = g.zone_polygon(segment, zone)
            mine = [p for p in pixels if p.segment == segment and p.zone == zone]
            if not mine:
                problems.append(
                    f"{zone_name(segment, zone)} has no pixel: it stays dark; add "
                    f'["{zone}", x, y] to [pixels] order in the geometry'
                )
                continue
            for p in mine:
                if not inside((p.x, p.y), polygon):
                    problems.append(
                        f"pixel {p.index} ({zone_name(segment, zone)}) at "
                        f"({p.x:.1f}, {p.y:.1f}) mm "
                        f"lies outside the {zone}'s polygon: move it into the {zone} in "
                        "[pixels] order"
                    )
    return problems


def _turn(point: Point, segment: int, g: KitGeometry) -> Point:
    return rotate(point, segment, g.segments)


def check_sensors(g: KitGeometry, kit: str) -> list[str]:
    """Every beach's sensor lies inside that beach: the button's post (buttons kit) or the
    landing mark over the reader's antenna (RFID kit)."""
    problems = []
    outline = g.post_rect() if kit != "rfid" else g.landing_mark()
    for sensor in g.beach_sensors(kit):
        beach = g.zone_polygon(sensor.segment, "beach")
        turned = [_turn(q, sensor.segment, g) for q in outline]
        if not inside((sensor.x, sensor.y), beach) or not all(inside(q, beach) for q in turned):
            key = "beach_sensor.button" if kit != "rfid" else "beach_sensor.centre"
            problems.append(
                f"segment {sensor.segment}'s beach {sensor.kind} at ({sensor.x:.1f}, "
                f"{sensor.y:.1f}) mm is not inside its beach: move {key} into the "
                f"beach band ({g.bands['beach'][0]:g}-{g.bands['beach'][1]:g} mm out)"
            )
    return problems


def check_chain(g: KitGeometry) -> list[str]:
    """Consecutive pixels are within reach of the wire between them (routed, not straight)."""
    problems = []
    pixels = g.pixels()
    for a, b in itertools.pairwise(pixels):
        wire = math.hypot(b.x - a.x, b.y - a.y) * g.routing_factor
        same = a.segment == b.segment
        limit = g.link_mm if same else g.tile_link_mm
        if wire > limit:
            what = (
                "chain.link_mm (the 3-core wire on a tile)"
                if same
                else ("chain.tile_link_mm (two JST pigtails)")
            )
            problems.append(
                f"pixels {a.index} ({zone_name(a.segment, a.zone)}) and {b.index} "
                f"({zone_name(b.segment, b.zone)}) need about {wire:.0f} mm of wire, more than "
                f"{what} = {limit:g} mm: put them closer in the chain order or use longer wire "
                "(and change the BOM and the geometry together)"
            )
    return problems


def check_bed(g: KitGeometry) -> list[str]:
    """Every printed part fits the bed (either way round), less the slicer's margin."""
    bw, bd = (v - 2 * g.bed_margin for v in g.bed)
    problems = []
    seen = set()
    for part in g.parts():
        stem = part.file.rsplit(".", 1)[0]
        if not part.printed or stem in seen:
            continue
        seen.add(stem)
        (x0, y0, _), (x1, y1, _) = part.bbox
        w, d = x1 - x0, y1 - y0
        if not ((w <= bw and d <= bd) or (d <= bw and w <= bd)):
            problems.append(
                f"part {stem} is {w:.1f} x {d:.1f} mm, too big for the {g.bed[0]:g} x "
                f"{g.bed[1]:g} mm bed (less {g.bed_margin:g} mm each side): shrink the bands "
                "or the console in the geometry, or set bed.size to your printer's"
            )
    return problems


def check_pieces(g: KitGeometry) -> list[str]:
    """The game's pieces (as the geometry assumes them) fit the cells they are put on."""
    problems = []

    def depth(band: str) -> float:
        inner, outer = g.bands[band]
        return outer - inner - g.wall

    fits = [
        ("disc", float(g.pieces.get("disc", 0)), "beach"),
        ("lava", float(g.pieces.get("lava", 0)), "crater"),
        ("statue", float(g.pieces.get("statue", 0)), "grassland"),
        ("statue", float(g.pieces.get("statue", 0)), "forest"),
        ("statue", float(g.pieces.get("statue", 0)), "mountain"),
        ("shaman", float(g.pieces.get("shaman", 0)), "mountain"),
        ("boat", float(list(g.pieces.get("boat", [0, 0]))[1]), "water"),
    ]
    for piece, size, band in fits:
        if size > depth(band):
            problems.append(
                f"the {piece} ({size:g} mm, pieces.{piece}) does not fit the {band} "
                f"({depth(band):g} mm between its walls): widen bands.{band}"
            )
    card = [float(v) for v in g.pieces.get("card", [0, 0])]
    if card[0] > g.slot_size[0] or card[1] > g.slot_size[1]:
        problems.append(
            f"a card ({card[0]:g} x {card[1]:g} mm, pieces.card) is bigger than its slot window "
            f"({g.slot_size[0]:g} x {g.slot_size[1]:g} mm): enlarge slots.size"
        )
    return problems


def check_all(g: KitGeometry, leds: object, kit: str) -> list[str]:
    """Every problem of the kit ``g`` with this config's ``[leds]`` and ``kit``: the zones, the
    sensors, the chain, the bed, the pieces, the zone map, every fit, and the light (its
    contrast at the config's brightness)."""
    brightness = float(getattr(leds, "brightness", 0.3))
    return (
        check_zones_lit(g)
        + check_sensors(g, kit)
        + check_chain(g)
        + check_bed(g)
        + check_pieces(g)
        + check_config(g, leds)
        + [f.sentence() for f in check_fits(g) if not f.ok]
        + light_problems(g, "buttons" if kit != "rfid" else "rfid", brightness)
        + (landing_problems(g) if kit == "rfid" else [])
    )


def report(g: KitGeometry, leds: object, kit: str) -> dict[str, object]:
    """``kit check --json``: per zone its light (coverage, bleed, contrast per palette mode
    and role), per part its fit and clearance in mm, and every problem."""
    brightness = float(getattr(leds, "brightness", 0.3))
    problems = check_all(g, leds, kit)
    fits: list[Fit] = check_fits(g)
    return {
        "ok": not problems,
        "kit": kit,
        "brightness": brightness,
        "pixels": len(g.pixels()),
        "zones": {
            zone: {"light": light.to_json()}
            for zone, light in light_report(
                g, "buttons" if kit != "rfid" else "rfid", brightness
            ).items()
        },
        "targets": {
            "coverage": g.light.coverage_target,
            "threshold": g.light.threshold,
            "bleed": g.light.bleed_target,
            "contrast": g.light.contrast_target,
            "room_lux": g.light.room_lux,
        },
        "parts": [{"part": f.part, **f.to_json()} for f in fits],
        "problems": problems,
    }


# --------------------------------------------------------------------------- command


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "kit",
        help="prove the printed kit works (check), regenerate its parts (parts)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="prove every zone lit, every sensor in its beach, every part fits"
    )
    add_config_option(check, INSTALLED_CONFIG + ", else the built-in defaults")
    check.add_argument(
        "--geometry", metavar="FILE", type=Path, help="a geometry TOML (default: the kit's own)"
    )
    check.add_argument(
        "--json",
        action="store_true",
        help="print the report as JSON: every zone's light and every part's fit, the boards, "
        "the harness, the power scheme and the bay (exit 1 if anything fails)",
    )
    check.set_defaults(func=run_check)
    parts = actions.add_parser(
        "parts",
        help="regenerate hw/placement.json, hw/parts/ and the assembly drawings (cad extra)",
    )
    parts.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 naming stale files"
    )
    parts.add_argument("--hw", metavar="DIR", type=Path, default=None, help="the hw/ directory")
    parts.set_defaults(func=run_parts)
    boards = actions.add_parser(
        "boards",
        help="regenerate the carrier boards' KiCad projects (hw/boards/); with kicad-cli, "
        "ERC, DRC and the fab files",
    )
    add_config_option(boards, "the default kit (hw/config.example.toml)")
    boards.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 naming stale files"
    )
    boards.add_argument("--out", metavar="DIR", type=Path, default=None, help="hw/boards/")
    boards.add_argument(
        "--export",
        metavar="DIR",
        type=Path,
        default=None,
        help="also run kicad-cli: ERC, DRC, Gerbers, drill, BOM, placement, netlist into DIR",
    )
    boards.add_argument(
        "--renders", action="store_true", help="with --export: draw hw/assembly/board_*.png"
    )
    boards.add_argument(
        "--vendor",
        action="store_true",
        help="copy the footprints and symbols the boards use from an installed KiCad 9",
    )
    boards.set_defaults(func=run_boards)


def load_for_check(path: Path | None) -> KitGeometry:
    if path is None:
        return default_geometry()
    if not path.is_file():
        raise UsageError(f"geometry file {path} does not exist (check the path)")
    try:
        return load_geometry(path.read_text(encoding="utf-8"))
    except (GeometryError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: {exc}") from None


def run_check(args: argparse.Namespace) -> int:
    from haleakala.kit.common import load_for_kit
    from haleakala.kit.kitreport import check_electrics
    from haleakala.kit.kitreport import report as report_electrics

    g = load_for_check(args.geometry)
    config, label = load_for_kit(args.config)
    problems = check_all(g, config.leds, config.kit) + check_electrics(g, config)
    if args.json:
        data = report(g, config.leds, config.kit)
        data.update(report_electrics(g, config, problems))
        print(json.dumps({"config": label, **data}, indent=1, ensure_ascii=False))
        return 0 if data["ok"] else 1
    for problem in problems:
        print(problem)
    if problems:
        print(f"kit check: {len(problems)} problem(s) (config: {label})", file=sys.stderr)
        return 1
    n = len(g.pixels())
    from haleakala.kit.power_scheme import scheme

    power = scheme(g, config)
    print(
        f"kit OK: {g.segments} segments x {len(ZONES)} zones lit by {n} pixels, "
        f"{g.segments} beach {'readers' if config.kit == 'rfid' else 'buttons'} in their "
        f"beaches, chain gaps within the wire, every part fits the {g.bed[0]:g} x "
        f"{g.bed[1]:g} mm bed, {len(check_fits(g))} fits with their clearance, every zone's "
        f"light on target, the {config.model} fits the bay, the tile ribbons fit their "
        f"notches, the last pixel gets {power.full_white.last_pixel_v:.2f} V at full white "
        f"behind a {power.main_fuse_a:g} A fuse (config: {label})"
    )
    return 0


def run_boards(args: argparse.Namespace) -> int:
    from haleakala.kit.boards import command

    return command.run(args)


def run_parts(args: argparse.Namespace) -> int:
    try:
        from haleakala.kit import parts
    except ImportError as exc:
        from haleakala.checkout import install_hint

        raise UsageError(
            f"the CAD libraries are missing ({exc.name}): {install_hint('cad')} "
            "(a maker's desktop extra, not needed on the Pi)"
        ) from None
    return parts.run(args)
