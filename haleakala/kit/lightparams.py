"""The optical model's figures (the geometry's ``[light]`` table), parsed: the pixel's
datasheet intensity, the diffuser and the overlay, the room, and the targets. ``kit.light``
explains how each figure is used."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LightParams:
    intensity_cd: tuple[float, float, float]
    """On-axis candela of the red, green and blue channel at full drive."""
    emitter_height: float
    """The pixel's emitting face above the floor (carrier PCB + package)."""
    diffuser_transmission: float
    diffuser_reflectance: float
    diffuser_spread: float
    paper_transmission: float
    paper_reflectance: float
    ink_transmission: float
    border: float
    """The overlay's printed border over each wall, full width."""
    room_lux: float
    grid: float
    threshold: float
    coverage_target: float
    bleed_target: float
    contrast_target: float


FRACTIONS = (
    "diffuser_transmission",
    "diffuser_reflectance",
    "paper_transmission",
    "paper_reflectance",
    "ink_transmission",
    "threshold",
    "coverage_target",
    "bleed_target",
)
LENGTHS = ("emitter_height", "diffuser_spread", "border", "room_lux", "grid", "contrast_target")


def parse_light(table: dict[str, Any], error: type[ValueError]) -> LightParams:
    """``[light]`` as ``LightParams``; a missing or out-of-range figure raises ``error``
    with a sentence naming the key."""

    def num(key: str) -> float:
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise error(f"geometry: light.{key} must be a number, got {value!r}")
        return float(value)

    values = {key: num(key) for key in FRACTIONS + LENGTHS}
    for key in FRACTIONS:
        if not 0 < values[key] <= 1:
            raise error(f"geometry: light.{key} must be a fraction in (0, 1], got {values[key]:g}")
    for key in LENGTHS:
        if values[key] <= 0:
            raise error(f"geometry: light.{key} must be more than 0, got {values[key]:g}")
    mcd = table.get("intensity_mcd")
    if not (
        isinstance(mcd, list)
        and len(mcd) == 3
        and all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in mcd)
    ):
        raise error(
            f"geometry: light.intensity_mcd must be three positive numbers [red, green, blue], "
            f"got {mcd!r}"
        )
    r, g, b = (float(v) / 1000 for v in mcd)
    return LightParams(intensity_cd=(r, g, b), **values)
