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

from haleakala.core.text import Param, Text
from haleakala.games.haleakala import Game

from . import ui as U
from .solo import Seat

if TYPE_CHECKING:
    from .journal import Journal, JournalError
    from .narrator import Narrator


class LiveView(Protocol):
    """What the companion asks of a running live view (``haleakala.web.server.LiveView``):
    the companion imports nothing of the web (a layering test holds it); the daemon's
    caller starts the view and hands it over."""

    url: str

    def menu_option(self) -> tuple[Text, str]:
        """(label, action) of the OLED menu's entry for the view."""
        ...

    def join_picture(self) -> bytes:
        """The joining page (QR code and URL) as a ready 128×64 one-bit image."""
        ...

    def observe(self, companion: object) -> None: ...

    def close(self) -> None: ...


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
    notes: tuple[Param, ...]
    errors: int
    live_view: LiveView | None  # set by web.start when the live view runs
    lesson: U.LessonHooks | None  # a lesson being taught on the board (haleakala.learn)
    narrator: Narrator | None  # the voice, on a kit that speaks (companion.narrator)

    @property
    def paused(self) -> JournalError | None: ...

    def show(
        self, title: Param, text: Param, *, refusal: bool = True, beaches: tuple[int, ...] = ()
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
