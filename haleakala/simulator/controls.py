"""The simulator window's controls: clicks, the wheel and keys become the kit's inputs
(raw button edges through the real debouncer, encoder detents, disc moves on the RFID kit) or
window actions (help, full screen, screenshot, the tester's keys: misplace, fix, bot, autoplay,
power cut, coach).

A mixin of ``SimWindow`` (``window``); the attributes below are set by the window.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from haleakala import palette as colour_modes
from haleakala.core.text import Term, Text
from haleakala.games.haleakala.views import layout as L
from haleakala.i18n import N_

if TYPE_CHECKING:
    from .session import SimSession

KEY_BUTTONS = {
    pygame.K_RETURN: "select",
    pygame.K_KP_ENTER: "select",
    pygame.K_SPACE: "select",
    pygame.K_BACKSPACE: "back",
}


class WindowControls:
    """Turns pygame events into the session's inputs for ``SimWindow``."""

    session: SimSession
    running: bool
    show_help: bool
    show_end: bool
    pressed: dict[str, str]
    pressed_at: dict[str, float]
    encoder_position: int
    drag: tuple[str, tuple[int, int]] | None
    hand: str | None
    _signature: tuple | None
    screenshot_path: Callable[[], str]

    if TYPE_CHECKING:  # the window shell's, declared so this half type-checks on its own

        def resized(self) -> None: ...

        def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]: ...

        def toggle_fullscreen(self) -> None: ...

        def save(self, path: str) -> str: ...

    # ------------------------------------------------------------------ input

    def _press(self, source: str, button: str) -> None:
        if source in self.pressed:
            return
        self.pressed[source] = button
        self.pressed_at[button] = time.monotonic()
        self.session.edge(button, True)

    def _release(self, source: str) -> None:
        button = self.pressed.pop(source, None)
        if button is not None:
            self.pressed_at.pop(button, None)
            self.session.edge(button, False)

    def _turn(self, steps: int) -> None:
        self.encoder_position += steps
        self.session.turn(steps)

    def _disc_at(self, x: int, y: int) -> str | None:
        """The disc under the mouse: on a beach (table) or in a tray."""
        r2 = (L.DISC_RADIUS + 2) ** 2
        table = self.session.table
        for beach, discs in enumerate(table.beaches):
            for colour in ("red", "yellow"):
                for i, name in enumerate(sorted(d for d in discs if d.startswith(colour))):
                    px, py = L.disc_position(beach, colour, i)
                    if (px - x) ** 2 + (py - y) ** 2 <= r2:
                        return name
        for colour in ("red", "yellow"):
            for value in range(6):
                name = f"{colour}{'*' if value == 0 else value}"
                px, py = L.tray_position(colour, value)
                if name not in table.on_island() and (px - x) ** 2 + (py - y) ** 2 <= r2:
                    return name
        return None

    def _cycle_hand(self) -> None:
        game = self.session.game
        names = [f"{c}{v}" for c in ("red", "yellow") for v in range(1, 6)]
        if game is not None and game.tactical:
            names += ["red*", "yellow*"]
        free = [n for n in names if n not in self.session.table.on_island()]
        if not free:
            self.hand = None
            return
        i = free.index(self.hand) + 1 if self.hand in free else 0
        self.hand = free[i % len(free)]

    def handle(self, event: Any) -> None:
        """One pygame event → hardware input (or a window action)."""
        session = self.session
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.resized()
        elif event.type == pygame.VIDEOEXPOSE:
            self._signature = None  # shown again: push it whole
        elif event.type == pygame.KEYDOWN:
            self._key_down(event)
        elif event.type == pygame.KEYUP:
            self._release(f"key{event.key}")
        elif event.type == pygame.MOUSEWHEEL:
            if event.y:
                self._turn(1 if event.y > 0 else -1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            x, y = self.to_canvas(event.pos)
            name = L.panel_button_at(x, y)
            if name in ("select", "back"):
                self._press("mouse", name)
                return
            if name in ("turn-", "turn+"):
                self._turn(-1 if name == "turn-" else 1)
                return
            if session.kit == "rfid":
                disc = self._disc_at(x, y)
                if disc is not None:
                    self.drag = (disc, (x, y))
                return
            beach = L.beach_at(x, y)
            if beach is not None:
                self._press("mouse", f"beach{beach}")
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.drag is not None:
                disc, _ = self.drag
                self.drag = None
                pos = self.to_canvas(event.pos)
                beach = L.beach_at(*pos)
                if beach is None and L.locate(*pos) is not None:
                    return  # dropped on land: the disc goes back where it was
                session.move_disc(disc, beach)
                return
            self._release("mouse")
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag = (self.drag[0], self.to_canvas(event.pos))

    def _key_down(self, event: Any) -> None:
        session = self.session
        key = event.key
        if self.show_help and key in (pygame.K_ESCAPE, pygame.K_h, pygame.K_QUESTION):
            self.show_help = False
            return
        if key in KEY_BUTTONS:
            self._press(f"key{key}", KEY_BUTTONS[key])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            self._turn(-1 if key == pygame.K_LEFT else 1)
        elif pygame.K_1 <= key <= pygame.K_6 or key == pygame.K_0:
            beach = None if key == pygame.K_0 else key - pygame.K_1
            if session.kit == "buttons" and beach is not None:
                self._press(f"key{key}", f"beach{beach}")
            elif session.kit == "rfid" and self.hand is not None:
                session.move_disc(self.hand, beach)
                self.hand = None
        elif key == pygame.K_TAB and session.kit == "rfid":
            self._cycle_hand()
        elif key in (pygame.K_h, pygame.K_QUESTION) or event.unicode == "?":
            self.show_help = True
        elif key == pygame.K_ESCAPE:
            self.hand = None
        elif key == pygame.K_q:
            self.running = False
        elif key == pygame.K_m:
            session.set_misplace(not session.misplace)
        elif key == pygame.K_f:
            session.fix_table()
        elif key == pygame.K_b:
            session.bot_step()
        elif key == pygame.K_a:
            session.autoplay = not session.autoplay
            session.note(Text(N_("autoplay on") if session.autoplay else N_("autoplay off")))
        elif key == pygame.K_p:
            session.power_cut()
        elif key == pygame.K_c:
            self._coach()
        elif key == pygame.K_v:
            mode = session.next_palette()
            session.note(Text.of(N_("colours: {mode}"), mode=Term(colour_modes.NAMES[mode])))
        elif key == pygame.K_e:
            self.show_end = not self.show_end
        elif key == pygame.K_F11:
            self.toggle_fullscreen()
        elif key in (pygame.K_s, pygame.K_F12):
            path = self.save(self.screenshot_path())
            session.note(f"screenshot saved: {path}")

    def _coach(self) -> None:
        """Key c: the coach's hint for the player to move, in the simulator's log."""
        from haleakala.games.haleakala.bots.coach import BOARD_HINT_ITERATIONS, advise

        game = self.session.game.clone()  # a copy: the companion's game is never touched
        if game.is_terminal():
            self.session.note(Text(N_("coach: the game is over")))
            return
        hint = advise(game, iterations=BOARD_HINT_ITERATIONS, seed=len(game.history))
        self.session.note(Text.of(N_("coach: {hint}"), hint=hint.line()))
