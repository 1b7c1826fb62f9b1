"""What the controller's parts may use of the controller, as a typed protocol.

The controller is made of parts with one job each (``menu.Menus``: menus and score pages;
``keys.Keys``: the buttons and the encoder; ``watch.BoardWatch``: the RFID readers). They
are given the controller itself, typed as ``Host``: the game, the panel, the solo seat, time,
and the few actions that change the game. Naming the dependency keeps mypy checking every
use and keeps the parts from reaching into anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from haleakala.rules import Game

from . import ui as U
from .solo import Seat

if TYPE_CHECKING:
    from haleakala.web.server import LiveView

    from .journal import Journal, JournalError


class Host(Protocol):
    game: Game
    panel: U.Panel
    kit: str
    variant: str
    sources: list[str]
    seat: Seat
    journal: Journal | None
    auto_s: float
    settle_s: float
    clock: Callable[[], float]
    link_ok: bool
    link_detail: str
    notes: tuple[str, ...]
    errors: int
    live_view: LiveView | None  # set by web.start when the live view runs
    lesson: U.LessonHooks | None  # a lesson being taught on the board (haleakala.learn)

    @property
    def paused(self) -> JournalError | None: ...

    def show(
        self, title: str, text: str, *, refusal: bool = True, beaches: tuple[int, ...] = ()
    ) -> None:
        """A short note on the OLED (a refusal is logged too)."""

    def decide(self, d: int, by: str) -> None:
        """Apply a decision (the rules may refuse it)."""

    def refresh(self) -> None:
        """Rebuild the decision chooser for the current phase."""

    def undo(self) -> bool: ...

    def new_game(
        self, variant: str | None = None, seed: int | None = None, start: str | None = None
    ) -> None: ...

    def digest(self) -> str:
        """The game's digest, computed once per position."""

    def auto_ready(self) -> bool:
        """Nothing hides the decision: a countdown on it may run."""

    def scroll_by(self, steps: int) -> None:
        """Scroll a long text on the OLED (as far as there is text)."""
