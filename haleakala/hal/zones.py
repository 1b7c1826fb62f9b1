"""The island's zones and where they sit on the LED chain: pure data and arithmetic.

Scenes speak in zones ("the crater of segment 3 glows red"), never in pixel indices: the
``ZoneMap`` (data from the config) is the only place that knows which pixel of which ring sits
under which part of the island, in which order the six rings are chained on the single data
line, how bright the kit may be and how much current the supply can give.

This module imports nothing from the project, so the config (which checks zone names) and the
HAL (which drives the rings) both build on it without importing each other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

SEGMENTS = 6
"""Island segments: one tile of single pixels each (or, on an older build, one ring each)."""

ZONES = ("water", "beach", "grassland", "forest", "mountain", "crater", "slot_a", "slot_b")
"""Named parts of a segment ring: boat/water, the beach, the three landscapes, the crater
(lava), and two card slots (the two cards offered)."""

MA_PER_CHANNEL = 20.0
"""Current drawn by one fully lit colour channel of a WS2812 (≈60 mA per white pixel)."""

Colour = tuple[int, int, int]
Pixel = tuple[int, int, int]
ZoneKey = tuple[int, str]
ZoneFrame = Mapping[ZoneKey, Colour]
"""(segment, zone) -> (r, g, b), 0..255 each. A zone missing from the frame is dark."""

DARK: Colour = (0, 0, 0)

DEFAULT_PIXELS_PER_SEGMENT = 33
"""The kit's board: WS2812B pixels in every zone's light cell, as many as the zone's light
target takes (``haleakala kit check``), 33 per segment tile."""

DEFAULT_ZONES: Mapping[str, tuple[int, ...]] = {
    "crater": (0, 1),
    "mountain": (2, 3, 4),
    "forest": (5, 6, 7, 8),
    "grassland": (9, 10, 11, 12, 13, 14),
    "beach": (15, 16, 17, 18, 19, 20),
    "water": (21, 22, 23, 24, 25, 26),
    "slot_a": (27, 28, 29),
    "slot_b": (30, 31, 32),
}
"""Pixels of each zone on a segment's tile, in the order the data wire visits them (from the
crater out to slot b): the kit's geometry (``haleakala/kit/data/geometry.toml``) places them,
and a test keeps the two equal."""

RING_PIXELS = 12
RING_ZONES: Mapping[str, tuple[int, ...]] = {
    "water": (0, 1),
    "beach": (2, 3),
    "grassland": (4,),
    "forest": (5,),
    "mountain": (6,),
    "crater": (7, 8),
    "slot_a": (9, 10),
    "slot_b": (11,),
}
"""The older build's layout: one 12-pixel ring under each segment, pixel 0 facing the sea.
Still supported through the config (``pixels_per_ring = 12`` and these ``[leds.zones]``); a
ring lights a blob per segment, not eight separate zones."""


class LedLayout(Protocol):
    """What ``ZoneMap.from_config`` reads: the ``[leds]`` section of the config
    (``haleakala.config.LedsConfig``), named structurally so this module needs no config."""

    @property
    def pixels_per_ring(self) -> int: ...
    @property
    def ring_order(self) -> Sequence[int]: ...
    @property
    def zones(self) -> Mapping[str, Sequence[int]]: ...
    @property
    def brightness(self) -> float: ...
    @property
    def current_limit_ma(self) -> float: ...


# --------------------------------------------------------------------------- pure LED maths


def estimate_current_ma(pixels: Iterable[Pixel]) -> float:
    """Current the LEDs draw for ``pixels``: (r+g+b)/255 × 20 mA summed over the chain."""
    return sum(r + g + b for r, g, b in pixels) * MA_PER_CHANNEL / 255.0


def apply_brightness(pixels: Sequence[Pixel], brightness: float) -> list[Pixel]:
    """Scale every channel by ``brightness`` (0..1), rounding to the nearest level."""
    if not 0.0 <= brightness <= 1.0:
        raise ValueError(f"brightness {brightness} is not between 0 and 1")
    if brightness == 1.0:
        return list(pixels)
    return [
        (round(r * brightness), round(g * brightness), round(b * brightness)) for r, g, b in pixels
    ]


def limit_current(pixels: Sequence[Pixel], limit_ma: float) -> tuple[list[Pixel], float]:
    """Scale the whole frame down uniformly so that it draws at most ``limit_ma``.

    Uniform scaling keeps the colours' proportions (a dim island still reads as the same
    picture) instead of clipping whichever pixels happen to come last. Channels are rounded
    down, so the result never exceeds the limit. Returns the pixels and the factor used
    (1.0 when the frame was within the limit).
    """
    if limit_ma < 0:
        raise ValueError(f"current limit {limit_ma} mA is negative")
    total = estimate_current_ma(pixels)
    if total <= limit_ma:
        return list(pixels), 1.0
    scale = limit_ma / total
    limited = [
        (math.floor(r * scale), math.floor(g * scale), math.floor(b * scale)) for r, g, b in pixels
    ]
    return limited, scale


def _check_colour(key: ZoneKey, colour: Colour) -> Colour:
    if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
        raise ValueError(f"zone {key}: colour {colour!r} is not three integers 0..255")
    return colour


class ZoneMap:
    """Where each (segment, zone) lives on the LED chain, and how hard the chain may be driven.

    ``ring_order`` lists segments in chain order: the first ring on the data line sits under
    segment ``ring_order[0]`` (makers follow the wire and write down what they see).
    ``zones`` maps a zone name to pixel indices within one ring; the same layout is used for
    every ring because the rings are mounted the same way under each segment. A zone not
    listed has no pixels. Brightness is applied here, not by the LED driver, so that the
    current limit is computed on what is really sent.
    """

    def __init__(
        self,
        pixels_per_ring: int = DEFAULT_PIXELS_PER_SEGMENT,
        ring_order: Sequence[int] = tuple(range(SEGMENTS)),
        zones: Mapping[str, Sequence[int]] | None = None,
        brightness: float = 1.0,
        current_limit_ma: float = math.inf,
    ) -> None:
        if pixels_per_ring < 1:
            raise ValueError(f"pixels_per_ring {pixels_per_ring} must be at least 1")
        if sorted(ring_order) != list(range(SEGMENTS)):
            raise ValueError(
                f"ring_order {list(ring_order)} must list each segment 0..5 exactly once"
            )
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness {brightness} is not between 0 and 1")
        if current_limit_ma < 0:
            raise ValueError(f"current limit {current_limit_ma} mA is negative")
        zones = DEFAULT_ZONES if zones is None else zones
        seen: dict[int, str] = {}
        for zone, indices in zones.items():
            if zone not in ZONES:
                raise ValueError(f"unknown zone {zone!r}: zones are {', '.join(ZONES)}")
            for i in indices:
                if not 0 <= i < pixels_per_ring:
                    raise ValueError(
                        f"zone {zone}: pixel {i} is outside a {pixels_per_ring}-pixel ring"
                    )
                if i in seen:
                    raise ValueError(f"pixel {i} is in both zone {seen[i]} and zone {zone}")
                seen[i] = zone
        self.pixels_per_ring = pixels_per_ring
        self.ring_order = tuple(ring_order)
        self.zones: dict[str, tuple[int, ...]] = {z: tuple(zones.get(z, ())) for z in ZONES}
        self.brightness = brightness
        self.current_limit_ma = current_limit_ma
        start = {seg: pos * pixels_per_ring for pos, seg in enumerate(self.ring_order)}
        self._chain = {
            (seg, zone): tuple(start[seg] + i for i in self.zones[zone])
            for seg in range(SEGMENTS)
            for zone in ZONES
        }

    @classmethod
    def from_config(cls, leds: LedLayout) -> ZoneMap:
        """Build from the ``[leds]`` section of the config."""
        return cls(
            pixels_per_ring=leds.pixels_per_ring,
            ring_order=leds.ring_order,
            zones=leds.zones,
            brightness=float(leds.brightness),
            current_limit_ma=float(leds.current_limit_ma),
        )

    def __repr__(self) -> str:
        return (
            f"ZoneMap(pixels_per_ring={self.pixels_per_ring}, "
            f"ring_order={self.ring_order}, brightness={self.brightness}, "
            f"current_limit_ma={self.current_limit_ma})"
        )

    @property
    def pixel_count(self) -> int:
        return self.pixels_per_ring * SEGMENTS

    def pixels_of(self, segment: int, zone: str) -> tuple[int, ...]:
        """Chain indices of ``zone`` on ``segment``'s ring."""
        try:
            return self._chain[segment, zone]
        except KeyError:
            if zone not in ZONES:
                raise ValueError(f"unknown zone {zone!r}: zones are {', '.join(ZONES)}") from None
            raise ValueError(f"segment {segment!r} is not 0..{SEGMENTS - 1}") from None

    def layout(self, frame: ZoneFrame) -> list[Pixel]:
        """The chain's pixels for ``frame`` at full brightness and without the current limit."""
        pixels: list[Pixel] = [DARK] * self.pixel_count
        for key, colour in frame.items():
            segment, zone = key
            _check_colour(key, colour)
            for i in self.pixels_of(segment, zone):
                pixels[i] = (colour[0], colour[1], colour[2])
        return pixels

    def render(self, frame: ZoneFrame) -> list[Pixel]:
        """The pixels to send down the chain: zones laid out, brightness, current limit."""
        pixels = apply_brightness(self.layout(frame), self.brightness)
        return limit_current(pixels, self.current_limit_ma)[0]
