"""The eruption and the two scorings (R19, R22, R23).

Kept apart from the turn rules because the scoring board is where a house rule or a
corrected card is most likely to change something; every number comes from the deck data.
The game calls these with itself; they name only what they read (``Position``), so this
module does not import ``game`` and the two do not import each other.
"""

from __future__ import annotations

from typing import Protocol

from .deck import BOARD_ITEMS, Deck
from .geometry import Board


class Position(Protocol):
    """The parts of a ``Game`` that the eruption changes and a scoring reads."""

    board: Board
    deck: Deck
    lava: list[int]
    statue_owner: list[int]
    statues_left: list[int]
    beach_cards: list[list[int]]
    shells: list[list[int]]
    board_owner: list[int]
    scorings: list[dict]


POINT_KEYS = (
    "statues", "fish", "pearls", "nautilus", "butterflies",
    "majority", "segment", "forest", "mountain", "shells",
)  # fmt: skip


def erupt(game: Position) -> list[str]:
    """R19: k lava discs on a crater reach mountain, forest, grassland (k ≥ 1, 2, 3) of
    that segment, destroying statues there; shamans dodge. Then all lava leaves."""
    destroyed = []
    for seg, count in enumerate(game.lava):
        for band in range(min(count, 3)):  # 0 mountain, 1 forest, 2 grassland
            space = seg * 3 + 2 - band
            owner = game.statue_owner[space]
            if owner >= 0:
                game.statue_owner[space] = -1
                game.statues_left[owner] += 1
                destroyed.append(game.board.space_name(space))
        game.lava[seg] = 0
    return sorted(destroyed)


def score_round(game: Position, rnd: int) -> dict:
    """Points of this scoring for both players, with the facts they rest on."""
    deck, board = game.deck, game.board
    pts = deck.points
    owner = game.statue_owner
    per_band = [[0, 0, 0], [0, 0, 0]]  # player → statues on grassland, forest, mountain
    for space, who in enumerate(owner):
        if who >= 0:
            per_band[who][space % 3] += 1
    baskets = [sum(deck.cards[c].baskets for c in game.beach_cards[p]) for p in (0, 1)]
    players = {}
    for p, colour in enumerate(("red", "yellow")):
        cards = [deck.cards[c] for c in game.beach_cards[p]]
        shells = [deck.cards[c] for c in game.shells[p]]
        mine = {BOARD_ITEMS[i] for i, o in enumerate(game.board_owner) if o == p}
        _, f, m = per_band[p]
        pearls = {c.pearl for c in cards if c.pearl}
        if pearls >= {"white", "black"}:
            pearl_points = pts["both_pearls"]
        else:
            pearl_points = pts["white_pearl"] * ("white" in pearls) + pts["black_pearl"] * (
                "black" in pearls
            )
        complete = sum(
            1 for s in range(board.segments) if all(owner[s * 3 + i] == p for i in range(3))
        )
        majority = sum(1 for i in range(3) if per_band[p][i] > per_band[1 - p][i])
        points = {
            "statues": sum(n * board.statue_points[i] for i, n in enumerate(per_band[p])),
            "fish": pts["fish_majority"] if baskets[p] > baskets[1 - p] else 0,
            "pearls": pearl_points,
            "nautilus": pts["nautilus"] * sum(c.nautilus for c in cards),
            "butterflies": pts["butterfly"] * sum(c.butterflies for c in cards + shells)
            if "butterflies" in mine
            else 0,
            "majority": pts["statue_majority"] * majority if "majority" in mine else 0,
            "segment": pts["complete_segment"] * complete if "segment" in mine else 0,
            "forest": pts["forest_bonus"] * f if "forest" in mine else 0,
            "mountain": pts["mountain_bonus"] * m if "mountain" in mine else 0,
            "shells": pts["shell_round2"] * len(shells) if rnd == 2 else 0,
        }
        before = game.scorings[-1]["players"][colour]["total"] if game.scorings else 0
        players[colour] = {
            "points": points,
            "total": before + sum(points.values()),
            "statues": [board.space_name(s) for s, who in enumerate(owner) if who == p],
            "baskets": baskets[p],
            "cards": [c.code for c in cards],
            "shells": len(shells),
            "scoring_cards": [code for code in BOARD_ITEMS if code in mine],
        }
    return {"round": rnd, "players": players}
