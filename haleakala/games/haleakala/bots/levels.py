"""Playing levels defined by Elo, and the think time they need on this machine.

A level is an Elo target on the ladder of ``haleakala bench ai --ladder`` (greedy = 1000).
The ladder measures the search bot at several iteration budgets; its Elo grows roughly by
a fixed amount per doubling of the budget, so a target becomes an iteration budget
(``ELO_FIT``, from the ladder run in docs/benchmarks.md). Iterations are what make strength: a
Raspberry Pi 3 runs several times fewer per second than a laptop, so each level's time
budget is its iterations divided by the iterations per second measured on the running
machine (``calibrate``: a short search at first use, cached in the user's cache
directory), and a level plays as well on a Pi 3 as on a laptop, only slower.

Levels at or below greedy need no search: ``easy`` is the greedy bot itself (1000 by
definition, instant and reproducible), and ``child``, below it, is the greedy bot picking a
random decision half of the time (``simple.ChildBot``).
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from haleakala.games.haleakala import Game


@dataclass(frozen=True)
class Level:
    name: str
    elo: float  # target on the ladder (greedy = 1000)
    bot: str  # "child", "greedy" or "ai"

    def iterations(self) -> int | None:
        """The search budget that reaches the Elo target (None: not a search bot)."""
        if self.bot != "ai":
            return None
        intercept, per_doubling = ELO_FIT
        n = 2 ** ((self.elo - intercept) / per_doubling)
        return int(min(MAX_ITERATIONS, max(MIN_ITERATIONS, round(n))))

    def seconds(self, iterations_per_second: float) -> float | None:
        """Think time per decision on a machine that searches this fast."""
        n = self.iterations()
        return None if n is None else n / iterations_per_second


# Elo of ``ai`` at n iterations ≈ intercept + per_doubling · log2(n): the least-squares
# line of the ladder (``elo_fit_ai@…`` lines of ``haleakala bench ai --ladder --budgets
# 10,25,100,400,1600 --games 16``, docs/benchmarks.md): 1509 at 10, 1771 at 100, 2086 at 1,600.
# An Elo scale depends on the ladder that made it (one virtual draw per pairing pulls the
# ratings together, the more so the fewer games: with 4 games per pairing ai-v1@100 stood
# at 1355, with 16 at 1689), so the targets below are on this ladder's scale and keep what
# each level meant: ``normal`` as strong as the first wave's bot at its usual 100
# iterations, ``strong`` the strongest measured (ai@1600, 2066), about a second on a Pi.
ELO_FIT = (1247.0, 78.8)
MIN_ITERATIONS, MAX_ITERATIONS = 4, 20_000

LEVELS = {
    "child": Level("child", 950.0, "child"),  # ChildBot, measured 950 [861, 1030]
    "easy": Level("easy", 1000.0, "greedy"),  # the ladder's anchor: greedy is 1000
    "normal": Level("normal", 1700.0, "ai"),  # ≈ 54 iterations (ai-v1@100 measured 1689)
    # ≈ 1,460 iterations, inside the measured range (ai@1600: 2066 [1992, 2158]); ≈ 1.1 s
    # on a Pi-class 1,350 iterations/s.
    "strong": Level("strong", 2075.0, "ai"),
}

CALIBRATION_SECONDS = 0.5
_cached: float | None = None


def cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "haleakala" / "ai-calibration.json"


def _key() -> str:
    """What the speed depends on: the machine, the Python and this code's version."""
    from haleakala import __version__

    return f"{platform.machine()}|{platform.node()}|{sys.version.split()[0]}|{__version__}"


def calibrate(seconds: float = CALIBRATION_SECONDS, use_cache: bool = True) -> float:
    """Iterations per second of the search bot here: measured once, then cached."""
    global _cached
    if use_cache and _cached is not None:
        return _cached
    path = cache_file()
    key = _key()
    if use_cache:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") == key and data.get("iterations_per_second", 0) > 0:
                _cached = float(data["iterations_per_second"])
                return _cached
        except (OSError, ValueError, AttributeError):
            pass
    ips = measure(seconds)
    _cached = ips
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"key": key, "iterations_per_second": ips}), encoding="utf-8")
    except OSError:
        pass  # a read-only home: measure again next time
    return ips


def measure(seconds: float) -> float:
    """Iterations per second over a few typical positions of a game."""
    from .ismcts import SearchBot

    rng = random.Random(7)
    positions = []
    for seed in range(3):
        game = Game("base", seed)
        for _ in range(20 + 25 * seed):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        positions.append(game)
    done, began = 0, time.perf_counter()
    bot = SearchBot(seed=1)
    while True:
        for game in positions:
            bot.search(game, seconds / 6)
            done += bot.last_iterations
        spent = time.perf_counter() - began
        if spent >= seconds:
            return max(done / spent, 1.0)


def level_table(iterations_per_second: float) -> list[tuple[str, float, int | None, float | None]]:
    """(level, Elo target, iterations, seconds per decision) for the docs and the CLI."""
    return [
        (lv.name, lv.elo, lv.iterations(), lv.seconds(iterations_per_second))
        for lv in LEVELS.values()
    ]
