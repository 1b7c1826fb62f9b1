"""What every game's events share: each game declares its own frozen event values (Haleakala's
``events`` module in its package); readers outside a game need only a ``kind``
and ``to_record``, the JSON-able dict of the game's log and of the wire."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol


class GameEvent(Protocol):
    """One thing that happened when a decision was applied."""

    kind: ClassVar[str]  # the record's "type"

    def to_record(self, game: Any) -> dict:
        """The event as the game's log writes it (``type`` first), for the log and the
        wire; ``game`` names the engine's indices (slots, islands, cards)."""
        ...


__all__ = ["GameEvent"]
