"""What Haleakala's lessons may point at (its description's ``lesson_zones``): the LED zones
of the board (``2.beach``, ``0.slot_a``), which the companion lights for a lesson's step."""

from __future__ import annotations


def zones() -> frozenset[str]:
    from haleakala.hal.zones import ZONES

    return frozenset(f"{s}.{z}" for s in range(6) for z in ZONES)
