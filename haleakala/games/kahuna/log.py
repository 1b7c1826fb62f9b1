"""The Kahuna game log of KAHUNA-NOTATION: one JSON-able record per event, in order.

Pure: it turns a game and the events ``Game.apply`` returned into dicts; printing them
is the caller's job (``haleakala.toolkit.gamelog``). The log is the full-information
record (K31): it names every card, even those hidden from a player. The same three
functions as ``haleakala.games.haleakala.log`` (setup, action, events), so the generic log writer
works for both games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game import NONE, PLAYERS, Game, Result

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .events import Event


def setup_record(game: Game) -> dict:
    """The first line of a game; call before the first decision."""
    names = game.board.islands
    return {
        "type": "setup",
        "game": "kahuna",
        "seed": game.seed,
        "start": PLAYERS[game.start],
        "hands": {c: sorted(game.hand_cards(p)) for p, c in enumerate(PLAYERS)},
        "display": [names[c] if c != NONE else None for c in game.display],
        "pile": [names[c] for c in game.pile],
        "effects": True,
    }


def action_record(game: Game, decision: int, legal: Iterable[int] | None = None) -> dict:
    """The record of a decision, built from the state *before* it is applied."""
    record: dict = {"type": "action", "player": game.to_move, "action": game.format(decision)}
    if legal is not None:
        record["legal"] = sorted(game.format(d) for d in legal)
    return record


def event_records(game: Game, events: Iterable[Event]) -> list[dict]:
    """Log records for the events of one ``apply``, in the order the notation gives (the
    log is the full-information record: every event is logged)."""
    return [event.to_record(game) for event in events]


def result_record(result: Result) -> dict:
    return {"type": "result", **result.to_dict()}
