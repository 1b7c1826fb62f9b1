"""A refusal in the player's language: the rules make it as a value (``core.refusal.Refusal``
with a ``Text``: a catalog template and its parameters); the catalogs give the template in
German or French. The rules stay pure and English for logs and tests (``Refusal.text``);
only what a player reads goes through here.
"""

from __future__ import annotations

from haleakala.core.refusal import Refusal
from haleakala.core.text import Param
from haleakala.i18n import render


def say(refusal: Refusal) -> str:
    """What the player reads: the refusal's words in the language in use (game terms
    translated, numbers written the language's way); a bare sentence no catalog holds is
    shown as it is."""
    return render(refusal.words)


def word(value: Param) -> str:
    """One parameter in the language in use."""
    return render(value)
