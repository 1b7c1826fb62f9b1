"""The Kanaloa game log of KANALOA-NOTATION: one JSON-able record per event, in order.

Pure: it turns a game and the events ``Game.apply`` returned into dicts; printing them is
the caller's job (``haleakala.toolkit.gamelog``). The log is the full-information record
(N12): it holds the bag order. The same three functions as the other games' log modules
(setup, action, events), so the generic log writer works unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .material import GODS
from .records import result_record, state_record, tile_name, where, who

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .events import Event
    from .game import Game


def setup_record(game: Game) -> dict:
    """The first line of a game (N8's outcome), from the deal the game was made with."""
    m, d = game.m, game.dealt
    lay = game.lay
    return {
        "type": "setup",
        "game": "kanaloa",
        "seed": game.seed,
        "players": list(game.players),
        "neutral": m.colours[2] if game.n == 2 else None,
        "islands": [m.islands[i] for i in lay.islands],
        "currents": [m.current_names[c] for c in lay.currents],
        "gods": {game.players[p]: [GODS[g] for g in sorted(gs)] for p, gs in enumerate(d.gods)},
        "tiles": {
            m.islands[i]: sorted(tile_name(game, t) for t in d.tiles[i]) for i in lay.islands
        },
        "reserve": [tile_name(game, t) for t in d.reserve],
        "bag": [tile_name(game, t) for t in d.bag],
    }


def action_record(game: Game, decision: int, legal: Iterable[int] | None = None) -> dict:
    """The record of a decision, built from the state *before* it is applied."""
    record: dict = {"type": "action", "player": game.to_move, "action": game.format(decision)}
    if legal is not None:
        record["legal"] = sorted(game.format(d) for d in legal)
    return record


def event_records(game: Game, events: Iterable[Event]) -> list[dict]:
    """Log records for the events of one ``apply``, in the order the notation gives (each
    event's own ``to_record``)."""
    return [event.to_record(game) for event in events]


__all__ = [
    "action_record",
    "event_records",
    "result_record",
    "setup_record",
    "state_record",
    "tile_name",
    "where",
    "who",
]
