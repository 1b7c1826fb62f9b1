"""Haleakala's phone seats (``web.seats.SeatHooks``): the generic seat's position and
decisions (every Haleakala decision is public), and the final result as the kit says it
(``game over: red 28, yellow 8: red wins``) rather than the seats' returns (who won, as 1
and 0, is not the score).
"""

from __future__ import annotations

from haleakala import i18n
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.words.moves import result_sentence
from haleakala.toolkit.generic.seat import decision_words, sections, seen_decision, seen_events

__all__ = ["decision_words", "result_words", "sections", "seen_decision", "seen_events"]


def result_words(game: Game) -> str:
    """The final score in words, in the language in use ("" while the game goes on)."""
    result = game.result()
    return "" if result is None else str(i18n.render(result_sentence(result)))
