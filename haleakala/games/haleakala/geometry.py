"""The island's geometry (R1–R5, R8), read from ``data/board.toml``.

Everything a shaman move needs is precomputed once into plain tuples, because the
engine asks "where may this shaman go?" on every other decision of a game.

Land spaces (grassland, forest, mountain) are numbered ``segment * 3 + (band - 2)``;
the beaches where the shamans start (huts) are ``18 + segment``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

BAND_CODES = "WBGFMC"
# Notation digits: str.isdigit() also passes ² and ①, which int() cannot read.
ASCII_DIGITS = "0123456789"
WATER, BEACH, GRASSLAND, FOREST, MOUNTAIN, CRATER = range(6)
LAND_BANDS = (GRASSLAND, FOREST, MOUNTAIN)


@dataclass(frozen=True)
class Board:
    """Geometry and supply of the island, plus tables derived from them."""

    segments: int
    slots_per_segment: int
    heights: tuple[int, ...]  # by band index
    enterable: tuple[bool, ...]
    statue_points: tuple[int, ...]  # by land band offset (G, F, M)
    jetty: int
    huts: tuple[int, int]  # red, yellow
    discs: tuple[int, ...]
    statues: int
    lava_discs: int
    reach: tuple[tuple[int, ...], ...]  # shaman space → spaces ending a legal 1–2 step path

    @property
    def land_spaces(self) -> int:
        return self.segments * 3

    @property
    def slots(self) -> int:
        return self.segments * self.slots_per_segment

    def space_name(self, space: int) -> str:
        """Notation of a shaman space: ``3F``; a hut beach is ``4B``."""
        if space >= self.land_spaces:
            return f"{space - self.land_spaces}B"
        return f"{space // 3}{BAND_CODES[GRASSLAND + space % 3]}"

    def parse_space(self, text: str) -> int | None:
        if len(text) != 2 or text[0] not in ASCII_DIGITS:
            return None
        seg, band = int(text[0]), BAND_CODES.find(text[1].upper())
        if seg >= self.segments or band < 0:
            return None
        if band == BEACH:
            return self.land_spaces + seg
        if band in LAND_BANDS:
            return seg * 3 + band - GRASSLAND
        return None

    def slot_name(self, slot: int) -> str:
        return f"{slot // self.slots_per_segment}{'ab'[slot % self.slots_per_segment]}"

    def parse_slot(self, text: str) -> int | None:
        if len(text) != 2 or text[0] not in ASCII_DIGITS or text[1] not in "ab":
            return None
        seg = int(text[0])
        if seg >= self.segments:
            return None
        return seg * self.slots_per_segment + "ab".index(text[1])

    def band_of(self, space: int) -> int:
        return BEACH if space >= self.land_spaces else GRASSLAND + space % 3

    def segment_of(self, space: int) -> int:
        return space - self.land_spaces if space >= self.land_spaces else space // 3


def _neighbours(segments: int, seg: int, band: int) -> list[tuple[int, int]]:
    """R3: same band in neighbouring segments, neighbouring bands in the same segment."""
    out = [((seg + 1) % segments, band), ((seg - 1) % segments, band)]
    if band > BEACH:
        out.append((seg, band - 1))
    if band < CRATER:
        out.append((seg, band + 1))
    return out


def _reach_table(segments: int, heights: tuple[int, ...], enterable: tuple[bool, ...]):
    """R8: ends of paths of 1 or 2 steps, entering only enterable bands, ≤ 1 step uphill."""
    land = segments * 3

    def space(seg: int, band: int) -> int:
        return land + seg if band == BEACH else seg * 3 + band - GRASSLAND

    table = []
    for start in range(land + segments):
        if start >= land:
            seg0, band0 = start - land, BEACH
        else:
            seg0, band0 = start // 3, GRASSLAND + start % 3
        ends: set[int] = set()
        for seg1, band1 in _neighbours(segments, seg0, band0):
            if not enterable[band1]:
                continue
            up1 = heights[band1] > heights[band0]
            ends.add(space(seg1, band1))
            for seg2, band2 in _neighbours(segments, seg1, band1):
                if not enterable[band2]:
                    continue
                if up1 and heights[band2] > heights[band1]:
                    continue
                ends.add(space(seg2, band2))
        ends.discard(start)  # coming back is ">stay"
        table.append(tuple(sorted(ends)))
    return tuple(table)


def load_board(text: str | None = None) -> Board:
    """Read the board data (the packaged file unless ``text`` is given)."""
    if text is None:
        text = (
            resources.files("haleakala.games.haleakala")
            .joinpath("data/board.toml")
            .read_text("utf-8")
        )
    data = tomllib.loads(text)
    bands = data["bands"]
    codes = "".join(b["code"] for b in bands)
    if codes != BAND_CODES:
        raise ValueError(f"board data: bands must be {BAND_CODES!r} in that order, got {codes!r}")
    heights = tuple(int(b["height"]) for b in bands)
    enterable = tuple(bool(b["enterable"]) for b in bands)
    segments = int(data["segments"])
    if not 3 <= segments <= 10:
        raise ValueError("board data: segments must be 3..10 (one digit in the notation)")
    huts = data["start"]["huts"]
    return Board(
        segments=segments,
        slots_per_segment=int(data["slots_per_segment"]),
        heights=heights,
        enterable=enterable,
        statue_points=tuple(int(bands[b].get("statue_points", 0)) for b in LAND_BANDS),
        jetty=int(data["start"]["jetty"]),
        huts=(int(huts["red"]), int(huts["yellow"])),
        discs=tuple(int(v) for v in data["supply"]["discs"]),
        statues=int(data["supply"]["statues"]),
        lava_discs=int(data["supply"]["lava_discs"]),
        reach=_reach_table(segments, heights, enterable),
    )


@cache
def default_board() -> Board:
    return load_board()
