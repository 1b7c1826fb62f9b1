"""The statistics every benchmark reports with: a nearest-rank percentile and a Wilson interval.

One definition each, so a p99 printed by ``bench daemon`` and one printed by ``bench ai`` mean
the same thing. Both are a few lines of arithmetic; the standard library's
``statistics.quantiles`` interpolates (it reports values that were never measured) and has
no proportion interval, and a statistics package is not worth its weight for two formulas.
"""

from __future__ import annotations

import math
import sys
import time
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


class ThinkLog:
    """A search bot's think times over one game: wall-clock seconds per decision where it
    had a choice (forced decisions return at once and are left out), the iterations searched
    in them, and the longest in CPU time of the bot's thread (on a shared machine the wall
    clock also counts time when the process was not running at all)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.iterations = 0
        self.cpu_max = 0.0

    def decide(self, bot: Any, game: Any, budget: float) -> int:
        """``bot``'s decision in ``game`` within ``budget`` seconds, timed."""
        forced = len(game.legal_actions()) == 1
        began, cpu = time.perf_counter(), time.thread_time()
        decision = bot.decide(game, budget)
        spent, cpu = time.perf_counter() - began, time.thread_time() - cpu
        if not forced:
            self.times.append(spent)
            self.iterations += bot.last_iterations
            self.cpu_max = max(self.cpu_max, cpu)
        return decision

    def figures(self) -> tuple[tuple[float, ...], int, float]:
        """Think times, iterations and the longest in CPU time: an outcome's last fields."""
        return tuple(self.times), self.iterations, self.cpu_max
