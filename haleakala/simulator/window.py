"""The simulator window (pygame): the island from above, the LEDs, the OLED, the controls.

It draws, it never decides: the LED dots are the very pixels the daemon handed to the sim
LED chain (placed through the zone map), the OLED is the very image handed to the sim
display at 4×, the pieces are the physical table of the session. Clicks and keys become
raw button edges through the kit's real debouncer, encoder detents and disc moves.

Rendering is layered so a frame costs little: the island and panel frames are drawn once
into a background Surface; the scene (LED glow, pieces, panel text) is recomposed only when
something it shows changed (a new LED frame, OLED image, table or game change); a frame with
nothing new is one blit. Text surfaces are cached.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from haleakala.hal.base import ZONES

from . import layout as L
from .palette import (
    BACKGROUND,
    BAND_COLOURS,
    CARD_KIND,
    DIM,
    GLOW,
    LAVA,
    PANEL,
    PANEL_EDGE,
    PLAYER,
    SHORT_CARD,
    TEXT,
    Fonts,
    blit_centred,
    led_display_colour,
)
from .panel import PanelDrawing

if TYPE_CHECKING:
    from .session import SimSession

KEY_BUTTONS = {
    pygame.K_RETURN: "select",
    pygame.K_KP_ENTER: "select",
    pygame.K_SPACE: "select",
    pygame.K_BACKSPACE: "back",
}


class SimWindow(PanelDrawing):
    """One pygame window over one ``SimSession``."""

    def __init__(self, session: SimSession, *, screen: pygame.Surface | None = None) -> None:
        self.session = session
        if screen is None:
            pygame.display.init()
            pygame.display.set_caption("Haleakala Companion — simulator")
            screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
        self.screen = screen
        self.fonts = Fonts()
        self.background = self._draw_background()
        self.scene = pygame.Surface((L.WIDTH, L.HEIGHT)).convert()
        self._zone_masks = self._make_zone_masks()
        self._led_spots = self._make_led_spots()
        self._glows: dict[tuple, pygame.Surface] = {}
        self._dots: dict[tuple[int, int, int], pygame.Surface] = {}
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
            label = self.fonts.render(f"segment {segment}", 18, (200, 220, 240))
            blit_centred(bg, label, L.at(segment, L.BANDS["sea"][0] - 6, 0))
            for k in range(3):
                space = segment * 3 + k
                x, y = L.space_position(space, "statue")
                blit_centred(
                    bg, self.fonts.render(f"{segment}{'GFM'[k]}", 15, (20, 30, 20)), (x, y + 19)
                )
            blit_centred(
                bg,
                self.fonts.render(f"{segment}B", 15, (110, 90, 50)),
                L.at(segment, L.BANDS["beach"][1] + 6, 0),
            )
        pygame.draw.circle(bg, (40, 26, 24), (round(L.CENTRE[0]), round(L.CENTRE[1])), 30)
        # Panel.
        pygame.draw.rect(bg, PANEL, (L.PANEL_X, 0, L.WIDTH - L.PANEL_X, L.HEIGHT))
        x, y, w, h = L.OLED_RECT
        pygame.draw.rect(bg, (8, 8, 10), (x - 6, y - 6, w + 12, h + 12), border_radius=6)
        pygame.draw.rect(bg, PANEL_EDGE, (x - 6, y - 6, w + 12, h + 12), 2, border_radius=6)
        bg.blit(self.fonts.render("OLED 128×64 (×4)", 16, DIM), (x, y + h + 8))
        for (tx, ty, tw, th), caption in (
            (L.TURN_LEFT_RECT, "turn -"),
            (L.TURN_RIGHT_RECT, "turn +"),
        ):
            pygame.draw.rect(bg, (52, 56, 66), (tx, ty, tw, th), border_radius=6)
            blit_centred(bg, self.fonts.render(caption, 18, TEXT), (tx + tw / 2, ty + th / 2))
        bx, by = L.BACK_CENTRE
        blit_centred(bg, self.fonts.render("hold = undo", 16, DIM), (bx, by + L.BACK_RADIUS + 14))
        ex, ey = L.ENCODER_CENTRE
        blit_centred(bg, self.fonts.render("encoder", 16, DIM), (ex, ey - L.ENCODER_RADIUS - 12))
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
        )

    def compose(self) -> None:
        """Recompose the scene surface from the background and the current state."""
        scene = self.scene
        scene.blit(self.background, (0, 0))
        self._draw_leds(scene)
        self._draw_cards(scene)
        self._draw_pieces(scene)
        self._draw_panel(scene)

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

    def _dot(self, pixel: tuple[int, int, int], brightness: float) -> pygame.Surface:
        """One LED as seen from above: a faint socket when dark; lit, the glowing body
        with the exact sent value at its core."""
        surface = self._dots.get(pixel)
        if surface is None:
            if len(self._dots) > 1024:
                self._dots.clear()
            surface = pygame.Surface((13, 13), pygame.SRCALPHA)
            if any(pixel):
                pygame.draw.circle(surface, (10, 10, 10), (6, 6), 6)
                pygame.draw.circle(surface, led_display_colour(pixel, brightness), (6, 6), 5)
                pygame.draw.circle(surface, pixel, (6, 6), 2)
            else:
                pygame.draw.circle(surface, (0, 0, 0, 90), (6, 6), 4)
                pygame.draw.circle(surface, (0, 0, 0, 140), (6, 6), 4, 1)
            self._dots[pixel] = surface
        return surface

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
            scene.blit(self._dot(pixels[index], brightness), (x - 6, y - 6))

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
            top, bottom = SHORT_CARD.get(kind.code, (kind.code, ""))
            scene.blit(self.fonts.render(top, 16, (30, 30, 30), True), (x + 25, y + 9))
            if bottom:
                scene.blit(self.fonts.render(bottom, 14, (60, 60, 60)), (x + 25, y + 27))
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
        # Statues and shamans.
        for space, owner in table.statues.items():
            x, y = L.space_position(space, "statue")
            pygame.draw.rect(scene, (20, 20, 20), (x - 7, y - 10, 15, 22), border_radius=3)
            pygame.draw.rect(scene, PLAYER[owner], (x - 6, y - 11, 13, 21), border_radius=3)
            pygame.draw.rect(scene, (30, 20, 10), (x - 3, y - 6, 2, 3))
            pygame.draw.rect(scene, (30, 20, 10), (x + 2, y - 6, 2, 3))
        for colour, space in table.shamans.items():
            x, y = L.space_position(space, colour)
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
        elif event.type == pygame.KEYDOWN:
            self._key_down(event)
        elif event.type == pygame.KEYUP:
            self._release(f"key{event.key}")
        elif event.type == pygame.MOUSEWHEEL:
            if event.y:
                self._turn(1 if event.y > 0 else -1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            x, y = event.pos
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
                beach = L.beach_at(*event.pos)
                if beach is None and L.locate(*event.pos) is not None:
                    return  # dropped on land: the disc goes back where it was
                session.move_disc(disc, beach)
                return
            self._release("mouse")
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag = (self.drag[0], event.pos)

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
            session.note(f"autoplay {'on' if session.autoplay else 'off'}")
        elif key == pygame.K_p:
            session.power_cut()
        elif key == pygame.K_c:
            self._coach()
        elif key in (pygame.K_s, pygame.K_F12):
            path = self.save(self.screenshot_path())
            session.note(f"screenshot saved: {path}")

    def _coach(self) -> None:
        """Key c: the coach's hint for the player to move, in the simulator's log."""
        from haleakala.ai.coach import BOARD_HINT_ITERATIONS, advise

        game = self.session.game.clone()  # a copy: the companion's game is never touched
        if game.is_terminal():
            self.session.note("coach: the game is over")
            return
        hint = advise(game, iterations=BOARD_HINT_ITERATIONS, seed=len(game.history))
        self.session.note(f"coach: {hint.line()}")

    # ------------------------------------------------------------------ frame loop

    def draw(self) -> list[pygame.Rect] | None:
        """Draw one frame into the screen (no flip); return the rectangles that changed
        (None: the whole window).

        An LED-only change (the usual case: blinking zones, animations) touches just the
        zones whose colour changed; an OLED-only change just the OLED. Pushing pixels to
        the X server costs more than drawing them, so this is what keeps the frame rate up.
        """
        signature = self._signature_now()
        holding = self.pressed_at.get("back") is not None
        overlay = self.drag is not None or self.show_help
        if signature == self._signature and not holding and not overlay and not self._overlaid:
            return []
        previous, self._signature = self._signature, signature
        self.compose()
        leds_now = self.session.hw.leds.last
        changed: list[pygame.Rect] | None = None
        if previous is not None and not overlay and not self._overlaid and not holding:
            same_rest = previous[3:] == signature[3:]
            if same_rest:
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
        if changed is None:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)
        self.frames += 1

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
