"""Kahuna's vocabulary below ``game``: the players, turn phases, the result, the deal, and
the ``Position`` that ``refusals`` and ``hidden`` read.

Apart from ``game`` so that the modules bound as its methods (why a decision is refused,
what a player may know) name what they read without importing ``game``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, Self

from haleakala.core.errors import IllegalDecision as _BaseIllegal

if TYPE_CHECKING:
    from .board import Board

PLAYERS = ("white", "black")
NONE = -1

# Turn phases (KAHUNA-NOTATION "How a turn breaks into decisions").
OPEN, PLAYED, DISCARDED, OVER = range(4)
PHASE_NAMES = ("open", "played", "discarded", "over")


class IllegalDecision(_BaseIllegal):
    """A well-formed decision the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Result:
    """Totals of the scorings held, the winner (None: a draw, K28) and what decided."""

    totals: tuple[int, int]
    winner: str | None
    reason: str  # points | third | bridges | draw | wipeout

    def to_dict(self) -> dict:
        return {
            "totals": dict(zip(PLAYERS, self.totals, strict=True)),
            "winner": self.winner,
            "reason": self.reason,
        }


def deal_deck(board: Board, seed: int) -> tuple[list[int], int, random.Random]:
    """K4 steps 1–3: the shuffled deck, the drawn start index, and the generator after."""
    rng = random.Random(seed)
    deck = [i for i in range(len(board.islands)) for _ in range(board.cards_per_island)]
    rng.shuffle(deck)
    start = PLAYERS.index(rng.choice(list(PLAYERS)))
    return deck, start, rng


class Position(Protocol):
    """The parts of a ``Game`` that ``refusals`` and ``hidden`` read: they take the game as
    ``self`` without importing ``game``."""

    game_name: ClassVar[str]
    board: Board
    seed: int
    hands: list[list[int]]
    known: list[list[int]]
    display: list[int]
    pile: list[int]
    discard: list[int]
    buried: list[list[int]]
    bridge: list[int]
    stone: list[int]
    round: int
    decider: int
    phase: int
    must_draw: bool
    last_turns: int
    points: list[tuple[int, int]]
    _legal: list[int] | None

    @property
    def to_move(self) -> str | None: ...

    @property
    def phase_name(self) -> str: ...

    def bridges_on_board(self, p: int) -> int: ...

    def stones_on_board(self, p: int) -> int: ...

    def bridges_left(self, p: int) -> int: ...

    def stones_left(self, p: int) -> int: ...

    def hand_size(self, p: int) -> int: ...

    def hand_cards(self, p: int) -> list[str]: ...

    def held(self, p: int, island: int) -> int: ...

    def totals(self) -> tuple[int, int]: ...

    def returns(self) -> tuple[float, float]: ...

    def clone(self) -> Self: ...
