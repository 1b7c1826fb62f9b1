"""The game-agnostic random-game harness (OpenSpiel-style): it plays uniformly random games
of any game of ``haleakala.gameapi.GAMES`` through the ``GameState`` interface only, and
after every decision checks the game's own invariants plus what the interface promises:

- a game not over offers a decision; the legal list is sorted canonical text that parses
  back to the same codes;
- every legal decision applies (on a copy); sampled illegal ones are refused with the
  reason ``why_illegal`` gives, and change nothing;
- clone and JSON round trips keep the digest and the legal decisions;
- ``determinize(p)`` never changes what ``p`` sees (``observation(p)``) nor the legal list
  of the player to move when ``p`` decides;
- ``evaluate`` is in [0, 1]; ``returns`` are a win, a loss or a draw at the end.

A new game adds its invariants and the list of its well-formed codes to ``GAME_CHECKS``;
nothing else here changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from haleakala.gameapi import new_game


def _kahuna() -> tuple[Callable[[Any], list[str]], list[int]]:
    from haleakala.kahuna import default_board
    from haleakala.kahuna.invariants import violations
    from haleakala.kahuna.notation import all_codes

    return violations, all_codes(default_board())


def _kanaloa() -> tuple[Callable[[Any], list[str]], list[int]]:
    from haleakala.kanaloa.invariants import violations
    from haleakala.kanaloa.notation import all_codes

    return violations, all_codes()


def _haleakala() -> tuple[Callable[[Any], list[str]], list[int]]:
    from support.invariants import ALL_CODES, check_invariants

    def violations(game: Any) -> list[str]:
        try:
            check_invariants(game)
        except AssertionError as exc:
            return [str(exc) or "an invariant"]
        return []

    return violations, ALL_CODES


# name → () -> (invariants: game -> list of violations, every well-formed decision code)
GAME_CHECKS: dict[str, Callable[[], tuple[Callable[[Any], list[str]], list[int]]]] = {
    "haleakala": _haleakala,
    "kahuna": _kahuna,
    "kanaloa": _kanaloa,
}


def check_interface(game: Any, rng: random.Random, codes: list[int], refusals: int = 3) -> None:
    legal = game.legal_actions()
    assert game.is_terminal() or legal, "no legal decision although the game is not over"
    texts = game.legal_decisions()
    assert texts == sorted(texts) and len(set(texts)) == len(texts)
    assert sorted(game.parse(t) for t in texts) == legal, "text and codes disagree"
    digest = game.digest()
    for d in legal:
        game.clone().apply(d)
    legal_set = set(legal)
    illegal = [d for d in codes if d not in legal_set]
    for d in rng.sample(illegal, min(refusals, len(illegal))):
        reason = game.why_illegal(d)
        assert reason, f"no reason for refusing {game.format(d)}"
        try:
            game.apply(d)
        except ValueError as exc:
            assert str(exc) == reason
        else:
            raise AssertionError(f"{game.format(d)} was accepted")
    assert game.digest() == digest, "a refusal changed the game"
    assert game.clone().digest() == digest, "clone changes the digest"
    again = type(game).from_json(game.to_json())
    assert again.digest() == digest, "JSON round trip changes the digest"
    assert again.legal_actions() == legal
    for p in range(len(game.players)):
        world = game.determinize(p, rng)
        assert world.observation(p) == game.observation(p), "determinize changed a view"
        if p == game.decider:
            assert world.legal_actions() == legal
        assert 0.0 <= game.evaluate(p) <= 1.0


def play_checked(name: str, seed: int, deep_every: int = 1, **kw: Any) -> Any:
    """A uniformly random game of ``name`` with every check after every decision (the
    interface checks after every ``deep_every``-th)."""
    invariants, codes = GAME_CHECKS[name]()
    game = new_game(name, seed, **kw)
    rng = random.Random(seed)
    step = 0
    while not game.is_terminal():
        if step % deep_every == 0:
            check_interface(game, rng, codes)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        broken = invariants(game)
        assert not broken, f"seed {seed}, decision {step}: {broken[0]}"
        step += 1
        assert step < 5000, "game does not terminate"
    returns = game.returns()  # one value per player, summing to 1 (gameapi)
    assert len(returns) == len(game.players) and abs(sum(returns) - 1.0) < 1e-9
    check_interface(game, rng, codes)
    return game
