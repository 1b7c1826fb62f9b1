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


def play_random_other(name: str, seed: int, **options: int) -> int:
    """The same through the game interface, for the other games (Kanaloa: ``players``)."""
    from haleakala.gameapi import new_game

    game = new_game(name, seed, **options)
    rng = random.Random(seed)
    randrange, legal_actions, apply = rng.randrange, game.legal_actions, game.apply
    decisions = 0  # counted here: the game interface promises no ``history``
    while not game.is_terminal():
        legal = legal_actions()
        apply(legal[randrange(len(legal))])
        decisions += 1
    return decisions


def run(args: argparse.Namespace) -> int:
    from haleakala.cli import UsageError
    from haleakala.gameapi import GAMES

    seconds = args.seconds or 5.0
    name = getattr(args, "game", "haleakala") or "haleakala"
    if name not in GAMES:
        raise UsageError(f"--game {name}: choose one of {', '.join(GAMES)}")
    players = getattr(args, "players", None)
    options: dict[str, int] = {}
    if name == "kanaloa":
        options["players"] = players or 4
        if options["players"] not in (2, 3, 4):
            raise UsageError(f"--players {players}: Kanaloa is for 2, 3 or 4 players")
    elif players is not None:
        raise UsageError(f"--players is a Kanaloa option; {name} is for two players")
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        if name == "haleakala":
            decisions += play_random(games, ("base", "tactical")[games % 2])
        else:
            decisions += play_random_other(name, games, **options)
        games += 1
    elapsed = time.perf_counter() - start
    if name != "haleakala":
        print(f"game: {name}" + (f", {options['players']} players" if options else ""))
    print(f"games: {games}")
    print(f"decisions_per_game: {decisions / games:.0f}")
    print(f"games_per_s: {games / elapsed:.0f}")
    print(f"us_per_decision: {elapsed / decisions * 1e6:.2f}")
    return 0
