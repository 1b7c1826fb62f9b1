"""A refusal in the player's language: the rules give it in English with a template and
its parameters (``Refusal.of``); the catalogs give the template in German or French.

The rules module stays pure and English (its tests and logs read ``Refusal.text``); only
what a player reads goes through here.
"""

from __future__ import annotations

from haleakala.i18n import _, current, number
from haleakala.rules.decision import Param, Refusal, Term
from haleakala.rules.notation import Help


def say(refusal: Refusal) -> str:
    """What the player reads: the template translated and filled with the parameters (game
    terms translated too, numbers written the language's way); a refusal without a template
    (a bare sentence) goes through the catalog lookup; in English it is shown as it is."""
    if current() == "en":
        return refusal.text
    if not refusal.template:
        from haleakala.i18n.lookup import tr

        return tr(refusal.text)  # a bare sentence: the catalog lookup, as at any edge
    return _(refusal.template).format(**{k: word(v) for k, v in refusal.params})


def word(value: Param) -> str:
    """One parameter in the language in use."""
    if isinstance(value, Term | Help):
        return _(str(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return str(value)


def speak(text: str) -> str:
    """Any sentence of the rules in the language in use: one that remembers its template
    (``rules.notation.Said``: Kahuna's refusals) is translated from it; anything else by
    the catalog lookup (``i18n.lookup.tr``)."""
    from haleakala.i18n.lookup import tr
    from haleakala.rules.notation import Said

    if current() == "en":
        return str(text)
    if isinstance(text, Said) and hasattr(text, "template"):
        return _(text.template).format(**{k: word(v) for k, v in text.params})  # type: ignore[arg-type]
    return tr(text)
