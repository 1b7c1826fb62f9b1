"""Engine benchmark: complete random games on one core for a few seconds."""

from __future__ import annotations

import argparse
import random
import time

from haleakala.rules import Game


def play_random(seed: int, variant: str) -> int:
    """One complete uniformly random game; returns its number of decisions."""
    game = Game(variant, seed)
    rng = random.Random(seed)
    randrange, legal_actions, apply = rng.randrange, game.legal_actions, game.apply
    while not game.is_terminal():
        legal = legal_actions()
        apply(legal[randrange(len(legal))])
    return len(game.history)


def run(args: argparse.Namespace) -> int:
    seconds = args.seconds or 5.0
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        decisions += play_random(games, ("base", "tactical")[games % 2])
        games += 1
    elapsed = time.perf_counter() - start
    print(f"games: {games}")
    print(f"decisions_per_game: {decisions / games:.0f}")
    print(f"games_per_s: {games / elapsed:.0f}")
    print(f"us_per_decision: {elapsed / decisions * 1e6:.2f}")
    return 0
