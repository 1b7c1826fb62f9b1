"""The layout of a game's state: players, variants, phases and ownership marks, the values
a ``Game`` hands out (its ``Result`` and the errors it raises), and ``Position``, the parts
of the state that the rules beside the engine read.

Kept apart from ``game`` so that the modules beside it (legal decisions, refusals,
serialisation) read the same constants without importing the engine itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from haleakala.core.errors import IllegalDecision as _BaseIllegal

from .deck import BOARD_ITEMS, Deck
from .geometry import Board
from .scoring import Scoring

PLAYERS = ("red", "yellow")
VARIANTS = ("base", "tactical")

# Phases: what kind of decision is awaited.
TURN, MOVE_SHAMAN, CHOOSE_CARD, PRIESTESS, SHELL, PRESCORE, OVER = range(7)
PHASE_NAMES = ("turn", "shaman", "card", "priestess", "shell", "prescore", "over")

NO_OWNER = -1
FACE_DOWN = 2  # the board's Lava Priestess after use (R17)
PRIESTESS_ITEM = BOARD_ITEMS.index("priestess")


class IllegalDecision(_BaseIllegal):
    """A decision that the rules do not allow now (``core.errors``: message and refusal)."""


class UnknownVariant(ValueError):
    pass


@dataclass(frozen=True)
class Result:
    """Final scores, with each scoring's breakdown and the tie-break that decided."""

    scores: tuple[int, int]
    winner: str
    tiebreak: str | None
    scorings: tuple[Scoring, ...]

    @property
    def reason(self) -> str:
        """What decided (``gameapi.GameResult``): ``points``, else the tie-break that did
        (``statues``, ``start``)."""
        return self.tiebreak or "points"

    def to_dict(self) -> dict:
        return {
            "scores": dict(zip(PLAYERS, self.scores, strict=True)),
            "winner": self.winner,
            "tiebreak": self.tiebreak,
        }


class Position(Protocol):
    """The parts of a ``Game`` that legal-decision generation and refusals read (``legal``,
    ``refusals``): they take the game as ``self`` without importing ``game``."""

    board: Board
    deck: Deck
    phase: int
    decider: int
    context: tuple
    boat: int
    disc_at: list[list[int]]
    totals: list[list[int]]
    invocation: list[int]
    shaman: list[int]
    lava: list[int]
    slots: list[int]
    shells: list[list[int]]
    board_owner: list[int]
