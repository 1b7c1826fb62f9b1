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

A game names its invariants and the list of its well-formed codes in its description
(``GameDescription.invariants`` and ``all_codes``); nothing here changes for a new game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from haleakala.gameapi import describe, hook, new_game


def game_checks(name: str) -> tuple[Callable[[Any], list[str]], list[int]]:
    """The game's own invariants (state -> violations) and every well-formed decision code,
    from its description in the registry."""
    description = describe(name)
    return hook(description.invariants), hook(description.all_codes)()


def check_interface(game: Any, rng: random.Random, codes: list[int], refusals: int = 3) -> None:
    legal = game.legal_actions()
    assert game.is_terminal() or legal, "no legal decision although the game is not over"
    texts = game.legal_decisions()
    assert texts == sorted(texts) and len(set(texts)) == len(texts)
    assert sorted(game.parse(t) for t in texts) == legal, "text and codes disagree"
    digest = game.digest()
    for d in legal:
        game.clone().apply(d)
    illegal = [d for d in codes if d not in set(legal)]
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
    n = len(game.players)
    assert 2 <= n <= 4 and len(game.returns()) == n, "one return per player, 2 to 4 players"
    if not game.is_terminal():
        assert game.returns() == (1.0 / n,) * n, "equal shares while the game is not over"
        assert 0 <= game.decider < n and game.to_move == game.players[game.decider]
    for p in range(n):
        world = game.determinize(p, rng)
        assert world.observation(p) == game.observation(p), "determinize changed a view"
        if p == game.decider:
            assert world.legal_actions() == legal
        assert 0.0 <= game.evaluate(p) <= 1.0


def is_outcome(returns: tuple[float, ...]) -> bool:
    """A sole winner 1 and the others 0, or first place shared equally (the rest 0)."""
    best = max(returns)
    winners = sum(r == best for r in returns)
    return all(r in (0.0, best) for r in returns) and abs(best * winners - 1.0) < 1e-9


def play_checked(name: str, seed: int, deep_every: int = 1, **kw: Any) -> Any:
    """A uniformly random game of ``name`` with every check after every decision (the
    interface checks after every ``deep_every``-th); ``kw`` go to ``new_game`` (``players``,
    ``start``, the game's options)."""
    invariants, codes = game_checks(name)
    return play_state_checked(new_game(name, seed, **kw), seed, invariants, codes, deep_every)


def play_state_checked(
    game: Any,
    seed: int,
    invariants: Callable[[Any], list[str]],
    codes: list[int],
    deep_every: int = 1,
) -> Any:
    """``play_checked`` for a game state built by the caller (a game outside the registry,
    such as the test games of ``support``), for any number of players."""
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
    assert is_outcome(game.returns()), f"not a result: {game.returns()}"
    check_interface(game, rng, codes)
    return game
