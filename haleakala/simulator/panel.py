"""The simulator window's control panel: the OLED at 4x, the encoder and BACK button, the
status lines, each player's tray (supply, cards, shells) and the log, and the help overlay.

A mixin of ``SimWindow``: the island is drawn in ``window``, the panel here; ``PanelDrawing``
names the window's state it reads so each half type-checks on its own.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import pygame

from haleakala.rules.deck import BOARD_ITEMS

from . import layout as L
from .palette import (
    DIM,
    HELP,
    HOLD_HINT_S,
    OLED_ON,
    PLAYER,
    PLAYER_INDEX,
    PLAYER_TEXT,
    TEXT,
    Fonts,
    blit_centred,
    wrap,
)

if TYPE_CHECKING:
    from .session import SimSession


class PanelDrawing:
    """Draws the panel and the pieces' discs for ``SimWindow`` (which sets these)."""

    session: SimSession
    screen: pygame.Surface
    fonts: Fonts
    pressed: dict[str, str]
    pressed_at: dict[str, float]
    encoder_position: int
    drag: tuple[str, tuple[int, int]] | None
    hand: str | None
    _oled_surface: pygame.Surface | None
    _oled_count: tuple
    _help: pygame.Surface | None

    def _disc(self, scene: pygame.Surface, name: str, pos: tuple[int, int], ring: bool = False):
        colour = "red" if name.startswith("red") else "yellow"
        value = name[len(colour) :]
        pygame.draw.circle(scene, (20, 20, 20), (pos[0] + 1, pos[1] + 2), L.DISC_RADIUS)
        pygame.draw.circle(scene, PLAYER[colour], pos, L.DISC_RADIUS)
        pygame.draw.circle(
            scene, (255, 255, 255) if ring else (40, 30, 20), pos, L.DISC_RADIUS, 2 if ring else 1
        )
        blit_centred(scene, self.fonts.render(value, 19, PLAYER_TEXT[colour], True), pos)

    def _draw_oled(self, scene: pygame.Surface) -> None:
        display = self.session.hw.display
        count = (id(display), display.show_count, display.clear_count)  # new after a power cut
        if count != self._oled_count:
            self._oled_count = count
            image = display.last
            if image is None:
                self._oled_surface = None
            else:
                data = image.convert("L").tobytes()
                small = pygame.image.frombuffer(data, image.size, "P")
                small.set_palette([(0, 0, 0)] * 255 + [OLED_ON])
                self._oled_surface = pygame.transform.scale(small, L.OLED_RECT[2:]).convert()
        if self._oled_surface is None:
            pygame.draw.rect(scene, (0, 0, 0), L.OLED_RECT)
        else:
            scene.blit(self._oled_surface, L.OLED_RECT[:2])

    def _draw_panel(self, scene: pygame.Surface) -> None:
        session = self.session
        self._draw_oled(scene)
        # Encoder knob with a notch that turns with the detents (20 per turn).
        ex, ey = L.ENCODER_CENTRE
        pressed = set(self.pressed.values())
        pygame.draw.circle(
            scene,
            (90, 94, 104) if "select" in pressed else (62, 66, 76),
            (ex, ey),
            L.ENCODER_RADIUS,
        )
        pygame.draw.circle(scene, (150, 154, 164), (ex, ey), L.ENCODER_RADIUS, 2)
        angle = math.radians(-90 + 18 * self.encoder_position)
        notch = (
            ex + (L.ENCODER_RADIUS - 10) * math.cos(angle),
            ey + (L.ENCODER_RADIUS - 10) * math.sin(angle),
        )
        pygame.draw.circle(scene, (230, 230, 235), notch, 5)
        blit_centred(scene, self.fonts.render("select", 18, TEXT), (ex, ey + 8))
        bx, by = L.BACK_CENTRE
        held = self.pressed_at.get("back")
        colour = (150, 70, 60) if "back" in pressed else (110, 50, 44)
        pygame.draw.circle(scene, colour, (bx, by), L.BACK_RADIUS)
        pygame.draw.circle(scene, (200, 120, 110), (bx, by), L.BACK_RADIUS, 2)
        blit_centred(scene, self.fonts.render("BACK", 19, TEXT, True), (bx, by))
        if held is not None:
            frac = min(1.0, (time.monotonic() - held) / HOLD_HINT_S)
            pygame.draw.arc(
                scene,
                (255, 220, 120),
                (bx - 31, by - 31, 62, 62),
                math.pi / 2 - 2 * math.pi * frac,
                math.pi / 2,
                4,
            )
        # Status.
        sx, sy, _sw, _sh = L.STATUS_RECT
        for i, (line, colour) in enumerate(session.status_lines()):
            scene.blit(self.fonts.render(line, 19, colour), (sx, sy + i * 20))
        self._draw_trays(scene)
        # Log.
        lx, ly, _lw, lh = L.LOG_RECT
        lines = list(session.log)[-(lh - 12) // 19 :]
        for i, line in enumerate(lines):
            scene.blit(
                self.fonts.render(line[:78], 17, DIM if i < len(lines) - 1 else TEXT),
                (lx + 10, ly + 8 + i * 19),
            )
        scene.blit(self.fonts.render("h: help", 16, DIM), (L.WIDTH - 60, L.HEIGHT - 18))

    def _draw_trays(self, scene: pygame.Surface) -> None:
        """Each player's supply (the discs not on the island; draggable on the RFID kit),
        statues left, cards and shells."""
        session = self.session
        game = session.game
        on_island = session.table.on_island()
        dragged = self.drag[0] if self.drag else None
        for colour, (x, y, _w, _h) in L.TRAY_RECTS.items():
            p = PLAYER_INDEX[colour]
            title = f"{colour} supply · statues left {game.statues_left[p]}"
            scene.blit(self.fonts.render(title, 17, PLAYER[colour], True), (x + 8, y + 6))
            values = [1, 2, 3, 4, 5] + ([0] if game.tactical else [])
            for value in values:
                name = f"{colour}{'*' if value == 0 else value}"
                pos = L.tray_position(colour, value)
                if name in on_island or name == dragged:
                    pygame.draw.circle(scene, (50, 52, 60), pos, L.DISC_RADIUS, 1)
                else:
                    self._disc(scene, name, pos, ring=name == self.hand)
            cards = [game.deck.cards[c].code for c in game.beach_cards[p]]
            owned = [item for i, item in enumerate(BOARD_ITEMS) if game.board_owner[i] == p]
            text = [
                "cards: " + (", ".join(cards) if cards else "none"),
                f"shells: {len(game.shells[p])}"
                + (" · bought: " + ", ".join(owned) if owned else ""),
            ]
            row = y + 66
            for line in text:
                for part in wrap(line, 36)[:2]:
                    scene.blit(self.fonts.render(part, 16, TEXT), (x + 8, row))
                    row += 16

    def _draw_help(self) -> None:
        if self._help is None:
            overlay = pygame.Surface((L.WIDTH, L.HEIGHT), pygame.SRCALPHA)
            overlay.fill((0, 0, 0, 150))
            box = pygame.Rect(150, 70, 980, 40 + 26 * len(HELP) + 30)
            pygame.draw.rect(overlay, (18, 20, 26, 245), box, border_radius=12)
            pygame.draw.rect(overlay, (90, 96, 110, 255), box, 2, border_radius=12)
            x, y = box.x + 30, box.y + 18
            overlay.blit(self.fonts.render("Keys and mouse", 32, TEXT, True), (x, y))
            y += 42
            for key, what in HELP:
                if not what:
                    y += 6
                    overlay.blit(self.fonts.render(key, 22, (250, 210, 120), True), (x, y))
                    y += 24
                    continue
                overlay.blit(self.fonts.render(key, 21, TEXT), (x + 16, y))
                overlay.blit(self.fonts.render(what, 21, DIM), (x + 330, y))
                y += 23
            self._help = overlay
        self.screen.blit(self._help, (0, 0))
