"""The window of any game without a drawing of its own: its position as text (the
description's ``render``, for the person whose turn it is, or the only person at the
table) and its legal decisions as buttons, a page of them at a time; bots play their
seats between frames. ``haleakala sim --game NAME`` opens it when the game's description
names no ``window``.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from haleakala.core.errors import UsageError
from haleakala.gameapi import GameState, describe, game_of, new_game
from haleakala.i18n import _

from ..window import WindowShell, blit_centred
from .text import colour_name, position_text, result_sentence

if TYPE_CHECKING:
    from haleakala.ai import Bot

SIZE = (1100, 760)
MARGIN = 16
BUTTON_W, BUTTON_H, GAP = 200, 34, 8
COLUMNS = 5
ROWS = 4
PER_PAGE = COLUMNS * ROWS
BACKGROUND = (24, 26, 32)
TEXT = (230, 230, 230)
DIM = (150, 156, 168)
BUTTON = (58, 66, 84)
BUTTON_EDGE = (120, 132, 160)


@dataclass(frozen=True)
class Button:
    rect: pygame.Rect
    action: str  # "decide", "previous", "next"
    code: int = -1


class GenericWindow(WindowShell):
    """One game in a window: text above, legal decisions as buttons below."""

    def __init__(
        self,
        game: GameState,
        seats: Sequence[Bot | None],
        screen: pygame.Surface | None = None,
    ) -> None:
        title = describe(game_of(game)).title
        super().__init__(screen, caption=f"Haleakala Companion — {title}", size=SIZE,
                         shots=f"{game_of(game)}-%Y%m%d-%H%M%S.png")  # fmt: skip
        self.game = game
        self.seats = list(seats)
        self.people = [p for p, seat in enumerate(self.seats) if seat is None]
        self.page = 0
        self.message = ""
        self.buttons: list[Button] = []
        self.mono = _mono_font(17)

    @property
    def viewer(self) -> int | None:
        """Whose eyes are on the screen: the only person, else the person to decide."""
        if len(self.people) == 1:
            return self.people[0]
        if self.game.decider in self.people and not self.game.is_terminal():
            return self.game.decider
        return None

    def update(self) -> None:
        """A bot whose turn it is decides (one decision a frame)."""
        game = self.game
        if game.is_terminal():
            return
        bot = self.seats[game.decider]
        if bot is not None:
            game.apply(bot.decide(game))
            self.page = 0

    def decide(self, code: int) -> None:
        game = self.game
        self.message = f"{colour_name(game.to_move or '')}: {game.format(code)}"
        game.apply(code)
        self.page = 0

    def click(self, pos: tuple[int, int]) -> None:
        for button in self.buttons:
            if button.rect.collidepoint(pos):
                if button.action == "decide":
                    self.decide(button.code)
                elif button.action == "next":
                    self.page += 1
                else:
                    self.page = max(0, self.page - 1)
                return

    def draw(self) -> Any:
        game = self.game
        signature = (len(game.history), self.page, self.message, self.viewer)
        if signature == self._signature:
            return False
        self._signature = signature
        screen = self.screen
        screen.fill(BACKGROUND)
        title = describe(game_of(game)).title
        head = f"{title} · " + (
            result_sentence(game)
            if game.is_terminal()
            else _("{colour} to decide").format(colour=colour_name(game.to_move or ""))
        )
        screen.blit(self.fonts.render(head, 26, TEXT, bold=True), (MARGIN, MARGIN))
        if self.message:
            screen.blit(self.fonts.render(self.message, 18, DIM), (MARGIN, MARGIN + 32))
        y = MARGIN + 60
        bottom = SIZE[1] - MARGIN - ROWS * (BUTTON_H + GAP) - 20
        for line in position_text(game, self.viewer).split("\n"):
            if y > bottom - 18:
                break
            screen.blit(self.mono.render(line, True, TEXT), (MARGIN, y))
            y += 19
        self.buttons = self._draw_buttons(bottom + 10)
        return True

    def _draw_buttons(self, top: int) -> list[Button]:
        game = self.game
        if game.is_terminal() or self.seats[game.decider] is not None:
            return []
        legal = game.legal_actions()
        pages = max(1, -(-len(legal) // PER_PAGE))
        self.page = min(self.page, pages - 1)
        shown = legal[self.page * PER_PAGE : (self.page + 1) * PER_PAGE]
        buttons = []
        for k, code in enumerate(shown):
            row, col = divmod(k, COLUMNS)
            rect = pygame.Rect(MARGIN + col * (BUTTON_W + GAP), top + row * (BUTTON_H + GAP),
                               BUTTON_W, BUTTON_H)  # fmt: skip
            self._button(rect, game.format(code))
            buttons.append(Button(rect, "decide", code))
        if pages > 1:
            x = SIZE[0] - MARGIN - 2 * (60 + GAP)
            y = top - 30
            for action, label in (("previous", "◀"), ("next", "▶")):
                rect = pygame.Rect(x, y, 60, 26)
                self._button(rect, label)
                buttons.append(Button(rect, action))
                x += 60 + GAP
            count = f"{self.page + 1}/{pages}"
            self.screen.blit(self.fonts.render(count, 18, DIM), (x - 3 * (60 + GAP), y + 4))
        return buttons

    def _button(self, rect: pygame.Rect, label: str) -> None:
        pygame.draw.rect(self.screen, BUTTON, rect, border_radius=6)
        pygame.draw.rect(self.screen, BUTTON_EDGE, rect, width=1, border_radius=6)
        blit_centred(self.screen, self.fonts.render(label, 18, TEXT), rect.center)


def _mono_font(size: int) -> pygame.font.Font:
    """A fixed-width font where the system has one (a text rendering lines up in columns),
    else pygame's own."""
    pygame.font.init()
    path = pygame.font.match_font("dejavusansmono,liberationmono,notomono,monospace")
    return pygame.font.Font(path, size)


def seats_of(args: argparse.Namespace, game: GameState) -> list[Bot | None]:
    """``--colour`` (the person's seat, default the first) and ``--opponent`` (a bot of the
    game, or ``human``: every seat a person) to one entry per seat."""
    from haleakala.ai import make_bot

    name = game_of(game)
    description = describe(name)
    colour = getattr(args, "colour", None) or game.players[0]
    if colour not in game.players:
        raise UsageError(f"--colour {colour}: {name}'s seats are {', '.join(game.players)}")
    opponent = getattr(args, "opponent", None) or description.default_opponent
    if opponent != "human" and opponent not in description.bots:
        raise UsageError(f"--opponent {opponent}: choose human or one of "
                         f"{', '.join(description.bots)}")  # fmt: skip
    seats: list[Bot | None] = []
    for p, c in enumerate(game.players):
        if c == colour or opponent == "human":
            seats.append(None)
        else:
            seats.append(make_bot(opponent, seed=game.seed * 2 + p, game=name))
    return seats


def stand_in(game: GameState, decisions: int) -> None:
    """``--decisions N``: the default opponent plays N decisions for every seat first."""
    from haleakala.ai import make_bot

    name = game_of(game)
    bot = make_bot(describe(name).default_opponent, seed=game.seed, game=name)
    for _n in range(decisions):
        if game.is_terminal():
            break
        game.apply(bot.decide(game))


def run(args: argparse.Namespace, *, offscreen: bool) -> int:
    """The window hook of a game without its own (``GameDescription.window`` empty)."""
    name = args.game
    if getattr(args, "decisions", 0) < 0:
        raise UsageError(f"--decisions must be 0 or more, not {args.decisions}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        game = new_game(name, seed=seed, players=getattr(args, "players", None))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    seats = seats_of(args, game)
    stand_in(game, getattr(args, "decisions", 0) or 0)
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    try:
        screen = pygame.display.set_mode(SIZE)
        window = GenericWindow(game, seats, screen=screen)
        if args.screenshot:
            window.step([])
            window.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
            return 0
        live = args.serve_live() if getattr(args, "web", None) else None
        if live is None:
            return window.run(seconds=getattr(args, "seconds", None))
        # A copy each time: the live view tells the log from the previous position it holds.
        window.after_step = lambda: live.publish(window.game.clone())
        try:
            return window.run(seconds=getattr(args, "seconds", None))
        finally:
            live.close()
    finally:
        pygame.display.quit()
