"""Kanaloa at the terminal: the map as text in 80 columns, and a hot-seat game for up to
four people and bots.

Shaped as hooks for the one terminal session that "peers" is building (``render`` draws the
state, ``parse`` reads a typed decision, ``legal_lines`` lists the legal ones), plus a small
session class of its own until then (``KanaloaTerminalGame``, the shape of
``terminal.kahuna.KahunaTerminalGame``).

Kanaloa hides only the order of the bag (N12), so the screen is the same for every player:
the "pass the device" screen between two people only says whose decision it is and waits
for Enter; it clears nothing, because nothing on the screen is secret.

Input and output are injected (``read(prompt)`` raising EOFError at the end, and a text
stream) so tests drive a whole game with a script.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from haleakala.core.jsonread import printable
from haleakala.i18n import N_, _, ngettext
from haleakala.i18n import render as say_words
from haleakala.kanaloa.game import Game
from haleakala.kanaloa.notation import NotationError, parse_decision
from haleakala.kanaloa.refusals import shown
from haleakala.kanaloa.serialize import SaveError
from haleakala.words.kanaloa import colour

from .kanaloa_map import (  # noqa: F401  (the hooks' drawing, re-exported for callers)
    PHASE_PROMPTS,
    WIDTH,
    describe_events,
    describe_result,
    island_lines,
    map_lines,
    render,
)
from .session import fit
from .textfile import MAX_SAVE_BYTES, UnreadableFile, read_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from haleakala.ai import Bot

LIST_AT_MOST = 24
"""Longer legal lists (the fish of the start phase: up to 112) are counted, not printed,
until the player asks with ``legal``: the map stays on the screen."""

HELP = N_("""\
Decisions (notation; initials and lower case are fine: move h>k):
  move HONU>KAI        move your piece over the fish from HONU to KAI
  take Ku4             take a tile from the island you arrived on
  sacrifice Pele5 to Pele, add Kane3, done
                       offer tiles to a god (they show the god, or Kane)
  whiten HONU>KAI      a blocked piece turns another colour's fish white
  dolphin HONU         a blocked piece calls the Dolphin; land KAI, give Kane3 later
  swap HONU:Kane3 KAI:Ku4, reverse HONU-KAI, flip HONU-KAI, place NALU, end
                       the gods cards' abilities (Lono, Kanaloa, Lono)
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
    out: list[str] = []
    head = "  " + _("legal:")
    hang = " " * len(head)
    for texts in groups.values():
        line = ""
        for text in texts:
            if line and len(line) + len(text) + 3 > width:
                out.append(line)
                line = ""
            line = f"{line} | {text}" if line else (head if not out else hang) + " " + text
        if line:
            out.append(line)
    return out


def compact_legal(game: Game) -> str:
    legal = game.legal_decisions()
    counts: dict[str, int] = {}
    for text in legal:
        kind = text.split(" ")[0]
        counts[kind] = counts.get(kind, 0) + 1
    kinds = " · ".join(f"{kind} {n}" if n > 1 else kind for kind, n in counts.items())
    return "  " + ngettext(
        "{n} legal decision ({kinds}): legal shows it",
        "{n} legal decisions ({kinds}): legal lists them",
        len(legal),
    ).format(n=len(legal), kinds=kinds)


RULING = re.compile(r"\b[NL]\d+\b")


def name_ruling(reason: str) -> str:
    """A refusal always names its ruling: the rules' sentences do; the few notation errors
    that name none (a word that is no colour, a missing argument) get N52, the ruling that
    makes the notation the unit of play."""
    return reason if RULING.search(reason) else f"{reason} (N52)"


def notation_words(game: Game, line: str) -> str | None:
    """A line that is no decision at all, said in the language in use from the notation's
    own words (a template and its parameters), with its ruling; None when it is notation."""
    try:
        parse_decision(line, game.m)
    except NotationError as exc:
        return say_words(exc.words) + ("" if RULING.search(str(exc)) else " (N52)")
    return None


# -- the conversation -------------------------------------------------------------------


class KanaloaTerminalGame:
    """One Kanaloa game at one terminal; ``seats[p]`` is None for a person, else a bot."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        clear: bool = True,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.read = read or (lambda prompt: input(prompt))  # looked up late: tests patch it
        self.out = out if out is not None else sys.stdout
        self.clear = clear  # unused: nothing on the screen is secret (N12)
        self.people = [p for p, seat in enumerate(self.seats) if seat is None]
        self.at_keyboard: int | None = None
        self.undo_stack: list[Game] = []
        self._drawn = False
        self._listed: tuple[int, int] | None = None

    def say(self, text: str = "") -> None:
        for line in text.split("\n"):
            for part in fit(line, WIDTH):
                print(part, file=self.out)

    def draw(self) -> None:
        self.say(render(self.game))
        self._drawn = True

    def _seat(self, p: int) -> str:
        seat = self.seats[p]
        return _("a person") if seat is None else _("the {bot} bot").format(bot=seat.name)

    def run(self) -> int:
        g = self.game
        seats = "; ".join(
            _("{colour} is {seat}").format(colour=colour(c), seat=self._seat(p))
            for p, c in enumerate(g.players)
        )
        self.say(_("Kanaloa, seed {seed}: {seats}.").format(seed=g.seed, seats=seats))
        if self.people:
            self.say(_("Type a decision (like move HONU>KAI) or help."))
        while not self.game.is_terminal():
            p = self.game.decider
            seat = self.seats[p]
            if seat is not None:
                self.bot_decision(seat)
                continue
            if self.at_keyboard != p and not self.pass_device(p):
                return 0
            if not self.person_decision():
                return 0
        self.draw()
        self.say(describe_result(self.game))
        return 0

    def pass_device(self, p: int) -> bool:
        """Between two people: whose decision it is, and Enter to go on. The map is public
        (N12), so the screen is not cleared. False: input ended."""
        if len(self.people) > 1:
            self.say(
                "\n"
                + _("Pass the device to {colour}: the next decision is theirs.").format(
                    colour=colour(self.game.players[p])
                )
            )
            try:
                self.read(_("{colour}, press Enter ").format(colour=colour(self.game.players[p])))
            except EOFError:
                self.say("\n" + _("end of input: the game is left unfinished"))
                return False
            self._drawn = False
        self.at_keyboard = p
        if not self._drawn:
            self.draw()
        return True

    def bot_decision(self, bot: Bot) -> None:
        game = self.game
        who = game.to_move or ""
        decision = bot.decide(game)
        text = game.format(decision)
        events = game.apply(decision)
        self._drawn = False
        self.say(_("{colour} ({bot}): {decision}").format(colour=colour(who), bot=bot.name,
                                                           decision=text))  # fmt: skip
        for line in describe_events(game, events):
            self.say("  " + line)

    def person_decision(self) -> bool:
        game = self.game
        phase = _(PHASE_PROMPTS[game.phase_name]) if game.phase_name in PHASE_PROMPTS else ""
        self.say(_("{colour}: {phase}.").format(colour=colour(game.to_move or ""), phase=phase))
        now = (len(game.history), game.decider)
        fresh = self._listed is None or self._listed[1] != now[1] or self._listed[0] < now[0] - 1
        if fresh and len(game.legal_actions()) <= LIST_AT_MOST:
            for text in legal_lines(game):
                self.say(text)
        else:
            self.say(compact_legal(game))
        self._listed = now
        try:
            typed = self.read(f"{colour(game.to_move or '')}> ")
        except EOFError:
            self.say("\n" + _("end of input: the game is left unfinished (save FILE keeps a game)"))
            return False
        return self.command(typed.strip())

    def command(self, line: str) -> bool:
        word, _sep, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if not line:
            return True
        if word in ("quit", "exit"):
            self.say(_("goodbye: the game is left unfinished"))
            return False
        if word in ("help", "?"):
            self.say(_(HELP))
        elif word in ("map", "board"):
            self.draw()
        elif word == "legal":
            for text in legal_lines(self.game):
                self.say(text)
        elif word == "hint":
            self.say(hint_line(self.game))
        elif word == "undo":
            self.undo()
        elif word == "save":
            self.save(rest)
        elif word == "load":
            self.load(rest)
        else:
            self.decide(line)
        return True

    def decide(self, line: str) -> None:
        """A typed decision: refused with the rules' sentence, which names its ruling, or
        applied with its automatic effects."""
        game = self.game
        refused = game.refusal(line)
        if refused is not None:
            self.say(_("refused: {reason}").format(reason=say_words(shown(refused))))
            return
        before = game.clone()
        decision = parse(game, line)
        me = game.decider
        events = game.apply(decision)
        self.undo_stack.append(before)
        self._drawn = False
        self._listed = (len(game.history), me)
        for text in describe_events(game, events):
            self.say("  " + text)
        if game.decider != me or game.turn != before.turn:
            self.draw()

    def undo(self) -> None:
        """Back to before this person's last decision, with the bots' decisions after it:
        only with one person against bots (with two people it would take back the other's)."""
        if len(self.people) != 1:
            self.say(_("undo works when one person plays against bots"))
            return
        if not self.undo_stack:
            self.say(_("nothing to undo"))
            return
        self.game = self.undo_stack.pop()
        self._listed = None
        self.say(_("undone: your last decision and the bot decisions after it"))
        self.draw()

    def save(self, name: str) -> None:
        if not name:
            self.say(_("save needs a file name: save FILE"))
            return
        path = Path(name).expanduser()
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(self.game.to_json() + "\n", encoding="utf-8")
            tmp.replace(path)
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            print(printable(_("cannot save to {name}: {reason}").format(name=name,
                  reason=reason)), file=self.out)  # fmt: skip
            return
        print(printable(_("saved to {name} (continue it with: load {name})").format(name=name)),
              file=self.out)  # fmt: skip

    def load(self, name: str) -> None:
        if not name:
            self.say(_("load needs a file name: load FILE"))
            return
        try:
            game = Game.from_json(read_text(name, MAX_SAVE_BYTES))
        except UnreadableFile as exc:
            reason: object = exc.reason
        except SaveError as exc:
            reason = exc
        else:
            if game.n != self.game.n:
                reason = _("it is a game of {n} players").format(n=game.n)
            else:
                self.game = game
                self.undo_stack.clear()
                self._listed = None
                print(printable(_("loaded {name}: seed {seed}, turn {turn}").format(
                    name=name, seed=game.seed, turn=game.turn)), file=self.out)  # fmt: skip
                self.draw()
                return
        print(printable(_("cannot load {name}: {reason}; the game goes on").format(
            name=name, reason=reason)), file=self.out)  # fmt: skip


def hint_line(game: Game) -> str:
    """What a bot would decide for the player to move: the search bot when the game has
    one, else the greedy bot; seeded by the number of decisions made, so one position
    always gets the same hint."""
    from haleakala.ai import bots_of, make_bot

    if game.is_terminal():
        return _("the game is over: no hint")
    legal = game.legal_actions()
    who = colour(game.to_move or "")
    if len(legal) == 1:
        return _("hint for {colour}: {decision} (the only legal decision)").format(
            colour=who, decision=game.format(legal[0])
        )
    name = "ai" if "ai" in bots_of("kanaloa") else "greedy"
    bot = make_bot(name, seed=len(game.history), game="kanaloa")
    choice = bot.decide(game.clone(), 1.0)
    return _("hint for {colour}: {decision} (the {bot} bot's choice)").format(
        colour=who, decision=game.format(choice), bot=bot.name
    )


def open_session(
    game: Game, seats: Sequence[Bot | None], *, out: TextIO, tty: bool, delay: float | None
) -> KanaloaTerminalGame:
    """Kanaloa's terminal hook (its ``GameDescription.terminal``): hot-seat for up to four
    people; ``delay`` is Haleakala's watch pause, which Kanaloa has no use for."""
    return KanaloaTerminalGame(game, seats, out=out, clear=tty)
