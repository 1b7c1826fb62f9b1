"""What happened when a Kanaloa decision was applied: ``Game.apply`` returns these frozen
values, in the order of KANALOA-NOTATION, and every reader takes their fields by name.

Each has one ``to_record(game)``: the JSON-able dict of the game log (KANALOA-NOTATION, the
full-information record of N12) and the wire, byte for byte the log the tuples made before
(``tests/data/golden_logs/kanaloa-*``). Players are seat indices (red, yellow, green, blue),
``NOBODY`` (-1) for no one; islands, tiles and gods are the engine's indices, named in the
record as the notation names them. ``kind`` is the record's ``type``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

from .material import GODS
from .records import result_record, state_record, tile_name, where, who
from .state import Result

if TYPE_CHECKING:
    from .core import Core


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """N18, N29: turn ``number`` of ``player`` begins; an eruption turn (N29) when
    ``eruption``."""

    number: int
    player: int
    eruption: bool
    kind: ClassVar[str] = "turn"

    def to_record(self, game: Core) -> dict:
        return {"type": "turn", "number": self.number, "player": game.players[self.player],
                "eruption": self.eruption}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Drew:
    """N27: the offering ``tile`` is drawn from the bag for ``island``."""

    tile: int
    island: int
    kind: ClassVar[str] = "draw"

    def to_record(self, game: Core) -> dict:
        return {
            "type": "draw",
            "tile": game.m.tiles[self.tile],
            "island": game.m.islands[self.island],
        }


@dataclass(frozen=True, slots=True)
class VolcanoDrawn:
    """N28, N47: a volcano tile is drawn, the ``count``-th of the game."""

    count: int
    kind: ClassVar[str] = "draw"

    def to_record(self, game: Core) -> dict:
        return {"type": "draw", "tile": "volcano", "count": self.count}


@dataclass(frozen=True, slots=True)
class ReserveUsed:
    """N27: the bag is empty and the reserve becomes the bag, ``tiles`` in drawing order."""

    tiles: tuple[int, ...]
    kind: ClassVar[str] = "reserve"

    def to_record(self, game: Core) -> dict:
        return {"type": "reserve", "tiles": [tile_name(game, t) for t in self.tiles]}


@dataclass(frozen=True, slots=True)
class Erupted:
    """N29: the ``count``-th volcano tile makes an eruption; ``pele`` places the volcano."""

    count: int
    pele: int
    kind: ClassVar[str] = "eruption"

    def to_record(self, game: Core) -> dict:
        return {"type": "eruption", "count": self.count, "pele": game.players[self.pele]}


@dataclass(frozen=True, slots=True)
class Stunned:
    """N32: ``player``'s piece on ``island`` is stunned by the volcano."""

    player: int
    island: int
    kind: ClassVar[str] = "stun"

    def to_record(self, game: Core) -> dict:
        return {"type": "stun", "player": game.players[self.player],
                "island": game.m.islands[self.island]}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LostTurn:
    """N32: ``player`` has no piece that can act and loses the turn."""

    player: int
    kind: ClassVar[str] = "lost"

    def to_record(self, game: Core) -> dict:
        return {"type": "lost", "player": game.players[self.player]}


@dataclass(frozen=True, slots=True)
class VolcanoRemoved:
    """N33: the volcano leaves ``where`` (an island, or ``SEA`` + a sea space)."""

    where: int
    kind: ClassVar[str] = "volcano"

    def to_record(self, game: Core) -> dict:
        return {"type": "volcano", "event": "removed", "where": where(game, self.where)}


@dataclass(frozen=True, slots=True)
class TempleRaised:
    """N34: ``player``'s temple of ``god`` is now worth ``value``."""

    player: int
    god: int
    value: int
    kind: ClassVar[str] = "temple"

    def to_record(self, game: Core) -> dict:
        return {"type": "temple", "player": game.players[self.player], "god": GODS[self.god],
                "value": self.value}  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardPassed:
    """N36-N39: ``god``'s gods or protection card goes from ``giver`` to ``taker`` (either
    may be ``NOBODY``: the card comes from or goes back to the supply)."""

    card: Literal["gods", "protection"]
    god: int
    giver: int
    taker: int
    kind: ClassVar[str] = "card"

    def to_record(self, game: Core) -> dict:
        return {"type": "card", "kind": self.card, "god": GODS[self.god],
                "from": who(game, self.giver), "to": who(game, self.taker)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The log's optional ``state`` record (L4): ``position``, a copy of the game as a turn
    begins (made only when the game's ``snapshots`` is on)."""

    position: Core
    kind: ClassVar[str] = "state"

    def to_record(self, game: Core) -> dict:
        return state_record(self.position)


@dataclass(frozen=True, slots=True)
class Ended:
    """N47, N48: the game is over with ``result``."""

    result: Result
    kind: ClassVar[str] = "result"

    def to_record(self, game: Core) -> dict:
        return result_record(game, self.result)


Event: TypeAlias = (
    TurnBegan | Drew | VolcanoDrawn | ReserveUsed | Erupted | Stunned | LostTurn
    | VolcanoRemoved | TempleRaised | CardPassed | Snapshot | Ended
)  # fmt: skip
"""Any event of ``Game.apply``."""

__all__ = [
    "CardPassed",
    "Drew",
    "Ended",
    "Erupted",
    "Event",
    "LostTurn",
    "ReserveUsed",
    "Snapshot",
    "Stunned",
    "TempleRaised",
    "TurnBegan",
    "VolcanoDrawn",
    "VolcanoRemoved",
]
