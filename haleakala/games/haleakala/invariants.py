"""The facts every Haleakala position keeps, as a list of violations (empty: all is well).

Why in the rules package: the game owns what "a sound position" means; the random-game
harness (its ``GameDescription.invariants``), the property tests and anyone adding a check
read the same list. Card conservation (R28's deck), the sum rule on every beach (R7),
statue supplies, lava, the shamans' places, the scoring board, and a decision always on
offer while the game is not over.
"""

from __future__ import annotations

from .game import FACE_DOWN, Game


def violations(game: Game) -> list[str]:
    b, deck = game.board, game.deck
    found: list[str] = []
    places = [*game.discard, *(c for c in game.slots if c >= 0)]
    for pile in game.piles:
        places += pile
    for p in (0, 1):
        places += game.beach_cards[p] + game.shells[p]
    expected = [n for n, c in enumerate(deck.cards) if not (game.tactical and c.kind == "lava")]
    if sorted(places) != expected:
        found.append("card conservation")
    for i, pile in enumerate(game.piles):
        if not all(deck.pile_of_card[c] == i for c in pile):
            found.append(f"a card in the wrong pile ({i})")
    for p in (0, 1):
        built = game.statue_owner.count(p)
        if built > b.statues or built + game.statues_left[p] != b.statues:
            found.append(f"statues of player {p}: {built} built, {game.statues_left[p]} left")
    if not 0 <= sum(game.lava) <= b.lava_discs or any(n < 0 for n in game.lava):
        found.append(f"lava discs {game.lava}")
    for beach in range(b.segments):
        red, yellow = game.totals[0][beach], game.totals[1][beach]
        if red == yellow != 0:
            found.append(f"sum rule broken on beach {beach}")
        for p in (0, 1):
            on = sum(v for v in b.discs if game.disc_at[p][v] == beach)
            if on != game.totals[p][beach]:
                found.append(f"beach {beach}: player {p}'s total {game.totals[p][beach]} != {on}")
    for p in (0, 1):
        s = game.shaman[p]
        if not (s < b.land_spaces or s == b.land_spaces + b.huts[p]):
            found.append(f"shaman of player {p} on {s}")
    if game.shaman[0] == game.shaman[1]:
        found.append("both shamans on one space")
    if not all(o in (-1, 0, 1, FACE_DOWN) for o in game.board_owner):
        found.append("a scoring board with an unknown owner")
    if game.board_owner[-1] not in (-1, FACE_DOWN):
        found.append("the last scoring board is owned")
    if not (game.is_terminal() or game.legal_actions()):
        found.append("no legal decision although the game is not over")
    return found


def all_codes() -> list[int]:
    """Every well-formed decision code (the harness samples refusals from those not
    legal)."""
    codes = []
    for v in range(1, 6):
        for beach in range(6):
            codes += [v * 10 + beach, 100 + v * 10 + beach, 200 + v * 10 + beach]
    codes += [300, 301] + [400 + s for s in range(18)] + [500 + s for s in range(12)]
    codes += [600] + [601 + i for i in range(12)] + [700 + i for i in range(6)] + [710, 711]
    return codes
