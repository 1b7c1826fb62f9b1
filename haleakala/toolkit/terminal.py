"""The one terminal session every game plays in: the loop and the commands they share.

Why: the first three games each ran a command loop of their own (read a line, help,
board, legal, hint, undo, save, load, quit, the end of the input, the "pass the device"
screen, refusals, the bots' decisions) that had drifted apart in small ways. Here that loop
is written once; a game's session is a subclass that supplies hooks for what only it knows:
how the state is drawn (``render``), what a typed decision is refused with (``refuse``), how
events and the result are told (``describe``, ``result_text``), its turn prompt
(``show_turn``), how a save is read (``read_save``) and any command of its own
(``extra_commands``). The hooks keep each game's words; the loop keeps their order.

Input and output are injected (``read(prompt)`` raising EOFError at the end, and a text
stream), so a test drives a whole game with a script. ``read`` defaults to ``input``
looked up at each call, so a test that patches ``builtins.input`` reaches it too.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, Protocol, TextIO, TypeVar

from haleakala.core.errors import SaveError
from haleakala.core.jsonread import printable
from haleakala.i18n import N_, _, ngettext, number
from haleakala.i18n.commands import command as command_word
from haleakala.i18n.commands import local_line
from haleakala.i18n.refusals import say as say_refusal
from haleakala.i18n.terms import bot_name

from .textfile import UnreadableFile

if TYPE_CHECKING:
    from haleakala.ai import Bot
    from haleakala.core.refusal import Refusal

    from .speaking import SessionVoice

WATCH_DELAY = 0.3  # seconds between turns when two bots play on a terminal
WIDTH = 80  # every line the terminal game prints fits a classic terminal (render.WIDTH)
CLEAR_SCREEN = "\x1b[H\x1b[2J"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

LONGEST_LINE = 200
"""A typed line longer than this is no decision nor command of any game (save and load
take a file name, which may be longer): it is refused quoting its start (``too_long``)."""
QUOTED = 60  # the characters of a refused long line that its refusal quotes

END_OF_INPUT = N_("end of input: the game is left unfinished")
END_OF_INPUT_IN_TURN = N_("end of input: the game is left unfinished (save FILE keeps a game)")


def fit(line: str, width: int = WIDTH) -> list[str]:
    """One printed line as lines of at most ``width`` visible columns, broken at spaces;
    continuations indented two more than the line. ANSI colour codes take no columns."""
    extra = len(line) - len(_ANSI.sub("", line))
    if len(line) - extra <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width + extra, subsequent_indent=indent, break_on_hyphens=False) or [
        line
    ]


def too_long(line: str) -> str:
    """The refusal of a line too long to be anything: its length and its first ``QUOTED``
    characters, never the whole line echoed back."""
    return _("refused: a line of {n} characters is no decision: {start}…").format(
        n=number(len(line)), start=printable(line[:QUOTED])
    )


def legal_in_lines(
    groups: Iterable[list[str]], *, head: str, hang: str, width: int = WIDTH
) -> list[str]:
    """Legal decisions as ``legal`` lists them: each group on lines of its own, joined with
    `` | `` in lines of at most ``width`` columns; the first line opens with ``head``, the
    others with ``hang``."""
    out: list[str] = []
    for group in groups:
        line = ""
        for text in group:
            if line and len(line) + len(text) + 3 > width:
                out.append(line)
                line = ""
            line = f"{line} | {text}" if line else (head if not out else hang) + " " + text
        if line:
            out.append(line)
    return out


def counted_legal(legal: list[str], *, by_name: bool = False) -> str:
    """The legal decisions counted by their first word on one line, with ``legal`` to see
    them all; the words in the order met, or alphabetical (``by_name``)."""
    counts: dict[str, int] = {}
    for text in legal:
        kind = text.split(" ")[0]
        counts[kind] = counts.get(kind, 0) + 1
    items = sorted(counts.items()) if by_name else counts.items()
    kinds = " · ".join(f"{kind} {n}" if n > 1 else kind for kind, n in items)
    return "  " + ngettext(
        "{n} legal decision ({kinds}): legal shows it",
        "{n} legal decisions ({kinds}): legal lists them",
        len(legal),
    ).format(n=len(legal), kinds=kinds)


def obvious_hint(game: Playable, name_of: Callable[[str], str]) -> str | None:
    """The hint that needs no bot: none once the game is over, and the only legal decision
    when there is one; None when a bot has to think."""
    if game.is_terminal():
        return _("the game is over: no hint")
    legal = game.legal_actions()
    if len(legal) == 1:
        return _("hint for {colour}: {decision} (the only legal decision)").format(
            colour=name_of(game.to_move or ""), decision=game.format(legal[0])
        )
    return None


class Playable(Protocol):
    """What the loop itself asks of a game state (a ``GameState`` offers all of it)."""

    decider: int
    history: list[Any]

    @property
    def to_move(self) -> str | None: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def legal_decisions(self) -> list[str]: ...

    def format(self, action: int) -> str: ...

    def clone(self) -> Any: ...

    def parse(self, text: str) -> int: ...

    def apply(self, decision: Any, player: Any = None) -> Any: ...

    def to_json(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None: ...


G = TypeVar("G", bound=Playable)


class TerminalSession(ABC, Generic[G]):
    """One game at one terminal; ``seats[p]`` is None for a person, else a bot.

    Subclasses fill the hooks (the abstract methods every game has, the others where a
    game differs from the default, and the class constants); everything else is shared.
    ``undo_stack`` holds the positions before each decision a person made (a game whose
    undo needs more overrides ``undo`` and ``decide``).
    """

    HELP: ClassVar[str] = ""  # the help text (marked with N_, translated when shown)
    TYPE_A_DECISION: ClassVar[str] = ""  # "Type a decision (like …) or help."
    BOARD_WORDS: ClassVar[tuple[str, ...]] = ("board",)  # the commands that redraw
    # With two people at one keyboard, whose turn it is between their decisions ("pass the
    # device"); False for a game that hands nothing over (Haleakala).
    PASS_DEVICE: ClassVar[bool] = True
    UNDO_ALONE: ClassVar[str] = N_("undo works when one person plays against bots")
    LIST_AT_MOST: ClassVar[int | None] = None  # longer legal lists are counted, not printed

    def __init__(
        self,
        game: G,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.read = read or (lambda prompt: input(prompt))  # looked up late: tests patch it
        self.out = out if out is not None else sys.stdout
        self.people = [p for p, seat in enumerate(self.seats) if seat is None]
        self.at_keyboard: int | None = None  # the person the screen was handed to
        self.undo_stack: list[Any] = []
        self._drawn = False  # is the board on screen up to date?
        self._listed: tuple[int, int] | None = None  # (decisions made, player) listed for
        self.voice: SessionVoice | None = None  # ``play --speak``: the table's lines said
        self._announced: int | None = None  # the player whose turn was last said

    # -- hooks: what only the game knows ---------------------------------------------------

    @abstractmethod
    def render(self) -> str:
        """The state as text, for whoever is looking (``draw`` prints it)."""

    @abstractmethod
    def introduction(self) -> str:
        """The first line: the game, its seed, who sits where, who starts."""

    def name_of(self, colour: str) -> str:
        """A seat colour in the language in use."""
        return colour

    def show_turn(self) -> bool:
        """What a person sees before typing; False when nothing is to be typed (the turn
        was played for them)."""
        self.list_legal()
        return True

    def legal_lines(self) -> list[str]:
        """Every legal decision, in lines of at most ``WIDTH`` columns (``legal``)."""
        return ["  " + " | ".join(self.game.legal_decisions())]

    def compact_legal(self) -> str:
        """The legal decisions in one short line, when the whole list was shown already:
        counted by their first word, in the order met."""
        return counted_legal(self.game.legal_decisions())

    def refuse(self, line: str) -> str | None:
        """Why a typed line is no legal decision now, as a sentence in the language in use
        (the rules' ``Refusal``, which names its ruling); None when it is one."""
        refusal = self.game.refusal(line)
        return None if refusal is None else say_refusal(refusal)

    def describe(self, events: Any, viewer: int | None) -> list[str]:
        """What a decision's events did, as ``viewer`` may see it."""
        return []

    def decision_text(self, decision: int) -> str:
        """A bot's decision as the table sees it."""
        return self.game.format(decision)

    def decided(self, decision: int, before: Any, mover: int) -> None:
        """After a person's decision and its events were told (a game redraws here)."""

    def bot_decided(self, decision: int) -> None:
        """After a bot's decision and its events were told."""

    def result_text(self) -> str | None:
        """The end of the game in one sentence (None: nothing to say, the game's ``finish``
        tells it)."""
        return None

    def pass_screen(self, p: int) -> str:
        """Say whose decision is next between two people; return the prompt for Enter. The
        default clears nothing: for a game with no hidden hands (a public map)."""
        name = self.name_of(self.game.players[p])
        self.say("\n" + _("Pass the device to {colour}: the next decision is theirs.").format(
            colour=name))  # fmt: skip
        return _("{colour}, press Enter ").format(colour=name)

    def passed(self, p: int) -> None:
        """After the new player pressed Enter (a game with hidden hands clears here)."""

    @abstractmethod
    def read_save(self, name: str) -> G:
        """The game saved in file ``name``: ``UnreadableFile`` or ``SaveError`` if not."""

    def load_reason(self, exc: UnreadableFile | SaveError) -> object:
        """Why a save could not be loaded, without its file's name."""
        return _(exc.reason) if isinstance(exc, UnreadableFile) else exc

    def refuse_save(self, game: G) -> str | None:
        """Why a save that reads well cannot replace this game (None: it can)."""
        return None

    @abstractmethod
    def loaded(self, name: str) -> None:
        """After a save replaced the game: say so, forget what belonged to the old one."""

    def extra_commands(self) -> dict[str, Callable[[str], None]]:
        """The game's own commands: word -> handler of the rest of the line."""
        return {}

    @abstractmethod
    def hint(self) -> None:
        """What a bot would decide for the person to move (``hint``)."""

    # -- output -----------------------------------------------------------------------------

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Print, wrapping any line wider than the terminal at spaces (continuations
        indented two more than the line), so nothing runs past 80 columns. A message about
        a file stays one line (``wrap=False``): its path is as long as it is, and a failed
        save or load is one line to read or grep."""
        for line in text.split("\n"):
            for part in fit(line) if wrap else [line]:
                print(part, file=self.out)

    def speak(self, what: str, *lines: str, level: str = "events") -> None:
        """Say ``lines`` (already printed) if the session speaks, keyed by the decisions made."""
        if self.voice is not None:
            self.voice.say(len(self.game.history), what, *lines, level=level)

    def draw(self) -> None:
        self.say(self.render())
        self._drawn = True

    def seat_name(self, p: int) -> str:
        seat = self.seats[p]
        return _("a person") if seat is None else _("the {bot} bot").format(bot=bot_name(seat.name))

    def list_legal(self) -> None:
        """The whole legal list once at the start of a turn (when it is short enough), then
        a count of it: the board stays on the screen."""
        game = self.game
        now = (len(game.history), game.decider)
        fresh = self._listed is None or self._listed[1] != now[1] or self._listed[0] < now[0] - 1
        limit = self.LIST_AT_MOST
        if fresh and (limit is None or len(game.legal_actions()) <= limit):
            for text in self.legal_lines():
                self.say(text)
            self.speak("legal", *self.legal_lines(), level="everything")
        else:
            self.say(self.compact_legal())
        self._listed = now

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends, a person quits, or the input ends; exit status 0."""
        introduction = self.introduction()
        self.say(introduction)
        self.speak("introduction", introduction, level="everything")
        if self.people:
            self.say(_(self.TYPE_A_DECISION))
        try:
            while not self.game.is_terminal():
                p = self.game.decider
                seat = self.seats[p]
                if seat is not None:
                    self.bot_turn(seat)
                elif not self.hand_over(p) or not self.person_turn():
                    return 0
            self.finish()
        finally:
            if self.voice is not None:  # what is queued is heard before the program ends
                self.voice.finish()
        return 0

    def finish(self) -> None:
        if not self._drawn:
            self.draw()
        result = self.result_text()
        if result is not None:
            self.say(result)
            self.speak("result", result)

    def ask(self, prompt: str, end: str = END_OF_INPUT_IN_TURN) -> str | None:
        """One line typed, or None when the input ended (said with ``end``)."""
        try:
            return self.read(prompt)
        except EOFError:
            self.say("\n" + _(end))
            return None

    def hand_over(self, p: int) -> bool:
        """Before a person's turn: with two people at one keyboard, say whose decision it is
        and wait for Enter (``pass_screen``, ``passed``). False: the input ended."""
        if not self.PASS_DEVICE or self.at_keyboard == p:
            return True
        if len(self.people) > 1:
            if self.ask(self.pass_screen(p), END_OF_INPUT) is None:
                return False
            self.passed(p)
            self._drawn = False
        self.at_keyboard = p
        if not self._drawn:
            self.draw()
        return True

    def bot_turn(self, bot: Bot) -> None:
        """A bot decides; the table is told what it did."""
        if self.voice is not None:
            self.voice.before_bot()  # a game between bots is heard, decision by decision
        game = self.game
        who = game.to_move or ""
        decision = bot.decide(game)
        text = self.decision_text(decision)
        events = game.apply(decision)
        self._drawn = False
        said = _("{colour} ({bot}): {decision}").format(
            colour=self.name_of(who), bot=bot_name(bot.name), decision=text
        )
        self.say(said)
        told = self.describe(events, self.viewer)
        for line in told:
            self.say("  " + line)
        self.speak("decision", said, *told)
        self.bot_decided(decision)

    @property
    def viewer(self) -> int | None:
        """Whose eyes are on the screen: the only person, or the person at the keyboard."""
        if len(self.people) == 1:
            return self.people[0]
        return self.at_keyboard

    def person_turn(self) -> bool:
        """Read and carry out one line; False when the person quits or the input ends."""
        if self._announced != self.game.decider:  # said once per turn, before its prompt
            self._announced = self.game.decider
            who = self.name_of(self.game.to_move or "")
            self.speak("turn", _("{who}'s turn").format(who=who[:1].upper() + who[1:]))
        if not self.show_turn():
            return True
        line = self.ask(f"{self.name_of(self.game.to_move or '')}> ")
        if line is None:
            return False
        return self.command(line.strip())

    def command(self, line: str) -> bool:
        """One line typed by a person: a command or a decision. False means quit."""
        word, _sep, rest = line.partition(" ")
        rest = rest.strip()
        if not line:
            return True
        if len(line) > LONGEST_LINE and command_word(word) not in ("save", "load"):
            self.say(too_long(line))
            return True
        commands = ("help", "legal", "undo", "hint", "save", "load", "quit", *self.BOARD_WORDS)
        word = command_word(word, commands) or word.lower()  # a local word too: "hilfe"
        if word == "quit":
            self.say(_("goodbye: the game is left unfinished"))
            return False
        extra = self.extra_commands()
        if word == "help":
            self.say(_(self.HELP))
            local = local_line(commands)
            if local:
                self.say(local)
        elif word in self.BOARD_WORDS:
            self.draw()
        elif word == "legal":
            for text in self.legal_lines():
                self.say(text)
        elif word == "undo":
            self.undo()
        elif word == "hint":
            self.hint()
        elif word == "save":
            self.save(rest)
        elif word == "load":
            self.load(rest)
        elif word in extra:
            extra[word](rest)
        else:
            self.decide(line)
        return True

    # -- decisions, undo, save, load --------------------------------------------------------

    def decide(self, line: str) -> None:
        """A typed decision: refused with the rules' sentence, or applied with its events."""
        game = self.game
        said = self.refuse(line)
        if said is not None:
            refused = _("refused: {reason}").format(reason=said)
            self.say(refused)
            if self.voice is not None:
                self.voice.refuse(len(game.history), refused)
            return
        before = game.clone()
        decision = game.parse(line)
        me = game.decider
        events = game.apply(decision)
        self.undo_stack.append(before)
        self._drawn = False
        self._listed = (len(game.history), me)
        told = self.describe(events, me)
        for text in told:
            self.say("  " + text)
        who = self.name_of(before.players[me])
        self.speak("decision", f"{who}: {before.format(decision)}", *told)
        self.decided(decision, before, me)

    def undo(self) -> None:
        """Back to before this person's last decision, with the bots' decisions after it:
        only with one person against bots (with two it would take back the other's)."""
        if len(self.people) != 1:
            self.say(_(self.UNDO_ALONE))
            return
        if not self.undo_stack:
            self.say(_("nothing to undo"))
            return
        self.game = self.undo_stack.pop()
        self._listed = None
        self.say(_("undone: your last decision and the bot decisions after it"))
        self.draw()

    def save(self, name: str) -> None:
        """The game into file ``name``, whole or not at all (a temporary file renamed)."""
        if not name:
            self.say(_("save needs a file name: save FILE"))
            return
        path = Path(name).expanduser()
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(self.game.to_json() + "\n", encoding="utf-8")
            tmp.replace(path)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            reason = _(getattr(exc, "strerror", None) or str(exc))  # SYSTEM_REASONS
            self.say(
                printable(_("cannot save to {name}: {reason}").format(name=name, reason=reason)),
                wrap=False,
            )
            return
        self.say(printable(_("saved to {name} (continue it with: load {name})").format(name=name)),
                 wrap=False)  # fmt: skip

    def load(self, name: str) -> None:
        """The running game is replaced only by a save that loads completely (and that the
        game accepts: ``refuse_save``); anything else is one line and play goes on."""
        if not name:
            self.say(_("load needs a file name: load FILE"))
            return
        # Read in bytes up to a cap, so /dev/zero or a video is one sentence, not a process
        # that fills its memory; anything else that fails is one too.
        try:
            game = self.read_save(name)
        except (UnreadableFile, SaveError) as exc:
            reason = self.load_reason(exc)
        else:
            refused = self.refuse_save(game)
            if refused is None:
                self.game = game
                self.undo_stack.clear()
                self._listed = None
                if self.voice is not None:  # its decisions are numbered from its own start
                    self.voice.loads += 1
                self.loaded(name)
                return
            reason = refused
        self.say(printable(_("cannot load {name}: {reason}; the game goes on").format(
            name=name, reason=reason)), wrap=False)  # fmt: skip


def use_color(stream: TextIO) -> bool:
    """ANSI colour only for a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """argparse prints a usage block before its error; misuse here gets one line."""

    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: {message} (see {parser.prog} --help)\n")

    parser.error = error  # type: ignore[method-assign]
    return parser
