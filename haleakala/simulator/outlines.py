"""The simulator window's pulsing outlines on every legal target of the player to move,
drawn over the composed scene a few times a second (touching only their own rectangles).

A mixin of ``SimWindow`` (``window``); the attributes below are set by the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from haleakala.games.haleakala.views import layout as L

from .palette import (
    ROLE,
)
from .panel import PanelDrawing
from .story import Mark, legal_marks

if TYPE_CHECKING:
    pass

PULSE_LEVELS = 6
"""Steps of the outlines' pulse: a redraw of the outlines only when the level changes."""


class LegalOutlines(PanelDrawing):
    """Draws the outlines of the legal targets for ``SimWindow``."""

    scene: pygame.Surface
    show_help: bool
    _marks_key: tuple
    _marks: list[Mark]
    _shapes: dict[Mark, tuple[list[tuple[float, float]] | None, pygame.Rect]]

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
        """Pulsing outlines in the palette's legal-target colour on every legal target of the
        player to move, drawn over the scene (restored first under each outline); returns the
        rectangles touched."""
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
        legal = ROLE["legal"]
        colour = tuple(round(c * strength + 255 * (1 - strength) * 0.25) for c in legal)
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
