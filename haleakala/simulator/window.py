"""The simulator window (pygame): the island from above, the LEDs, the OLED, the controls.

It draws, it never decides: the LED dots are the very pixels the daemon handed to the sim
LED chain (placed through the zone map), the OLED is the very image handed to the sim
display at 4×, the pieces are the physical table of the session. Clicks and keys become
raw button edges through the kit's real debouncer, encoder detents and disc moves.

Rendering is layered so a frame costs little: the island and panel frames are drawn once
into a background Surface; the scene (LED glow, pieces, panel text) is recomposed only when
something it shows changed (a new LED frame, OLED image, table or game change); a frame with
nothing new is one blit. Text surfaces are cached. The pulsing outlines on the legal targets
are drawn over the scene, touching only their own rectangles, a few times a second.

The window draws on a fixed 1280×800 canvas. At that size the canvas is the display surface
itself (nothing is copied); resized or full screen (F11), the canvas is scaled into the window
with its proportions kept (letterboxed) and mouse positions are mapped back onto it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from haleakala import palette as colour_modes
from haleakala.core.text import Param
from haleakala.games.haleakala.views import layout as L
from haleakala.toolkit.window import WindowShell

from .palette import (
    HOLD_HINT_S,
    recolour,
)
from .panel import PanelDrawing
from .story import Mark, Story

if TYPE_CHECKING:
    from .session import SimSession
from .controls import KEY_BUTTONS, WindowControls
from .island import IslandDrawing
from .leds import LedDrawing
from .logbook import Logbook
from .outlines import LegalOutlines

__all__ = ["KEY_BUTTONS", "WINDOW_FLAGS", "SimWindow"]

WINDOW_FLAGS = pygame.RESIZABLE
"""The window may be resized; the canvas is scaled into it (``SimWindow.present``)."""
ISLAND_RECT = pygame.Rect(0, 0, L.PANEL_X, L.HEIGHT)
PANEL_RECT = pygame.Rect(L.PANEL_X, 0, L.WIDTH - L.PANEL_X, L.HEIGHT)


class SimWindow(
    WindowControls, Logbook, LegalOutlines, IslandDrawing, LedDrawing, PanelDrawing, WindowShell
):
    """One pygame window over one ``SimSession``: the window that owns the state, composes
    the layers drawn by its halves (``island``, ``leds``, ``outlines``, ``panel``,
    ``logbook``), takes input through ``controls`` and scales the canvas into the window.
    The frame loop, screenshots and the display are the shared ``WindowShell``'s."""

    FPS = 60

    def __init__(self, session: SimSession, *, screen: pygame.Surface | None = None) -> None:
        self.session = session
        super().__init__(
            screen,
            caption="Haleakala Companion — simulator",
            size=(L.WIDTH, L.HEIGHT),
            shots="haleakala-sim-%Y%m%d-%H%M%S.png",
            flags=WINDOW_FLAGS,
        )
        screen = self.screen  # the canvas everything is drawn on (the display at 1280×800)
        self.display = screen
        self.view = pygame.Rect(0, 0, L.WIDTH, L.HEIGHT)  # where the canvas shows on it
        self.fullscreen = False
        if screen.get_size() != (L.WIDTH, L.HEIGHT):
            self.resized()
        self._colours = recolour()  # the colour mode drawn (the menu or key v may change it)
        self.background = self._draw_background()
        self.scene = pygame.Surface((L.WIDTH, L.HEIGHT)).convert()
        self._zone_masks = self._make_zone_masks()
        self._led_spots = self._make_led_spots()
        for _index, pos, _key in self._led_spots:
            self._socket(self.background, pos)
        self._glows: dict[tuple, pygame.Surface] = {}
        self._dots: dict[tuple[int, int, int], tuple[pygame.Surface, tuple[int, int, int]]] = {}
        self._oled_surface: pygame.Surface | None = None
        self._oled_count: tuple = ()
        self._drawn_leds: Any = None
        self._overlaid = False
        self.show_help = False
        self._help: pygame.Surface | None = None
        self.pressed: dict[str, str] = {}  # input source ("mouse", key name) → button held
        self.pressed_at: dict[str, float] = {}
        self.encoder_position = 0
        self.drag: tuple[str, tuple[int, int]] | None = None  # disc name, mouse position
        self.hand: str | None = None  # RFID keyboard: the disc in hand
        self.story = Story()
        self.log_lines: list[tuple[str, tuple[int, int, int]]] = []
        self._notes: list[tuple[int, Param]] = []  # (story entries before it, its words)
        self._seen_note: Param | None = None
        self._marks_key: tuple = ()
        self._marks: list[Mark] = []
        self._pulse_drawn: int | None = None
        self._island_key: tuple = ()
        self._panel_key: tuple = ()
        self._shapes: dict[Mark, tuple[list[tuple[float, float]] | None, pygame.Rect]] = {}
        self.show_end = True

    # ------------------------------------------------------------------ dynamic layers

    def _signature_now(self) -> tuple:
        hw = self.session.hw
        return (
            (id(hw.leds), hw.leds.show_count),
            hw.display.show_count,
            hw.display.clear_count,
            self.session.changes,
            tuple(sorted(self.pressed.values())),
            self.encoder_position,
            self.drag[0] if self.drag else None,
            self.hand,
            len(self.log_lines),
            self.log_lines[-1] if self.log_lines else None,
            self.show_end,
        )

    def _layer_keys(self) -> tuple[tuple, tuple]:
        """What the island layer and the panel layer each show, to redraw only the one that
        changed (LED blinks touch the island; the OLED, the knob and the log the panel)."""
        hw = self.session.hw
        changes = self.session.changes
        pressed = tuple(sorted(self.pressed.values()))
        dragged = self.drag[0] if self.drag else None
        island: tuple = ((id(hw.leds), hw.leds.show_count), changes, pressed, dragged)
        island += (self.show_end,)
        island += (len(self.story.entries), self.story.last, self.selected_mark())
        held = self.pressed_at.get("back")
        progress = None if held is None else int((time.monotonic() - held) / HOLD_HINT_S * 24)
        panel: tuple = (hw.display.show_count, hw.display.clear_count, id(hw.display), changes)
        panel += (pressed,)
        panel += (self.encoder_position, dragged, self.hand, progress)
        panel += (len(self.log_lines), self.log_lines[-1] if self.log_lines else None)
        return island, panel

    def compose(self, *, everything: bool = False) -> None:
        """Bring the scene surface up to date: the island and the panel layers are each
        redrawn from the background only when what they show changed (or ``everything``)."""
        scene = self.scene
        island, panel = self._layer_keys()
        if everything or island != self._island_key:
            self._island_key = island
            scene.set_clip(ISLAND_RECT)
            scene.blit(self.background, ISLAND_RECT, ISLAND_RECT)
            self._draw_leds(scene)
            self._draw_cards(scene)
            self._draw_pieces(scene)
            self._draw_sums(scene)
            self._draw_last_move(scene)
            self._draw_selected(scene)
            if self.show_end:
                self._draw_end_table(scene)
        if everything or panel != self._panel_key:
            self._panel_key = panel
            scene.set_clip(PANEL_RECT)
            scene.blit(self.background, PANEL_RECT, PANEL_RECT)
            self._draw_panel(scene)
        scene.set_clip(None)

    # ------------------------------------------------------------------ frame loop

    def _recolour(self) -> None:
        """The colour mode changed: repaint what was drawn once (the island's background,
        the LED sockets) and forget cached glows, then draw everything anew."""
        self._colours = recolour()
        self.background = self._draw_background()
        for _index, pos, _key in self._led_spots:
            self._socket(self.background, pos)
        self._glows.clear()
        self._dots.clear()
        self._help = None  # its legend names the LEDs' colours
        self._signature = None
        self._island_key = self._panel_key = ()

    def draw(self) -> list[pygame.Rect] | None:
        """Draw one frame into the screen (no flip); return the rectangles that changed
        (None: the whole window).

        An LED-only change (the usual case: blinking zones, animations) touches just the
        zones whose colour changed; an OLED-only change just the OLED; a pulse step of the
        outlines just the outlines. Pushing pixels to the X server costs more than drawing
        them, so this is what keeps the frame rate up.
        """
        self.follow_log()
        if colour_modes.current() != self._colours:
            self._recolour()
        signature = self._signature_now()
        holding = self.pressed_at.get("back") is not None
        overlay = self.drag is not None or self.show_help
        level = self._pulse_level()
        same = signature == self._signature and not holding and not overlay
        if same and not self._overlaid and level == self._pulse_drawn:
            return []
        changed: list[pygame.Rect] | None = []
        if not same or self._overlaid:
            previous, self._signature = self._signature, signature
            self.compose()
            leds_now = self.session.hw.leds.last
            changed = None
            partial = previous is not None and not overlay and not self._overlaid and not holding
            if partial and previous is not None and previous[3:] == signature[3:]:
                changed = []
                if previous[0] != signature[0]:
                    changed += self._led_rects(self._drawn_leds, leds_now)
                if previous[1:3] != signature[1:3]:
                    changed.append(pygame.Rect(L.OLED_RECT))
            self._drawn_leds = leds_now
            if changed is None:
                self.screen.blit(self.scene, (0, 0))
            else:
                for rect in changed:
                    self.screen.blit(self.scene, rect, rect)
        if level is not None:
            rects = self._draw_highlights(level)
            if changed is not None:
                changed += rects
        self._pulse_drawn = level
        if self.drag is not None:
            self._disc(self.screen, self.drag[0], self.drag[1], ring=True)
        if self.show_help:
            self._draw_help()
        self._overlaid = overlay
        return changed

    def update(self) -> None:
        self.session.update()

    # ------------------------------------------------------------------ window size

    def present(self, changed: list[pygame.Rect] | None) -> None:
        """Show the canvas: at 1280×800 push the changed rectangles (None: all); otherwise
        scale the canvas into its letterboxed place and push the window."""
        if self.screen is self.display:
            if changed is None:
                pygame.display.flip()
            else:
                pygame.display.update(changed)
            return
        target = self.display.subsurface(self.view)
        pygame.transform.smoothscale(self.screen, self.view.size, target)
        pygame.display.flip()

    def resized(self) -> None:
        """The window changed size: draw on a canvas of our own and scale it into the
        largest rectangle of the canvas's proportions that fits, centred (or draw straight
        onto the display again when it is back at 1280×800)."""
        display = pygame.display.get_surface()
        if display is None:
            return
        self.display = display
        w, h = display.get_size()
        if (w, h) == (L.WIDTH, L.HEIGHT):
            if self.screen is not display:
                display.blit(self.screen, (0, 0))
            self.screen = display
            self.view = pygame.Rect(0, 0, w, h)
        else:
            if self.screen is display:
                self.screen = pygame.Surface((L.WIDTH, L.HEIGHT)).convert()
            scale = min(w / L.WIDTH, h / L.HEIGHT)
            size = (max(1, round(L.WIDTH * scale)), max(1, round(L.HEIGHT * scale)))
            self.view = pygame.Rect((0, 0), size)
            self.view.center = (w // 2, h // 2)
            display.fill((0, 0, 0))
        self._signature = None  # redraw and push everything

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window position as a canvas position (mouse events)."""
        if self.screen is self.display:
            return pos
        scale = self.view.width / L.WIDTH
        return (round((pos[0] - self.view.x) / scale), round((pos[1] - self.view.y) / scale))

    def toggle_fullscreen(self) -> None:
        """F11: full screen at the display's own size (letterboxed), or back to 1280×800."""
        self.fullscreen = not self.fullscreen
        if self.fullscreen:
            pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            pygame.display.set_mode((L.WIDTH, L.HEIGHT), WINDOW_FLAGS)
        self.resized()
