"""``haleakala bench ai --game kanaloa``: the search bot against random and greedy at three
and four players, and max^n against paranoid at three.

Why a benchmark of its own (Kanaloa's description names it as its ``bench`` hook): the
generic one (``ai_games``) plays the smallest player count and chooses who starts, and in
Kanaloa the Ku player begins (N13) and the interesting counts are three and four.

Against random or greedy: game ``i`` at ``n`` players uses seed ``i``; the search bot sits
at seat ``i mod n`` and every other seat is the opponent bot (each its own seed), so each
seat is played equally often over ``n`` games. A game shared at the top counts as that
share (1/k for k winners), as ``returns()`` has it; ``--first-game K`` starts at seed K, so
a second run adds fresh games to a first; the rate to beat is 1/n, the share of a
bot no better than its opponents. ``--vs ai-paranoid``: at three players the max^n bot, the
paranoid bot and a greedy bot fill the seats in each of the six orders in turn.

Budgets are iterations per decision (``--iterations``, default 32: the ``normal`` level), so
the figures are reproducible from the seeds on any machine; ``--budget SECONDS`` searches
by time instead. Think times are wall-clock seconds per decision where the search bot had a
choice (mean and nearest-rank p99), with the longest in CPU time of its thread beside them
(on a shared machine the wall clock counts time when the process did not run). Win rates
carry a 95 % Wilson score interval on the rounded share. The last lines are ``name: value``
figures for scripts.
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import dataclass

from haleakala.ai import make_bot
from haleakala.ai.pool import play_in_pool
from haleakala.ai.stats import ThinkLog, percentile, progress, wilson
from haleakala.gameapi import new_game

OPPONENTS = ("random", "greedy")
DEFAULT_GAMES = 12  # per pairing and player count: about 5 minutes on two loaded cores
DEFAULT_ITERATIONS = 32
DEFAULT_JOBS = 2
MAX_DECISIONS = 5_000  # a game still running then is stopped and not won (~350 is usual)
ORDERS = tuple(itertools.permutations(("ai", "ai-paranoid", "greedy")))


@dataclass(frozen=True)
class Match:
    players: int
    opponent: str  # "random", "greedy" or "ai-paranoid" (the three-bot match)
    index: int
    iterations: int | None
    budget: float | None

    def seats(self) -> tuple[str, ...]:
        """Who sits where: a search bot name or the opponent's, seat by seat."""
        if self.opponent == "ai-paranoid":
            return ORDERS[self.index % len(ORDERS)]
        me = self.index % self.players
        return tuple("ai" if p == me else self.opponent for p in range(self.players))


@dataclass(frozen=True)
class Outcome:
    players: int
    opponent: str
    rewards: dict[str, float]  # seat name -> its share of the win (0 for an unfinished game)
    finished: bool
    think_times: tuple[float, ...]  # the max^n search bot's
    iterations: int
    think_cpu_max: float


def play(match: Match) -> Outcome:
    """One complete game of Kanaloa between the seats of ``match``."""
    game = new_game("kanaloa", seed=match.index, players=match.players)
    names = match.seats()
    bots = []
    for p, name in enumerate(names):
        seed = 1_000 * (p + 1) + match.index
        if name in ("ai", "ai-paranoid"):
            bots.append(make_bot(name, seed=seed, game="kanaloa", iterations=match.iterations))
        else:
            bots.append(make_bot(name, seed=seed, game="kanaloa"))
    log = ThinkLog()
    decisions = 0
    while not game.is_terminal() and decisions < MAX_DECISIONS:
        p = game.decider
        bot = bots[p]
        if names[p] == "ai":
            decision = log.decide(bot, game, match.budget)  # type: ignore[arg-type]
        else:
            decision = bot.decide(game, match.budget)
        game.apply(decision)
        decisions += 1
    finished = game.is_terminal()
    rewards: dict[str, float] = {}
    for p, name in enumerate(names):
        share = float(game.returns()[p]) if finished else 0.0
        if name in ("ai", "ai-paranoid") or match.opponent != "ai-paranoid":
            key = name if name in ("ai", "ai-paranoid") else "opponents"
            rewards[key] = rewards.get(key, 0.0) + share
        else:
            rewards[name] = share
    return Outcome(match.players, match.opponent, rewards, finished, *log.figures())


def _row(label: str, shares: list[float], times: list[float], base: float) -> str:
    games = len(shares)
    score = sum(shares)
    lo, hi = wilson(round(score), games)
    wins = sum(s == 1.0 for s in shares)
    mean = sum(times) / len(times) if times else 0.0
    return (
        f"{label:<22} {games:>5} {wins:>5} {score / games:>7.3f} {base:>6.3f} "
        f"{f'[{lo:.3f}, {hi:.3f}]':>15} {mean:>12.4f} {percentile(times, 0.99):>11.4f}"
    )


def run(args: argparse.Namespace) -> int:
    from haleakala.core.errors import UsageError

    games = DEFAULT_GAMES if args.games is None else args.games
    jobs = DEFAULT_JOBS if getattr(args, "jobs", None) is None else args.jobs
    budget = getattr(args, "budget", None)
    iterations = getattr(args, "iterations", None)
    if budget is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    vs = getattr(args, "vs", None)
    players = getattr(args, "players", None)
    if games < 1:
        raise UsageError(f"--games must be at least 1 (games per pairing), got {games}")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 worker process, got {jobs}")
    if budget is not None and not budget > 0:
        raise UsageError(f"--budget must be a positive number of seconds, got {budget}")
    if iterations is not None and iterations < 1:
        raise UsageError(f"--iterations must be at least 1, got {iterations}")
    if vs not in (None, "ai-paranoid"):
        raise UsageError(f"--vs {vs}: Kanaloa's search bot is measured against ai-paranoid")
    if players is not None and players not in (2, 3, 4):
        raise UsageError(f"--players {players}: Kanaloa is for 2, 3 or 4 players")
    if vs is not None and players not in (None, 3):
        raise UsageError("--vs ai-paranoid: max^n and paranoid are compared at 3 players")
    first = getattr(args, "first_game", None) or 0
    if first < 0:
        raise UsageError(f"--first-game must be 0 or more, got {first}")
    counts = (players,) if players is not None else (3, 4)
    if vs is not None:
        matches = [Match(3, vs, i, iterations, budget) for i in range(first, first + games)]
    else:
        matches = [Match(n, o, i, iterations, budget)
                   for n in counts for o in OPPONENTS
                   for i in range(first, first + games)]  # fmt: skip
    how = f"{iterations} iterations" if budget is None else f"{budget:g} s"
    what = "max^n (ai) vs paranoid (ai-paranoid) vs greedy, 3 players, seats rotated"
    if vs is None:
        what = f"search bot (ai, max^n) vs {' and '.join(OPPONENTS)} at {counts} players"
    print(
        f"kanaloa: {what}: {games} games each (seeds {first}..{first + games - 1}), {how} per "
        f"decision, {jobs} worker process(es)"
    )
    began = time.perf_counter()
    outcomes = play_in_pool(play, matches, jobs, lambda done: progress(len(done), len(matches)))
    elapsed = time.perf_counter() - began
    print(
        f"{'pairing':<22} {'games':>5} {'wins':>5} {'share':>7} {'1/n':>6} {'95% CI':>15} "
        f"{'think_mean_s':>12} {'think_p99_s':>11}"
    )
    figures: dict[str, float] = {}
    if vs is not None:
        for name in ("ai", "ai-paranoid", "greedy"):
            shares = [o.rewards[name] for o in outcomes]
            times = [t for o in outcomes for t in o.think_times] if name == "ai" else []
            print(_row(f"{name} (3p)", shares, times, 1 / 3))
            figures[f"share_{name}_3p"] = sum(shares) / len(shares)
    else:
        for n in counts:
            for opponent in OPPONENTS:
                rows = [o for o in outcomes if o.players == n and o.opponent == opponent]
                shares = [o.rewards["ai"] for o in rows]
                times = [t for o in rows for t in o.think_times]
                print(_row(f"ai-vs-{opponent} ({n}p)", shares, times, 1 / n))
                figures[f"share_vs_{opponent}_{n}p"] = sum(shares) / len(shares)
    times = [t for o in outcomes for t in o.think_times]
    print(f"games: {len(outcomes)}")
    print(f"unfinished_games: {sum(not o.finished for o in outcomes)}")
    print(f"elapsed_s: {elapsed:.1f}")
    print(f"iterations_per_decision: {iterations if budget is None else 'by time'}")
    print(f"decisions_searched: {len(times)}")
    print(f"iterations_mean: {sum(o.iterations for o in outcomes) / max(len(times), 1):.0f}")
    print(f"think_s_mean: {sum(times) / max(len(times), 1):.4f}")
    print(f"think_s_p99: {percentile(times, 0.99):.4f}")
    print(f"think_cpu_s_max: {max((o.think_cpu_max for o in outcomes), default=0.0):.4f}")
    for key, value in figures.items():
        print(f"{key}: {value:.3f}")
    return 0
