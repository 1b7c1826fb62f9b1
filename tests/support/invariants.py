"""The generic checks every game position must pass (OpenSpiel-style harness)."""

from __future__ import annotations

import random

from haleakala.games.haleakala import Game, IllegalDecision
from haleakala.games.haleakala.invariants import all_codes, violations


def check_invariants(game: Game) -> None:
    """The game's own invariants (``haleakala.games.haleakala.invariants``), the first one broken
    as an assertion."""
    broken = violations(game)
    assert not broken, broken[0]


def check_round_trips(game: Game) -> None:
    digest = game.digest()
    assert game.clone().digest() == digest, "clone changes the digest"
    again = Game.from_json(game.to_json())
    assert again.digest() == digest, "JSON round trip changes the digest"
    assert again.legal_actions() == game.legal_actions()


def check_refusals(game: Game, rng: random.Random, samples: int = 3) -> None:
    """Sampled illegal decisions are refused with a reason and change nothing."""
    legal = set(game.legal_actions())
    digest = game.digest()
    candidates = [d for d in ALL_CODES if d not in legal]
    for d in rng.sample(candidates, samples):
        reason = game.why_illegal(d)
        assert reason, f"no reason for refusing {game.format(d)}"
        try:
            game.apply(d)
        except IllegalDecision as exc:
            assert str(exc) == reason
        else:
            raise AssertionError(f"{game.format(d)} was accepted")
        assert game.digest() == digest


ALL_CODES = all_codes()


def play_checked(variant: str, seed: int, deep_every: int = 1) -> Game:
    """A uniformly random game with every invariant checked after every decision."""
    game = Game(variant, seed)
    rng = random.Random(seed)
    check_invariants(game)
    step = 0
    while not game.is_terminal():
        legal = game.legal_actions()
        if step % deep_every == 0:
            # Every legal decision applies.
            for d in legal:
                game.clone().apply(d)
            check_refusals(game, rng)
        game.apply(legal[rng.randrange(len(legal))])
        check_invariants(game)
        if step % deep_every == 0:
            check_round_trips(game)
        step += 1
        assert step < 5000, "game does not terminate"
    assert game.result() is not None
    return game
