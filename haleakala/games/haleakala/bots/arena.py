"""Games between bots at fixed iteration budgets: the head-to-head benchmark
(``haleakala bench ai --vs ai-v1``) and the Elo ladder (``haleakala bench ai --ladder``).

Iteration budgets, not seconds, make every game reproducible and the figures independent
of the machine and of what else runs on it. Game ``i`` of a pairing uses engine seed
``i`` and variant ``VARIANTS[(i // 4) % 2]``; the first entrant plays red in even games
and yellow in odd ones, and the starting player alternates every two games, so each block
of eight games plays every variant, colour and start once with both seats.

Elo: Bradley–Terry maximum likelihood (Hunter's MM iterations), a game scoring 1, 0 or
½ (a game stopped after ``MAX_DECISIONS`` counts as a draw), with one virtual draw per
pairing that keeps an unbeaten entrant's rating finite; 400·log10 of the strength ratio,
anchored at greedy = 1000. The 95 % interval is a percentile bootstrap: each pairing's
games are resampled with replacement and the model refitted ``BOOTSTRAP`` times.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from haleakala.ai import Bot
from haleakala.ai.pool import play_in_pool
from haleakala.games.haleakala import PLAYERS, VARIANTS, Game

T = TypeVar("T")
R = TypeVar("R")

MAX_DECISIONS = 3000  # search bots finish in ~130 decisions; a stopped game is a draw
BOOTSTRAP = 400
ANCHOR = "greedy"
ANCHOR_ELO = 1000.0


@dataclass(frozen=True)
class Entrant:
    """A bot and its iteration budget (None for the simple bots): ``ai@100``, ``greedy``."""

    bot: str
    iterations: int | None = None

    @property
    def label(self) -> str:
        return self.bot if self.iterations is None else f"{self.bot}@{self.iterations}"

    @classmethod
    def parse(cls, text: str) -> Entrant:
        from haleakala.gameapi import describe

        BOTS = describe("haleakala").bots

        name, _, budget = text.partition("@")
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r} in {text!r}: choose one of {', '.join(BOTS)}")
        if not budget:
            return cls(name)
        if not budget.isdigit() or int(budget) < 1:
            raise ValueError(f"{text!r}: the iterations after @ must be a whole number ≥ 1")
        return cls(name, int(budget))

    def make(self, seed: int) -> Bot:
        from haleakala.ai import make_bot

        if self.iterations is None:
            return make_bot(self.bot, seed=seed)
        return make_bot(self.bot, seed=seed, iterations=self.iterations)


@dataclass(frozen=True)
class Pairing:
    first: Entrant
    second: Entrant
    index: int

    @property
    def variant(self) -> str:
        return VARIANTS[(self.index // 4) % 2]

    @property
    def first_player(self) -> int:
        return self.index % 2

    @property
    def start(self) -> str:
        return PLAYERS[(self.index // 2) % 2]


@dataclass(frozen=True)
class Played:
    pairing: Pairing
    score: float  # for the first entrant: 1 won, 0 lost, 0.5 stopped unfinished
    finished: bool
    decisions: int
    seconds: tuple[float, float]  # thinking time of first and second where they had a choice
    iterations: tuple[int, int]  # iterations searched in those decisions


def play(pairing: Pairing) -> Played:
    """One complete game between the pairing's two entrants."""
    game = Game(pairing.variant, pairing.index, start=pairing.start)
    me = pairing.first_player
    first = pairing.first.make(seed=pairing.index)
    second = pairing.second.make(seed=10_000 + pairing.index)
    seats = [first, second] if me == 0 else [second, first]
    spent = [0.0, 0.0]
    searched = [0, 0]
    clock = time.perf_counter
    while not game.is_terminal() and len(game.history) < MAX_DECISIONS:
        p = game.decider
        bot = seats[p]
        forced = len(game.legal_actions()) == 1
        began = clock()
        decision = bot.decide(game)
        if not forced:
            spent[p] += clock() - began
            searched[p] += getattr(bot, "last_iterations", 0)
        game.apply(decision)
    result = game.result()
    if result is None:
        score, finished = 0.5, False
    else:
        score, finished = float(result.winner == PLAYERS[me]), True
    return Played(
        pairing,
        score,
        finished,
        len(game.history),
        (spent[me], spent[1 - me]),
        (searched[me], searched[1 - me]),
    )


def play_all(pairings: Sequence[Pairing], jobs: int) -> list[Played]:
    """Every game, in worker processes when ``jobs`` > 1; progress on stderr with the
    first entrant's running score, so a run stopped early still says where it stood."""
    played = play_in_pool(play, pairings, jobs, lambda so_far: _progress(so_far, len(pairings)))
    played.sort(key=lambda p: (p.pairing.first.label, p.pairing.second.label, p.pairing.index))
    return played


def _progress(played: list[Played], total: int) -> None:
    done = len(played)
    if done == total or done % max(1, total // 20) == 0:
        score = sum(p.score for p in played)
        print(
            f"{done}/{total} games, first entrant scored {score:g} ({score / done:.3f})",
            file=sys.stderr,
            flush=True,
        )


def iterations_per_second(played: Iterable[Played], entrant: Entrant) -> float:
    """Iterations searched per second of thinking, over the decisions where it had a choice."""
    seconds = iterations = 0.0
    for p in played:
        for side, who in enumerate((p.pairing.first, p.pairing.second)):
            if who == entrant:
                seconds += p.seconds[side]
                iterations += p.iterations[side]
    return iterations / seconds if seconds else 0.0


# --------------------------------------------------------------------------- Elo


def bradley_terry(
    names: Sequence[str],
    results: dict[tuple[str, str], tuple[float, int]],
    prior_draws: float = 1.0,
    rounds: int = 2000,
) -> dict[str, float]:
    """Strengths γ (geometric mean 1) maximising the Bradley–Terry likelihood.

    ``results[(a, b)] = (score of a, games)``. MM update (Hunter 2004):
    γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j). ``prior_draws`` virtual drawn games per pairing
    keep the estimate finite when an entrant won or lost every game.
    """
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for (a, b), (score, n) in results.items():
        i, j = index[a], index[b]
        wins[i] += score + prior_draws / 2
        wins[j] += n - score + prior_draws / 2
        games[i][j] += n + prior_draws
        games[j][i] += n + prior_draws
    gamma = [1.0] * k
    for _ in range(rounds):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if games[i][j])
            new.append(wins[i] / denom if denom else gamma[i])
        norm = math.exp(sum(math.log(g) for g in new) / k)
        new = [g / norm for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    return dict(zip(names, gamma, strict=True))


def elo(gamma: dict[str, float], anchor: str = ANCHOR) -> dict[str, float]:
    """400·log10 strength ratios, the anchor at ``ANCHOR_ELO``."""
    base = gamma[anchor]
    return {n: ANCHOR_ELO + 400.0 * math.log10(g / base) for n, g in gamma.items()}


def ladder_ratings(
    names: Sequence[str],
    scores: dict[tuple[str, str], list[float]],
    anchor: str = ANCHOR,
    samples: int = BOOTSTRAP,
    seed: int = 0,
) -> dict[str, tuple[float, float, float]]:
    """Elo and its 95 % percentile-bootstrap interval for each entrant."""

    def fit(table: dict[tuple[str, str], list[float]]) -> dict[str, float]:
        results = {pair: (sum(s), len(s)) for pair, s in table.items() if s}
        return elo(bradley_terry(names, results), anchor)

    point = fit(scores)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(samples):
        table = {pair: [rng.choice(s) for _ in s] for pair, s in scores.items() if s}
        for n, value in fit(table).items():
            draws[n].append(value)
    out = {}
    for n in names:
        ordered = sorted(draws[n])
        lo = ordered[int(0.025 * (len(ordered) - 1))]
        hi = ordered[math.ceil(0.975 * (len(ordered) - 1))]
        out[n] = (point[n], lo, hi)
    return out


def round_robin(entrants: Sequence[Entrant], games: int) -> list[Pairing]:
    return [
        Pairing(a, b, i)
        for x, a in enumerate(entrants)
        for b in entrants[x + 1 :]
        for i in range(games)
    ]


def scores_by_pair(played: Iterable[Played]) -> dict[tuple[str, str], list[float]]:
    table: dict[tuple[str, str], list[float]] = {}
    for p in played:
        key = (p.pairing.first.label, p.pairing.second.label)
        table.setdefault(key, []).append(p.score)
    return table


def fit_iterations(ratings: dict[str, tuple[float, float, float]], bot: str = "ai") -> Callable:
    """Elo of ``bot`` as a straight line in log2(iterations), least squares over the
    ladder's budgets: what budget a level's Elo target needs."""
    points = []
    for label, (value, _, _) in ratings.items():
        name, _, budget = label.partition("@")
        if name == bot and budget:
            points.append((math.log2(int(budget)), value))
    if len(points) < 2:
        raise ValueError(f"the ladder needs {bot} at two budgets or more to fit a line")
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return lambda iterations: my + slope * (math.log2(iterations) - mx)
