"""The statistics every benchmark reports with: a nearest-rank percentile and a Wilson interval.

One definition each, so a p99 printed by ``bench daemon`` and one printed by ``bench ai`` mean
the same thing. Both are a few lines of arithmetic; the standard library's
``statistics.quantiles`` interpolates (it reports values that were never measured) and has
no proportion interval, and a statistics package is not worth its weight for two formulas.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any


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


def search_summary(
    outcomes: Sequence[Any], elapsed: float, budget: float, rates: dict[str, float]
) -> None:
    """The closing figures of a search-bot benchmark, the same for every game: each outcome
    has ``finished``, ``iterations``, ``think_times`` and ``think_cpu_max``."""
    times = [t for o in outcomes for t in o.think_times]
    print(f"games: {len(outcomes)}")
    print(f"unfinished_games: {sum(not o.finished for o in outcomes)}")
    print(f"elapsed_s: {elapsed:.1f}")
    print(f"budget_s: {budget:g}")
    print(f"decisions_searched: {len(times)}")
    print(f"iterations_mean: {sum(o.iterations for o in outcomes) / max(len(times), 1):.0f}")
    print(f"think_s_mean: {sum(times) / max(len(times), 1):.4f}")
    print(f"think_s_p99: {percentile(times, 0.99):.4f}")
    print(f"think_cpu_s_max: {max((o.think_cpu_max for o in outcomes), default=0.0):.4f}")
    print(f"winrate_vs_random: {rates['random']:.3f}")
    print(f"winrate_vs_greedy: {rates['greedy']:.3f}")
    print(f"think_s_max: {max(times, default=0.0):.4f}")


def progress(done: int, total: int) -> None:
    """A line on stderr every 5 % of the games, so a long run shows it is alive."""
    if done == total or done % max(1, total // 20) == 0:
        print(f"{done}/{total} games", file=sys.stderr, flush=True)
