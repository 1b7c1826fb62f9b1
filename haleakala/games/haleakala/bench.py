"""``haleakala bench ai``: the search bot's win rates against the simple bots, and how
long it thinks per decision.

Each pairing (search bot vs random, vs greedy) plays ``--games`` games per variant. Game
``i`` uses engine seed ``i``; the search bot plays red in even games and yellow in odd
ones, and the starting player alternates every two games, so every colour/start
combination is played equally often (the board is not symmetric: the jetty sits next to
red's hut). Games run in ``--jobs`` worker processes. Think times are wall-clock seconds
per decision where the bot had a choice (forced decisions return at once and are left
out); on a shared machine the maximum includes scheduler stalls (time when the bot's
process was not running at all), so the 99th percentile and the longest think in CPU time
of the bot's own thread are printed beside it. Win rates carry a 95 % Wilson score interval.

The last lines are ``name: value`` figures for scripts: ``winrate_vs_random``,
``winrate_vs_greedy`` (both variants pooled, at the budget used) and ``think_s_max``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from haleakala.ai import make_bot
from haleakala.ai.pool import play_in_pool
from haleakala.ai.stats import ThinkLog, percentile, progress, search_summary, wilson
from haleakala.games.haleakala import PLAYERS, VARIANTS, Game
from haleakala.games.haleakala.bots.ismcts import DEFAULT_BUDGET, SearchBot

OPPONENTS = ("random", "greedy")
DEFAULT_GAMES = 50  # per pairing and variant: 100 per pairing with both variants pooled
DEFAULT_JOBS = 2
# The rules let a game go on for ever (a player may place and take back discs without
# moving the boat); random games take ~400 decisions, so a game still running after this
# many is stopped and counted as not won by the search bot.
MAX_DECISIONS = 5000


@dataclass(frozen=True)
class Match:
    opponent: str
    variant: str
    index: int
    budget: float

    @property
    def bot_player(self) -> int:
        return self.index % 2

    @property
    def start(self) -> str:
        return PLAYERS[(self.index // 2) % 2]


@dataclass(frozen=True)
class Outcome:
    opponent: str
    variant: str
    won: bool
    finished: bool
    margin: int
    think_times: tuple[float, ...]  # seconds, one per decision where the bot had a choice
    iterations: int  # searched in all those decisions
    think_cpu_max: float  # the longest of those decisions in CPU time of the bot's thread


def play(match: Match) -> Outcome:
    """One complete game of the search bot against a simple bot."""
    game = Game(match.variant, match.index, start=match.start)
    me = match.bot_player
    bot = SearchBot(seed=match.index)
    opponent = make_bot(match.opponent, seed=10_000 + match.index)
    log = ThinkLog()
    while not game.is_terminal() and len(game.history) < MAX_DECISIONS:
        if game.decider == me:
            decision = log.decide(bot, game, match.budget)
        else:
            decision = opponent.decide(game)
        game.apply(decision)
    result = game.result()
    if result is None:
        return Outcome(match.opponent, match.variant, False, False, 0, *log.figures())
    margin = result.scores[me] - result.scores[1 - me]
    won = result.winner == PLAYERS[me]
    return Outcome(match.opponent, match.variant, won, True, margin, *log.figures())


def _check(args: argparse.Namespace) -> tuple[int, float, int]:
    from haleakala.core.errors import UsageError

    games = DEFAULT_GAMES if args.games is None else args.games
    budget = DEFAULT_BUDGET if args.budget is None else args.budget
    jobs = DEFAULT_JOBS if getattr(args, "jobs", None) is None else args.jobs
    if games < 1:
        raise UsageError(f"--games must be at least 1 (games per pairing and variant), got {games}")
    if not budget > 0:
        raise UsageError(f"--budget must be a positive number of seconds, got {budget}")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 worker process, got {jobs}")
    return games, budget, jobs


def run_haleakala(args: argparse.Namespace) -> int:
    """Haleakala's benchmark: its tuned search against the simple bots, ``--vs`` another
    search bot, or ``--ladder``."""
    if getattr(args, "vs", None):
        return run_vs(args)
    if getattr(args, "ladder", False):
        return run_ladder(args)
    games, budget, jobs = _check(args)
    matches = [
        Match(opponent, variant, i, budget)
        for opponent in OPPONENTS
        for variant in VARIANTS
        for i in range(games)
    ]
    print(
        f"search bot (ISMCTS) vs {' and '.join(OPPONENTS)}: {games} games per pairing and "
        f"variant, {budget:g} s per decision, {jobs} worker process(es)"
    )
    began = time.perf_counter()
    outcomes = play_in_pool(play, matches, jobs, lambda done: progress(len(done), len(matches)))
    elapsed = time.perf_counter() - began

    header = (
        f"{'pairing':<14} {'variant':<8} {'games':>5} {'wins':>5} {'winrate':>7} "
        f"{'95% CI':>15} {'margin':>6} {'think_mean_s':>12} {'think_p99_s':>11} "
        f"{'think_max_s':>11}"
    )
    print(header)
    pooled: dict[str, float] = {}
    for opponent in OPPONENTS:
        for variant in (*VARIANTS, "both"):
            rows = [
                o for o in outcomes if o.opponent == opponent and variant in (o.variant, "both")
            ]
            wins = sum(o.won for o in rows)
            lo, hi = wilson(wins, len(rows))
            times = [t for o in rows for t in o.think_times]
            mean = sum(times) / len(times) if times else 0.0
            finished = [o for o in rows if o.finished]
            margin = sum(o.margin for o in finished) / max(len(finished), 1)
            print(
                f"{'ai-vs-' + opponent:<14} {variant:<8} {len(rows):>5} {wins:>5} "
                f"{wins / len(rows):>7.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {margin:>+6.1f} "
                f"{mean:>12.4f} {percentile(times, 0.99):>11.4f} {max(times, default=0.0):>11.4f}"
            )
            if variant == "both":
                pooled[opponent] = wins / len(rows)
    times = [t for o in outcomes for t in o.think_times]
    search_summary(outcomes, elapsed, budget, pooled)
    return 0


# --------------------------------------------------------------------------- ai --vs


DEFAULT_VS_GAMES = 200
DEFAULT_VS_ITERATIONS = 100
DEFAULT_LADDER_GAMES = 8  # per pairing
DEFAULT_LADDER_BUDGETS = (25, 100, 400)


def _jobs(args: argparse.Namespace) -> int:
    from haleakala.core.errors import UsageError

    jobs = DEFAULT_JOBS if getattr(args, "jobs", None) is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 worker process, got {jobs}")
    return jobs


def run_vs(args: argparse.Namespace) -> int:
    """``ai`` at N iterations against another bot (ai-v1) at M (default 4N) iterations."""
    from haleakala.core.errors import UsageError
    from haleakala.games.haleakala.bots.arena import (
        Entrant,
        Pairing,
        iterations_per_second,
        play_all,
    )

    n = DEFAULT_VS_ITERATIONS if args.iterations is None else args.iterations
    m = 4 * n if args.opponent_iterations is None else args.opponent_iterations
    games = DEFAULT_VS_GAMES if args.games is None else args.games
    first = getattr(args, "first_game", None) or 0
    if n < 1 or m < 1:
        raise UsageError("--iterations and --opponent-iterations must be at least 1")
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    if first < 0:
        raise UsageError(f"--first-game must be 0 or more (a game's number), got {first}")
    try:
        challenger, opponent = Entrant("ai", n), Entrant.parse(f"{args.vs}@{m}")
    except ValueError as exc:
        raise UsageError(f"--vs: {exc}") from None
    jobs = _jobs(args)
    print(
        f"{challenger.label} vs {opponent.label}: {games} games (numbers {first}–"
        f"{first + games - 1}), both variants, colours and start alternating, "
        f"{jobs} worker process(es)"
    )
    began = time.perf_counter()
    pairings = [Pairing(challenger, opponent, i) for i in range(first, first + games)]
    played = play_all(pairings, jobs)
    elapsed = time.perf_counter() - began
    print(f"{'variant':<9}{'games':>6}{'score':>8}{'95% CI':>17}{'unfinished':>11}")
    for variant in (*VARIANTS, "both"):
        rows = [p for p in played if variant in (p.pairing.variant, "both")]
        if not rows:
            continue
        score = sum(p.score for p in rows)
        lo, hi = wilson(score, len(rows))  # type: ignore[arg-type]
        print(
            f"{variant:<9}{len(rows):>6}{score / len(rows):>8.3f}"
            f"{f'[{lo:.3f}, {hi:.3f}]':>17}{sum(not p.finished for p in rows):>11}"
        )
    score = sum(p.score for p in played)
    lo, hi = wilson(score, games)  # type: ignore[arg-type]
    ratio = m / n
    name = f"score_vs_{args.vs.removeprefix('ai-')}_{ratio:g}x"
    print(f"games: {games}")
    print(f"decisions_mean: {sum(p.decisions for p in played) / games:.0f}")
    print(f"elapsed_s: {elapsed:.1f}")
    print(f"iterations_per_s_{challenger.bot}: {iterations_per_second(played, challenger):.0f}")
    print(f"iterations_per_s_{opponent.bot}: {iterations_per_second(played, opponent):.0f}")
    print(f"{name}: {score / games:.3f} [{lo:.3f}, {hi:.3f}]")
    return 0


def run_ladder(args: argparse.Namespace) -> int:
    """Round robin of random, greedy, ai-v1 and ai at several budgets; Elo with 95 % CI."""
    from haleakala.core.errors import UsageError
    from haleakala.games.haleakala.bots.arena import (
        Entrant,
        fit_iterations,
        iterations_per_second,
        ladder_ratings,
        play_all,
        round_robin,
        scores_by_pair,
    )

    games = DEFAULT_LADDER_GAMES if args.games is None else args.games
    if games < 1:
        raise UsageError(f"--games must be at least 1 per pairing, got {games}")
    budgets: tuple[int, ...] = DEFAULT_LADDER_BUDGETS
    if getattr(args, "budgets", None):
        try:
            budgets = tuple(int(b) for b in args.budgets.split(","))
        except ValueError:
            raise UsageError(
                f"--budgets: whole numbers separated by commas, not {args.budgets!r}"
            ) from None
        if len(budgets) < 2 or min(budgets) < 1:
            raise UsageError("--budgets: at least two budgets, each at least 1 iteration")
    entrants = [Entrant("random"), Entrant("child"), Entrant("greedy")]
    entrants += [Entrant(bot, b) for bot in ("ai-v1", "ai") for b in budgets]
    jobs = _jobs(args)
    pairs = len(entrants) * (len(entrants) - 1) // 2
    print(
        f"Elo ladder: {len(entrants)} entrants, round robin, {games} games per pairing "
        f"({pairs * games} games), {jobs} worker process(es)"
    )
    print(
        "method: Bradley-Terry maximum likelihood (MM), 1 virtual draw per pairing, "
        "95 % percentile bootstrap over games; greedy = 1000"
    )
    began = time.perf_counter()
    played = play_all(round_robin(entrants, games), jobs)
    elapsed = time.perf_counter() - began
    names = [e.label for e in entrants]
    ratings = ladder_ratings(names, scores_by_pair(played))
    print(f"{'entrant':<12}{'elo':>7}{'95% CI':>16}{'iter/s':>9}")
    for e in sorted(entrants, key=lambda e: -ratings[e.label][0]):
        value, lo, hi = ratings[e.label]
        ips = iterations_per_second(played, e) if e.iterations else 0.0
        print(f"{e.label:<12}{value:>7.0f}{f'[{lo:.0f}, {hi:.0f}]':>16}{ips:>9.0f}")
    line = fit_iterations(ratings)
    print(f"games: {len(played)}")
    print(f"elapsed_s: {elapsed:.1f}")
    for b in budgets:
        print(f"elo_fit_ai@{b}: {line(b):.0f}")
    for e in entrants:
        print(f"elo_{e.label}: {ratings[e.label][0]:.0f}")
    from haleakala.games.haleakala.bots.levels import level_table, measure

    ips = measure(0.5)
    print(f"levels (iterations per second here: {ips:.0f}):")
    for name, target, iterations, seconds in level_table(ips):
        budget = "-" if iterations is None else f"{iterations} iterations, {seconds:.3f} s"
        print(f"level_{name}: elo {target:.0f}, {budget}")
    return 0
