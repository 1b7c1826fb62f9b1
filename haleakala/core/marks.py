"""Marks on the English text of the rules, so that a front-end can say it in the
player's language while the rules stay pure and English (every game uses them).

``N_`` marks a sentence for the message catalogs; ``Said`` is a sentence that keeps its
template and parameters; ``Help`` and ``Term`` are game words inside a sentence that the
words layer replaces by their catalog entries.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark an English sentence for the message catalogs (as ``decision.N_``, which
    imports this module): the player reads it translated, the rules stay pure."""
    return message


class Said(str):
    """An English sentence that remembers its template and parameters, so a front-end can
    say it in the player's language (``i18n.refusals.speak``) while it is still a plain
    ``str`` for the logs, the tests and every caller that compares text."""

    template: str
    params: tuple[tuple[str, object], ...]

    @classmethod
    def of(cls, template: str, **params: object) -> Said:
        said = cls(template.format(**params))
        said.template, said.params = template, tuple(sorted(params.items()))
        return said


class Help(str):
    """The notation's summary inside a sentence: a game term for the refusal's
    translation (``decision.Term`` is the same kind of string, defined after this)."""

    __slots__ = ()


class Term(str):
    """A word of the game inside a refusal (a colour, a land, a card's name): English here,
    replaced by its catalog entry when the sentence is translated. Every term is in the
    catalog through the words layer's table of game terms."""

    __slots__ = ()
