"""Kanaloa at the terminal: the map as text in 80 columns, and a hot-seat game for up to
four people and bots.

Its session is a subclass of the one terminal session (``terminal.loop``): the loop and
the shared commands are there; here are the hooks (``render`` draws the state,
``refuse`` says why a typed line is no decision, ``legal_lines`` lists the legal ones).

Kanaloa hides only the order of the bag (N12), so the screen is the same for every player:
the "pass the device" screen between two people only says whose decision it is and waits
for Enter; it clears nothing, because nothing on the screen is secret.

Input and output are injected (``read(prompt)`` raising EOFError at the end, and a text
stream) so tests drive a whole game with a script.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from haleakala.core.jsonread import printable
from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.refusals import shown
from haleakala.games.kanaloa.views.board import (  # noqa: F401  (re-exported for callers)
    PHASE_PROMPTS,
    WIDTH,
    describe_events,
    describe_result,
    island_lines,
    map_lines,
    phase_prompt,
    render,
)
from haleakala.games.kanaloa.words import colour
from haleakala.i18n import N_, _
from haleakala.i18n import render as say_words
from haleakala.i18n.terms import bot_name
from haleakala.toolkit.terminal import TerminalSession, counted_legal, legal_in_lines, obvious_hint
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, read_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from haleakala.ai import Bot

LIST_AT_MOST = 24
"""Longer legal lists (the fish of the start phase: up to 112) are counted, not printed,
until the player asks with ``legal``: the map stays on the screen."""

HELP = N_("""\
Decisions (notation; initials and lower case are fine: move h>k):
  fish HONU>KAI white  place a fish at the start: white or your colour (with two
                       players the neutral fish first: green only)
  start HONU           place your first piece
  volcano PALI         place the volcano (two players: on a sea, volcano A+B+C)
  move HONU>KAI        move your piece over the fish from HONU to KAI
  remove HONU          take one of your two pieces off the map
  take Ku4             take a tile from the island you arrived on
  sacrifice Pele5 to Pele, add Kane3, done
                       offer tiles to a god (they show the god, or Kane)
  rob yellow Pele5     the Ku holder takes a tile from another player
  whiten HONU>KAI      a blocked piece turns another colour's fish white
  dolphin HONU         a blocked piece calls the Dolphin (then land KAI, give Kane3)
  swap HONU:Kane3 KAI:Ku4, reverse HONU-KAI, flip HONU-KAI, place NALU, end
                       the gods cards' abilities (Lono, Kanaloa, Lono)
  allow, forbid        let or stop a Kanaloa change of your fish (four players)
Commands:
  map        draw the map again         legal   every legal decision
  hint       what the greedy bot would do here
  undo       take back your last decision (one person against bots only)
  save FILE  save the game              load FILE  continue a saved game
  help       this text                  quit    leave the game""")


def parse(game: Game, text: str) -> int:
    """A typed decision (initials and lower case allowed) as its code; ``ValueError`` with
    a sentence when it is not one (the notation's own message)."""
    return game.parse(text)


def legal_lines(game: Game, width: int = WIDTH) -> list[str]:
    """Every legal decision, grouped by its first word, in lines of at most ``width``."""
    groups: dict[str, list[str]] = {}
    for text in game.legal_decisions():
        groups.setdefault(text.split(" ")[0], []).append(text)
    head = "  " + _("legal:")
    return legal_in_lines(groups.values(), head=head, hang=" " * len(head), width=width)


def compact_legal(game: Game) -> str:
    """The legal decisions counted by their first word, in the order met."""
    return counted_legal(game.legal_decisions())


# -- the conversation -------------------------------------------------------------------


class KanaloaTerminalGame(TerminalSession[Game]):
    """One Kanaloa game at one terminal; ``seats[p]`` is None for a person, else a bot.
    The loop and the shared commands are ``TerminalSession``'s; the map is public (N12),
    so the "pass the device" screen clears nothing."""

    HELP = HELP
    TYPE_A_DECISION = N_("Type a decision (like move HONU>KAI) or help.")
    BOARD_WORDS = ("map", "board")
    LIST_AT_MOST = LIST_AT_MOST

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        clear: bool = True,
    ) -> None:
        super().__init__(game, seats, read=read, out=out)
        self.clear = clear  # unused: nothing on the screen is secret (N12)

    def render(self) -> str:
        return render(self.game)

    def name_of(self, colour_: str) -> str:
        return colour(colour_)

    def introduction(self) -> str:
        g = self.game
        seats = "; ".join(
            _("{colour} is {seat}").format(colour=colour(c), seat=self.seat_name(p))
            for p, c in enumerate(g.players)
        )
        return _("Kanaloa, seed {seed}: {seats}.").format(seed=g.seed, seats=seats)

    def finish(self) -> None:
        self.draw()
        result = describe_result(self.game)
        self.say(result)
        self.speak("result", result)

    def describe(self, events: Any, viewer: int | None) -> list[str]:
        return describe_events(self.game, events)

    def show_turn(self) -> bool:
        game = self.game
        phase = phase_prompt(game)
        self.say(_("{colour}: {phase}.").format(colour=colour(game.to_move or ""), phase=phase))
        self.list_legal()
        return True

    def legal_lines(self) -> list[str]:
        return legal_lines(self.game)

    def hint(self) -> None:
        self.say(hint_line(self.game))

    def refuse(self, line: str) -> str | None:
        """The rules' sentence, which names its ruling."""
        game = self.game
        refused = game.refusal(line)
        return None if refused is None else say_words(shown(refused))

    def decided(self, decision: int, before: Any, mover: int) -> None:
        game = self.game
        if game.decider != mover or game.turn != before.turn:
            self.draw()

    def read_save(self, name: str) -> Game:
        return Game.from_json(read_text(name, MAX_SAVE_BYTES))

    def refuse_save(self, game: Game) -> str | None:
        if game.n != self.game.n:
            return _("it is a game of {n} players").format(n=game.n)
        return None

    def loaded(self, name: str) -> None:
        game = self.game
        self.say(printable(_("loaded {name}: seed {seed}, turn {turn}").format(
            name=name, seed=game.seed, turn=game.turn)), wrap=False)  # fmt: skip
        self.draw()


def hint_line(game: Game) -> str:
    """What a bot would decide for the player to move: the search bot when the game has
    one, else the greedy bot; seeded by the number of decisions made, so one position
    always gets the same hint."""
    from haleakala.ai import bots_of, make_bot

    obvious = obvious_hint(game, colour)
    if obvious is not None:
        return obvious
    name = "ai" if "ai" in bots_of("kanaloa") else "greedy"
    bot = make_bot(name, seed=len(game.history), game="kanaloa")
    choice = bot.decide(game.clone(), 1.0)
    return _("hint for {colour}: {decision} (the {bot} bot's choice)").format(
        colour=colour(game.to_move or ""), decision=game.format(choice), bot=bot_name(bot.name)
    )


def open_session(
    game: Game, seats: Sequence[Bot | None], *, out: TextIO, tty: bool, delay: float | None
) -> KanaloaTerminalGame:
    """Kanaloa's terminal hook (its ``GameDescription.terminal``): hot-seat for up to four
    people; ``delay`` is Haleakala's watch pause, which Kanaloa has no use for."""
    return KanaloaTerminalGame(game, seats, out=out, clear=tty)
