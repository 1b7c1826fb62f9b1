"""The terminal game: people type decisions in notation, bots answer, the island is drawn.

Input and output are injected (a ``read(prompt) -> str`` function that raises EOFError at
the end, and a text stream), so tests drive a whole game with a script. Every refusal is
the engine's own reason (``Game.why_illegal``) and leaves the game untouched; ``undo``
restores the position before the last decision a person made, together with the bot
decisions that followed it.
"""

from __future__ import annotations

import re
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from haleakala.core.errors import SaveError
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.serialize import from_json
from haleakala.games.haleakala.views import render
from haleakala.i18n import N_, _, ngettext
from haleakala.i18n import render as words
from haleakala.i18n.refusals import say
from haleakala.i18n.terms import bot_name
from haleakala.i18n.terms import player as colour_name
from haleakala.toolkit.terminal import CLEAR_SCREEN, WATCH_DELAY, TerminalSession, fit, use_color
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from haleakala.ai import Bot
    from haleakala.games.haleakala.bots.coach import Hint

HELP = N_("""\
Decisions (notation):
  3@2        place your number disc 3 on the beach of segment 2
  3@2*       the same with your invocation disc (tactical: beside the boat)
  -3@2       take your disc 3 back from the beach of segment 2
  boat       move the boat one segment (only with all your discs on the island)
  >2G >stay  move your shaman to a space (segment + G/F/M), or leave it
  take 2a    take the card in slot 2a
  lava 3>4   Lava Priestess: move lava from crater 3 to 4 (lava none: nothing)
  buy forest / keep   after a shell: buy a scoring-board item, or keep the shell
  buy majority / pass before a scoring: buy one item, or not
  Items: butterflies, forest, majority, segment, mountain, priestess.
  Prefix a decision with a colour to say who makes it: yellow 3@2.
Commands:
  board        draw the island again          legal   list every legal decision
  hint         what the bot would decide here, and why (marked in the game log)
  undo         take back your last decision (and the bot decisions after it)
  save FILE    save the game                  load FILE   continue a saved game
  help         this text                      quit    leave the game""")

__all__ = ["CLEAR_SCREEN", "HELP", "TerminalGame", "fit", "open_session", "use_color"]


_BY_PLAYER = re.compile(r"^(red|yellow)\s*:?\s+(\S.*)$", re.IGNORECASE)


@dataclass
class _Undo:
    """The position before a person's decision, and that decision's text."""

    game: Game
    decision: str


class TerminalGame(TerminalSession[Game]):
    """One game at one terminal; ``seats[p]`` is None for a person, else a bot.

    The loop and the shared commands are ``TerminalSession``'s; Haleakala adds the watched
    bot game (the island after every turn), the forced decision made for a person, the
    coach's hints and an undo that says how many bot decisions it took back."""

    HELP = HELP
    TYPE_A_DECISION = N_("Type a decision (like 3@2) or help.")
    PASS_DEVICE = False  # nothing is hidden: two people share one screen as it is

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        color: bool = False,
        watch: bool = False,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        clear: bool = False,
    ) -> None:
        super().__init__(game, seats, read=read, out=out)
        self.color = color
        self.watch = watch
        self.delay = delay
        self.sleep = sleep
        self.clear = clear  # clear the screen before each board when watching on a terminal
        self._turn_lines: list[str] = []
        self.undo_stack: list[_Undo] = []
        self._redraw = True  # draw before the next prompt even in mid-turn (start, undo, load)
        # Coach: hints given, as game-log records (NOTATION.md ``hint``), and the latest
        # one, judged against the decision the person makes next.
        self.hints: list[dict] = []
        self._hint: Hint | None = None
        self._forced: set[int] = set()  # plies made for a person: their only legal decision

    # -- the hooks of the shared loop -------------------------------------------------------

    def render(self) -> str:
        return render.render(self.game, self.color)

    def name_of(self, colour: str) -> str:
        return colour_name(colour)

    def introduction(self) -> str:
        g = self.game
        return _(
            "Haleakala, {variant} variant, seed {seed}: red is {red}, yellow is {yellow}; "
            "{colour} starts."
        ).format(
            variant=render.variant_name(g.variant),
            seed=g.seed,
            red=self.seat_name(0),
            yellow=self.seat_name(1),
            colour=colour_name(PLAYERS[g.start]),
        )

    def result_text(self) -> str | None:
        result = self.game.result()
        return None if result is None else render.describe_result(result)

    def show_turn(self) -> bool:
        """The island when the turn changed, the prompt and the legal decisions counted;
        a person's only legal decision is made for them (False: nothing to type)."""
        game = self.game
        legal = game.legal_actions()
        if len(legal) == 1:
            self.forced(legal[0])
            return False
        if not self._drawn and (self._redraw or game.phase_name == "turn"):
            self.draw()
        self._redraw = False
        self.say(render.prompt(game, self.color))
        for text in render.compact_legal(game):
            self.say(text)
        return True

    def legal_lines(self) -> list[str]:
        return render.legal_lines(self.game)

    def read_save(self, name: str) -> Game:
        # Only a save whose history leads to its position replaces the running game.
        return from_json(read_text(name, MAX_SAVE_BYTES), check_history=True)

    def load_reason(self, exc: UnreadableFile | SaveError) -> object:
        if isinstance(exc, UnreadableFile):
            return _(exc.reason)  # the system's words, in the player's where known
        return str(exc)  # a save's field and what is wrong

    def loaded(self, name: str) -> None:
        game = self.game
        self._forced.clear()
        self._drawn = False
        self._redraw = True
        self.say(
            _(
                "loaded {name}: {variant} variant, seed {seed}, round {round}, {n} decisions so far"
            ).format(
                name=name,
                variant=render.variant_name(game.variant),
                seed=game.seed,
                round=game.round,
                n=len(game.history),
            ),
            wrap=False,
        )

    # -- what Haleakala does its own way ----------------------------------------------------

    def bot_turn(self, bot: Bot) -> None:
        """Let a bot decide and say what it did; when watching, redraw after each turn."""
        game = self.game
        who, turn_of, mover = game.to_move or "", game.current, game.decider
        decision = bot.decide(game)
        text = game.format(decision)
        events = game.apply(decision)
        self._drawn = False
        told = render.describe_move(game, mover, decision, events)
        lines = [
            _("{colour} ({bot}) {decision}: {words}").format(
                colour=render.paint(colour_name(who), who, self.color),
                bot=bot_name(bot.name),
                decision=text,
                words=told[0],
            )
        ]
        lines += ["  " + line for line in told[1:]]
        if not self.watch:
            for line in lines:
                self.say(line)
            return
        self._turn_lines += lines
        if game.is_terminal() or (game.phase_name == "turn" and game.current != turn_of):
            if self.clear:
                self.out.write(CLEAR_SCREEN)
            self.draw()
            for line in self._turn_lines:
                self.say(line)
            self._turn_lines = []
            if self.delay > 0:
                self.sleep(self.delay)

    def forced(self, decision: int) -> None:
        """The person's only legal decision (a ``pass`` with nothing to buy, the boat that
        must move) is made for them, as the board's OLED goes on by itself: nobody types
        the one thing they can do. Undo takes it back with the decision before it."""
        game = self.game
        who, mover = game.to_move or "", game.decider
        text = game.format(decision)
        self._forced.add(len(game.history))
        events = game.apply(decision)
        self._drawn = False
        colour = render.paint(colour_name(who), who, self.color)
        only = _("only choice – goes on")
        self.say(f"{colour} {text}: {only}")
        for line in render.describe_move(game, mover, decision, events):
            self.say("  " + line)

    def decide(self, line: str) -> None:
        game = self.game
        player = None
        match = _BY_PLAYER.match(line)
        if match:
            player, line = match.group(1).lower(), match.group(2)
        refusal = game.refusal(line, player)
        if refusal is not None:  # from its template: "'gold' is not on the scoring board (…)"
            self.say(_("refused: {reason}").format(reason=say(refusal)))
            return
        mover = game.decider
        before = game.clone()
        decision = game.parse(line)
        hint, self._hint = self._hint, None
        if hint is not None and hint.ply == len(game.history):
            from haleakala.games.haleakala.bots.coach import judge

            self.say(words(judge(hint, decision)))  # the coach's words, as values
        events = game.apply(decision, player)
        self.undo_stack.append(_Undo(before, game.format(decision)))
        self._drawn = False
        for text in render.describe_move(game, mover, decision, events):
            self.say("  " + text)

    def hint(self) -> None:
        """The coach's recommendation for the player to move, with its reason."""
        from haleakala.games.haleakala.bots.coach import advise

        game = self.game
        if game.is_terminal():
            self.say(_("the game is over: no hint"))
            return
        self._hint = advise(game, seed=len(game.history))
        self.hints.append(self._hint.record())
        self.say(words(self._hint.line()))

    def undo(self) -> None:
        if not self.undo_stack:
            self.say(_("nothing to undo"))
            return
        step = self.undo_stack.pop()
        later = range(len(step.game.history) + 1, len(self.game.history))
        bots = sum(1 for ply in later if ply not in self._forced)  # forced ones go unsaid
        self._forced = {ply for ply in self._forced if ply < len(step.game.history)}
        self.game = step.game
        self._drawn = False
        self._redraw = True
        if bots:
            self.say(
                ngettext(
                    "undone: {decision} and {n} bot decision after it",
                    "undone: {decision} and {n} bot decisions after it",
                    bots,
                ).format(decision=step.decision, n=bots)
            )
        else:
            self.say(_("undone: {decision}").format(decision=step.decision))


def open_session(
    game: Game, seats: Sequence[Bot | None], *, out: TextIO, tty: bool, delay: float | None
) -> TerminalGame:
    """Haleakala's terminal hook (its ``GameDescription.terminal``): two bots on a terminal
    make a watchable demo (the island after every turn, a short pause); people get line
    editing and history."""
    bots_only = all(seat is not None for seat in seats)
    pause = delay if delay is not None else (WATCH_DELAY if tty else 0.0)
    if any(seat is None for seat in seats) and sys.stdin.isatty():
        with suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    return TerminalGame(
        game,
        seats,
        out=out,
        color=use_color(out),
        watch=bots_only and (tty or delay is not None),
        delay=pause if bots_only else 0.0,
        clear=bots_only and tty,
    )
