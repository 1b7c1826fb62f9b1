"""The one window shell of the simulator (pygame): the frame loop and the chrome every game's
window shares, with the drawing left to the game.

Why: the first three games' windows each opened their display, ran the same
frame loop, saved the same screenshots and answered the same window keys in a copy of their
own. Here that is written once; a game's window is a subclass that draws (``draw`` returns
whether anything changed), lets its table or session move (``update``) and reads its own
clicks and keys (``click``, ``key``).

The shell draws nothing itself, so a screenshot of a game's window is what its own drawing
made, pixel for pixel.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

import pygame

from haleakala import i18n, palette
from haleakala.core.text import Param

TEXT = palette.screen("ui.text", palette.DEFAULT)


class WindowShell(ABC):
    """One pygame window: the display, the frame loop, screenshots and the window keys.

    ``screen`` is drawn on; without one the display is opened at ``size`` with ``caption``.
    ``shots`` is the ``time.strftime`` pattern of a screenshot's file name (key s or F12).
    """

    FPS: ClassVar[int] = 30  # frames a second of ``run``

    def __init__(
        self,
        screen: pygame.Surface | None,
        *,
        caption: str,
        size: tuple[int, int],
        shots: str,
        flags: int = 0,
    ) -> None:
        if screen is None:
            pygame.display.init()
            pygame.display.set_caption(caption)
            screen = pygame.display.set_mode(size, flags)
        self.screen = screen  # the canvas everything is drawn on
        self.fonts = Fonts()
        self.running = True
        self._signature: Any = None  # what the last frame showed (None: draw it all anew)
        self.frames = 0
        self.screenshot_path: Callable[[], str] = lambda: time.strftime(shots)
        self.after_step: Callable[[], None] | None = None  # after each frame that changed

    # -- hooks: what only the game knows ----------------------------------------------------

    @abstractmethod
    def draw(self) -> Any:
        """Draw one frame if anything changed; what changed (falsy: nothing)."""

    def update(self) -> None:  # noqa: B027 (optional hook: nothing by default)
        """Let the game move between frames (a bot's decision, a timer)."""

    def click(self, pos: tuple[int, int]) -> Any:  # noqa: B027 (optional hook: nothing by default)
        """A left click at ``pos`` on the canvas."""

    def key(self, event: Any) -> None:  # noqa: B027 (optional hook: nothing by default)
        """A key the shell does not answer itself (q, s, F12, Esc, c)."""

    def clear(self) -> None:  # noqa: B027 (optional hook: nothing by default)
        """Esc or c: drop what is selected."""

    def note(self, text: str) -> None:  # noqa: B027 (optional hook: nothing by default)
        """Show a one-line message (a screenshot's file name)."""

    # -- the shell --------------------------------------------------------------------------

    def handle(self, event: Any) -> None:
        """One input event: closing, q, a screenshot (s, F12) and Esc/c are the shell's;
        a left click and any other key are the game's."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_q:
                self.running = False
            elif event.key in (pygame.K_ESCAPE, pygame.K_c):
                self.clear()
            elif event.key in (pygame.K_s, pygame.K_F12):
                self.note(f"screenshot: {self.save(self.screenshot_path())}")
            else:
                self.key(event)

    def present(self, changed: Any) -> None:
        """Show what ``draw`` drew (the whole window)."""
        pygame.display.flip()

    def step(self, events: list[Any] | None = None) -> None:
        """Handle input, let the game move, draw and show: one frame."""
        for event in pygame.event.get() if events is None else events:
            self.handle(event)
        self.update()
        changed = self.draw()
        if changed is None or changed:
            self.present(changed)
            if self.after_step is not None:
                self.after_step()
        self.frames += 1

    def run(self, *, fps: int | None = None, seconds: float | None = None) -> int:
        """Frames until the window is closed (or ``seconds`` passed); exit status 0."""
        clock = pygame.time.Clock()
        end = None if seconds is None else time.monotonic() + seconds
        while self.running and (end is None or time.monotonic() < end):
            self.step()
            clock.tick(fps or self.FPS)
        return 0

    def save(self, path: str) -> str:
        """Save what the window shows now as a PNG (drawn fresh, overlays included)."""
        self._signature = None
        self.draw()
        pygame.image.save(self.screen, path)
        return path


class TableWindow(WindowShell):
    """A window over a game's table (a game of the window's own): the table moves its bots in
    ``update``, drops the selection in ``clear`` and shows a message with ``changes``
    counted, so the next frame draws it."""

    def __init__(
        self,
        table: Any,
        screen: pygame.Surface | None,
        *,
        caption: str,
        size: tuple[int, int],
        shots: str,
    ) -> None:
        self.table = table
        super().__init__(screen, caption=caption, size=size, shots=shots)

    def update(self) -> None:
        self.table.update()

    def clear(self) -> None:
        self.table.clear()

    def note(self, text: str) -> None:
        self.table.message = text
        self.table.changes += 1


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces (a longer word
    stands alone on its line)."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


class Fonts:
    """Cached text rendering: a label costs a dict lookup after its first frame."""

    def __init__(self) -> None:
        pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: dict[tuple[Any, ...], pygame.Surface] = {}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            font = pygame.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return self._fonts[key]

    def render(
        self, text: Param, size: int = 20, colour: tuple[int, int, int] = TEXT, bold: bool = False
    ) -> pygame.Surface:
        text = i18n.render(text)  # a value in the player's language; a str as it is
        key = (text, size, colour, bold)
        surface = self._cache.get(key)
        if surface is None:
            if len(self._cache) > 2000:
                self._cache.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._cache[key] = surface
        return surface


def blit_centred(
    target: pygame.Surface, surface: pygame.Surface, centre: tuple[float, float]
) -> pygame.Rect:
    rect = surface.get_rect(center=(round(centre[0]), round(centre[1])))
    target.blit(surface, rect)
    return rect
