"""The controller's user-interface state, as plain immutable values.

Scenes are pure functions of (game, ``UiState``, time): the controller builds a ``UiState``
after every change and the LED and OLED scenes read nothing else, so a test can render any
situation without hardware, and the renderer can tell "nothing changed" by comparing values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Chooser kinds.
DECISION = "decision"  # shaman destination, card, Lava Priestess, shell, pre-scoring purchase
BEACH = "beach"  # buttons kit: which disc to place on / take back from a beach
BOAT = "boat"  # confirm moving the boat (action 3)
PROPOSAL = "proposal"  # solo: the companion's own decision, shown until carried out
MENU = "menu"  # back at a turn start: resume / undo / new game / variant
CONFIRM_NEW = "confirm_new"
SCORES = "scores"  # a scoring's breakdown (also the final result)


@dataclass(frozen=True)
class Option:
    """One line of a chooser: what the OLED says, and what selecting it does."""

    label: str
    value: Any
    detail: str = ""


@dataclass(frozen=True)
class Chooser:
    """A list the encoder cycles through and ``select`` confirms."""

    kind: str
    title: str
    options: tuple[Option, ...]
    cursor: int = 0
    subject: Any = None  # the beach (BEACH), the scoring record index (SCORES), ...
    cancellable: bool = True

    @property
    def current(self) -> Option | None:
        return self.options[self.cursor] if self.options else None

    def moved(self, steps: int) -> Chooser:
        if not self.options:
            return self
        return Chooser(
            self.kind,
            self.title,
            self.options,
            (self.cursor + steps) % len(self.options),
            self.subject,
            self.cancellable,
        )


@dataclass(frozen=True)
class Mismatch:
    """The board disagrees with the game (RFID kit): flash these beaches, say why, say how
    to fix it. ``refusal`` is False when the game itself asked for the change (discs going
    back after a distribution, an undo)."""

    beaches: tuple[int, ...]
    headline: str
    reason: str
    fixes: tuple[str, ...]
    refusal: bool = True


@dataclass(frozen=True)
class Message:
    """A short-lived note on the OLED: a refusal of a button press, an error, a notice."""

    title: str
    text: str
    refusal: bool = False
    beaches: tuple[int, ...] = ()  # zones to flash while it shows
    until: float = 0.0


@dataclass(frozen=True)
class Eruption:
    """The eruption animation: which craters had lava and which spaces burnt."""

    started: float
    until: float
    lava: tuple[int, ...]
    destroyed: tuple[int, ...]  # land spaces


@dataclass(frozen=True)
class UiState:
    kit: str = "buttons"
    chooser: Chooser | None = None
    mismatch: Mismatch | None = None
    message: Message | None = None
    instructions: tuple[str, ...] = ()
    eruption: Eruption | None = None
    auto_at: float | None = None  # a forced decision applies itself at this time
    solo: str | None = None
    proposal: int | None = None
    thinking: bool = False  # solo: the companion's bot is working out its decision
    bot_at: float | None = None  # solo: the companion's decision makes itself at this time
    pending_beach: int | None = None  # RFID: a placement waiting to settle
    link_ok: bool = True
    link_detail: str = ""
    notes: tuple[str, ...] = field(default=())  # start-up notes (journal repairs)
    scroll: int = 0  # text screens longer than the panel scroll with the encoder
    bye: bool = False
