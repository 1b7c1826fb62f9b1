"""The game log of NOTATION.md: one JSON-able record per event, in order of play.

Pure: it turns a game and the events ``Game.apply`` returned into dicts; printing them
(one JSON object per line) is the caller's job. Records documented in NOTATION.md:
setup, action, reveal, lava, scoring, result. Added since (additions only):
``{"type": "eruption", "round": 1, "destroyed": ["2M"]}`` before each scoring record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import LOGGED
from .game import PLAYERS, Game, Result

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .events import Event


def setup_record(game: Game) -> dict:
    """The first line of a log; call before the first decision."""
    b = game.board
    return {
        "type": "setup",
        "variant": game.variant,
        "seed": game.seed,
        "start": PLAYERS[game.start],
        "slots": {
            b.slot_name(s): game.deck.cards[c].code for s, c in enumerate(game.slots) if c >= 0
        },
    }


def action_record(game: Game, decision: int, legal: Iterable[int] | None = None) -> dict:
    """The record of a decision, built from the state *before* it is applied."""
    record: dict = {
        "type": "action",
        "player": game.to_move,
        "action": game.format(decision),
    }
    if legal is not None:
        record["legal"] = sorted(game.format(d) for d in legal)
    return record


def event_records(game: Game, events: Iterable[Event]) -> list[dict]:
    """Log records for the events of one ``apply`` (the kinds the log format carries)."""
    return [event.to_record(game) for event in events if event.kind in LOGGED]


def result_record(result: Result) -> dict:
    return {"type": "result", **result.to_dict()}
