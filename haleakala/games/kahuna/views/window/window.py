"""The Kahuna window (pygame): the board from above, the display, the pile, the hand.

It draws, it never decides: everything shown comes from ``KahunaTable.view()`` (the public
table plus the viewer's hand only, K31) and every click goes to the table, which turns it
into a decision of the game's notation and refuses it, with the reason, when the rules do.

Mouse: click a card of your hand, then a free line at its island to lay a bridge; click two
cards, then the opposing bridge they cut; click the pile or a display card to draw (that
ends the turn); End ends it without drawing; Discard puts the selected cards face down.
The lines the selection can use are highlighted, so a player sees what a card can do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pygame

from haleakala import palette
from haleakala.games.kahuna.words import colour
from haleakala.i18n import _
from haleakala.toolkit.window import TableWindow, blit_centred
from haleakala.toolkit.window import wrap as _wrap

from . import layout as L
from .table import KahunaTable
from .view import View

SEA = (28, 86, 128)
SEA_DEEP = (20, 62, 98)
SAND = (226, 206, 150)
GRASS = (104, 158, 84)
PANEL = (26, 28, 34)
PANEL_EDGE = (70, 74, 86)
TEXT = (226, 228, 232)
DIM = (150, 156, 168)
FREE_LINE = (200, 216, 226)
HINT = (255, 214, 60)
RECENT = (236, 130, 40)
CUT_HINT = (255, 84, 60)


class _Stones(Mapping[int, tuple[int, int, int]]):
    """The two players' colours (white 0, black 1) from the palette's Kahuna roles."""

    def __getitem__(self, player: int) -> tuple[int, int, int]:
        return palette.screen(("kahuna.white", "kahuna.black")[player])

    def __iter__(self) -> Iterator[int]:
        return iter((0, 1))

    def __len__(self) -> int:
        return 2


PLAYER: Mapping[int, tuple[int, int, int]] = _Stones()
PLAYER_EDGE = {0: (60, 60, 66), 1: (220, 220, 220)}
PLAYER_TEXT = {0: (20, 20, 24), 1: (240, 240, 240)}
CARD_FACE = (250, 246, 232)
CARD_BACK = (120, 60, 40)
BUTTON = (52, 56, 66)
BUTTON_HOT = (70, 110, 70)


class KahunaWindow(TableWindow):
    """One pygame window over one ``KahunaTable`` (its loop and keys: ``WindowShell``)."""

    table: KahunaTable

    def __init__(self, table: KahunaTable, *, screen: pygame.Surface | None = None) -> None:
        super().__init__(
            table,
            screen,
            caption=_("Haleakala Companion — Kahuna"),
            size=(L.WIDTH, L.HEIGHT),
            shots="kahuna-%Y%m%d-%H%M%S.png",
        )

    # ------------------------------------------------------------------ input

    def key(self, event: Any) -> None:
        """e ends the turn, d discards the selection, 1-5 pick a card of the hand."""
        table = self.table
        if event.key == pygame.K_e:
            table.click_end()
        elif event.key == pygame.K_d:
            table.click_discard()
        elif pygame.K_1 <= event.key <= pygame.K_5:
            table.click_card(event.key - pygame.K_1)

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at ``pos``: whatever lies there."""
        table = self.table
        if table.handover:
            table.dismiss_handover()
            return
        view = table.view()
        for i in range(len(view.hand)):
            if L.inside(pos, L.hand_rect(i)):
                table.click_card(i)
                return
        for slot in range(1, len(view.display) + 1):
            if L.inside(pos, L.display_rect(slot)):
                table.click_display(slot)
                return
        if L.inside(pos, L.pile_rect()):
            table.click_pile()
            return
        if L.inside(pos, L.END_RECT):
            if table.game.is_terminal():
                table.new_game()
            else:
                table.click_end()
            return
        if L.inside(pos, L.DISCARD_RECT):
            table.click_discard()
            return
        if L.inside(pos, L.CLEAR_RECT):
            table.clear()
            return
        line = L.line_at(pos, list(view.lines))
        if line is not None:
            table.click_line(line)
            return
        island = L.island_at(pos)
        if island is not None:
            table.message = _(
                "{island}: click a line (between two islands) to lay or cut a bridge there."
            ).format(island=island)
            table.changes += 1

    # ------------------------------------------------------------------ drawing

    def highlights(self, view: View) -> tuple[set[str], set[str]]:
        """(lines the selected card can take, bridges the selected pair can cut), from the
        legal decisions, so the hint never promises what the rules refuse."""
        table = self.table
        if table.waiting_for is None:
            return set(), set()
        cards = table.selected_cards()
        free: set[str] = set()
        cuts: set[str] = set()
        legal = table.game.legal_decisions()
        if len(cards) == 1:
            prefix = f"play {cards[0]}>"
            for text in legal:
                if text.startswith(prefix):
                    other = text[len(prefix) :]
                    free.add("-".join(sorted((cards[0], other))))
        elif len(cards) == 2:
            suffix = " with " + "+".join(sorted(cards))
            for text in legal:
                if text.startswith("cut ") and text.endswith(suffix):
                    cuts.add(text[4 : -len(suffix)])
        return free, cuts

    def draw(self) -> bool:
        """Redraw if anything changed; whether it did."""
        table = self.table
        signature = (table.changes, table.thinking, len(table.game.history))
        if signature == self._signature:
            return False
        self._signature = signature
        view = table.view()
        screen = self.screen
        screen.fill(PANEL)
        self._draw_board(screen, view)
        self._draw_panel(screen, view)
        if table.handover:
            self._draw_handover(screen, view)
        return True

    def _draw_board(self, screen: pygame.Surface, view: View) -> None:
        pygame.draw.rect(screen, SEA, L.BOARD_RECT)
        pygame.draw.rect(screen, SEA_DEEP, L.BOARD_RECT, 6)
        free_hint, cut_hint = self.highlights(view)
        recent = set(self.table.last_turn_lines) | set(self.table.turn_lines)
        for line in view.lines:
            a, b = L.line_ends(line)
            if line in recent:
                pygame.draw.line(screen, RECENT, a, b, 21)
            owner = view.bridges.get(line)
            if owner is None:
                colour = HINT if line in free_hint else FREE_LINE
                self._dotted(screen, colour, a, b, 4 if line in free_hint else 2)
            else:
                if line in cut_hint:
                    pygame.draw.line(screen, CUT_HINT, a, b, 17)
                pygame.draw.line(screen, PLAYER_EDGE[owner], a, b, 13)
                pygame.draw.line(screen, PLAYER[owner], a, b, 9)
        for island, (cx, cy) in L.ISLANDS.items():
            pygame.draw.circle(screen, SAND, (cx, cy), L.ISLAND_RADIUS)
            pygame.draw.circle(screen, GRASS, (cx, cy), L.ISLAND_RADIUS - 7)
            blit_centred(screen, self.fonts.render(island, 22, (16, 30, 12), True), (cx, cy - 14))
            need = view.majority_need.get(island, 0)
            lines = sum(1 for line in view.lines if island in line.split("-"))
            owner = view.stones.get(island)
            if owner is None:
                label = _("need {need}/{lines}").format(need=need, lines=lines)
                blit_centred(screen, self.fonts.render(label, 17, (28, 44, 24)), (cx, cy + 12))
            else:
                pos = (cx, cy + 13)
                pygame.draw.circle(screen, (10, 10, 10), (pos[0] + 1, pos[1] + 2), L.STONE_RADIUS)
                pygame.draw.circle(screen, PLAYER[owner], pos, L.STONE_RADIUS)
                pygame.draw.circle(screen, PLAYER_EDGE[owner], pos, L.STONE_RADIUS, 2)
                blit_centred(screen, self.fonts.render("K", 18, PLAYER_TEXT[owner], True), pos)
        self._legend(screen)

    def _legend(self, screen: pygame.Surface) -> None:
        """What the marks on the board mean, along its bottom edge."""
        f = self.fonts
        x, y = 12, 784
        for owner, label in ((0, _("white bridge")), (1, _("black bridge"))):
            pygame.draw.line(screen, PLAYER_EDGE[owner], (x, y), (x + 28, y), 9)
            pygame.draw.line(screen, PLAYER[owner], (x, y), (x + 28, y), 5)
            screen.blit(f.render(label, 17, TEXT), (x + 34, y - 6))
            x += 34 + f.render(label, 17, TEXT).get_width() + 16
        self._dotted(screen, FREE_LINE, (x, y), (x + 28, y), 2)
        label = _("free line")
        screen.blit(f.render(label, 17, TEXT), (x + 34, y - 6))
        x += 34 + f.render(label, 17, TEXT).get_width() + 16
        pygame.draw.line(screen, RECENT, (x, y), (x + 28, y), 9)
        label = _("just played")
        screen.blit(f.render(label, 17, TEXT), (x + 34, y - 6))
        x += 34 + f.render(label, 17, TEXT).get_width() + 16
        note = _("need 3/5: bridges to win the island · K: Kahuna stone")
        size = 17  # smaller type rather than past the board's edge (French is longer)
        while size > 12 and x + f.render(note, size, TEXT).get_width() > L.BOARD_RECT[2] - 10:
            size -= 1
        screen.blit(f.render(note, size, TEXT), (x, y - 6))

    def _dotted(self, screen, colour, a, b, width: int) -> None:
        (x1, y1), (x2, y2) = a, b
        length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        dots = max(2, int(length / 12))
        for i in range(dots + 1):
            t = i / dots
            pygame.draw.circle(
                screen, colour, (round(x1 + t * (x2 - x1)), round(y1 + t * (y2 - y1))), width
            )

    def _player_chip(self, screen, player: int, pos: tuple[int, int], radius: int = 9) -> None:
        pygame.draw.circle(screen, PLAYER[player], pos, radius)
        pygame.draw.circle(screen, PLAYER_EDGE[player], pos, radius, 2)

    def _draw_panel(self, screen: pygame.Surface, view: View) -> None:
        table = self.table
        f = self.fonts
        # Whose turn.
        x, y = L.TURN_RECT[:2]
        pygame.draw.rect(screen, (36, 38, 46), L.TURN_RECT, border_radius=8)
        if view.decider is None:
            title, sub = _("Game over"), view.result
        else:
            who = colour(view.players[view.decider]).upper()
            bot = not table.seats[view.decider].human
            if bot and table.thinking:
                title = _("{colour} (bot) is thinking...").format(colour=who)
            elif bot:
                title = _("{colour} (bot) to play").format(colour=who)
            else:
                title = _("{colour} to play").format(colour=who)
            self._player_chip(screen, view.decider, (x + 22, y + 19), 11)
            parts = [_("round {round} of 3").format(round=view.round)]
            if view.last_turns:
                parts.append(_("last turns, nothing left to draw"))
            if view.must_draw:
                parts.append(_("must draw this turn (the opponent declined)"))
            sub = " · ".join(parts)
        screen.blit(f.render(title, 28, TEXT, True), (x + 40, y + 8))
        screen.blit(f.render(sub, 18, DIM), (x + 12, y + 37))
        # Scores.
        x, y, _w, h = L.SCORES_RECT
        pygame.draw.rect(screen, (36, 38, 46), L.SCORES_RECT, border_radius=8)
        columns = ((_("R1"), 110), (_("R2"), 150), (_("R3"), 190), (_("total"), 240),
                   (_("stones"), 300), (_("bridges"), 362), (_("cards"), 420))  # fmt: skip
        for label, cx in columns:
            blit_centred(screen, f.render(label, 17, DIM), (x + cx, y + 16))
        for p in (0, 1):
            ry = y + 48 + p * 34
            self._player_chip(screen, p, (x + 20, ry))
            name = colour(view.players[p])
            screen.blit(f.render(name[:1].upper() + name[1:], 22, TEXT), (x + 36, ry - 8))
            for r in range(3):
                text = str(view.points[r][p]) if r < len(view.points) else "-"
                blit_centred(screen, f.render(text, 22, TEXT), (x + columns[r][1], ry))
            blit_centred(screen, f.render(str(view.totals[p]), 24, TEXT, True), (x + 240, ry))
            on_board = sum(1 for o in view.stones.values() if o == p)
            blit_centred(screen, f.render(str(on_board), 22, TEXT), (x + 300, ry))
            bridges = sum(1 for o in view.bridges.values() if o == p)
            blit_centred(screen, f.render(str(bridges), 22, TEXT), (x + 362, ry))
            blit_centred(screen, f.render(str(view.hand_sizes[p]), 22, TEXT), (x + 420, ry))
        screen.blit(
            f.render(_("points per scoring; stones, bridges on the board; cards in hand"), 15, DIM),
            (x + 12, y + h - 18),
        )
        # The pile and the display.
        waiting = table.waiting_for is not None
        screen.blit(
            f.render(
                _("Draw one card (ends the turn): click the pile or a face-up card"), 18, TEXT
            ),
            (L.PILE_X, L.DISPLAY_Y - 20),
        )
        px, py, pw, ph = L.pile_rect()
        if view.pile:
            for k in range(min(3, view.pile) - 1, -1, -1):
                pygame.draw.rect(
                    screen, (60, 30, 20), (px + 2 * k, py - 2 * k, pw, ph), border_radius=8
                )
            pygame.draw.rect(screen, CARD_BACK, (px, py, pw, ph), border_radius=8)
            pygame.draw.rect(
                screen, (230, 190, 120), (px + 6, py + 6, pw - 12, ph - 12), 2, border_radius=6
            )
            blit_centred(
                screen, f.render("KAHUNA", 20, (240, 210, 150), True), (px + pw / 2, py + 40)
            )
        else:
            pygame.draw.rect(screen, (50, 52, 60), (px, py, pw, ph), 2, border_radius=8)
        pile = _("pile: {n}").format(n=view.pile)
        blit_centred(screen, f.render(pile, 20, TEXT), (px + pw / 2, py + ph - 26))
        blit_centred(
            screen,
            f.render(_("discards: {n}").format(n=view.discard_count), 16, DIM),
            (px + pw / 2, py + ph + 10),
        )
        for slot, card in enumerate(view.display, start=1):
            rect = L.display_rect(slot)
            if card is None:
                pygame.draw.rect(screen, (50, 52, 60), rect, 2, border_radius=8)
                blit_centred(screen, f.render(_("empty"), 18, DIM), L.centre(rect))
            else:
                self._card(screen, card, rect, view)
            blit_centred(
                screen,
                f.render(f"{slot}", 18, DIM),
                (rect[0] + rect[2] / 2, rect[1] + rect[3] + 10),
            )
        # The hand.
        hy = L.HAND_Y - 32
        viewer = view.viewer
        if viewer is None:
            label = _("Hands are hidden")
        else:
            label = _("Your hand ({colour}): {n} of 5").format(
                colour=colour(view.players[viewer]), n=len(view.hand)
            )
            if len(view.hand) >= 5:
                label = _("{label} - full: play or discard to draw").format(label=label)
        screen.blit(f.render(label, 20, TEXT), (L.HAND_X[0], hy))
        for i in range(5):
            rect = L.hand_rect(i)
            if i < len(view.hand):
                lifted = i in table.selected
                face = (rect[0], rect[1] - (8 if lifted else 0), rect[2], rect[3])
                self._card(screen, view.hand[i], face, view, selected=lifted)
            else:
                pygame.draw.rect(screen, (44, 46, 54), rect, 1, border_radius=8)
        # Buttons.
        for rect, label, hot in (
            (L.END_RECT, _("New game"), True)
            if view.decider is None
            else (L.END_RECT, _("End turn"), waiting and "end" in self._legal_texts()),
            (L.DISCARD_RECT, _("Discard"), waiting and bool(table.selected)),
            (L.CLEAR_RECT, _("Clear"), bool(table.selected)),
        ):
            pygame.draw.rect(screen, BUTTON_HOT if hot else BUTTON, rect, border_radius=8)
            blit_centred(screen, f.render(label, 22, TEXT if hot else DIM, True), L.centre(rect))
        # Message and log.
        x, y, _w, h = L.MESSAGE_RECT
        pygame.draw.rect(screen, (20, 21, 26), L.MESSAGE_RECT, border_radius=8)
        line_y = y + 8
        if table.message:
            for part in _wrap(table.message, 58)[:3]:
                screen.blit(f.render(part, 19, HINT), (x + 10, line_y))
                line_y += 19
        else:
            tip = self._tip(view)
            for part in _wrap(tip, 58)[:3]:
                screen.blit(f.render(part, 19, DIM), (x + 10, line_y))
                line_y += 19
        line_y += 6
        room = max(0, (y + h - line_y) // 18)
        for entry in table.log[-room:] if room else []:
            who, sep, decision = entry.partition(": ")
            shown = _("{label}:").format(label=colour(who)) + f" {decision}" if sep else entry
            screen.blit(f.render(shown, 18, TEXT), (x + 10, line_y))
            line_y += 18

    def _legal_texts(self) -> list[str]:
        game = self.table.game
        return [] if game.is_terminal() else game.legal_decisions()

    def _tip(self, view: View) -> str:
        if view.decider is None:
            return view.result
        if self.table.waiting_for is None:
            return ""
        if view.phase == "open":
            return _(
                "Click a card, then a free line at its island to lay a bridge; two cards, "
                "then an opposing bridge to cut it. Or draw / End turn."
            )
        return _("Play more cards, or draw a card (pile or display), or End turn.")

    def _card(self, screen, island: str, rect, view: View, selected: bool = False) -> None:
        """An island card as printed: the name, a small map with the island in red, and
        the number of lines (what the card's strokes show)."""
        x, y, w, h = rect
        pygame.draw.rect(screen, CARD_FACE, rect, border_radius=8)
        pygame.draw.rect(
            screen,
            HINT if selected else (120, 100, 80),
            rect,
            4 if selected else 2,
            border_radius=8,
        )
        blit_centred(screen, self.fonts.render(island, 24, (30, 30, 30), True), (x + w / 2, y + 16))
        # The small map: the board scaled into the card.
        mx, my, mw, mh = x + 8, y + 30, w - 16, h - 56
        pygame.draw.rect(screen, (200, 222, 236), (mx, my, mw, mh), border_radius=4)
        sx, sy = mw / 800, mh / 800
        for line in view.lines:
            a, b = line.split("-")
            (ax, ay), (bx, by) = L.ISLANDS[a], L.ISLANDS[b]
            pygame.draw.line(
                screen,
                (150, 170, 180),
                (mx + ax * sx, my + ay * sy),
                (mx + bx * sx, my + by * sy),
                1,
            )
        for name, (ix, iy) in L.ISLANDS.items():
            here = name == island
            pygame.draw.circle(
                screen,
                (210, 40, 30) if here else (120, 140, 110),
                (round(mx + ix * sx), round(my + iy * sy)),
                5 if here else 3,
            )
        lines = sum(1 for line in view.lines if island in line.split("-"))
        blit_centred(
            screen, self.fonts.render("|" * lines, 22, (60, 60, 60), True), (x + w / 2, y + h - 13)
        )

    def _draw_handover(self, screen: pygame.Surface, view: View) -> None:
        shade = pygame.Surface((L.WIDTH, L.HEIGHT), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 200))
        screen.blit(shade, (0, 0))
        box = pygame.Rect(0, 0, 640, 220)
        box.center = (L.WIDTH // 2, L.HEIGHT // 2)
        pygame.draw.rect(screen, (36, 38, 46), box, border_radius=12)
        pygame.draw.rect(screen, PANEL_EDGE, box, 2, border_radius=12)
        nxt = self.table.game.decider
        other = 1 - nxt
        f = self.fonts
        blit_centred(
            screen,
            f.render(
                _("Hand over to {colour}").format(colour=colour(view.players[nxt]).upper()),
                44,
                TEXT,
                True,
            ),
            (box.centerx, box.y + 50),
        )
        blit_centred(
            screen,
            f.render(
                _("{colour}: look away now.").format(colour=colour(view.players[other]).upper()),
                26,
                DIM,
            ),
            (box.centerx, box.y + 105),
        )
        blit_centred(
            screen,
            f.render(
                _("{colour}: click anywhere to see your hand.").format(
                    colour=colour(view.players[nxt]).upper()
                ),
                26,
                HINT,
            ),
            (box.centerx, box.y + 150),
        )
        last = self.table.log[-1] if self.table.log else ""
        if last:
            who, _sep, decision = last.partition(": ")
            text = _("last decision - {colour}: {decision}").format(
                colour=colour(who), decision=decision
            )
            blit_centred(screen, f.render(text, 20, DIM), (box.centerx, box.y + 190))
