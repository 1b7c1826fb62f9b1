"""hw/OVERLAY.md: where each tile sits and which pixel lights which zone, generated from the
config's ``[leds]`` section through ``ZoneMap`` — the same object the daemon renders with — so
the maker's notes cannot drift from what the scenes light up."""

from __future__ import annotations

import math

from haleakala.config import Config
from haleakala.hal.base import SEGMENTS, ZONES, ZoneMap
from haleakala.hal.zones import RING_PIXELS

ZONE_MEANING = {
    "water": "the sea beside the segment: where the boat is",
    "beach": "the segment's beach: discs played there, the beach to press or read",
    "grassland": "the grassland statue space (shaman destinations, statue owner)",
    "forest": "the forest statue space",
    "mountain": "the mountain statue space",
    "crater": "the crater: lava on this segment, the eruption",
    "slot_a": "card slot a of the segment: a card on offer",
    "slot_b": "card slot b of the segment: a card on offer",
}
ABBREVIATION = {
    "water": "wat",
    "beach": "bea",
    "grassland": "gra",
    "forest": "for",
    "mountain": "mou",
    "crater": "cra",
    "slot_a": "s-a",
    "slot_b": "s-b",
}


def _ranges(indices: tuple[int, ...]) -> str:
    if not indices:
        return "–"
    return ", ".join(str(i) for i in indices)


def zone_of_pixel(zone_map: ZoneMap) -> list[str | None]:
    owner: list[str | None] = [None] * zone_map.pixels_per_ring
    for zone in ZONES:
        for i in zone_map.zones[zone]:
            owner[i] = zone
    return owner


def ring_picture(zone_map: ZoneMap, rx: int = 22, ry: int = 8) -> list[str]:
    """The ring seen from above, pixel 0 at the top (the sea), numbered around the ring."""
    owner = zone_of_pixel(zone_map)
    width, height = 2 * rx + 12, 2 * ry + 1
    grid = [[" "] * width for _ in range(height)]
    cx, cy = width // 2, ry
    for text, x, y in (("sea", cx - 1, 0), ("island centre", cx - 6, ry)):
        grid[y][x : x + len(text)] = list(text)
    n = zone_map.pixels_per_ring
    for i in range(n):
        angle = 2 * math.pi * i / n
        zone = owner[i]
        label = f"{i} {ABBREVIATION[zone] if zone else '---'}"
        x = round(cx + rx * math.sin(angle)) - len(label) // 2
        y = round(cy - ry * math.cos(angle))
        y = min(max(y, 0), height - 1)
        x = min(max(x, 0), width - len(label))
        if i == 0:
            y = 1
        grid[y][x : x + len(label)] = list(label)
    return ["".join(row).rstrip() for row in grid]


def overlay_markdown(config: Config) -> str:
    zone_map = ZoneMap.from_config(config.leds)
    ppr = zone_map.pixels_per_ring
    group = "ring" if ppr == RING_PIXELS else "tile"
    lines = [
        f"# Board overlay: {group}s and zones",
        "",
        "<!-- Generated from the config's [leds] section by `haleakala bom`: edit the config, "
        "not this file. -->",
        "",
        *(
            [
                f"One {ppr}-pixel ring sits under each of the {SEGMENTS} island segments, centred "
                "under",
                "the segment, LED side up against the underside of the board. All rings are "
                "mounted",
                "the same way: turn each so that **pixel 0** (the first pixel after the DIN pad) "
                "points",
                "at the sea, away from the island centre. (The older ring build: it lights a "
                "blob per",
                "segment, not each zone; the kit's board is in [ASSEMBLY.md](ASSEMBLY.md).)",
            ]
            if ppr == RING_PIXELS
            else [
                f"The kit's board: one WS2812B pixel in every zone's light cell, {ppr} on each "
                f"of the {SEGMENTS}",
                "segment tiles, chained from the crater out to slot b. Where each pixel sits, "
                "in mm:",
                "[placement.json](placement.json) (`haleakala kit check` proves every zone lit); "
                "how to build it:",
                "[ASSEMBLY.md](ASSEMBLY.md).",
            ]
        ),
        "The scenes never name pixels, only zones",
        "(below), so a different layout is a config change (`[leds]`), not a code change.",
        "",
        f"## {group.capitalize()}s on the data wire",
        "",
        f"Follow the data wire from the Pi: the first {group} is {group} 1. `leds.ring_order` "
        "says which",
        f"segment each {group} sits under; `haleakala selftest` lights {group} *n* with "
        "*segment + 1*",
        "pixels so a wrong order shows at once.",
        "",
        f"| {group.capitalize()} on the wire | Under segment | Chain pixels |",
        "|---:|---:|---|",
    ]
    for pos, segment in enumerate(zone_map.ring_order):
        first = pos * ppr
        lines.append(f"| {pos + 1} | {segment} | {first}–{first + ppr - 1} |")
    lines += [
        "",
        f"## Which pixel lights which zone (every {group})",
        "",
        "| Pixel | Zone | Shows |",
        "|---:|---|---|",
    ]
    for i, zone in enumerate(zone_of_pixel(zone_map)):
        shows = ZONE_MEANING[zone] if zone else "nothing (stays dark)"
        lines.append(f"| {i} | {zone or '–'} | {shows} |")
    missing = [z for z in ZONES if not zone_map.zones[z]]
    if missing:
        lines += ["", f"Zones with no pixel (never shown): {', '.join(missing)}."]
    lines += [
        "",
        *(
            [
                "## One ring seen from above",
                "",
                "Pixel numbers go round the way the ring's own data runs; if your ring counts "
                "the other",
                "way, the picture is mirrored (the self-test shows each zone in turn).",
                "",
                "```",
                *ring_picture(zone_map),
                "```",
                "",
                "Abbreviations: "
                + ", ".join(f"{ABBREVIATION[z]} = {z}" for z in ZONES)
                + ", --- = unused.",
                "",
            ]
            if ppr == RING_PIXELS
            else []
        ),
        "## Chain pixels of every zone",
        "",
        "The index on the whole chain (as the LED driver sees it) of each zone, by segment.",
        "",
        "| Segment | " + " | ".join(ZONES) + " |",
        "|---:|" + "---|" * len(ZONES),
    ]
    for segment in range(SEGMENTS):
        cells = [_ranges(zone_map.pixels_of(segment, z)) for z in ZONES]
        lines.append(f"| {segment} | " + " | ".join(cells) + " |")
    lines.append("")
    from haleakala.kit.tactile import overlay_section

    lines += overlay_section()  # the marks a player finds each beach by (kit.tactile)
    return "\n".join(lines)
