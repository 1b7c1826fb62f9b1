"""The config's half of the kit check: does ``[leds]`` light, for every zone of the printed
board, the pixels the geometry puts under it? Kept apart from ``kitcheck`` (the command) so
the config's own checks can run it without the command line: a swapped zone map lights the
wrong zones of a real board, so ``config check`` and the daemon refuse it like any error."""

from __future__ import annotations

from haleakala.kit.geometry import ZONES, KitGeometry


def zone_name(segment: int, zone: str) -> str:
    return f"segment {segment}'s {zone}"


def check_config(g: KitGeometry, leds: object) -> list[str]:
    """The config's zone map lights, for every (segment, zone), exactly the chain pixels the
    placement puts there."""
    from haleakala.hal.zones import ZoneMap

    try:
        zone_map = ZoneMap.from_config(leds)  # type: ignore[arg-type]
    except ValueError as exc:
        return [f"the config's [leds] is not a zone map ({exc}): run 'haleakala config check'"]
    pixels = g.pixels()
    fix = (
        f"set leds.pixels_per_ring = {g.pixels_per_tile}, leds.ring_order = "
        f"{list(g.segment_order)} and [leds.zones] as in hw/config.example.toml"
    )
    if zone_map.pixel_count != len(pixels):
        return [
            f"the config drives {zone_map.pixel_count} pixels ({zone_map.pixels_per_ring} per "
            f"segment) but the kit's board has {len(pixels)}: {fix}"
        ]
    problems = []
    placed: dict[tuple[int, str], list[int]] = {}
    for p in pixels:
        placed.setdefault((p.segment, p.zone), []).append(p.index)
    for segment in range(g.segments):
        for zone in ZONES:
            want = sorted(placed.get((segment, zone), []))
            have = sorted(zone_map.pixels_of(segment, zone))
            if want != have:
                problems.append(
                    f"{zone_name(segment, zone)}: the config lights chain pixels {have or 'none'} "
                    f"but the board has pixels {want or 'none'} under it: {fix}"
                )
    return problems


def applies_to(g: KitGeometry, leds: object) -> bool:
    """Whether the config describes the printed kit (single pixels, as many per segment as
    the board has) rather than a ring build, which this check cannot see."""
    return getattr(leds, "pixels_per_ring", None) == g.pixels_per_tile
