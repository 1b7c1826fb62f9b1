"""The live view of any game without a drawing of its own: a JSON-able snapshot with the
position as text for a watcher (public only: ``render`` with no viewer), who decides now,
the legal decisions' notation and the log in words. The page draws it as text and a list
(``drawGeneric`` in ``web/static/app.js``); it never borrows another game's picture.

The same two functions as a game's own ``live_view`` module: ``snapshot`` and
``log_lines``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from haleakala import i18n, palette
from haleakala.gameapi import GameState, describe, game_of
from haleakala.i18n import N_, _

from ..live import continued, labels
from .text import colour_name, position_text, result_sentence

LOG_LINES = 40
LEGAL_SHOWN = 24
"""The most legal decisions a snapshot lists (the count says how many there are)."""

LABELS = {
    "g_players": N_("{n} players"),
    "g_legal": N_("{n} legal decisions"),
}
"""The generic page's own texts, by key (``drawGeneric`` looks them up)."""


def snapshot(
    game: GameState, *, log: Sequence[str] = (), seq: int = 0, digest: str = "", **_extra: Any
) -> dict[str, Any]:
    """Everything the generic page shows of ``game``: a fresh dict of plain values, with
    nothing a watcher may not see (the text is the public rendering)."""
    over = game.is_terminal()
    words = labels()
    words.update({key: _(text) for key, text in LABELS.items()})
    legal = [] if over else game.legal_decisions()
    name = game_of(game)
    return {
        "v": 1,
        "game": name,
        "view": "generic",
        "title": describe(name).title,
        "lang": i18n.current(),
        "palette": palette.current(),
        "labels": words,
        "seq": seq,
        "digest": digest or game.digest(),
        # No seed: a game may deal its hidden cards from it (a watcher could re-deal them).
        "players": [{"colour": c, "name": colour_name(c)} for c in game.players],
        "decisions": len(game.history),
        "over": over,
        "to_move": game.to_move,
        "to_move_name": colour_name(game.to_move or "") if not over else "",
        "text": position_text(game, None),
        "legal": legal[:LEGAL_SHOWN],
        "legal_count": len(legal),
        "result": result_sentence(game) if over else "",
        "log": list(log[-LOG_LINES:]),
    }


def log_lines(before: GameState | None, after: GameState) -> tuple[list[str], bool]:
    """What happened between two published positions (each decision's notation by its
    player), and whether the log starts over (another game, or a jump back)."""
    replay = continued(before, after)
    if replay is not None:
        lines = []
        for decision in after.history[len(replay.history) :]:
            who = colour_name(replay.to_move or "")
            seen = replay.seen_decision(replay.format(decision), replay.decider, None)
            lines.append(f"{who}: {seen}")
            replay.apply(decision)
        return lines, False
    start = _("{title}, decision {n}").format(
        title=describe(game_of(after)).title, n=len(after.history)
    )
    return [start], True
