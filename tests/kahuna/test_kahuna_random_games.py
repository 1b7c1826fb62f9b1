"""Kahuna through the generic random-game harness (``support.harness``).

Default suite: 300 seeded games, every invariant (bridges per player <= 25, stones <= 10,
a stone only where its owner holds the majority, hands <= 5, card conservation, K14) and
every interface check (legality, refusals, clone/JSON round trips, determinize) after
every decision. Long run (``-m long``): 5,000 games, interface checks after every third.
Each prints the distribution of game lengths (run with ``-s``).
"""

import statistics

import pytest
from support.harness import play_checked

from haleakala.gameapi import GAMES

CHUNK = 50


def _report(label: str, games: list) -> None:
    lengths = [len(g.history) for g in games]
    reasons = statistics.multimode([g.result().reason for g in games])
    q = statistics.quantiles(lengths, n=10)
    print(
        f"\n{label}: {len(lengths)} games, decisions per game min {min(lengths)} "
        f"p10 {q[0]:.0f} median {statistics.median(lengths):.0f} p90 {q[-1]:.0f} "
        f"max {max(lengths)}; most common end: {reasons}"
    )


@pytest.mark.parametrize("first", range(0, 300, CHUNK))
def test_kahuna_random_games_keep_every_invariant(first):
    games = [play_checked("kahuna", s) for s in range(first, first + CHUNK)]
    _report("kahuna", games)
    assert all(30 < len(g.history) < 1000 for g in games)


@pytest.mark.long
@pytest.mark.parametrize("first", range(10_000, 15_000, 500))
def test_kahuna_random_games_keep_every_invariant_long_run(first):
    games = [play_checked("kahuna", s, deep_every=3) for s in range(first, first + 500)]
    _report("kahuna", games)
    assert all(30 < len(g.history) < 1000 for g in games)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_passes_the_generic_harness(name):
    """The harness knows games only by name: each registered game plays through it."""
    games = [play_checked(name, s) for s in range(3)]
    assert all(g.is_terminal() for g in games)
