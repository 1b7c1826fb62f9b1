"""The controller's user-interface state, as plain immutable values.

Scenes are pure functions of (game, ``UiState``, time): the controller builds a ``UiState``
after every change and the LED and OLED scenes read nothing else, so a test can render any
situation without hardware, and the renderer can tell "nothing changed" by comparing values.

Every word here is a value (``Words``: a ``core.text.Text`` made where the words are made,
or a plain str for what no catalog holds: notation, a URL, a journal repair's note), so the
OLED renders it in the language in use at the moment it draws; ``str()`` is English (logs).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeAlias

from haleakala.core.text import Param

Words: TypeAlias = Param

# Chooser kinds.
DECISION = "decision"  # shaman destination, card, Lava Priestess, shell, pre-scoring purchase
BEACH = "beach"  # buttons kit: which disc to place on / take back from a beach
BOAT = "boat"  # confirm moving the boat (action 3)
PROPOSAL = "proposal"  # solo: the companion's own decision, shown until carried out
MENU = "menu"  # back at a turn start: resume / undo / new game / variant
CONFIRM_NEW = "confirm_new"
SCORES = "scores"  # a scoring's breakdown (also the final result)
JOIN = "join"  # the live view's QR code and URL (a ready image), from the menu


@dataclass(frozen=True)
class Option:
    """One line of a chooser: what the OLED says, and what selecting it does."""

    label: Words
    value: Any
    detail: Words = ""


@dataclass(frozen=True)
class Chooser:
    """A list the encoder cycles through and ``select`` confirms."""

    kind: str
    title: Words
    options: tuple[Option, ...]
    cursor: int = 0
    subject: Any = None  # the beach (BEACH), the ``Scoring`` shown (SCORES), ...
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
    headline: Words
    reason: Words
    fixes: tuple[Words, ...]
    refusal: bool = True


@dataclass(frozen=True)
class Message:
    """A short-lived note on the OLED: a refusal of a button press, an error, a notice."""

    title: Words
    text: Words
    refusal: bool = False
    beaches: tuple[int, ...] = ()  # zones to flash while it shows
    until: float = 0.0
    since: float = 0.0  # when it appeared: a text longer than the panel pages from here


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
    instructions: tuple[Words, ...] = ()
    eruption: Eruption | None = None
    auto_at: float | None = None  # a forced decision applies itself at this time
    solo: str | None = None
    proposal: int | None = None
    thinking: bool = False  # solo: the companion's bot is working out its decision
    bot_at: float | None = None  # solo: the companion's decision makes itself at this time
    pending_beach: int | None = None  # RFID: a placement waiting to settle
    link_ok: bool = True
    link_detail: str = ""
    notes: tuple[Words, ...] = field(default=())  # start-up notes (journal repairs)
    scroll: int = 0  # text screens longer than the panel scroll with the encoder
    bye: bool = False
    lesson: Any = None  # a lesson's view (LessonHooks.view): its words and pointers


@dataclass(frozen=True)
class Settling:
    """RFID: a disc laid or lifted that counts as ``decision`` at ``at`` unless the board
    changes first (a lifted disc on its way to another beach, an invocation disc to come)."""

    decision: int
    at: float


@dataclass(frozen=True)
class Panel:
    """What the controller shows and waits for between two events, as one value.

    The controller replaces it (``dataclasses.replace``) instead of keeping a dozen loose
    attributes, so one line says every piece of the screen's state, and ``ui_state`` derives
    the scenes' ``UiState`` from it (with the solo seat's part and the time).
    """

    chooser: Chooser | None = None  # the decision being made (or the solo proposal)
    overlay: Chooser | None = None  # a menu or a score page over it
    overlay_until: float | None = None  # a score page closes itself then
    mismatch: Mismatch | None = None  # RFID: the board disagrees, shown now
    hold: Mismatch | None = None
    """RFID: the board must match the game before a change on it counts again (after the
    game moved discs, or after a refusal); headline and reason of why."""
    message: Message | None = None
    instructions: tuple[Words, ...] = ()
    eruption: Eruption | None = None
    auto_at: float | None = None  # a forced decision applies itself then
    pending: Settling | None = None  # RFID: a decision waiting to settle
    scroll: int = 0  # text screens longer than the panel scroll with the encoder

    @property
    def shown(self) -> Chooser | None:
        """The chooser on the OLED (a menu or scores over the decision), if any."""
        return self.overlay or self.chooser

    @property
    def settling(self) -> bool:
        """RFID: a disc laid or lifted waits a moment before it counts (select: at once)."""
        return self.pending is not None

    @property
    def must_match(self) -> Words | None:
        """The headline while the game waits for the board to match (RFID kit)."""
        return self.hold.headline if self.hold is not None else None

    @property
    def proposal(self) -> int | None:
        """Solo: the companion's decision shown for the players to carry out, if any."""
        chooser = self.chooser
        if chooser is None or chooser.kind != PROPOSAL or not chooser.options:
            return None
        return chooser.options[0].value

    def reset(self) -> Panel:
        """After the position changed: no chooser, menu, dispute, note or timer is left
        (the instructions, the eruption and a held board stay)."""
        return replace(
            self,
            chooser=None,
            overlay=None,
            overlay_until=None,
            mismatch=None,
            message=None,
            pending=None,
            auto_at=None,
        )


class LessonHooks(Protocol):
    """A lesson taught on the board (``haleakala.learn.board.BoardLesson``): the controller
    and its parts ask it at the few places a lesson changes what happens. The companion
    knows only this shape; the lesson package, above it, installs itself (``Teacher``)."""

    def intercept(self, host: Any, event: object) -> bool:
        """An input the lesson handles itself (go on, the step before, leave): True."""
        ...

    def allows(self, host: Any, d: int, by: str) -> bool:
        """May decision ``d`` be applied (else the lesson shows its hint)?"""
        ...

    def decided(self, host: Any, d: int, by: str) -> None:
        """After a decision: the lesson moves on, its other side replies."""
        ...

    def leave(self, host: Any, handover: str | None = None) -> None: ...

    def view(self) -> Any:
        """What the OLED shows of the lesson now (None: nothing)."""
        ...

    def leds(self, frame: dict) -> dict:
        """The LED frame with what the lesson points at."""
        ...

    def watch_data(self) -> dict | None:
        """The lesson's step for the live view (None: nothing to show)."""
        ...


class Teacher(Protocol):
    """What the menu offers of the lessons (``haleakala.learn.board.Desk``)."""

    def offer(self, host: Any, first: bool = False) -> None:
        """The lessons as a menu over the game (``first``: the first boot's offer)."""
        ...

    def start(self, host: Any, name: str) -> None: ...
