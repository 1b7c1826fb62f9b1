"""What happened when a decision was applied: ``Game.apply`` returns these frozen values, in
order, and every reader takes their fields by name (never a tuple's position).

Each has one ``to_record(game)``: the JSON-able dict of the game log (NOTATION.md) and the
wire. The log carries the kinds in ``LOGGED``; the others (a card received, a statue built,
...) follow from the decisions and are recorded only where a reader wants them (the wire).
Player indices are 0 red, 1 yellow; slots, spaces and cards are the engine's indices, named
in the record the way the notation names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from .scoring import Scoring
from .state import PLAYERS, Result

if TYPE_CHECKING:
    from .state import Position

LOGGED = frozenset({"reveal", "lava", "eruption", "scoring", "result"})
"""The kinds of event the game log carries (NOTATION.md), in the order they happen."""


@dataclass(frozen=True, slots=True)
class Revealed:
    """R14: a card from a pile is turned face up in ``slot``."""

    slot: int
    card: int
    kind: ClassVar[str] = "reveal"

    def to_record(self, game: Position) -> dict:
        code = game.deck.cards[self.card].code
        return {"type": "reveal", "slot": game.board.slot_name(self.slot), "card": code}


@dataclass(frozen=True, slots=True)
class LavaPlaced:
    """A lava disc lands on the crater of ``segment``; ``cause`` is ``"card"`` (a Lava card
    revealed) or ``"invocation"`` (R26)."""

    segment: int
    cause: str
    kind: ClassVar[str] = "lava"

    def to_record(self, game: Position) -> dict:
        return {"type": "lava", "segment": self.segment, "cause": self.cause}


@dataclass(frozen=True, slots=True)
class Received:
    """R11: ``player`` receives ``card`` (chosen, or the one left over, R12)."""

    player: int
    card: int
    kind: ClassVar[str] = "receive"

    def to_record(self, game: Position) -> dict:
        code = game.deck.cards[self.card].code
        return {"type": "receive", "player": PLAYERS[self.player], "card": code}


@dataclass(frozen=True, slots=True)
class StatueBuilt:
    """R15: ``player`` builds a statue on land space ``space`` (a Build a Statue card)."""

    player: int
    space: int
    kind: ClassVar[str] = "statue"

    def to_record(self, game: Position) -> dict:
        space = game.board.space_name(self.space)
        return {"type": "statue", "player": PLAYERS[self.player], "space": space}


@dataclass(frozen=True, slots=True)
class BoatMoved:
    """R9: the fishing boat sails from segment ``source`` to ``target``."""

    source: int
    target: int
    kind: ClassVar[str] = "boat"

    def to_record(self, game: Position) -> dict:
        return {"type": "boat", "from": self.source, "to": self.target}


@dataclass(frozen=True, slots=True)
class DiscsBack:
    """R13: the number discs on ``beach`` go back to their owners' supplies."""

    beach: int
    kind: ClassVar[str] = "discs_back"

    def to_record(self, game: Position) -> dict:
        return {"type": "discs_back", "beach": self.beach}


@dataclass(frozen=True, slots=True)
class InvocationBack:
    """R16/R27: ``player``'s invocation disc returns to their supply."""

    player: int
    kind: ClassVar[str] = "invocation_back"

    def to_record(self, game: Position) -> dict:
        return {"type": "invocation_back", "player": PLAYERS[self.player]}


@dataclass(frozen=True, slots=True)
class Bought:
    """R17/R19: ``player`` buys the scoring-board item ``item`` (its code: ``forest``)."""

    player: int
    item: str
    kind: ClassVar[str] = "buy"

    def to_record(self, game: Position) -> dict:
        return {"type": "buy", "player": PLAYERS[self.player], "item": self.item}


@dataclass(frozen=True, slots=True)
class Erupted:
    """R22: the volcano erupts before scoring ``round``; ``destroyed`` names the land
    spaces whose statues burnt (``2M``) and ``owners`` their colours, in the same order."""

    round: int
    destroyed: tuple[str, ...]
    owners: tuple[str, ...]
    kind: ClassVar[str] = "eruption"

    def to_record(self, game: Position) -> dict:
        return {"type": "eruption", "round": self.round, "destroyed": list(self.destroyed)}


@dataclass(frozen=True, slots=True)
class Scored:
    """R18–R23: a scoring (round, each player's points and the facts they rest on), the
    value ``Game.scorings`` keeps; its record is the scoring record of NOTATION.md."""

    scoring: Scoring
    kind: ClassVar[str] = "scoring"

    def to_record(self, game: Position) -> dict:
        return {"type": "scoring", **self.scoring.to_record()}


@dataclass(frozen=True, slots=True)
class Ended:
    """R24: the game is over with ``result``."""

    result: Result
    kind: ClassVar[str] = "result"

    def to_record(self, game: Position) -> dict:
        return {"type": "result", **self.result.to_dict()}


Event: TypeAlias = (
    Revealed
    | LavaPlaced
    | Received
    | StatueBuilt
    | BoatMoved
    | DiscsBack
    | InvocationBack
    | Bought
    | Erupted
    | Scored
    | Ended
)

__all__ = [
    "LOGGED",
    "BoatMoved",
    "Bought",
    "DiscsBack",
    "Ended",
    "Erupted",
    "Event",
    "InvocationBack",
    "LavaPlaced",
    "Received",
    "Revealed",
    "Scored",
    "StatueBuilt",
]
