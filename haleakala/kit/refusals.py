"""What makes a geometry refused when it is loaded: a cell that cannot hold its light target,
a part bigger than its pocket (or any other fit short of its clearance), a landing mark off
its antenna or outside its beach's lit spot. Each is one sentence naming the part, the figure
and the fix (``load_geometry`` raises the first; ``kit check`` prints them all)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala.kit.fits import check_fits
from haleakala.kit.light import Tile, light_problems, tile_fields

if TYPE_CHECKING:
    from haleakala.kit.geometry import KitGeometry


def landing_problems(g: KitGeometry) -> list[str]:
    """The RFID kit's landing mark lies in the beach's lit spot: every point of it at least
    ``light.threshold`` of the beach's peak, with the beach's own pixels lit."""
    tile = Tile(g, "rfid")
    beach = tile_fields(g, "rfid")["beach"]
    cell = tile.cells["beach"]
    mark = g.landing_mark()
    outside = [p for p in mark if not cell.is_seen(p)]
    if outside:
        return [
            f"the landing mark (beach_sensor.landing = {g.landing:g} mm at "
            f"{list(g.sensor_centre)}) reaches past the beach's seen area: make it smaller "
            "or move beach_sensor.centre into the beach"
        ]
    least = min(tile.irradiance("beach", p) for p in (*mark, g.sensor_centre)) / beach.peak
    if least < g.light.threshold:
        return [
            f"the landing mark is lit at {least:.0%} of the beach's peak at its dimmest, less "
            f"than light.threshold = {g.light.threshold:.0%}: put beach pixels nearer "
            "beach_sensor.centre (either side of the mark) or make the mark smaller"
        ]
    return []


def refusals(g: KitGeometry) -> list[str]:
    """Every reason to refuse ``g``; empty when it can be built."""
    problems = light_problems(g, "buttons") + light_problems(g, "rfid")
    problems += [f.sentence() for f in check_fits(g) if not f.ok]
    problems += landing_problems(g)
    seen: set[str] = set()
    return [p for p in problems if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
