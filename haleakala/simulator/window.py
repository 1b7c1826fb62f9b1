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

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from haleakala.hal.base import ZONES
from haleakala.i18n import N_
from haleakala.rules import NotationError

from . import layout as L
from .palette import (
    BACKGROUND,
    BAND_COLOURS,
    CARD_KIND,
    DIM,
    GLOW,
    HOLD_HINT_S,
    LAVA,
    PANEL,
    PANEL_EDGE,
    PLAYER,
    PLAYER_TEXT,
    SHORT_CARD,
    TEXT,
    Fonts,
    blit_centred,
    face_lines,
    fit,
    led_display_colour,
)
from .panel import PanelDrawing
from .story import DECISION_NOTE, Mark, Story, legal_marks, mark_of

if TYPE_CHECKING:
    from .session import SimSession

KEY_BUTTONS = {
    pygame.K_RETURN: "select",
    pygame.K_KP_ENTER: "select",
    pygame.K_SPACE: "select",
    pygame.K_BACKSPACE: "back",
}
WINDOW_FLAGS = pygame.RESIZABLE
"""The window may be resized; the canvas is scaled into it (``SimWindow.present``)."""
PULSE_LEVELS = 6
"""Steps of the outlines' pulse: a redraw of the outlines only when the level changes."""
GLOW_RADIUS = 12
LOG_KEEP = 80
ISLAND_RECT = pygame.Rect(0, 0, L.PANEL_X, L.HEIGHT)
PANEL_RECT = pygame.Rect(L.PANEL_X, 0, L.WIDTH - L.PANEL_X, L.HEIGHT)
NOTE_COLOUR = (150, 156, 170)
LOG_PLAYER = {"red": (250, 120, 110), "yellow": (245, 210, 90)}
LOG_ISLAND = (255, 150, 90)
DASHES = 14


class SimWindow(PanelDrawing):
    """One pygame window over one ``SimSession``."""

    def __init__(self, session: SimSession, *, screen: pygame.Surface | None = None) -> None:
        self.session = session
        if screen is None:
            pygame.display.init()
            pygame.display.set_caption("Haleakala Companion — simulator")
            screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT), WINDOW_FLAGS)
        self.display = screen
        self.screen = screen  # the canvas everything is drawn on (the display at 1280×800)
        self.view = pygame.Rect(0, 0, L.WIDTH, L.HEIGHT)  # where the canvas shows on it
        self.fullscreen = False
        if screen.get_size() != (L.WIDTH, L.HEIGHT):
            self.resized()
        self.fonts = Fonts()
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
        self._signature: tuple | None = None
        self._drawn_leds: Any = None
        self._overlaid = False
        self.show_help = False
        self._help: pygame.Surface | None = None
        self.running = True
        self.pressed: dict[str, str] = {}  # input source ("mouse", key name) → button held
        self.pressed_at: dict[str, float] = {}
        self.encoder_position = 0
        self.drag: tuple[str, tuple[int, int]] | None = None  # disc name, mouse position
        self.hand: str | None = None  # RFID keyboard: the disc in hand
        self.frames = 0
        self.story = Story()
        self.log_lines: list[tuple[str, tuple[int, int, int]]] = []
        self._notes: list[tuple[int, str]] = []  # (story entries before it, text)
        self._seen_note: str | None = None
        self._marks_key: tuple = ()
        self._marks: list[Mark] = []
        self._pulse_drawn: int | None = None
        self._island_key: tuple = ()
        self._panel_key: tuple = ()
        self._shapes: dict[Mark, tuple[list[tuple[float, float]] | None, pygame.Rect]] = {}
        self.show_end = True
        self.screenshot_path: Callable[[], str] = lambda: time.strftime(
            "haleakala-sim-%Y%m%d-%H%M%S.png"
        )

    # ------------------------------------------------------------------ static layers

    def _draw_background(self) -> pygame.Surface:
        bg = pygame.Surface((L.WIDTH, L.HEIGHT)).convert()
        bg.fill(BACKGROUND)
        for band in L.BANDS:
            for segment in range(L.SEGMENTS):
                pygame.draw.polygon(bg, BAND_COLOURS[band], L.wedge(segment, band, 24))
        for segment in range(L.SEGMENTS):
            edge = L.centre_angle(segment) - 30.0
            inner = L.polar(L.BANDS["crater"][1], edge)
            outer = L.polar(L.BANDS["water"][0], edge)
            pygame.draw.line(bg, (20, 20, 20), inner, outer, 2)
            label = self.fonts.render(N_("segment {n}").format(n=segment), 18, (200, 220, 240))
            blit_centred(bg, label, L.at(segment, L.BANDS["sea"][0] - 8, 0))
            for k in range(3):
                space = segment * 3 + k
                blit_centred(
                    bg,
                    self.fonts.render(f"{segment}{'GFM'[k]}", 15, (20, 30, 20)),
                    L.space_label_position(space),
                )
        pygame.draw.circle(bg, (40, 26, 24), (round(L.CENTRE[0]), round(L.CENTRE[1])), 30)
        # Panel.
        pygame.draw.rect(bg, PANEL, (L.PANEL_X, 0, L.WIDTH - L.PANEL_X, L.HEIGHT))
        x, y, w, h = L.OLED_RECT
        pygame.draw.rect(bg, (8, 8, 10), (x - 6, y - 6, w + 12, h + 12), border_radius=6)
        pygame.draw.rect(bg, PANEL_EDGE, (x - 6, y - 6, w + 12, h + 12), 2, border_radius=6)
        pygame.draw.rect(bg, (30, 33, 40), L.BOARD_RECT, border_radius=8)
        pygame.draw.rect(bg, PANEL_EDGE, L.BOARD_RECT, 1, border_radius=8)
        for (tx, ty, tw, th), caption in (
            (L.TURN_LEFT_RECT, N_("turn -")),
            (L.TURN_RIGHT_RECT, N_("turn +")),
        ):
            pygame.draw.rect(bg, (52, 56, 66), (tx, ty, tw, th), border_radius=6)
            blit_centred(bg, self.fonts.render(caption, 18, TEXT), (tx + tw / 2, ty + th / 2))
        bx, by = L.BACK_CENTRE
        bg.blit(self.fonts.render(N_("hold:"), 15, DIM), (bx + L.BACK_RADIUS + 6, by - 14))
        bg.blit(self.fonts.render(N_("undo"), 15, DIM), (bx + L.BACK_RADIUS + 6, by))
        for colour, rect in L.TRAY_RECTS.items():
            pygame.draw.rect(bg, (34, 36, 44), rect, border_radius=8)
            pygame.draw.rect(bg, PLAYER[colour], rect, 2, border_radius=8)
        pygame.draw.rect(bg, (20, 21, 26), L.LOG_RECT, border_radius=8)
        return bg

    def _make_zone_masks(self) -> dict[tuple[int, str], tuple[pygame.Surface, tuple[int, int]]]:
        """A white polygon per (segment, zone), alpha-blended glow shape, built once."""
        masks = {}
        for segment in range(L.SEGMENTS):
            for zone in ZONES:
                if zone in L.ZONE_BANDS:
                    points = L.wedge(segment, L.ZONE_BANDS[zone], 12)
                else:
                    x, y, w, h = L.card_rect(segment * 2 + (0 if zone == "slot_a" else 1))
                    points = [
                        (x - 5, y - 12),
                        (x + w + 5, y - 12),
                        (x + w + 5, y + h + 5),
                        (x - 5, y + h + 5),
                    ]
                xs = [p[0] for p in points]
                ys = [p[1] for p in points]
                left, top = math.floor(min(xs)), math.floor(min(ys))
                size = (math.ceil(max(xs)) - left + 1, math.ceil(max(ys)) - top + 1)
                mask = pygame.Surface(size, pygame.SRCALPHA)
                shape = [(px - left, py - top) for px, py in points]
                pygame.draw.polygon(mask, (255, 255, 255, 255), shape)
                masks[segment, zone] = (mask, (left, top))
        return masks

    def _make_led_spots(self) -> list[tuple[int, tuple[int, int], tuple[int, str]]]:
        """(chain index, position, zone key) of every pixel, from the session's zone map."""
        zone_map = self.session.hw.zone_map
        spots = []
        for segment in range(L.SEGMENTS):
            for zone in ZONES:
                indices = zone_map.pixels_of(segment, zone)
                for j, index in enumerate(indices):
                    spots.append(
                        (index, L.led_position(segment, zone, j, len(indices)), (segment, zone))
                    )
        return spots

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

    def _glow(self, key: tuple[int, str], colour: tuple[int, int, int]) -> pygame.Surface:
        """The zone's glow tinted ``colour``, for additive blending (LEDs add light to the
        board, they do not paint it); cached, since scenes reuse few colours."""
        surface = self._glows.get((key, colour))
        if surface is None:
            if len(self._glows) > 1024:
                self._glows.clear()
            mask = self._zone_masks[key][0]
            surface = pygame.Surface(mask.get_size()).convert()
            surface.fill((0, 0, 0))
            surface.blit(mask, (0, 0))
            tint = tuple(round(c * GLOW) for c in colour)
            surface.fill(tint, special_flags=pygame.BLEND_RGB_MULT)
            self._glows[key, colour] = surface
        return surface

    def _dot(
        self, pixel: tuple[int, int, int], brightness: float
    ) -> tuple[pygame.Surface, tuple[int, int, int]]:
        """A lit LED as seen from above: a glow in its hue (added to the board) whose strength
        follows how bright it is sent, never fainter than a clear halo, so a dim LED reads as
        dimly lit, not as a brown dot; and the colour of its core. Cached by the sent value."""
        cached = self._dots.get(pixel)
        if cached is None:
            if len(self._dots) > 1024:
                self._dots.clear()
            level = min(1.0, max(pixel) / 255 / max(brightness, 0.05))
            strength = 0.5 + 0.5 * math.sqrt(level)
            peak = max(pixel)
            hue = tuple(c * 255 // peak for c in pixel)
            size = 2 * GLOW_RADIUS + 1
            surface = pygame.Surface((size, size)).convert()
            surface.fill((0, 0, 0))
            for r in range(GLOW_RADIUS, 0, -1):
                f = strength * (1 - r / (GLOW_RADIUS + 1)) ** 1.5
                colour = tuple(min(255, round(c * f)) for c in hue)
                pygame.draw.circle(surface, colour, (GLOW_RADIUS, GLOW_RADIUS), r)
            cached = (surface, self.core_colour(pixel, brightness))
            self._dots[pixel] = cached
        return cached

    @staticmethod
    def _socket(target: pygame.Surface, pos: tuple[int, int]) -> None:
        """A dark LED seen from above: a faint socket (drawn once, in the background)."""
        socket = pygame.Surface((13, 13), pygame.SRCALPHA)
        pygame.draw.circle(socket, (0, 0, 0, 90), (6, 6), 4)
        pygame.draw.circle(socket, (0, 0, 0, 140), (6, 6), 4, 1)
        target.blit(socket, (pos[0] - 6, pos[1] - 6))

    @staticmethod
    def core_colour(pixel: tuple[int, int, int], brightness: float) -> tuple[int, int, int]:
        """The lit LED's core: its hue, from 60 % to full strength as it is sent dim to
        bright (the hue is what a player reads; the exact value is in the scenario checks)."""
        level = min(1.0, max(pixel) / 255 / max(brightness, 0.05))
        peak = max(pixel)
        strength = 0.6 + 0.4 * math.sqrt(level)
        return tuple(min(255, round(c * 255 / peak * strength)) for c in pixel)  # type: ignore[return-value]

    def zone_colours(self) -> dict[tuple[int, str], tuple[int, int, int]]:
        """Mean sent colour of each lit zone in the last LED frame (by chain index)."""
        frame = self.session.hw.leds.last
        if frame is None:
            return {}
        pixels = frame.pixels
        sums: dict[tuple[int, str], list[int]] = {}
        for index, _pos, key in self._led_spots:
            r, g, b = pixels[index]
            acc = sums.setdefault(key, [0, 0, 0, 0])
            acc[0] += r
            acc[1] += g
            acc[2] += b
            acc[3] += 1
        return {k: (r // n, g // n, b // n) for k, (r, g, b, n) in sums.items() if r + g + b}

    def _draw_leds(self, scene: pygame.Surface) -> None:
        frame = self.session.hw.leds.last
        if frame is None:
            return
        pixels = frame.pixels
        brightness = self.session.hw.zone_map.brightness
        for key, colour in self.zone_colours().items():
            scene.blit(
                self._glow(key, led_display_colour(colour, brightness)),
                self._zone_masks[key][1],
                special_flags=pygame.BLEND_RGB_ADD,
            )
        for index, (x, y), _key in self._led_spots:
            pixel = pixels[index]
            if not any(pixel):
                continue  # its dark socket is in the background
            surface, core = self._dot(pixel, brightness)
            scene.blit(
                surface, (x - GLOW_RADIUS, y - GLOW_RADIUS), special_flags=pygame.BLEND_RGB_ADD
            )
            pygame.draw.circle(scene, core, (x, y), 3)

    def _draw_cards(self, scene: pygame.Surface) -> None:
        game = self.session.game
        if game is None:
            return
        for slot, card in enumerate(game.slots):
            x, y, w, h = L.card_rect(slot)
            if card < 0:
                pygame.draw.rect(scene, (40, 70, 100), (x, y, w, h), 1, border_radius=6)
                continue
            kind = game.deck.cards[card]
            pygame.draw.rect(scene, (246, 240, 226), (x, y, w, h), border_radius=6)
            pygame.draw.rect(scene, CARD_KIND.get(kind.kind, DIM), (x, y, w, h), 3, border_radius=6)
            self._card_icon(scene, kind.code, (x + 13, y + h / 2))
            top, bottom = face_lines(SHORT_CARD.get(kind.code, kind.name))
            room = w - 28  # inside the frame, right of the icon
            top = fit(self.fonts.font(16, True), top, room)
            scene.blit(self.fonts.render(top, 16, (30, 30, 30), True), (x + 24, y + 9))
            if bottom:
                bottom = fit(self.fonts.font(14), bottom, room)
                scene.blit(self.fonts.render(bottom, 14, (60, 60, 60)), (x + 24, y + 26))
            name = game.board.slot_name(slot)
            scene.blit(self.fonts.render(name, 13, (110, 110, 110)), (x + w - 16, y + h - 12))

    def _card_icon(self, scene: pygame.Surface, code: str, centre: tuple[float, float]) -> None:
        cx, cy = round(centre[0]), round(centre[1])
        if code == "statue":
            pygame.draw.rect(scene, (120, 84, 50), (cx - 5, cy - 10, 10, 20), border_radius=3)
            pygame.draw.rect(scene, (40, 30, 20), (cx - 3, cy - 6, 2, 2))
            pygame.draw.rect(scene, (40, 30, 20), (cx + 1, cy - 6, 2, 2))
        elif code == "priestess":
            pygame.draw.polygon(scene, LAVA, [(cx, cy - 11), (cx + 7, cy + 8), (cx - 7, cy + 8)])
        elif code == "shell":
            pygame.draw.circle(scene, (230, 150, 170), (cx, cy), 9)
            pygame.draw.circle(scene, (160, 80, 100), (cx, cy), 9, 2)
            pygame.draw.circle(scene, (160, 80, 100), (cx + 2, cy), 4, 2)
        elif code.startswith("fish"):
            pygame.draw.ellipse(scene, (60, 120, 190), (cx - 9, cy - 5, 14, 10))
            pygame.draw.polygon(
                scene, (60, 120, 190), [(cx + 4, cy), (cx + 10, cy - 5), (cx + 10, cy + 5)]
            )
        elif code.endswith("pearl"):
            shade = (250, 250, 250) if code == "whitepearl" else (30, 30, 40)
            pygame.draw.circle(scene, shade, (cx, cy), 7)
            pygame.draw.circle(scene, (120, 120, 140), (cx, cy), 7, 1)
        elif code == "nautilus":
            pygame.draw.circle(scene, (200, 160, 110), (cx, cy), 9)
            pygame.draw.arc(scene, (110, 70, 40), (cx - 6, cy - 6, 12, 12), 0, 4.7, 2)
        else:
            pygame.draw.circle(scene, LAVA, (cx, cy), 8)

    def _draw_pieces(self, scene: pygame.Surface) -> None:
        table = self.session.table
        expected = self.session.expected
        dragged = self.drag[0] if self.drag else None
        for beach, discs in enumerate(table.beaches):
            for colour in ("red", "yellow"):
                mine = sorted(d for d in discs if d.startswith(colour) and d != dragged)
                for i, name in enumerate(mine):
                    wrong = expected is not None and expected.beach_of(name) != beach
                    self._disc(scene, name, L.disc_position(beach, colour, i), ring=wrong)
            if self.session.kit == "buttons":
                pressed = f"beach{beach}" in self.pressed.values()
                pos = L.at(beach, *L.BEACH_BUTTON)
                pygame.draw.circle(scene, (60, 60, 60), (pos[0], pos[1] + 2), 9)
                pygame.draw.circle(scene, (250, 250, 250) if pressed else (190, 190, 200), pos, 8)
                pygame.draw.circle(scene, (40, 40, 40), pos, 8, 1)
        # Lava on the craters.
        for segment, count in enumerate(table.lava):
            for i in range(min(count, 4)):
                pos = L.lava_position(segment, i)
                pygame.draw.circle(scene, (60, 10, 0), pos, 8)
                pygame.draw.circle(scene, LAVA, pos, 7)
        # Statues and shamans; one not where the game has it gets a white ring and a "!".
        for space, owner in table.statues.items():
            x, y = L.space_position(space, "statue")
            if expected is not None and expected.statues.get(space) != owner:
                self._misplaced(scene, (x, y))
            pygame.draw.rect(scene, (20, 20, 20), (x - 7, y - 10, 15, 22), border_radius=3)
            pygame.draw.rect(scene, PLAYER[owner], (x - 6, y - 11, 13, 21), border_radius=3)
            pygame.draw.rect(scene, (30, 20, 10), (x - 3, y - 6, 2, 3))
            pygame.draw.rect(scene, (30, 20, 10), (x + 2, y - 6, 2, 3))
        for colour, space in table.shamans.items():
            x, y = L.space_position(space, colour)
            if expected is not None and expected.shamans.get(colour) != space:
                self._misplaced(scene, (x, y))
            pygame.draw.circle(scene, (20, 20, 20), (x + 1, y + 2), 9)
            body = [(x, y - 12), (x + 8, y + 8), (x - 8, y + 8)]
            pygame.draw.polygon(scene, PLAYER[colour], body)
            pygame.draw.circle(scene, PLAYER[colour], (x, y - 10), 5)
            pygame.draw.circle(scene, (30, 30, 30), (x, y - 10), 5, 1)
        # The boat.
        bx, by = L.boat_position(table.boat)
        pygame.draw.polygon(
            scene,
            (120, 72, 36),
            [(bx - 22, by - 4), (bx + 22, by - 4), (bx + 14, by + 9), (bx - 14, by + 9)],
        )
        pygame.draw.line(scene, (60, 40, 20), (bx, by - 4), (bx, by - 24), 2)
        pygame.draw.polygon(
            scene, (240, 240, 230), [(bx + 1, by - 24), (bx + 15, by - 8), (bx + 1, by - 8)]
        )
        if expected is not None and expected.boat != table.boat:
            self._misplaced(scene, (bx, by - 6), 27)

    def _misplaced(self, scene: pygame.Surface, pos: tuple[int, int], radius: int = 15) -> None:
        """A piece that is not where the game has it: a white ring and a "!" beside it."""
        pygame.draw.circle(scene, (255, 255, 255), pos, radius, 2)
        bx, by = pos[0] + radius - 2, pos[1] - radius + 2
        pygame.draw.circle(scene, (255, 255, 255), (bx, by), 7)
        blit_centred(scene, self.fonts.render("!", 16, (200, 30, 30), True), (bx, by))

    def _draw_sums(self, scene: pygame.Surface) -> None:
        """Each player's sum on each beach, in the water beside their discs (the sum rule,
        R7, and who chooses first, R10, are read off these)."""
        game = self.session.game
        for beach in range(L.SEGMENTS):
            for p, colour in enumerate(("red", "yellow")):
                total = game.totals[p][beach]
                if not total:
                    continue
                pos = L.sum_position(beach, colour)
                label = self.fonts.render(f"={total}", 17, PLAYER_TEXT[colour], True)
                rect = label.get_rect(center=pos).inflate(8, 2)
                pygame.draw.rect(scene, (20, 20, 20), rect.move(1, 1), border_radius=7)
                pygame.draw.rect(scene, PLAYER[colour], rect, border_radius=7)
                scene.blit(label, label.get_rect(center=rect.center))

    def _mark_centre(self, mark: Mark, who: str) -> tuple[tuple[int, int], int] | None:
        """Centre and radius of the last-move ring around a place on the island."""
        i = int(mark.index) if mark.kind != "item" else 0
        if mark.kind == "beach":
            return L.at(i, L.band_mid("beach")), 30
        if mark.kind == "boat":
            return L.boat_position(i), 28
        if mark.kind == "crater":
            return L.at(i, L.band_mid("crater")), 20
        if mark.kind == "space":  # around the shaman that moved (or stayed)
            return L.space_position(i, who), 17
        if mark.kind == "slot":
            x, y, w, h = L.card_rect(i)
            return (x + w // 2, y + h // 2), 44
        return None

    def _draw_last_move(self, scene: pygame.Surface) -> None:
        """A dashed ring in the mover's colour around where the last decision acted."""
        last = self.story.last
        if last is None:
            return
        who, mark = last
        if mark is None:
            return
        colour = PLAYER[who]
        if mark.kind == "item":
            rect = pygame.Rect(self.mark_rect(mark) or (0, 0, 0, 0)).inflate(6, 6)
            pygame.draw.rect(scene, (255, 255, 255), rect, 2, border_radius=6)
            return
        spot = self._mark_centre(mark, who)
        if spot is None:
            return
        (cx, cy), r = spot
        box = (cx - r, cy - r, 2 * r, 2 * r)
        for k in range(DASHES):
            a = 2 * math.pi * k / DASHES
            pygame.draw.arc(scene, (20, 20, 20), box, a, a + math.pi / DASHES, 5)
            pygame.draw.arc(scene, colour, box, a, a + math.pi / DASHES, 3)

    def selected_mark(self) -> Mark | None:
        """The place of the option under the companion's cursor (a card, a shaman space, a
        crater), when the OLED offers decisions: what ``select`` would do."""
        companion = self.session.companion
        shown = getattr(companion, "shown", None)
        if shown is None or getattr(shown, "kind", None) not in ("decision", "proposal"):
            return None
        option = shown.current
        if option is None:
            return None
        game = self.session.game
        try:
            d = option.value if isinstance(option.value, int) else game.parse(str(option.value))
        except (NotationError, ValueError):
            return None
        if d not in game.legal_actions():
            return None
        mark = mark_of(game, d)
        return mark if mark is not None and mark.kind in ("slot", "space", "crater") else None

    def _draw_selected(self, scene: pygame.Surface) -> None:
        """The option under the cursor: a thick white frame and a pointer, clearer than the
        blinking LED alone."""
        mark = self.selected_mark()
        if mark is None:
            return
        if mark.kind == "slot":
            rect = pygame.Rect(L.card_rect(int(mark.index))).inflate(20, 20)  # outside the outline
            pygame.draw.rect(scene, (20, 20, 20), rect.inflate(4, 4), 3, border_radius=11)
            pygame.draw.rect(scene, (255, 255, 255), rect, 4, border_radius=10)
            cx, top = rect.centerx, rect.top - 2
            if top < 20:  # a card at the top edge: the pointer below it, pointing up
                bottom = rect.bottom + 2
                pointer = [(cx - 9, bottom + 14), (cx + 9, bottom + 14), (cx, bottom + 2)]
                pygame.draw.polygon(scene, (255, 255, 255), pointer)
                pygame.draw.polygon(scene, (20, 20, 20), pointer, 2)
                return
        else:
            who = self.session.game.to_move or "red"
            if mark.kind == "space":
                (cx, cy), r = L.space_position(int(mark.index), who), 18
            else:
                (cx, cy), r = L.at(int(mark.index), L.band_mid("crater")), 18
            pygame.draw.circle(scene, (20, 20, 20), (cx, cy), r + 2, 6)
            pygame.draw.circle(scene, (255, 255, 255), (cx, cy), r, 3)
            top = cy - r - 2
        pointer = [(cx - 9, top - 14), (cx + 9, top - 14), (cx, top - 2)]
        pygame.draw.polygon(scene, (255, 255, 255), pointer)
        pygame.draw.polygon(scene, (20, 20, 20), pointer, 2)

    def legal_now(self) -> list[Mark]:
        """The legal targets of the player to move (cached per decision)."""
        game = self.session.game
        key = (id(game), len(game.history), game.phase, game.decider)
        if key != self._marks_key:
            self._marks_key = key
            self._marks = legal_marks(game)
        return self._marks

    def _highlight_shape(self, mark: Mark) -> tuple[list[tuple[float, float]] | None, pygame.Rect]:
        """The outline of a legal target (a polygon, or None for a rectangle) and the area
        it touches."""
        i = int(mark.index) if mark.kind != "item" else 0
        points: list[tuple[float, float]] | None = None
        if mark.kind in ("beach", "crater"):
            points = L.wedge(i, mark.kind, 12)
        elif mark.kind == "space":
            if i >= L.SEGMENTS * 3:
                points = L.wedge(i - L.SEGMENTS * 3, "beach", 12)
            else:
                points = L.wedge(i // 3, L.LAND_BANDS[i % 3], 12)
        if points is not None:
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            left, top = min(xs) - 4, min(ys) - 4
            rect = pygame.Rect(left, top, max(xs) - left + 5, max(ys) - top + 5)
            return points, rect
        if mark.kind == "slot":
            return None, pygame.Rect(L.card_rect(i)).inflate(10, 10)
        return None, pygame.Rect(self.mark_rect(mark) or (0, 0, 0, 0)).inflate(8, 8)

    def _draw_highlights(self, level: int) -> list[pygame.Rect]:
        """Pulsing outlines in the mover's colour on every legal target, drawn over the
        scene (restored first under each outline); returns the rectangles touched."""
        game = self.session.game
        who = game.to_move
        if who is None:
            return []
        shapes = []
        for mark in self.legal_now():
            shape = self._shapes.get(mark)
            if shape is None:
                shape = self._shapes[mark] = self._highlight_shape(mark)
            shapes.append(shape)
        for _points, rect in shapes:
            self.screen.blit(self.scene, rect, rect)
        strength = 0.35 + 0.65 * level / (PULSE_LEVELS - 1)
        colour = tuple(round(c * strength + 255 * (1 - strength) * 0.25) for c in PLAYER[who])
        width = 3 if level < PULSE_LEVELS // 2 else 4
        for points, rect in shapes:
            if points is not None:
                pygame.draw.polygon(self.screen, (15, 15, 15), points, width + 2)
                pygame.draw.polygon(self.screen, colour, points, width)
            else:
                inner = rect.inflate(-2, -2)
                pygame.draw.rect(self.screen, (15, 15, 15), inner, width + 2, border_radius=8)
                pygame.draw.rect(self.screen, colour, inner, width, border_radius=8)
        return [rect for _points, rect in shapes]

    def _pulse_level(self) -> int | None:
        if self.show_help or self.drag is not None or not self.legal_now():
            return None
        return round(self.pulse() * (PULSE_LEVELS - 1))

    def follow_log(self) -> bool:
        """Bring the log up to date: the game's story in words, with the session's notes
        (refusals, misplaced pieces, undo, coach) where they happened; True when it changed.
        The session's own decision lines ("12. 3@2 (player)") are left out: the story says
        them in words."""
        session = self.session
        changed = self.story.follow(session.game)
        notes = session.log
        start = 0
        if self._seen_note is not None:
            for i in range(len(notes) - 1, -1, -1):
                if notes[i] is self._seen_note:
                    start = i + 1
                    break
        fresh = [notes[i] for i in range(start, len(notes))]
        if fresh:
            self._seen_note = fresh[-1]
            for text in fresh:
                if not DECISION_NOTE.match(text):
                    self._notes.append((len(self.story.entries), text))
            del self._notes[:-LOG_KEEP]
            changed = True
        if changed:
            self._rebuild_log()
        return changed

    def _rebuild_log(self) -> None:
        entries = self.story.entries
        lines: list[tuple[str, tuple[int, int, int]]] = []
        notes = sorted(self._notes, key=lambda n: min(n[0], len(entries)))
        n = 0
        first = max(0, len(entries) - LOG_KEEP)
        for i in range(first, len(entries) + 1):
            while n < len(notes) and min(notes[n][0], len(entries)) <= i:
                lines.append((notes[n][1], NOTE_COLOUR))
                n += 1
            if i < len(entries):
                entry = entries[i]
                if entry.who is not None:
                    colour = LOG_PLAYER[entry.who]
                elif entry.kind == "scoring":
                    colour = TEXT
                else:
                    colour = LOG_ISLAND
                indent = "    " if entry.kind in ("event", "scoring") and entry.who else ""
                lines.append((indent + entry.text, colour))
        self.log_lines = lines[-LOG_KEEP:]

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
            session.note(N_("autoplay on") if session.autoplay else N_("autoplay off"))
        elif key == pygame.K_p:
            session.power_cut()
        elif key == pygame.K_c:
            self._coach()
        elif key == pygame.K_e:
            self.show_end = not self.show_end
        elif key == pygame.K_F11:
            self.toggle_fullscreen()
        elif key in (pygame.K_s, pygame.K_F12):
            path = self.save(self.screenshot_path())
            session.note(f"screenshot saved: {path}")

    def _coach(self) -> None:
        """Key c: the coach's hint for the player to move, in the simulator's log."""
        from haleakala.ai.coach import BOARD_HINT_ITERATIONS, advise

        game = self.session.game.clone()  # a copy: the companion's game is never touched
        if game.is_terminal():
            self.session.note(N_("coach: the game is over"))
            return
        hint = advise(game, iterations=BOARD_HINT_ITERATIONS, seed=len(game.history))
        self.session.note(N_("coach: {hint}").format(hint=hint.line()))

    # ------------------------------------------------------------------ frame loop

    def draw(self) -> list[pygame.Rect] | None:
        """Draw one frame into the screen (no flip); return the rectangles that changed
        (None: the whole window).

        An LED-only change (the usual case: blinking zones, animations) touches just the
        zones whose colour changed; an OLED-only change just the OLED; a pulse step of the
        outlines just the outlines. Pushing pixels to the X server costs more than drawing
        them, so this is what keeps the frame rate up.
        """
        self.follow_log()
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

    def _led_rects(self, before: Any, after: Any) -> list[pygame.Rect]:
        """Screen areas of the zones whose pixels differ between two LED frames."""
        if before is None or after is None:
            return [pygame.Rect(0, 0, L.PANEL_X, L.HEIGHT)]
        old, new = before.pixels, after.pixels
        keys = {key for index, _pos, key in self._led_spots if old[index] != new[index]}
        rects = []
        for key in keys:
            mask, origin = self._zone_masks[key]
            rects.append(mask.get_rect(topleft=origin).inflate(16, 16))
        return rects

    def step(self, events: list[Any] | None = None) -> None:
        """Handle input, let the session run, draw and show: one frame."""
        for event in pygame.event.get() if events is None else events:
            self.handle(event)
        self.session.update()
        changed = self.draw()
        if changed is None or changed:
            self.present(changed)
        self.frames += 1

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

    def run(self, *, fps: int = 60, seconds: float | None = None) -> int:
        clock = pygame.time.Clock()
        end = None if seconds is None else time.monotonic() + seconds
        while self.running and (end is None or time.monotonic() < end):
            self.step()
            clock.tick(fps)
        return 0

    def save(self, path: str) -> str:
        """Save what the window shows now as a PNG (drawn fresh, help overlay included)."""
        self._signature = None
        self.draw()
        pygame.image.save(self.screen, path)
        return path
