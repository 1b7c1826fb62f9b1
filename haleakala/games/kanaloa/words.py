"""Kanaloa's words for every front-end (terminal, window, live view): colours and gods.

The islands, currents and tile codes keep their notation names (``HONU``, ``HONU-KAI``,
``Kane3``) in every language, like the decisions a player types; only the colours as
player names and the sentences around them are translated. The one-letter marks of a fish's
side (``r y g b w``) are notation too, so that a map reads the same in every language; the
legend under the map says what they mean in the language in use.
"""

from __future__ import annotations

from haleakala.i18n import N_, _

COLOURS = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "white": N_("white"),
}
"""The four player colours and the fish's white side, as words."""

MARKS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "white": "w"}
"""One letter per fish side, the same in every language (the map's legend explains them)."""


def colour(name: str) -> str:
    """A colour as a player's name in the language in use (``"green"`` -> ``"Grün"``)."""
    return _(COLOURS.get(name, name))
