"""What happened when a Kahuna decision was applied: ``Game.apply`` returns these frozen
values, in order, and every reader takes their fields by name.

Each has one ``to_record(game)``: the JSON-able dict of the game log (KAHUNA-NOTATION) and
the wire. The log is the full-information record (K31): every event is logged, naming every
card. Player indices are 0 white, 1 black; islands, lines and cards are the engine's
indices, named in the record as the notation names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

from .state import PLAYERS, Result

if TYPE_CHECKING:
    from .state import Position


@dataclass(frozen=True, slots=True)
class Stone:
    """K12–K14: ``player``'s stone is ``"placed"`` on or ``"removed"`` from ``island``."""

    player: int
    island: int
    what: Literal["placed", "removed"]
    kind: ClassVar[str] = "stone"

    def to_record(self, game: Position) -> dict:
        island = game.board.islands[self.island]
        return {"type": "stone", "player": PLAYERS[self.player], "island": island,
                "event": self.what}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Bridge:
    """K12/K16: ``player``'s bridge on ``line`` is removed (``what`` is ``"removed"``)."""

    player: int
    line: int
    what: Literal["removed"]
    kind: ClassVar[str] = "bridge"

    def to_record(self, game: Position) -> dict:
        line = game.board.line_names[self.line]
        return {"type": "bridge", "player": PLAYERS[self.player], "line": line,
                "event": self.what}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Drew:
    """K20/K21: ``player`` draws ``card`` from the pile (``source`` ``"pile"``) or from
    display slot ``source`` (0-based)."""

    player: int
    source: int | Literal["pile"]
    card: int
    kind: ClassVar[str] = "draw"

    def to_record(self, game: Position) -> dict:
        where = "pile" if self.source == "pile" else str(self.source + 1)
        card = game.board.islands[self.card]
        return {"type": "draw", "player": PLAYERS[self.player], "from": where, "card": card}


@dataclass(frozen=True, slots=True)
class Revealed:
    """K20: ``card`` from the pile fills display slot ``slot`` (0-based)."""

    slot: int
    card: int
    kind: ClassVar[str] = "reveal"

    def to_record(self, game: Position) -> dict:
        return {"type": "reveal", "slot": self.slot + 1, "card": game.board.islands[self.card]}


@dataclass(frozen=True, slots=True)
class Scored:
    """K27: a scoring; ``record`` is the scoring record of KAHUNA-NOTATION."""

    record: dict
    kind: ClassVar[str] = "scoring"

    def to_record(self, game: Position) -> dict:
        return {"type": "scoring", **self.record}


@dataclass(frozen=True, slots=True)
class Shuffled:
    """K25: round ``round`` starts from a shuffled discard: ``display`` and ``pile``."""

    round: int
    display: tuple[int, ...]
    pile: tuple[int, ...]
    kind: ClassVar[str] = "shuffle"

    def to_record(self, game: Position) -> dict:
        names = game.board.islands
        return {
            "type": "shuffle",
            "round": self.round,
            "display": [names[c] for c in self.display],
            "pile": [names[c] for c in self.pile],
        }


@dataclass(frozen=True, slots=True)
class Ended:
    """K28/K29: the game is over with ``result``."""

    result: Result
    kind: ClassVar[str] = "result"

    def to_record(self, game: Position) -> dict:
        return {"type": "result", **self.result.to_dict()}


Event: TypeAlias = Stone | Bridge | Drew | Revealed | Scored | Shuffled | Ended

__all__ = ["Bridge", "Drew", "Ended", "Event", "Revealed", "Scored", "Shuffled", "Stone"]
