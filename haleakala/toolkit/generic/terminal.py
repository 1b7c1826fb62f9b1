"""The terminal game of any game without a session of its own: its position as text (the
description's ``render``, for the person at the keyboard), its legal decisions as typed
notation, the shared commands of ``TerminalSession`` and a result sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from haleakala.core.errors import SaveError
from haleakala.core.jsonread import printable
from haleakala.gameapi import GameState, describe, game_of, load_game
from haleakala.i18n import N_, _
from haleakala.i18n.terms import bot_name
from haleakala.toolkit.terminal import TerminalSession, obvious_hint
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, read_text

from .text import colour_name, introduction, position_text, result_sentence

if TYPE_CHECKING:
    from haleakala.ai import Bot

HELP = N_("""\
Decisions: type one as legal lists it (its notation).
Commands:
  board      show the position again    legal   every legal decision
  hint       what a bot would do here
  undo       take back your last decision (one person against bots only)
  save FILE  save the game              load FILE  continue a saved game
  help       this text                  quit    leave the game""")


class GenericSession(TerminalSession[GameState]):
    """One game at one terminal, drawn by its ``render`` hook for whoever is looking."""

    HELP = HELP
    TYPE_A_DECISION = N_("Type a decision (as legal lists it) or help.")
    LIST_AT_MOST = 24

    def render(self) -> str:
        return position_text(self.game, self.viewer)

    def name_of(self, colour: str) -> str:
        return colour_name(colour)

    def introduction(self) -> str:
        return introduction(self.game, [self.seat_name(p) for p in range(len(self.seats))])

    def result_text(self) -> str | None:
        return result_sentence(self.game)

    def read_save(self, name: str) -> GameState:
        text = read_text(name, MAX_SAVE_BYTES)
        try:
            return load_game(game_of(self.game), text)
        except ValueError as exc:
            raise SaveError(str(exc)) from None

    def refuse_save(self, game: GameState) -> str | None:
        if len(game.players) != len(self.game.players):
            return _("it is a game of {n} players").format(n=len(game.players))
        return None

    def loaded(self, name: str) -> None:
        self.say(printable(_("loaded {name}: seed {seed}, decision {n}").format(
            name=name, seed=self.game.seed, n=len(self.game.history))), wrap=False)  # fmt: skip
        self.draw()

    def hint(self) -> None:
        self.say(hint_line(self.game))


def hint_line(game: GameState) -> str:
    """What the game's default opponent would decide for the player to move (seeded by the
    decisions made, so a position always gets the same hint)."""
    from haleakala.ai import make_bot

    obvious = obvious_hint(game, colour_name)
    if obvious is not None:
        return obvious
    name = game_of(game)
    bot = make_bot(describe(name).default_opponent, seed=len(game.history), game=name)
    choice = bot.decide(game.clone())
    return _("hint for {colour}: {decision} (the {bot} bot's choice)").format(
        colour=colour_name(game.to_move or ""), decision=game.format(choice), bot=bot_name(bot.name)
    )


def open_session(
    game: GameState,
    seats: Sequence[Bot | None],
    *,
    out: TextIO,
    tty: bool,
    delay: float | None,
    read: Callable[[str], str] | None = None,
) -> GenericSession:
    """The terminal hook of a game without its own (``GameDescription.terminal`` empty)."""
    return GenericSession(game, seats, read=read, out=out)
