"""The Kanaloa window (pygame): the map from above and a panel per player.

It draws, it never decides: everything shown is read from the game (Kanaloa hides only the
bag's order, N12) and every click goes to the table, which turns it into decisions of the
game's notation. Drawn: the islands with their two offering tiles, the currents with their
fish (the side shown, white or a player's colour, and a head pointing where it swims), the
pieces (a cross on a stunned one), the Dolphin with the pieces on it, the volcano, the
volcano track; per player the gods and protection cards, the five temples and the tiles held.

Mouse: click an island (first piece, move there, volcano, land, place, Dolphin), a current
(place a fish, whiten, reverse, flip), a tile on an island (take, give, swap) or a tile a
player holds (sacrifice, add, rob); when a click fits several decisions they appear as
buttons, and the legal list is always offered there.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping

import pygame

from haleakala import palette
from haleakala.games.kanaloa.material import GODS
from haleakala.games.kanaloa.state import DOLPHIN, SEA
from haleakala.games.kanaloa.views.board import describe_result, phase_prompt
from haleakala.games.kanaloa.words import MARKS, colour
from haleakala.i18n import _
from haleakala.i18n.terms import bot_name
from haleakala.toolkit.window import TableWindow, blit_centred
from haleakala.toolkit.window import wrap as _wrap

from . import layout as L
from .table import KanaloaTable

SEA_COLOUR = (30, 94, 140)
SEA_DEEP = (20, 64, 100)
SAND = (228, 208, 152)
GRASS = (96, 150, 80)
OUT_OF_PLAY = (60, 84, 100)
PANEL = (26, 28, 34)
BOX = (38, 40, 48)
TEXT = (228, 230, 234)
DIM = (150, 156, 168)
HINT = (255, 214, 60)
CURRENT = (150, 196, 222)


class _PaletteColours(Mapping[str, tuple[int, int, int]]):
    """Kanaloa's player colours (and a fish's white side) in the colour mode in use
    (``haleakala.palette``: ``--palette cvd`` changes them), looked up at each draw."""

    KEYS = ("red", "yellow", "green", "blue", "white")

    def __getitem__(self, colour: str) -> tuple[int, int, int]:
        if colour not in self.KEYS:
            raise KeyError(colour)
        return palette.screen(f"kanaloa.{colour}")

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)


PLAYER: Mapping[str, tuple[int, int, int]] = _PaletteColours()
GOD = {
    "Kanaloa": (80, 150, 220),
    "Ku": (186, 96, 70),
    "Pele": (240, 128, 40),
    "Lono": (120, 190, 100),
    "Kane": (222, 200, 130),
}
DARK = (20, 20, 24)


class KanaloaWindow(TableWindow):
    """One pygame window over one ``KanaloaTable`` (its loop and keys: ``WindowShell``)."""

    table: KanaloaTable

    def __init__(self, table: KanaloaTable, *, screen: pygame.Surface | None = None) -> None:
        super().__init__(
            table,
            screen,
            caption=_("Haleakala Companion — Kanaloa"),
            size=(L.WIDTH, L.HEIGHT),
            shots="kanaloa-%Y%m%d-%H%M%S.png",
        )

    # ------------------------------------------------------------------ input

    def click(self, pos: tuple[int, int]) -> str | None:
        """A left click at ``pos``: whatever lies there; the decision made, if one was."""
        table, game = self.table, self.table.game
        m, lay = game.m, game.lay
        k = L.choice_at(min(len(table.offered()), L.CHOICE_COLUMNS * L.CHOICE_ROWS), pos)
        if k is not None:
            return table.click_choice(k)
        held = L.hand_tile_at(game.n, [len(game.hand_tiles(p)) for p in range(game.n)], pos)
        if held is not None:
            p, i = held
            return table.click_hand_tile(p, game.hand_tiles(p)[i])
        on = L.island_tile_at(m, lay.islands, pos)
        if on is not None and on[1] < len(game.tiles[on[0]]):
            island, slot = on
            return table.click_island_tile(island, m.tiles[game.tiles[island][slot]])
        at = L.island_at(m, lay.islands, pos)
        if at is not None:
            return table.click_island(at)
        current = L.current_at(m, lay.currents, pos)
        if current is not None:
            return table.click_current(current)
        return None

    # ------------------------------------------------------------------ drawing

    def draw(self) -> bool:
        """Redraw if anything changed; whether it did."""
        table = self.table
        signature = (table.changes, len(table.game.history), palette.current())
        if signature == self._signature:
            return False
        self._signature = signature
        self.screen.fill(PANEL)
        self._draw_map()
        self._draw_panel()
        return True

    def _draw_map(self) -> None:
        screen, game = self.screen, self.table.game
        m, lay = game.m, game.lay
        pygame.draw.rect(screen, palette.screen("kanaloa.sea"), L.MAP_RECT)
        pygame.draw.rect(screen, SEA_DEEP, L.MAP_RECT, 6)
        for c in range(len(m.currents)):
            a, b = L.current_ends(m, c)
            if not lay.current_in_play[c]:
                continue
            pygame.draw.line(screen, CURRENT, a, b, 3)
        for c in lay.currents:
            if game.fish_tail[c] >= 0:
                self._fish(c)
        for i in range(len(m.islands)):
            self._island(i)
        if game.volcano >= SEA:  # two players: on a sea space (N3)
            hit = m.sea[game.volcano - SEA]
            points = [L.island_centre(m, i) for i in hit]
            self._volcano(
                (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
            )
        self._dolphin()
        self._track()

    def _island(self, i: int) -> None:
        screen, game, f = self.screen, self.table.game, self.fonts
        m = game.m
        cx, cy = L.island_centre(m, i)
        r = L.ISLAND_RADIUS
        if not game.lay.in_play[i]:
            pygame.draw.circle(screen, OUT_OF_PLAY, (cx, cy), r)
            blit_centred(screen, f.render(m.islands[i], 20, DIM, True), (cx, cy - 8))
            blit_centred(screen, f.render(_("out of play"), 15, DIM), (cx, cy + 10))
            return
        pygame.draw.circle(screen, SAND, (cx, cy), r)
        pygame.draw.circle(screen, GRASS, (cx, cy), r - 6)
        blit_centred(screen, f.render(m.islands[i], 21, DARK, True), (cx, cy - 20))
        for slot, t in enumerate(game.tiles[i]):
            self._tile(m.tiles[t], L.tile_rect(m, i, slot))
        if game.volcano == i:
            self._volcano((cx, cy))
        k = 0
        for p in range(game.n):
            for piece, x in enumerate(game.loc[p]):
                if x == i:
                    self._piece(p, L.piece_pos(m, i, k), game.stun[p][piece])
                    k += 1

    def _tile(self, code: str, rect, size: int = 15) -> None:
        """An offering tile: its god's colour (two bands for a two-god tile), its code."""
        x, y, w, h = rect
        gods = [g for g in GODS if code.startswith(g) or f"/{g}" in code]
        gods = gods[:2] or ["Kane"]
        band = w / len(gods)
        for k, g in enumerate(gods):
            pygame.draw.rect(self.screen, GOD[g], (x + round(k * band), y, math.ceil(band), h))
        pygame.draw.rect(self.screen, DARK, rect, 1)
        blit_centred(self.screen, self.fonts.render(code, size, DARK, True), (x + w / 2, y + h / 2))

    def _piece(self, p: int, pos: tuple[int, int], stunned: bool = False) -> None:
        name = self.table.game.players[p]
        x, y = pos
        pygame.draw.circle(self.screen, DARK, (x + 1, y + 2), L.PIECE_RADIUS)
        pygame.draw.circle(self.screen, PLAYER[name], pos, L.PIECE_RADIUS)
        pygame.draw.circle(self.screen, DARK, pos, L.PIECE_RADIUS, 2)
        # The colour's initial too: colour is never the only sign (as on the live view).
        blit_centred(self.screen, self.fonts.render(MARKS[name].upper(), 16, DARK, True), pos)
        if stunned:  # a cross: this piece loses its turn (N32)
            d = L.PIECE_RADIUS - 3
            pygame.draw.line(self.screen, DARK, (x - d, y - d), (x + d, y + d), 3)
            pygame.draw.line(self.screen, DARK, (x - d, y + d), (x + d, y - d), 3)

    def _fish(self, c: int) -> None:
        """A fish in the middle of its current: body in the side it shows, head towards the
        island it swims to, tail fin at the tail island."""
        game = self.table.game
        m = game.m
        tail = game.fish_tail[c]
        (ax, ay), (bx, by) = L.current_ends(m, c)
        if m.currents[c][0] != tail:
            (ax, ay), (bx, by) = (bx, by), (ax, ay)
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        nx, ny = -uy, ux
        mx, my = L.fish_centre(m, c)
        shows = game.shows(c)
        fill = PLAYER["white"] if shows < 0 else PLAYER[m.colours[shows]]
        body = []
        for k in range(16):  # an ellipse 36 x 16 along the current
            t = 2 * math.pi * k / 16
            ex, ey = 18 * math.cos(t), 8 * math.sin(t)
            body.append((mx + ux * ex + nx * ey, my + uy * ex + ny * ey))
        fin = [
            (mx - ux * 14, my - uy * 14),
            (mx - ux * 28 + nx * 10, my - uy * 28 + ny * 10),
            (mx - ux * 28 - nx * 10, my - uy * 28 - ny * 10),
        ]
        pygame.draw.polygon(self.screen, fill, fin)
        pygame.draw.polygon(self.screen, DARK, fin, 2)
        pygame.draw.polygon(self.screen, fill, body)
        pygame.draw.polygon(self.screen, DARK, body, 2)
        eye = (round(mx + ux * 10 + nx * 3), round(my + uy * 10 + ny * 3))
        pygame.draw.circle(self.screen, DARK, eye, 2)

    def _volcano(self, pos: tuple[float, float]) -> None:
        x, y = pos
        cone = [(x - 30, y + 24), (x + 30, y + 24), (x + 10, y - 18), (x - 10, y - 18)]
        pygame.draw.polygon(self.screen, palette.screen("kanaloa.volcano"), cone)
        pygame.draw.polygon(self.screen, DARK, cone, 2)
        pygame.draw.ellipse(self.screen, (240, 90, 30), (x - 12, y - 24, 24, 12))
        blit_centred(self.screen, self.fonts.render(_("volcano"), 16, TEXT, True), (x, y + 8))

    def _dolphin(self) -> None:
        game, f = self.table.game, self.fonts
        cx, cy = L.dolphin_centre(game.m)
        rect = pygame.Rect(0, 0, 150, 40)
        rect.center = (cx, cy - 20)
        pygame.draw.ellipse(self.screen, (120, 170, 200), rect)
        pygame.draw.ellipse(self.screen, DARK, rect, 2)
        blit_centred(self.screen, f.render(_("Dolphin"), 20, DARK, True), rect.center)
        k = 0
        for p in range(game.n):
            for x in game.loc[p]:
                if x == DOLPHIN:
                    self._piece(p, (rect.right + 16 + 26 * k, rect.centery))
                    k += 1

    def _track(self) -> None:
        """The volcano track: one box per volcano tile, filled when drawn; an even one
        erupts (N28), the last ends the game (N47)."""
        game, f = self.table.game, self.fonts
        y = L.TRACK_Y
        label = _("volcano tiles {drawn} of {end}").format(drawn=game.volcanoes,
                                                           end=game.end_count)  # fmt: skip
        self.screen.blit(f.render(label, 20, TEXT, True), (16, y + 8))
        x0 = 30 + f.render(label, 20, TEXT, True).get_width()
        for k in range(1, game.end_count + 1):
            rect = (x0 + (k - 1) * 34, y, 28, 30)
            drawn = k <= game.volcanoes
            pygame.draw.rect(self.screen, (200, 70, 30) if drawn else (40, 70, 96), rect,
                             border_radius=4)  # fmt: skip
            pygame.draw.rect(self.screen, HINT if k % 2 == 0 else DARK, rect, 2, border_radius=4)
            blit_centred(self.screen, f.render(str(k), 16, TEXT), L.centre(rect))
        note = _("yellow edge: eruption")
        self.screen.blit(f.render(note, 16, DIM), (x0 + game.end_count * 34 + 6, y + 9))

    def _draw_panel(self) -> None:
        table, game, f, screen = self.table, self.table.game, self.fonts, self.screen
        x, y, _w, _h = L.TURN_RECT
        pygame.draw.rect(screen, BOX, L.TURN_RECT, border_radius=8)
        if game.is_terminal():
            title, sub = _("Game over"), describe_result(game)
        else:
            who = game.to_move or ""
            bot = not table.seats[game.decider].human
            title = (_("{colour} (bot) decides") if bot else _("{colour} decides")).format(
                colour=colour(who).upper()
            )
            pygame.draw.circle(screen, PLAYER[who], (x + 20, y + 19), 11)
            pygame.draw.circle(screen, DARK, (x + 20, y + 19), 11, 2)
            sub = phase_prompt(game)
            sub = _("turn {turn}: {what}").format(turn=game.turn, what=sub)
        screen.blit(f.render(title, 28, TEXT, True), (x + 38, y + 7))
        for k, part in enumerate(_wrap(sub, 62)[:2]):
            screen.blit(f.render(part, 17, DIM), (x + 10, y + 33 + k * 14))
        for p in range(game.n):
            self._player_box(p)
        self._choices()
        legend = _("cards: filled, the gods card; outlined, the protection card")
        screen.blit(f.render(legend, 16, DIM), (L.PANEL_X, L.MESSAGE_RECT[1] - 18))
        free = [GODS[g] for g in range(4) if game.gods[g] < 0]
        if free:
            free_line = _("gods cards nobody holds: {gods}").format(gods=", ".join(free))
            screen.blit(f.render(free_line, 16, DIM), (L.PANEL_X, L.MESSAGE_RECT[1] - 34))
        x, y, _w, _h = L.MESSAGE_RECT
        pygame.draw.rect(screen, (18, 19, 24), L.MESSAGE_RECT, border_radius=8)
        lines = _wrap(table.message, 60) if table.message else table.log[-2:]
        size, step = 18, 20
        if len(lines) > 2:  # a long refusal: three smaller lines, so its ruling stays in view
            lines, size, step = _wrap(table.message, 70)[:3], 15, 15
        for k, part in enumerate(lines[-3:]):
            screen.blit(f.render(part, size, HINT if table.message else DIM),
                        (x + 8, y + 5 + k * step + (2 if size == 18 else 0)))  # fmt: skip

    def _player_box(self, p: int) -> None:
        game, f, screen = self.table.game, self.fonts, self.screen
        name = game.players[p]
        x, y, w, h = L.player_rect(p)
        mine = p == game.current and not game.is_terminal()
        pygame.draw.rect(screen, BOX, (x, y, w, h), border_radius=8)
        if mine:
            pygame.draw.rect(screen, PLAYER[name], (x, y, w, h), 3, border_radius=8)
        self._piece(p, (x + 16, y + 16))
        seat = self.table.seats[p]
        label = colour(name).capitalize() + ("" if seat.human else f" ({bot_name(seat.bot.name)})")
        screen.blit(f.render(label, 22, TEXT, True), (x + 32, y + 6))
        score = _("score {n}").format(n=game.scores()[p])
        sw = f.render(score, 20, TEXT, True).get_width()
        screen.blit(f.render(score, 20, HINT, True), (x + w - sw - 10, y + h - 24))
        # Cards: gods cards filled, protection cards outlined.
        cx = x + 32 + f.render(label, 22, TEXT, True).get_width() + 12
        for g in range(4):
            for kind, holder in (("gods", game.gods[g]), ("protection", game.prot[g])):
                if holder != p:
                    continue
                text = GODS[g]
                tw = f.render(text, 16, DARK, True).get_width() + 10
                rect = (cx, y + 6, tw, 18)
                if kind == "gods":
                    pygame.draw.rect(screen, GOD[GODS[g]], rect, border_radius=4)
                    blit_centred(screen, f.render(text, 16, DARK, True), L.centre(rect))
                else:
                    pygame.draw.rect(screen, GOD[GODS[g]], rect, 2, border_radius=4)
                    blit_centred(screen, f.render(text, 16, GOD[GODS[g]], True), L.centre(rect))
                cx += tw + 4
        # Temples.
        tx = x + 8
        screen.blit(f.render(_("temples"), 17, DIM), (tx, y + 34))
        tx += f.render(_("temples"), 17, DIM).get_width() + 8
        for g, god in enumerate(GODS):
            rect = (tx, y + 31, 74, 22)
            pygame.draw.rect(screen, GOD[god], rect, 2, border_radius=4)
            text = f"{god} {game.temples[p][g]}"
            blit_centred(screen, f.render(text, 17, TEXT, True), L.centre(rect))
            tx += 78
        held = game.hand_tiles(p)
        for k, code in enumerate(held[: L.HAND_SHOWN]):
            self._tile(code, L.hand_tile_rect(p, k), size=14)
        if len(held) > L.HAND_SHOWN:
            more = f"+{len(held) - L.HAND_SHOWN}"
            screen.blit(f.render(more, 18, TEXT), L.hand_tile_rect(p, L.HAND_SHOWN)[:2])
        if not held:
            screen.blit(f.render(_("no tiles held"), 16, DIM), (x + 8, y + 64))

    def _choices(self) -> None:
        table, f, screen = self.table, self.fonts, self.screen
        offered = table.offered()
        room = L.CHOICE_COLUMNS * L.CHOICE_ROWS
        if not offered:
            return
        title = (
            _("Decisions of your click")
            if table.choices
            else _("Legal decisions ({n}); or click the map").format(n=len(offered))
        )
        screen.blit(f.render(title, 19, TEXT, True), (L.PANEL_X, L.CHOICES_Y))
        for k, text in enumerate(offered[:room]):
            rect = L.choice_rect(k)
            pygame.draw.rect(screen, (52, 56, 66), rect, border_radius=6)
            size = 18
            while size > 12 and f.render(text, size, TEXT).get_width() > rect[2] - 8:
                size -= 1
            blit_centred(screen, f.render(text, size, TEXT), L.centre(rect))
        if len(offered) > room:
            more = _("{n} more: click an island, a current or a tile").format(
                n=len(offered) - room)  # fmt: skip
            _x, y, _w, h = L.choice_rect(room - 1)
            screen.blit(f.render(more, 16, DIM), (L.PANEL_X, y + h + 3))
