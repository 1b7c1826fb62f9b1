"""The simulator window's island from above: the static background (bands, segments, space
names and the panel's frames, drawn once), the scoring cards in their slots, the pieces of the
session's physical table (discs, lava, statues, shamans, boat; a misplaced one ringed), each
player's sum per beach, the ring around the last move and the frame on the option under the
companion's cursor.

A mixin of ``SimWindow`` (``window``); the attributes below are set by the window.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from haleakala.core.text import Text
from haleakala.games.haleakala import NotationError
from haleakala.games.haleakala.views import layout as L
from haleakala.i18n import N_

from .palette import (
    BACKGROUND,
    BAND_COLOURS,
    CARD_KIND,
    DIM,
    PANEL,
    PANEL_EDGE,
    PLAYER,
    PLAYER_LETTER,
    PLAYER_TEXT,
    ROLE,
    SHORT_CARD,
    TEXT,
    blit_centred,
    face_lines,
    fit,
)
from .panel import PanelDrawing
from .story import Mark, Story, mark_of

if TYPE_CHECKING:
    pass

DASHES = 14


class IslandDrawing(PanelDrawing):
    """Draws the island and its pieces for ``SimWindow``."""

    story: Story

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
            label = self.fonts.render(Text.of(N_("segment {n}"), n=segment), 18, (200, 220, 240))
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
            blit_centred(bg, self.fonts.render(Text(caption), 18, TEXT), (tx + tw / 2, ty + th / 2))
        bx, by = L.BACK_CENTRE
        bg.blit(self.fonts.render(Text(N_("hold:")), 15, DIM), (bx + L.BACK_RADIUS + 6, by - 14))
        bg.blit(self.fonts.render(Text(N_("undo")), 15, DIM), (bx + L.BACK_RADIUS + 6, by))
        for colour, rect in L.TRAY_RECTS.items():
            pygame.draw.rect(bg, (34, 36, 44), rect, border_radius=8)
            pygame.draw.rect(bg, PLAYER[colour], rect, 2, border_radius=8)
        pygame.draw.rect(bg, (20, 21, 26), L.LOG_RECT, border_radius=8)
        return bg

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
            flame = [(cx, cy - 11), (cx + 7, cy + 8), (cx - 7, cy + 8)]
            pygame.draw.polygon(scene, ROLE["lava"], flame)
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
            pygame.draw.circle(scene, ROLE["lava"], (cx, cy), 8)

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
                pygame.draw.circle(scene, ROLE["lava"], pos, 7)
        # Statues and shamans; one not where the game has it gets a white ring and a "!".
        for space, owner in table.statues.items():
            x, y = L.space_position(space, "statue")
            if expected is not None and expected.statues.get(space) != owner:
                self._misplaced(scene, (x, y))
            pygame.draw.rect(scene, (20, 20, 20), (x - 7, y - 10, 15, 22), border_radius=3)
            pygame.draw.rect(scene, PLAYER[owner], (x - 6, y - 11, 13, 21), border_radius=3)
            pygame.draw.rect(scene, (30, 20, 10), (x - 3, y - 6, 2, 3))
            pygame.draw.rect(scene, (30, 20, 10), (x + 2, y - 6, 2, 3))
            letter = self.fonts.render(PLAYER_LETTER[owner], 13, PLAYER_TEXT[owner], True)
            blit_centred(scene, letter, (x + 0.5, y + 3))
        for colour, space in table.shamans.items():
            x, y = L.space_position(space, colour)
            if expected is not None and expected.shamans.get(colour) != space:
                self._misplaced(scene, (x, y))
            pygame.draw.circle(scene, (20, 20, 20), (x + 1, y + 2), 9)
            body = [(x, y - 12), (x + 8, y + 8), (x - 8, y + 8)]
            pygame.draw.polygon(scene, PLAYER[colour], body)
            pygame.draw.circle(scene, PLAYER[colour], (x, y - 10), 5)
            pygame.draw.circle(scene, (30, 30, 30), (x, y - 10), 5, 1)
            letter = self.fonts.render(PLAYER_LETTER[colour], 12, PLAYER_TEXT[colour], True)
            blit_centred(scene, letter, (x, y + 3))
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
        pygame.draw.circle(scene, ROLE["warning"], pos, radius, 2)
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
