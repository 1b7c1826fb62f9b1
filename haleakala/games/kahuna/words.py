"""Kahuna's words for every front-end (terminal, window): its two colours as player names.

The islands keep their printed names (``ALOA`` … ``LALE``) in every language, like the
notation a player types; only the colours and the sentences around them are translated.
"""

from __future__ import annotations

from haleakala.i18n import N_, _

COLOURS = {"white": N_("white"), "black": N_("black")}
"""Kahuna's two colours as player names ("white holds no HUNA card")."""


def colour(name: str) -> str:
    """A colour as a player's name in the language in use (``"white"`` -> ``"Weiß"``)."""
    return _(COLOURS.get(name, name))
