"""Build Kanaloa positions for the ruling tests from a readable description.

Why by hand: most rulings need a piece here, a fish pointing there, a tile in a hand; a
random game rarely reaches that. ``ready`` plays the start phase deterministically (the
worked example's fish with three players, the first legal decision otherwise); ``arrange``
then puts pieces, tiles, temples and cards where a test wants them, keeping every tile
accounted for (tiles given to hands come out of the bag), and ``turn_of`` begins a player's
turn as the rules would.
"""

from __future__ import annotations

import random

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.material import GODS
from haleakala.games.kanaloa.state import DOLPHIN, FISH, START, SUPPLY

EXAMPLE_FISH = [
    "fish HONU>KAI green", "fish EWA>AKAU red", "fish LAU>HONU yellow",
    "fish KAI>ONO white", "fish AKAU>ILIO white", "fish ONO>LAU white",
    "fish NALU>KAI white", "fish ILIO>ONO red", "fish LAU>PALI yellow",
    "fish ONO>NALU green", "fish PALI>EWA white", "fish ONO>PALI white",
    "fish LAU>KAI white", "fish MOKU>AKAU red", "fish HONU>MOKU white",
    "fish MOKU>NALU green", "fish ILIO>EWA white", "fish NALU>ILIO yellow",
    "fish NALU>HONU white", "fish ILIO>MOKU white", "fish PALI>ILIO white",
]  # fmt: skip


def ready(players: int = 3, seed: int = 7) -> Game:
    """A game right after the start phase (turn 1 begun)."""
    game = Game(seed=seed, players=players)
    if players == 3 and seed == 7:
        for text in [*EXAMPLE_FISH, "start HONU", "start EWA", "start LAU"]:
            game.apply(text)
    while game.phase in (FISH, START):
        game.apply(game.legal_actions()[0])
    return game


def island(game: Game, name: str) -> int:
    return game.m.islands.index(name)


def colour(game: Game, name: str) -> int:
    return game.players.index(name)


def fish(game: Game, heading: str, side: str | None = None) -> int:
    """Point the fish of a current ``TAIL>HEAD`` and optionally show ``white`` or its
    owner's colour (``coloured``); returns the current's index."""
    a, b = heading.split(">")
    ia, ib = island(game, a), island(game, b)
    cur = game.m.current_between(ia, ib)
    assert cur is not None, heading
    game.fish_tail[cur] = ia
    if side is not None:
        game.fish_col[cur] = side != "white"
    game._legal = None
    return cur


def fish_owner(game: Game, current: str, owner: str) -> None:
    a, b = current.split("-")
    cur = game.m.current_between(island(game, a), island(game, b))
    assert cur is not None
    game.fish_owner[cur] = game.m.colours.index(owner)


def take_from_bag(game: Game, tile: str) -> int:
    code = game.m.tile_code(tile)
    game.bag.remove(code)  # keeps the tiles conserved
    return code


def arrange(
    game: Game,
    pieces: dict[str, list[str]] | None = None,
    hands: dict[str, list[str]] | None = None,
    temples: dict[str, dict[str, int]] | None = None,
    gods: dict[str, str | None] | None = None,
    protection: dict[str, str | None] | None = None,
    tiles: dict[str, list[str]] | None = None,
) -> Game:
    """Put things where a test wants them. Pieces: island names, ``dolphin`` or
    ``supply``; hands and island tiles come out of the bag (the island's old tiles go back
    into the bag's end); temples are set as given (their tiles count as spent)."""
    for name, places in (pieces or {}).items():
        p = colour(game, name)
        locs = [DOLPHIN if x == "dolphin" else SUPPLY if x == "supply" else island(game, x)
                for x in places]  # fmt: skip
        game.loc[p] = ([*locs, SUPPLY, SUPPLY])[:2]
        game.stun[p] = [False, False]
    for name, held in (hands or {}).items():
        p = colour(game, name)
        for t, k in enumerate(game.hands[p]):
            game.bag += [t] * k
        game.hands[p] = [0] * len(game.m.tiles)
        for tile in held:
            game.hands[p][take_from_bag(game, tile)] += 1
    for name, pair in (tiles or {}).items():
        i = island(game, name)
        game.bag += game.tiles[i]
        game.tiles[i] = sorted(take_from_bag(game, t) for t in pair)
    for name, values in (temples or {}).items():
        p = colour(game, name)
        for god, value in values.items():
            game.temples[p][GODS.index(god)] = value
    for god, holder in (gods or {}).items():
        game.gods[GODS.index(god)] = -1 if holder is None else colour(game, holder)
    for god, holder in (protection or {}).items():
        game.prot[GODS.index(god)] = -1 if holder is None else colour(game, holder)
    game._legal = None
    return game


def turn_of(game: Game, name: str, eruption: bool = False) -> list[tuple]:
    """Begin ``name``'s turn now, as the rules begin any turn; returns its events."""
    events: list[tuple] = []
    game._begin_turn(colour(game, name), eruption, events)
    game._legal = None
    return events


def legal(game: Game, verb: str | None = None) -> list[str]:
    texts = game.legal_decisions()
    return [t for t in texts if verb is None or t.split()[0] == verb]


def advanced(seed: int, players: int, steps: int) -> Game:
    """A position reached by ``steps`` random decisions (fewer if the game ends), the same
    for a seed: what the terminal, window, web and refusal tests look at."""
    game = Game(seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game
