"""The generic checks every game position must pass (OpenSpiel-style harness)."""

from __future__ import annotations

import random

from haleakala.rules import Game, IllegalDecision
from haleakala.rules.game import FACE_DOWN


def check_invariants(game: Game) -> None:
    b, deck = game.board, game.deck
    # Card conservation: every card of the variant in exactly one place.
    places = [*game.discard, *(c for c in game.slots if c >= 0)]
    for pile in game.piles:
        places += pile
    for p in (0, 1):
        places += game.beach_cards[p] + game.shells[p]
    expected = [n for n, c in enumerate(deck.cards) if not (game.tactical and c.kind == "lava")]
    assert sorted(places) == expected, "card conservation"
    for i, pile in enumerate(game.piles):
        assert all(deck.pile_of_card[c] == i for c in pile), "card in the wrong pile"
    # Statues: at most 8 per player, one per space (by construction), supply agrees.
    for p in (0, 1):
        built = game.statue_owner.count(p)
        assert built <= b.statues
        assert built + game.statues_left[p] == b.statues
    # Lava.
    assert 0 <= sum(game.lava) <= b.lava_discs
    assert all(n >= 0 for n in game.lava)
    # Sum rule on every beach (R7), and totals agree with the discs.
    for beach in range(b.segments):
        red, yellow = game.totals[0][beach], game.totals[1][beach]
        assert red != yellow or red == 0, f"sum rule broken on beach {beach}"
        for p in (0, 1):
            on = sum(v for v in b.discs if game.disc_at[p][v] == beach)
            assert on == game.totals[p][beach]
    # Shamans: on land (or still on the hut), never together.
    for p in (0, 1):
        s = game.shaman[p]
        assert s < b.land_spaces or s == b.land_spaces + b.huts[p]
    assert game.shaman[0] != game.shaman[1]
    # Shells never negative (lists), scoring board states valid.
    assert all(o in (-1, 0, 1, FACE_DOWN) for o in game.board_owner)
    assert game.board_owner[-1] in (-1, FACE_DOWN)
    # A game that is not over always offers a decision.
    assert game.is_terminal() or game.legal_actions()


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


def _all_codes() -> list[int]:
    codes = []
    for v in range(1, 6):
        for beach in range(6):
            codes += [v * 10 + beach, 100 + v * 10 + beach, 200 + v * 10 + beach]
    codes += [300, 301] + [400 + s for s in range(18)] + [500 + s for s in range(12)]
    codes += [600] + [601 + i for i in range(12)] + [700 + i for i in range(6)] + [710, 711]
    return codes


ALL_CODES = _all_codes()


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
