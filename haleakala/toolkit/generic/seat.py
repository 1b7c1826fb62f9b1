"""A phone seat's view of any game without seat hooks of its own (the hooks of
``haleakala.web.seats.SeatHooks``): the position as that seat may see it (the
description's ``render`` for the viewer), its legal decisions in notation, and every
decision as the game lets the seat see it (``GameState.seen_decision``).
"""

from __future__ import annotations

from typing import Any

from haleakala.gameapi import GameState

from .text import position_text


def sections(game: GameState, viewer: int) -> list[dict[str, Any]]:
    """The position as ``viewer`` sees it, one wide section of text."""
    return [{"title": "", "lines": position_text(game, viewer).split("\n"), "wide": True}]


def decision_words(game: GameState, code: int) -> str:
    """A legal decision of the seat that decides now: its notation."""
    return game.format(code)


def seen_decision(before: GameState, code: int, viewer: int) -> str:
    """What ``viewer`` may see of the decision ``code`` made in ``before``."""
    return before.seen_decision(before.format(code), before.decider, viewer)


def seen_events(before: GameState, events: list[Any], viewer: int) -> list[str]:
    """The generic seat tells no effects: the position after them shows what they did."""
    return []
