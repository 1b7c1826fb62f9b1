"""The game log: the three functions every game's log module has (setup, action, events);
``"game"`` in the setup record is what tells a replayer whose log it is."""

from __future__ import annotations

from collections.abc import Iterable

from .game import Event, Game


def setup_record(game: Game) -> dict[str, object]:
    return {"type": "setup", "game": "dots", "seed": game.seed, "players": list(game.players),
            "start": game.players[game.start]}  # fmt: skip


def action_record(game: Game, decision: int, legal: Iterable[int] | None = None) -> dict:
    record: dict[str, object] = {"type": "action", "player": game.to_move,
                                 "action": game.format(decision)}  # fmt: skip
    if legal is not None:
        record["legal"] = sorted(game.format(d) for d in legal)
    return record


def event_records(game: Game, events: Iterable[Event]) -> list[dict[str, object]]:
    """The boxes claimed and the result (a line's own record is its action)."""
    return [event.to_record(game) for event in events if event.kind != "line"]
