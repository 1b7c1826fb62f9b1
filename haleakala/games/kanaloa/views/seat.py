"""Kanaloa's seat hooks (``web.seats.SeatHooks``): what a phone seat of a game for two to
four reads.

Kanaloa hides only the bag's order (N12) and no decision, so every seat reads the same
position and every decision's notation; the position and the effects are the terminal's
words (``terminal.kanaloa_map``), which never show the bag. What differs per seat is only
the prompt of a decision it must make, out of turn too (the fish placement, Ku's robbery
N43, the veto N42): the page has no map of its own, so the prompt says what to choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from haleakala.games.kanaloa.events import Ended
from haleakala.games.kanaloa.views.board import (
    PHASE_PROMPTS,
    describe_events,
    describe_result,
    header,
    island_lines,
    legend,
    map_lines,
    player_lines,
    volcano_line,
)
from haleakala.i18n import _

if TYPE_CHECKING:
    from haleakala.games.kanaloa.game import Game


def sections(game: Game, viewer: int) -> list[dict]:
    """Whose decision and what to choose, the players and the volcano; then the map and
    the islands (wide: the page lets them scroll sideways)."""
    top = [header(game)]
    if not game.is_terminal() and game.decider == viewer and game.phase_name in PHASE_PROMPTS:
        top.append(_(PHASE_PROMPTS[game.phase_name]))
    return [
        {"title": "", "lines": [*top, volcano_line(game), *player_lines(game)], "wide": False},
        {"title": "", "lines": [*map_lines(game), legend(), *island_lines(game)], "wide": True},
    ]


def decision_words(game: Game, code: int) -> str:
    """The notation: Kanaloa's decisions are written to be read (``move HONU>KAI``)."""
    return str(game.format(code))


def seen_decision(before: Game, code: int, viewer: int) -> str:
    """Every seat sees the notation (no decision hides anything); asked of the game's own
    hook all the same, so that one it adds later is kept by the phones too."""
    return before.seen_decision(before.format(code), before.decider, viewer)


def seen_events(before: Game, events: list[Any], viewer: int) -> list[str]:
    """The effects in words; the final result is left to ``result_words`` (it needs the
    position after the decision, and the page shows it once)."""
    return describe_events(before, [e for e in events if not isinstance(e, Ended)])


def result_words(game: Game) -> str:
    return describe_result(game)
