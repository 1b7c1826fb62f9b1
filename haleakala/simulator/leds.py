"""The simulator window's LEDs seen from above: each zone's glow added to the island in the
colour the daemon sent, and each lit pixel as a dot with a halo (dark ones are sockets in the
background). The positions come from the session's zone map, so the dots are the very pixels
of the sim LED chain.

A mixin of ``SimWindow`` (``window``); the attributes below are set by the window.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from haleakala.games.haleakala.views import layout as L
from haleakala.hal.base import ZONES

from .palette import (
    GLOW,
    led_display_colour,
)
from .panel import PanelDrawing

if TYPE_CHECKING:
    pass

GLOW_RADIUS = 12


class LedDrawing(PanelDrawing):
    """Draws the LED chain on the island for ``SimWindow``."""

    _zone_masks: dict[tuple[int, str], tuple[pygame.Surface, tuple[int, int]]]
    _led_spots: list[tuple[int, tuple[int, int], tuple[int, str]]]
    _glows: dict[tuple, pygame.Surface]
    _dots: dict[tuple[int, int, int], tuple[pygame.Surface, tuple[int, int, int]]]

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
