"""Build game positions for rule tests by editing a fresh game's fields.

The rules have no "set up this position" API on purpose (a real game only reaches
positions by playing); tests reach into the state and then drop the legality cache.
"""

from __future__ import annotations

from haleakala.games.haleakala import Game
from haleakala.games.haleakala.game import PLAYERS

RED, YELLOW = 0, 1


def card_of(game: Game, code: str, exclude: set[int] | None = None) -> int:
    """Some card of this type, taken from wherever it is now (piles, slots, ...)."""
    exclude = set(exclude or ())
    candidates = [
        n
        for n, card in enumerate(game.deck.cards)
        if card.code == code and n not in exclude and not in_hand(game, n)
    ]
    # Prefer cards still in the piles or discard: taking one from a slot would empty it.
    for n in candidates:
        if n not in game.slots:
            return n
    if candidates:
        return candidates[0]
    raise LookupError(code)


def in_hand(game: Game, n: int) -> bool:
    return any(n in game.beach_cards[p] or n in game.shells[p] for p in (0, 1))


def remove_card(game: Game, n: int) -> None:
    """Take card ``n`` out of wherever it is (piles, slots, discard, hands)."""
    for pile in game.piles:
        if n in pile:
            pile.remove(n)
    game.slots = [-1 if c == n else c for c in game.slots]
    if n in game.discard:
        game.discard.remove(n)
    for p in (0, 1):
        if n in game.beach_cards[p]:
            game.beach_cards[p].remove(n)
        if n in game.shells[p]:
            game.shells[p].remove(n)


def put_slot(game: Game, slot: int, code: str) -> int:
    """Put a card of type ``code`` into a slot; the card it replaces goes to the discard."""
    n = card_of(game, code, exclude={game.slots[slot]})
    remove_card(game, n)
    if game.slots[slot] >= 0:
        game.discard.append(game.slots[slot])
    game.slots[slot] = n
    touch(game)
    return n


def give(game: Game, player: int, code: str) -> int:
    n = card_of(game, code)
    remove_card(game, n)
    kind = game.deck.cards[n].kind
    (game.shells if kind == "shell" else game.beach_cards)[player].append(n)
    touch(game)
    return n


def place_disc(game: Game, player: int, value: int, beach: int) -> None:
    """Lay a number disc on a beach without taking a turn (no boat move)."""
    old = game.disc_at[player][value]
    if old >= 0:
        game.totals[player][old] -= value
    game.disc_at[player][value] = beach
    game.totals[player][beach] += value
    touch(game)


def statue(game: Game, player: int, space_name: str) -> None:
    space = game.board.parse_space(space_name)
    game.statue_owner[space] = player
    game.statues_left[player] -= 1
    touch(game)


def shaman_to(game: Game, player: int, space_name: str) -> None:
    game.shaman[player] = game.board.parse_space(space_name)
    touch(game)


def touch(game: Game) -> None:
    game._legal = None


def new(variant: str = "base", start: str = "red", seed: int = 1) -> Game:
    return Game(variant, seed=seed, start=start)


def colour(p: int) -> str:
    return PLAYERS[p]
