"""Why a decision is refused, for every game: a ``kind`` and a ``ruling`` that programs
match, and the words (a ``Text``) that a player reads in their own language.

Callers match the codes, never the sentence, so rewording a message cannot change what
they do; ``text`` is the English sentence for logs and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .text import Param, Text, sentence


@dataclass(frozen=True, slots=True, init=False)
class Refusal:
    """``Refusal(kind, words, ruling)``: ``words`` is a ``Text`` (a bare English sentence is
    taken as a ``Text`` of its own); ``ruling`` names the rule (RULINGS.md, a game's own rulings)
    or is None when no rule is involved."""

    kind: str
    words: Text
    ruling: str | None = None
    text: str = field(default="", compare=False)

    def __init__(self, kind: str, words: Text | str, ruling: str | None = None) -> None:
        said = sentence(words)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "words", said)
        object.__setattr__(self, "ruling", ruling)
        object.__setattr__(self, "text", str(said))

    @classmethod
    def of(cls, kind: str, template: str, ruling: str | None = None, **params: Param) -> Refusal:
        """A refusal whose sentence is ``template`` (marked ``N_``) filled with ``params``."""
        return cls(kind, Text.of(template, **params), ruling)

    @property
    def template(self) -> str:
        return self.words.template

    @property
    def params(self) -> tuple[tuple[str, Param], ...]:
        return self.words.params

    def __str__(self) -> str:
        return self.text


__all__ = ["Refusal"]
