"""Writing a game log (NOTATION.md and each game's notation): one compact JSON object per line.

The records come from the game's log module (its description's ``log``); this module only fixes
their text form so that the same seed and decisions give the same bytes: compact separators, keys in
the order the log module builds them (``type`` first), ASCII only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from haleakala.gameapi import game_of, log_module

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from haleakala.ai import Bot
    from haleakala.gameapi import GameState


def dumps(record: dict[str, Any]) -> str:
    """One log line (without the newline)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=True)


def bot_seed(seed: int, player: int) -> int:
    """Each seat's bot gets its own seed derived from the game's, so a game between bots
    is fully determined by ``--seed`` (and the same seed gives the same log)."""
    return seed * 2 + player


def play_log(game: GameState, bots: Sequence[Bot], legal: bool = False) -> Iterator[str]:
    """Play ``game`` to the end with ``bots`` (by player index), yielding log lines:
    setup, then each action followed by the records its events produce, result last."""
    log = log_module(game_of(game))
    yield dumps(log.setup_record(game))
    while not game.is_terminal():
        decision = bots[game.decider].decide(game)
        options = game.legal_actions() if legal else None
        yield dumps(log.action_record(game, decision, options))
        for record in log.event_records(game, game.apply(decision)):
            yield dumps(record)
