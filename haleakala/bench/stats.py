"""The statistics every benchmark reports with: a nearest-rank percentile and a Wilson interval.

One definition each, so a p99 printed by ``bench daemon`` and one printed by ``bench ai`` mean
the same thing. Both are a few lines of arithmetic; the standard library's
``statistics.quantiles`` interpolates (it reports values that were never measured) and has
no proportion interval, and a statistics package is not worth its weight for two formulas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank: always a value
    that was measured); 0 if there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % for z = 1.96); (0, 1) for no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
