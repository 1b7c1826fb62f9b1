"""Engine benchmark: complete random games on one core for a few seconds."""

from __future__ import annotations

import argparse
import random
import time


def play_random(name: str, seed: int, players: int | None = None, **options: str) -> int:
    """One complete uniformly random game through the game interface; returns its number
    of decisions (counted here: the interface promises no ``history``)."""
    from haleakala.gameapi import new_game

    game = new_game(name, seed, players, **options)
    rng = random.Random(seed)
    randrange, legal_actions, apply = rng.randrange, game.legal_actions, game.apply
    decisions = 0
    while not game.is_terminal():
        legal = legal_actions()
        apply(legal[randrange(len(legal))])
        decisions += 1
    return decisions


def run(args: argparse.Namespace) -> int:
    """Random games of one game for ``--seconds``: at its most players unless ``--players``
    says otherwise; a game with variants alternates them (Haleakala: base, tactical)."""
    from haleakala.cli import UsageError
    from haleakala.gameapi import DEFAULT_GAME, GAMES, describe

    seconds = args.seconds or 5.0
    name = getattr(args, "game", None) or DEFAULT_GAME
    if name not in GAMES:
        raise UsageError(f"--game {name}: choose one of {', '.join(GAMES)}")
    description = describe(name)
    players = getattr(args, "players", None)
    count = players if players is not None else max(description.player_counts)
    try:
        description.seats(count)
    except ValueError as exc:
        raise UsageError(f"--players: {exc}") from None
    variants = ("base", "tactical") if "variant" in description.options else (None,)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        variant = variants[games % len(variants)]
        options = {"variant": variant} if variant else {}
        decisions += play_random(name, games, count, **options)
        games += 1
    elapsed = time.perf_counter() - start
    if name != DEFAULT_GAME:
        counted = len(description.player_counts) > 1
        print(f"game: {name}" + (f", {count} players" if counted else ""))
    print(f"games: {games}")
    print(f"decisions_per_game: {decisions / games:.0f}")
    print(f"games_per_s: {games / elapsed:.0f}")
    print(f"us_per_decision: {elapsed / decisions * 1e6:.2f}")
    return 0
