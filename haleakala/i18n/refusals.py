"""A refusal in the player's language: the rules give it in English with a template and
its parameters (``Refusal.of``); the catalogs give the template in German or French.

The rules module stays pure and English (its tests and logs read ``Refusal.text``); only
what a player reads goes through here.
"""

from __future__ import annotations

from haleakala.i18n import _, current, number
from haleakala.rules.decision import Param, Refusal, Term


def say(refusal: Refusal) -> str:
    """What the player reads: the template translated and filled with the parameters (game
    terms translated too, numbers written the language's way); a refusal without a template
    (a bare sentence) is shown as it is, and so is every refusal in English, the source."""
    if not refusal.template or current() == "en":
        return refusal.text
    return _(refusal.template).format(**{k: word(v) for k, v in refusal.params})


def word(value: Param) -> str:
    """One parameter in the language in use."""
    if isinstance(value, Term):
        return _(str(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return str(value)
