"""``haleakala bench ai --game NAME``: the game-agnostic search bot's win rates against the
random and greedy bots of any game in the registry, and its think times.

Why apart from ``bench``: that one measures Haleakala's own search with Haleakala's
variants; this one plays any ``GameState`` through the interface only, as the bot does.
Game ``i`` uses seed ``i``; with ``n`` players the search bot plays colour ``i mod n``
and the others are the opponent's bots; the starting player moves on every ``n`` games,
so each colour and start combination is played equally often. A draw counts as half a
win (reported apart).
Think times are wall-clock seconds per decision where the bot had a choice; on a shared
machine the maximum includes scheduler stalls, so the 99th percentile and the longest
think in CPU time of the bot's thread are printed beside it. Win rates carry a 95 % Wilson
score interval. The last lines are ``name: value`` figures for scripts.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from haleakala.ai import make_bot
from haleakala.ai.pool import play_in_pool
from haleakala.ai.search import DEFAULT_BUDGET, SearchBot
from haleakala.ai.stats import ThinkLog, percentile, progress, search_summary, wilson
from haleakala.gameapi import GAMES, describe, new_game

OPPONENTS = ("random", "greedy")
DEFAULT_GAMES = 100  # per opponent
DEFAULT_JOBS = 2
MAX_DECISIONS = 20_000  # a game still running then is stopped and not won


@dataclass(frozen=True)
class Match:
    game: str
    opponent: str
    index: int
    budget: float
    players: int = 2  # how many play: the search bot and ``players - 1`` simple bots

    @property
    def seats(self) -> int:
        return self.players

    @property
    def bot_player(self) -> int:
        return self.index % self.seats

    @property
    def start(self) -> int:
        return (self.index // self.seats) % self.seats


@dataclass(frozen=True)
class Outcome:
    opponent: str
    players: int
    reward: float  # 1 won, 0.5 drawn, 0 lost (or unfinished)
    finished: bool
    reason: str
    think_times: tuple[float, ...]
    iterations: int
    think_cpu_max: float


def play(match: Match) -> Outcome:
    """One complete game of the search bot against a simple bot."""
    probe = new_game(match.game, seed=match.index, players=match.players)
    start = probe.players[match.start]
    try:
        game = new_game(match.game, seed=match.index, players=match.players, start=start)
    except (TypeError, ValueError):  # a game whose start is its rules' (no ``start`` option)
        game = probe
    me = match.bot_player
    bot = SearchBot(seed=match.index)
    opponent = make_bot(match.opponent, seed=10_000 + match.index, game=match.game)
    log = ThinkLog()
    decisions = 0
    while not game.is_terminal() and decisions < MAX_DECISIONS:
        if game.decider == me:
            decision = log.decide(bot, game, match.budget)
        else:
            decision = opponent.decide(game)
        game.apply(decision)
        decisions += 1
    if not game.is_terminal():
        return Outcome(match.opponent, match.players, 0.0, False, "unfinished", *log.figures())
    result = game.result()
    reason = result.reason if result is not None else ""
    reward = float(game.returns()[me])
    return Outcome(match.opponent, match.players, reward, True, reason, *log.figures())


def run(args: argparse.Namespace) -> int:
    from haleakala.cli import UsageError

    name = args.game
    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    games = DEFAULT_GAMES if args.games is None else args.games
    budget = DEFAULT_BUDGET if args.budget is None else args.budget
    jobs = DEFAULT_JOBS if getattr(args, "jobs", None) is None else args.jobs
    if games < 1:
        raise UsageError(f"--games must be at least 1 (games per opponent), got {games}")
    if not budget > 0:
        raise UsageError(f"--budget must be a positive number of seconds, got {budget}")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 worker process, got {jobs}")
    counts = describe(name).player_counts
    if getattr(args, "players", None) is not None:
        if args.players not in counts:
            raise UsageError(f"--players {args.players}: {name} is played by {counts}")
        counts = (args.players,)
    # Every player count the rules allow (``--players`` one of them): with more players the
    # search bot meets that many simple bots of one kind.
    matches = [
        Match(name, o, i, budget, n) for n in counts for o in OPPONENTS for i in range(games)
    ]
    print(
        f"{name}: game-agnostic search bot (SO-ISMCTS) vs {' and '.join(OPPONENTS)}: "
        f"{games} games each per player count ({', '.join(map(str, counts))} players), "
        f"{budget:g} s per decision, {jobs} worker process(es)"
    )
    began = time.perf_counter()
    outcomes = play_in_pool(play, matches, jobs, lambda done: progress(len(done), len(matches)))
    elapsed = time.perf_counter() - began
    print(
        f"{'pairing':<14} {'games':>5} {'wins':>5} {'draws':>5} {'winrate':>7} {'95% CI':>15} "
        f"{'think_mean_s':>12} {'think_p99_s':>11} {'think_max_s':>11}"
    )
    rates: dict[str, float] = {}
    for n, opponent in ((n, o) for n in counts for o in OPPONENTS):
        rows = [o for o in outcomes if o.opponent == opponent and o.players == n]
        label = opponent if len(counts) == 1 else f"{opponent}-{n}p"
        wins = sum(o.reward == 1.0 for o in rows)
        draws = sum(o.reward == 0.5 for o in rows)
        score = sum(o.reward for o in rows)
        lo, hi = wilson(round(score), len(rows))
        times = [t for o in rows for t in o.think_times]
        mean = sum(times) / len(times) if times else 0.0
        rates[label] = score / len(rows)
        print(
            f"{'ai-vs-' + label:<14} {len(rows):>5} {wins:>5} {draws:>5} "
            f"{rates[label]:>7.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {mean:>12.4f} "
            f"{percentile(times, 0.99):>11.4f} {max(times, default=0.0):>11.4f}"
        )
    times = [t for o in outcomes for t in o.think_times]
    reasons: dict[str, int] = {}
    for o in outcomes:
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
    print("game ends: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for opponent in OPPONENTS:  # over every player count: the summary's two win rates
        rows = [o for o in outcomes if o.opponent == opponent]
        rates[opponent] = sum(o.reward for o in rows) / len(rows)
    search_summary(outcomes, elapsed, budget, rates)
    return 0
