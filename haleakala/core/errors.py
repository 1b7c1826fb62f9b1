"""The errors every game raises, so that front-ends catch one class for any game.

Each is a ``ValueError`` whose message is one sentence a person can act on; a game
subclasses them to add what it knows (its refusal kinds, its own wording).
"""

from __future__ import annotations

from .refusal import Refusal
from .text import Text


class IllegalDecision(ValueError):
    """A well-formed decision the rules do not allow now; the message says why, ``refusal``
    (``kind``, ``ruling``, its words as a value) says it for programs and other languages."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal or Refusal("not_allowed", message)

    @property
    def kind(self) -> str:
        return self.refusal.kind

    @property
    def ruling(self) -> str | None:
        return self.refusal.ruling


class NotationError(ValueError):
    """Text that is not a decision at all (as opposed to a decision that is illegal).

    ``ruling`` names the rule (RULINGS.md) when the text is wrong because of one (a lava
    move across the centre, R16), else None: the refusal carries it on."""

    def __init__(self, message: str, ruling: str | None = None) -> None:
        super().__init__(message)
        self.ruling = ruling
        self.words = Text(message)

    @classmethod
    def of(cls, template: str, ruling: str | None = None, **params: object) -> NotationError:
        """The error whose sentence is ``template`` (marked ``N_``) filled with ``params``:
        the refusal carries the ``Text`` on, so a player reads it in their language while
        logs and tests read the English."""
        words = Text.of(template, **params)  # type: ignore[arg-type]
        exc = cls(str(words), ruling)
        exc.words = words
        return exc


class SaveError(ValueError):
    """A save that cannot be loaded; the message names the field and what is wrong.

    ``path`` is that field (``$.piles[2][0]``), so a reader holding the text can add the
    line it is on."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.path = path


class UsageError(Exception):
    """Misuse of a command (a flag the game does not have, a file that is no save of it):
    the command line prints it as one line and exits with status 2. Here, below every
    front-end, so that a game's views raise it without importing the command line."""
