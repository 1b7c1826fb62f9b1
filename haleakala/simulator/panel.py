"""The simulator window's control panel: the OLED at 3x, the encoder and BACK button, the
whose-turn banner, the scoring board (score track, scoring cards with cost and owner, piles
and when the next scoring comes), each player's tray (supply, cards, shells), the log in words,
and the overlays: the help page and the end-of-game table.

A mixin of ``SimWindow``: the island is drawn in ``window``, the panel here; ``PanelDrawing``
names the window's state it reads so each half type-checks on its own.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from typing import TYPE_CHECKING

import pygame

from haleakala import i18n
from haleakala.core.text import Capitalised, Param, Term, Text, Upper, ngettext
from haleakala.games.haleakala import PLAYERS
from haleakala.games.haleakala.deck import BOARD_ITEMS
from haleakala.games.haleakala.scoring import POINT_KEYS
from haleakala.games.haleakala.state import FACE_DOWN
from haleakala.games.haleakala.views import layout as L
from haleakala.games.haleakala.words.moves import POINT_NAMES
from haleakala.i18n import N_

from .palette import (
    DIM,
    HELP,
    HOLD_HINT_S,
    OLED_ON,
    PHASE_HINT,
    PLAYER,
    PLAYER_INDEX,
    PLAYER_TEXT,
    RULES,
    TEXT,
    TRAY_CARD,
    Fonts,
    blit_centred,
    fit,
    legend,
    wrap_pixels,
)
from .story import Mark, Story, scoring_forecast

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
    story: Story
    log_lines: list[tuple[str, tuple[int, int, int]]]
    frames: int

    def pulse(self) -> float:
        """0..1..0 over 48 frames: the phase of the pulsing outlines, from the frame counter
        (not the clock), so a test that steps N frames sees the same picture every time."""
        return 0.5 - 0.5 * math.cos(2 * math.pi * (self.frames % 48) / 48)

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
        self._draw_oled(scene)
        self._draw_controls(scene)
        self._draw_banner(scene)
        self._draw_board(scene)
        self._draw_trays(scene)
        self._draw_status(scene)
        self._draw_log(scene)

    def _draw_controls(self, scene: pygame.Surface) -> None:
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
            ex + (L.ENCODER_RADIUS - 9) * math.cos(angle),
            ey + (L.ENCODER_RADIUS - 9) * math.sin(angle),
        )
        pygame.draw.circle(scene, (230, 230, 235), notch, 4)
        blit_centred(scene, self.fonts.render(Text(N_("select")), 17, TEXT), (ex, ey + 6))
        bx, by = L.BACK_CENTRE
        held = self.pressed_at.get("back")
        colour = (150, 70, 60) if "back" in pressed else (110, 50, 44)
        pygame.draw.circle(scene, colour, (bx, by), L.BACK_RADIUS)
        pygame.draw.circle(scene, (200, 120, 110), (bx, by), L.BACK_RADIUS, 2)
        blit_centred(scene, self.fonts.render(Upper(Term("back")), 17, TEXT, True), (bx, by))
        if held is not None:
            frac = min(1.0, (time.monotonic() - held) / HOLD_HINT_S)
            r = L.BACK_RADIUS + 5
            pygame.draw.arc(
                scene,
                (255, 220, 120),
                (bx - r, by - r, 2 * r, 2 * r),
                math.pi / 2 - 2 * math.pi * frac,
                math.pi / 2,
                4,
            )

    def _draw_banner(self, scene: pygame.Surface) -> None:
        """Whose turn, in their colour, and what they do now (the game over: who won)."""
        game = self.session.game
        x, y, w, h = L.BANNER_RECT
        result = game.result()
        if result is not None:
            who = result.winner
            red, yellow = result.scores
            text = Text.of(
                N_("Game over: {colour} wins, red {red} – yellow {yellow}"),
                colour=Term(who),
                red=red,
                yellow=yellow,
            )
        else:
            who = game.to_move or "red"
            hint = PHASE_HINT.get(game.phase_name)
            text = Text.of(
                N_("{colour} to move · {what}"),
                colour=Upper(Term(who)),
                what=Text(hint) if hint else game.phase_name,
            )
        pygame.draw.rect(scene, PLAYER[who], (x, y, w, h), border_radius=6)
        font = self.fonts.font(21, True)
        label = self.fonts.render(fit(font, text, w - 96), 21, PLAYER_TEXT[who], True)
        scene.blit(label, (x + 10, y + (h - label.get_height()) // 2))
        tag = Text(N_("ROUND 2") if game.round == 2 else N_("ROUND 1"))
        tag_surface = self.fonts.render(tag, 17, PLAYER_TEXT[who])
        scene.blit(tag_surface, (x + w - tag_surface.get_width() - 10, y + 11))

    def _draw_board(self, scene: pygame.Surface) -> None:
        """The scoring board: score track with both markers, the six scoring cards (cost,
        owner), the three piles and when the next scoring comes."""
        game = self.session.game
        bx, by, _bw, _bh = L.BOARD_RECT
        scene.blit(self.fonts.render(Text(N_("Scoring board")), 17, DIM, True), (bx + 8, by + 5))
        totals = [0, 0]
        if game.scorings:
            totals = list(game.scorings[-1].totals)
        top = max(40, (max(totals) // 10 + 2) * 10)
        tx, ty, tw, th = L.TRACK_RECT
        pygame.draw.rect(scene, (46, 50, 60), (tx, ty, tw, th), border_radius=4)
        for points in range(0, top + 1, 5):
            x = round(L.track_x(points, top))
            big = points % 10 == 0
            pygame.draw.line(scene, (110, 116, 130), (x, ty + (2 if big else 7)), (x, ty + th - 3))
            if big:
                label = self.fonts.render(str(points), 13, DIM)
                scene.blit(label, (x + 2, ty + 2))
        for p, colour in enumerate(PLAYERS):
            x = round(L.track_x(totals[p], top))
            cy = ty + (5 if p == 0 else th - 5)
            pygame.draw.circle(scene, (20, 20, 20), (x, cy + 1), 9)
            pygame.draw.circle(scene, PLAYER[colour], (x, cy), 8)
            blit_centred(scene, self.fonts.render(str(totals[p]), 14, PLAYER_TEXT[colour], True),
                         (x, cy))  # fmt: skip
        words = Text.of(N_("red {red} · yellow {yellow}"), red=totals[0], yellow=totals[1])
        scene.blit(self.fonts.render(words, 16, TEXT), (bx + 150, by + 6))
        for i, code in enumerate(BOARD_ITEMS):
            self._draw_item(scene, i, code)
        self._draw_piles(scene, scoring_forecast(game))

    def _draw_item(self, scene: pygame.Surface, i: int, code: str) -> None:
        game = self.session.game
        x, y, w, h = L.item_rect(i)
        name, cost = game.deck.board_items[code]
        owner = game.board_owner[i]
        if 0 <= owner < len(PLAYERS):  # FACE_DOWN (2): the used Priestess, nobody's
            colour = PLAYERS[owner]
            pygame.draw.rect(scene, PLAYER[colour], (x, y, w, h), border_radius=5)
            note: Text = Text.of(N_("{colour}'s"), colour=Term(colour))
            ink = PLAYER_TEXT[colour]
        else:
            pygame.draw.rect(scene, (238, 232, 214), (x, y, w, h), border_radius=5)
            ink = (30, 30, 30)
            note = ngettext("{n} shell", "{n} shells", cost, n=cost)
            if owner == FACE_DOWN or (code == "priestess" and game.round == 1 and game.scorings):
                note = Text(N_("used"))
        scene.blit(self.fonts.render(Term(name), 17, ink, True), (x + 6, y + 4))
        scene.blit(self.fonts.render(note, 15, ink), (x + 6, y + 22))

    def _draw_piles(self, scene: pygame.Surface, forecast: tuple[Param, Param]) -> None:
        game = self.session.game
        x, y, w, _h = L.PILES_RECT
        for i, pile in enumerate(game.piles[:3]):
            px = x + i * 66
            for k in range(min(3, len(pile))):  # a little stack of card backs
                pygame.draw.rect(scene, (60, 110, 70), (px + k * 2, y + 6 - k * 2, 26, 30),
                                 border_radius=3)  # fmt: skip
                pygame.draw.rect(scene, (20, 50, 30), (px + k * 2, y + 6 - k * 2, 26, 30), 1,
                                 border_radius=3)  # fmt: skip
            if not pile:
                pygame.draw.rect(scene, (70, 74, 86), (px, y + 6, 26, 30), 1, border_radius=3)
            blit_centred(scene, self.fonts.render(str(i + 1), 14, TEXT, True),
                         (px + 16, y + 12))  # fmt: skip
            scene.blit(self.fonts.render(str(len(pile)), 20, TEXT, True), (px + 34, y + 12))
        left = x + 3 * 66 + 4
        headline = fit(self.fonts.font(19, True), forecast[0], x + w - left)
        scene.blit(self.fonts.render(headline, 19, (250, 210, 120), True), (left, y + 2))
        how = fit(self.fonts.font(16), forecast[1], x + w - left)
        scene.blit(self.fonts.render(how, 16, DIM), (left, y + 21))

    def _draw_status(self, scene: pygame.Surface) -> None:
        """The session's lines the banner and the board do not already show, on one line."""
        skip = ("round ", "phase:", "score:", "game over")
        parts = [
            (line, colour)
            for line, colour in self.session.status_lines()
            if not str(line).startswith(skip) and " – " not in str(line)
        ]
        x, y, w, _h = L.STATUS_RECT
        font = self.fonts.font(16)
        for line, colour in parts:
            if x >= L.STATUS_RECT[0] + w:
                break
            text = fit(font, line, L.STATUS_RECT[0] + w - x)
            surface = self.fonts.render(text, 16, colour)
            scene.blit(surface, (x, y + 2))
            x += surface.get_width() + 14

    def _draw_log(self, scene: pygame.Surface) -> None:
        """The last lines of the log, coloured by who acted; a long line wraps (a refusal is
        read whole), its continuation indented."""
        lx, ly, lw, lh = L.LOG_RECT
        font = self.fonts.font(17)
        rows = (lh - 12) // 18
        shown: list[tuple[str, tuple[int, int, int], int]] = []
        for line, colour in reversed(self.log_lines):
            parts = wrap_pixels(font, line, lw - 20) or [""]
            first, rest = parts[0], wrap_pixels(font, " ".join(parts[1:]), lw - 34)
            shown[:0] = [(first, colour, 0), *[(part, colour, 14) for part in rest]]
            if len(shown) >= rows:
                break
        for i, (text, colour, indent) in enumerate(shown[-rows:]):
            scene.blit(self.fonts.render(text, 17, colour), (lx + 10 + indent, ly + 6 + i * 18))
        scene.blit(self.fonts.render(Text(N_("h: help")), 15, DIM), (L.WIDTH - 56, L.HEIGHT - 16))

    def _draw_trays(self, scene: pygame.Surface) -> None:
        """Each player's supply (the discs not on the island; draggable on the RFID kit),
        statues and shells left, and the cards kept, by their plain names."""
        session = self.session
        game = session.game
        on_island = session.table.on_island()
        dragged = self.drag[0] if self.drag else None
        for colour, (x, y, w, _h) in L.TRAY_RECTS.items():
            p = PLAYER_INDEX[colour]
            shells = len(game.shells[p])
            title = Text.of(
                N_("{colour} · {statues} statues left · {shells}"),
                colour=Capitalised(Term(colour)),
                statues=game.statues_left[p],
                shells=ngettext("{n} shell", "{n} shells", shells, n=shells),
            )
            scene.blit(self.fonts.render(title, 17, PLAYER[colour], True), (x + 8, y + 6))
            values = [1, 2, 3, 4, 5] + ([0] if game.tactical else [])
            for value in values:
                name = f"{colour}{'*' if value == 0 else value}"
                pos = L.tray_position(colour, value)
                if name in on_island or name == dragged:
                    pygame.draw.circle(scene, (50, 52, 60), pos, L.DISC_RADIUS, 1)
                else:
                    self._disc(scene, name, pos, ring=name == self.hand)
            kept = [game.deck.cards[c] for c in game.beach_cards[p]]
            counts = Counter(card.code for card in kept)
            printed = {card.code: card.name for card in kept}
            names = [
                (f"{n}× " if n > 1 else "") + i18n._(TRAY_CARD.get(code, printed[code]))
                for code, n in counts.items()
            ]
            text = (
                i18n._("Cards: {cards}").format(cards=", ".join(names))
                if names
                else i18n._("Cards: none yet")
            )
            size = 16  # smaller type before a card is cut off: every card is named whole
            parts = wrap_pixels(self.fonts.font(size), text, w - 16)
            while len(parts) > 3 and size > 12:
                size -= 1
                parts = wrap_pixels(self.fonts.font(size), text, w - 16)
            row = y + 58
            for part in parts[:4]:
                scene.blit(self.fonts.render(part, size, TEXT), (x + 8, row))
                row += size + 1

    def _draw_help(self) -> None:
        """The help page: keys on the left, what the lights and marks mean on the right, the
        rules on one page below."""
        if self._help is None or getattr(self, "_help_language", None) != i18n.current():
            overlay = pygame.Surface((L.WIDTH, L.HEIGHT), pygame.SRCALPHA)
            overlay.fill((0, 0, 0, 170))
            box = pygame.Rect(24, 16, L.WIDTH - 48, L.HEIGHT - 32)
            pygame.draw.rect(overlay, (18, 20, 26, 250), box, border_radius=12)
            pygame.draw.rect(overlay, (90, 96, 110, 255), box, 2, border_radius=12)
            gold = (250, 210, 120)

            def column(rows, x: int, y: int, split: int, title: str) -> int:
                overlay.blit(self.fonts.render(Text(title), 28, TEXT, True), (x, y))
                y += 32
                for key, what in rows:
                    if not what:
                        y += 3
                        overlay.blit(self.fonts.render(Text(key), 20, gold, True), (x, y))
                        y += 20
                        continue
                    overlay.blit(self.fonts.render(Text(key), 18, TEXT), (x + 10, y))
                    overlay.blit(self.fonts.render(Text(what), 18, DIM), (x + split, y))
                    y += 18
                return y

            y1 = column(HELP, box.x + 20, box.y + 14, 210, N_("Keys and mouse"))
            y2 = column(legend(), box.x + 640, box.y + 14, 160, N_("What you see"))
            y = max(y1, y2) + 12
            pygame.draw.line(overlay, (70, 74, 86), (box.x + 20, y), (box.right - 20, y))
            y += 8
            overlay.blit(self.fonts.render(Text(N_("The rules on one page")), 28, TEXT, True),
                         (box.x + 20, y))  # fmt: skip
            y += 30
            split = (len(RULES) + 1) // 2
            for rows, x in ((RULES[:split], box.x + 20), (RULES[split:], box.x + 640)):
                ry = y
                for head, text in rows:  # a heading, then its paragraph wrapped to the column
                    overlay.blit(self.fonts.render(Text(head), 20, gold, True), (x, ry))
                    ry += 20
                    room = min(590, box.right - 30 - (x + 10))  # clear of the frame
                    for line in wrap_pixels(self.fonts.font(18), Text(text), room):
                        overlay.blit(self.fonts.render(line, 18, TEXT), (x + 10, ry))
                        ry += 18
            self._help = overlay
            self._help_language = i18n.current()  # drawn again after a change of language
        self.screen.blit(self._help, (0, 0))

    def _draw_end_table(self, scene: pygame.Surface) -> None:
        """Game over: every scoring's points by kind for both players, and the totals."""
        game = self.session.game
        result = game.result()
        if result is None:
            return
        kinds = list(POINT_KEYS)
        x, y, w, _h = L.END_RECT
        h = 62 + 44 + 24 * (len(kinds) + 2) + 30
        y = L.HEIGHT // 2 - h // 2
        pygame.draw.rect(scene, (16, 18, 24), (x, y, w, h), border_radius=10)
        pygame.draw.rect(scene, PLAYER[result.winner], (x, y, w, h), 3, border_radius=10)
        red, yellow = result.scores
        title = Text.of(
            N_("{colour} wins: red {red}, yellow {yellow}"),
            colour=Capitalised(Term(result.winner)),
            red=red,
            yellow=yellow,
        )
        if result.tiebreak == "statues":
            title = Text.of(N_("{result} (more statues)"), result=title)
        elif result.tiebreak == "start":
            title = Text.of(N_("{result} (tie: the second player wins)"), result=title)
        said = i18n.render(title)
        size = 32  # as large as fits the box: "… (Gleichstand: der zweite Spieler gewinnt)"
        while size > 16 and self.fonts.font(size, True).size(said)[0] > w - 32:
            size -= 2
        blit_centred(scene, self.fonts.render(said, size, PLAYER[result.winner], True),
                     (x + w / 2, y + 28))  # fmt: skip
        columns = [(scoring.round, part) for scoring in result.scorings for part in scoring.players]
        left, col_w, row_h = x + 24, (w - 240) // max(1, len(columns)), 24
        top = y + 62
        for c, (rnd, part) in enumerate(columns):
            cx = left + 200 + c * col_w + col_w // 2
            label = Text.of(N_("scoring {n}"), n=rnd)
            blit_centred(scene, self.fonts.render(label, 16, DIM), (cx, top))
            blit_centred(scene, self.fonts.render(Term(part.colour), 19, PLAYER[part.colour], True),
                         (cx, top + 18))  # fmt: skip
        row_y = top + 44
        for kind in [*kinds, N_("this scoring"), N_("total")]:
            strong = kind in (N_("this scoring"), N_("total"))
            if strong:
                pygame.draw.line(scene, (80, 84, 96), (left, row_y - 3), (x + w - 24, row_y - 3))
            name = POINT_NAMES.get(kind, kind)
            scene.blit(self.fonts.render(Term(name), 19, TEXT, strong), (left, row_y))
            for c, (_rnd, part) in enumerate(columns):
                if kind == "total":
                    value = part.total
                elif kind == "this scoring":
                    value = part.points.gained
                else:
                    value = getattr(part.points, kind)
                cx = left + 200 + c * col_w + col_w // 2
                ink = TEXT if value else (90, 94, 104)
                blit_centred(scene, self.fonts.render(str(value), 19, ink, strong),
                             (cx, row_y + 8))  # fmt: skip
            row_y += row_h
        hint = Text(N_("e: hide this table"))
        scene.blit(self.fonts.render(hint, 15, DIM), (x + w - 120, y + h - 20))

    def mark_rect(self, mark: Mark) -> tuple[int, int, int, int] | None:
        """The item's rectangle on the scoring board (items are the panel's marks)."""
        if mark.kind == "item":
            return L.item_rect(BOARD_ITEMS.index(str(mark.index)))
        return None
