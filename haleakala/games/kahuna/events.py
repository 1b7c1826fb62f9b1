"""What happened when a Kahuna decision was applied: ``Game.apply`` returns these frozen
values, in order, and every reader takes their fields by name.

Each has one ``to_record(game)``: the JSON-able dict of the game log (KAHUNA-NOTATION) and
the wire. The log is the full-information record (K31): every event is logged, naming every
card. Player indices are 0 white, 1 black; islands, lines and cards are the engine's
indices, named in the record as the notation names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

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
class Scoring:
    """K27: scoring ``round`` and, per player in seat order (white, black), the islands
    their stones mark (by name, sorted), how many, the points this scoring gave, the totals
    after it and the bridges on the board (K28's last tie-break). ``to_record`` is the
    scoring record of KAHUNA-NOTATION (each fact keyed by colour); ``from_record`` reads it.
    """

    round: int
    stones: tuple[tuple[str, ...], ...]
    islands: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    bridges: tuple[int, ...]

    def to_record(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "stones": {c: list(s) for c, s in zip(PLAYERS, self.stones, strict=True)},
            "islands": dict(zip(PLAYERS, self.islands, strict=True)),
            "points": dict(zip(PLAYERS, self.points, strict=True)),
            "totals": dict(zip(PLAYERS, self.totals, strict=True)),
            "bridges": dict(zip(PLAYERS, self.bridges, strict=True)),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Scoring:
        """The scoring a record describes (``to_record``'s dict or its JSON read back); a
        record of the wrong shape is a ``ValueError`` naming the field."""
        if not isinstance(record, Mapping) or not isinstance(record.get("round"), int):
            raise ValueError("a scoring record is an object with round, stones, islands, ...")

        def per_player(key: str) -> tuple[Any, ...]:
            facts = record.get(key)
            if not isinstance(facts, Mapping) or set(facts) != set(PLAYERS):
                raise ValueError(f"{key}: expected an object with {' and '.join(PLAYERS)}")
            return tuple(facts[c] for c in PLAYERS)

        stones = per_player("stones")
        if not all(isinstance(s, list) and all(isinstance(n, str) for n in s) for s in stones):
            raise ValueError("stones: expected each colour's list of island names")
        counts = {k: per_player(k) for k in ("islands", "points", "totals", "bridges")}
        for key, values in counts.items():
            if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
                raise ValueError(f"{key}: expected a whole number for each colour")
        return cls(record["round"], tuple(tuple(s) for s in stones), **counts)


@dataclass(frozen=True, slots=True)
class Scored:
    """K27: a scoring took place; ``scoring`` is what it gave and why."""

    scoring: Scoring
    kind: ClassVar[str] = "scoring"

    def to_record(self, game: Position) -> dict:
        return {"type": "scoring", **self.scoring.to_record()}


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

__all__ = [
    "Bridge", "Drew", "Ended", "Event", "Revealed", "Scored", "Scoring", "Shuffled", "Stone",
]  # fmt: skip
