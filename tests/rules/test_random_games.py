"""Haleakala through the generic random-game harness (``support.harness``, the same one
Kahuna uses): every invariant after every decision.

Default suite: 100 seeded games per variant, every check after every decision (300 until the
suite outgrew its ten minutes on two cores; the long run below is where the numbers are).
Long run (``./test -m long``): 5,000 per variant; invariants after every decision, the
expensive checks (every legal decision applies, refusals, clone/JSON round trips) after
every third. Each prints the distribution of game lengths (run with ``-s`` to see it).
"""

import random
import statistics

import pytest
from support.harness import play_checked

from haleakala.games.haleakala import Game

CHUNK = 50


def _report(variant: str, lengths: list[int]) -> None:
    q = statistics.quantiles(lengths, n=10)
    print(
        f"\n{variant}: {len(lengths)} games, decisions per game min {min(lengths)} "
        f"p10 {q[0]:.0f} median {statistics.median(lengths):.0f} p90 {q[-1]:.0f} "
        f"max {max(lengths)}"
    )


@pytest.mark.parametrize("first", range(0, 100, CHUNK))
@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_random_games_keep_every_invariant(variant, first):
    lengths = [
        len(play_checked("haleakala", s, variant=variant).history)
        for s in range(first, first + CHUNK)
    ]
    _report(variant, lengths)
    assert all(100 < n < 5000 for n in lengths)


@pytest.mark.long
@pytest.mark.parametrize("first", range(10_000, 15_000, 500))
@pytest.mark.parametrize("variant", ["base", "tactical"])
def test_random_games_keep_every_invariant_long_run(variant, first):
    lengths = [
        len(play_checked("haleakala", s, deep_every=3, variant=variant).history)
        for s in range(first, first + 500)
    ]
    _report(variant, lengths)
    assert all(100 < n < 5000 for n in lengths)


def test_r28_same_seed_and_decisions_reproduce_the_game():
    first = Game("tactical", 42)
    rng = random.Random(5)
    while not first.is_terminal():
        legal = first.legal_actions()
        first.apply(legal[rng.randrange(len(legal))])
    second = Game("tactical", 42)
    for d in first.history:
        second.apply(second.format(d))
    assert second.digest() == first.digest()
    assert second.result() == first.result()


def test_r28_different_seeds_deal_different_games():
    assert Game("base", 1).slots != Game("base", 2).slots
