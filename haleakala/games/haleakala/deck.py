"""The palm-tree deck and the scoring board, read from ``data/deck.toml``.

The printed manifest is a reconstruction (see RULINGS.md), so it lives in data that an
owner of the physical game can correct; nothing about cards is hard-coded elsewhere.
Cards are numbered 0..n-1 in manifest order; the engine moves these numbers around.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

KINDS = ("action", "shell", "beach", "lava")
BOARD_ITEMS = ("butterflies", "forest", "majority", "segment", "mountain", "priestess")


@dataclass(frozen=True)
class CardType:
    """One kind of palm-tree card with its printed values (R12 compares these)."""

    code: str
    name: str
    kind: str
    baskets: int = 0
    butterflies: int = 0
    pearl: str = ""
    nautilus: int = 0

    @property
    def face(self) -> tuple:
        """Everything printed on the card: two cards are identical when this is equal."""
        return (self.kind, self.code, self.baskets, self.butterflies, self.pearl, self.nautilus)


@dataclass(frozen=True)
class Deck:
    types: dict[str, CardType]
    piles: tuple[tuple[int, dict[str, int]], ...]  # (back, {code: count}) in draw order
    cards: tuple[CardType, ...]  # card number → type
    pile_of_card: tuple[int, ...]  # card number → pile index
    board_items: dict[str, tuple[str, int]]  # code → (name, cost), in BOARD_ITEMS order
    points: dict[str, int] = field(default_factory=dict)
    source: str = ""

    def card_numbers(self, pile: int, variant: str) -> list[int]:
        """The cards of one pile in manifest order; the tactical variant has no lava (R25)."""
        return [
            n
            for n, p in enumerate(self.pile_of_card)
            if p == pile and not (variant == "tactical" and self.cards[n].kind == "lava")
        ]


class DeckDataError(ValueError):
    """The deck data file is wrong; the message names the key."""


def load_deck(text: str | None = None, source: str = "") -> Deck:
    if text is None:
        ref = resources.files("haleakala.games.haleakala").joinpath("data/deck.toml")
        text, source = ref.read_text("utf-8"), str(ref)
    data = tomllib.loads(text)
    types: dict[str, CardType] = {}
    for code, spec in data["cards"].items():
        if spec.get("kind") not in KINDS:
            raise DeckDataError(f"cards.{code}.kind must be one of {', '.join(KINDS)}")
        types[code] = CardType(
            code=code,
            name=spec.get("name", code),
            kind=spec["kind"],
            baskets=int(spec.get("baskets", 0)),
            butterflies=int(spec.get("butterflies", 0)),
            pearl=spec.get("pearl", ""),
            nautilus=int(spec.get("nautilus", 0)),
        )
    piles = []
    cards: list[CardType] = []
    pile_of: list[int] = []
    for index, pile in enumerate(data["piles"]):
        counts = {str(k): int(v) for k, v in pile["cards"].items()}
        for code, count in counts.items():
            if code not in types:
                raise DeckDataError(f"piles[{index}].cards.{code}: no such card type")
            cards.extend([types[code]] * count)
            pile_of.extend([index] * count)
        piles.append((int(pile["back"]), counts))
    items = {}
    for code in BOARD_ITEMS:
        spec = data["scoring_board"].get(code)
        if spec is None:
            raise DeckDataError(f"scoring_board.{code} is missing")
        items[code] = (spec["name"], int(spec["cost"]))
    return Deck(
        types=types,
        piles=tuple(piles),
        cards=tuple(cards),
        pile_of_card=tuple(pile_of),
        board_items=items,
        points={k: int(v) for k, v in data["points"].items()},
        source=source,
    )


@cache
def default_deck() -> Deck:
    return load_deck()


def deck_path() -> Path:
    return Path(str(resources.files("haleakala.games.haleakala").joinpath("data/deck.toml")))
