"""``haleakala learn``: a lesson at the terminal, the list of lessons, and the lesson checks.

    haleakala learn first-game          play a lesson (type decisions; Enter goes on)
    haleakala learn --list              one lesson a line: name, title, summary
    haleakala learn --check             every lesson loads and is completed by a scripted
                                        player in every language (exit 0 only if all pass)

Input and output are injected (``read`` raises EOFError at the end), so tests drive a whole
lesson with a script. Texts are lesson catalog keys shown with ``i18n.pgettext``; the
terminal's own words go through ``_``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any, TextIO

from haleakala.i18n import N_, _, pgettext
from haleakala.i18n.commands import command, local_line
from haleakala.toolkit.terminal import LONGEST_LINE, fit, too_long

from .engine import DECIDE, DONE, HINT, READ, REFUSED, Run
from .lesson import CONTEXT, Lesson, LessonError, find, lesson_paths, load

LESSON_COMMANDS = ("help", "legal", "back", "quit")
"""What a learner may type besides decisions (English, or the language's own words)."""
MAX_SHOWN = 6  # a step that admits more decisions than this says "legal" instead
LESSON_HELP = N_("""\
A lesson: read each step and press Enter, or type the decision it asks for (its
notation is shown: Type: 4@3). Commands:
  Enter   go on (or try again after a hint)    back    the step before
  legal   every legal decision now             help    this text
  quit    leave the lesson (Ctrl-D too)""")

BANDS = {
    "water": "boat",
    "beach": "beach",
    "grassland": "grassland",
    "forest": "forest",
    "mountain": "mountain",
    "crater": "crater",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    from haleakala.cli import add_language_option

    p = subparsers.add_parser(
        "learn",
        help="learn a game by playing it: lessons, one rule at a time",
        description="Learn by playing: the companion says what to do, you do it, each rule "
        "when it first matters. Without NAME: --list or --check.",
    )
    p.add_argument("name", nargs="?", help="the lesson to play (see --list)")
    p.add_argument("--list", action="store_true", help="list the lessons, one a line")
    p.add_argument(
        "--check",
        action="store_true",
        help="load every lesson and have a scripted player complete it in every language; "
        "exit 0 only if all pass",
    )
    add_language_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from haleakala.cli import UsageError
    from haleakala.i18n import CatalogNotCompiled, speak

    try:
        speak(getattr(args, "lang", None))
    except CatalogNotCompiled as exc:
        raise UsageError(str(exc)) from None
    if args.check:
        return check(sys.stdout)
    if args.list:
        return list_lessons(sys.stdout)
    if not args.name:
        raise UsageError("name a lesson (haleakala learn --list shows them), or --check")
    try:
        lesson = load(find(args.name))
    except LessonError as exc:
        raise UsageError(str(exc)) from None
    with_readline()
    return Terminal(lesson).run()


def with_readline() -> None:
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())


def list_lessons(out: TextIO) -> int:
    """One lesson a line: its name (what ``learn NAME`` takes), then its title and summary
    in the language in use. A lesson that does not load is listed with why, exit 1."""
    status = 0
    for path in lesson_paths():
        try:
            lesson = load(path)
        except LessonError as exc:
            print(f"{path.stem}\t(refused: {exc})", file=out)
            status = 1
            continue
        title = pgettext(CONTEXT, lesson.title)
        summary = pgettext(CONTEXT, lesson.summary) if lesson.summary else ""
        print(f"{lesson.name}\t{title}" + (f": {summary}" if summary else ""), file=out)
    return status


def check(out: TextIO) -> int:
    from .check import check_all

    failed = 0
    for report in check_all():
        if isinstance(report, str):
            failed += 1
            print(report, file=out)
            continue
        failed += not report.ok
        print(report.line(), file=out)
    print("all lessons pass" if not failed else f"{failed} failed", file=out)
    return 1 if failed else 0


def zone_words(zone: str) -> str:
    """``3.beach`` as the player reads it: "beach 3"; ``3.slot_a``: "card 3a"; an island
    (a map's islands) by its name."""
    segment, _dot, part = zone.partition(".")
    if not part:
        return zone
    if part.startswith("slot_"):
        return _("card slot {slot}").format(slot=segment + part[-1])
    return f"{_(BANDS.get(part, part))} {segment}"


class Terminal:
    """One lesson at one terminal: the step's words, the board, the learner's answers."""

    def __init__(
        self,
        lesson: Lesson,
        *,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        run: Run | None = None,
    ) -> None:
        self.lesson = lesson
        self.run_ = run or Run(lesson)
        self.read = read
        self.out = out if out is not None else sys.stdout

    def say(self, text: str = "") -> None:
        """Print, wrapping any line wider than 80 columns at spaces (``toolkit.terminal.fit``)."""
        for line in text.split("\n"):
            for part in fit(line):
                print(part, file=self.out)

    def show(self) -> None:
        run = self.run_
        s = run.screen()
        if s.kind == DONE:
            return
        self.say()
        head = f"{pgettext(CONTEXT, self.lesson.title)} · {pgettext(CONTEXT, s.title)}"
        self.say(f"== {head} ({s.number}/{s.steps}) ==")
        self.say(board(run.game, run.seat))
        if s.kind == REFUSED and s.reason:
            self.say(_("Not allowed: {reason}").format(reason=self.refusal(s.reason)))
        self.say("» " + pgettext(CONTEXT, s.say))
        if s.point:
            self.say(_("Look at: {zones}").format(zones=", ".join(map(zone_words, s.point))))
        typed = self.notation()
        if typed and s.kind in (DECIDE, HINT, REFUSED):
            self.say(typed)
        if s.kind in (HINT, REFUSED):
            self.say(_("Enter: try again · back: the step before · quit: leave the lesson"))
        elif s.kind == DECIDE:
            self.say(_("Type the decision · back: the step before · quit: leave the lesson"))
        else:
            self.say(_("Enter: go on · back: the step before · quit: leave the lesson"))

    def notation(self) -> str:
        """The decision this step asks for, as the learner types it at a terminal (where no
        beach lights up): "Type: 4@3", or the few the step admits; empty on a step to read."""
        run = self.run_
        step = run.step
        if step is None or not step.decides:
            return ""
        if step.do is not None:
            return _("Type: {decision}").format(decision=step.do)
        game = run.game
        admitted = [t for t in game.legal_decisions() if step.admits(t)]
        if not admitted or len(admitted) > MAX_SHOWN:
            return _("Type a decision (legal lists them)")
        return _("Type one of: {decisions}").format(decisions=" | ".join(admitted))

    def help(self) -> None:
        """``help`` in a lesson: what the step wants and the commands, local words too."""
        self.say(_(LESSON_HELP))
        local = local_line(LESSON_COMMANDS)
        if local:
            self.say(local)

    def legal(self) -> None:
        """``legal`` in a lesson: every decision the rules allow now (the step may ask for
        one of them only)."""
        game = self.run_.game
        legal = game.legal_decisions() if not game.is_terminal() else []
        self.say(_("legal: {decisions}").format(decisions=" | ".join(legal) or "-"))

    def to_read(self, answer: str) -> None:
        """Text typed on a step to be read: a clear reply, never the step's silence."""
        game = self.run_.game
        try:
            legal = game.why_illegal(answer) is None
        except ValueError:
            legal = False
        if legal:
            self.say(_("{decision} is a legal decision, but this step is to be read: press "
                       "Enter to go on; a later step asks for a decision").format(
                decision=game.format(game.parse(answer))))  # fmt: skip
        else:
            self.say(_("This step asks for no decision: press Enter to go on (help lists "
                       "the commands)"))  # fmt: skip

    def leave(self) -> int:
        self.say(_("Lesson left. Come back with: haleakala learn {name}").format(
            name=self.lesson.name))  # fmt: skip
        return 0

    def refusal(self, reason: str) -> str:
        """Why the rules refused the last decision, in the language in use (the rules'
        refusal as a value, rendered here); a sentence no game made as a value is shown as
        it is."""
        from haleakala.i18n import render
        from haleakala.i18n.refusals import say

        wrong = self.run_.wrong
        refusal = getattr(self.run_.game, "refusal", None)
        if wrong is not None and refusal is not None:
            try:
                found = refusal(wrong.decision)
            except ValueError as exc:  # not notation at all: the parser's own sentence
                words = getattr(exc, "words", None)
                return render(words) if words is not None else reason
            if found is not None:
                return say(found)
        return reason

    def run(self) -> int:
        """Play the lesson to its end (then the free game, if it hands over), or until the
        learner quits or the input ends. Exit status 0."""
        run = self.run_
        while not run.done:
            self.show()
            try:
                answer = self.read("> ").strip()
            except EOFError:  # Ctrl-D: the same goodbye as quit
                self.say()
                return self.leave()
            if len(answer) > LONGEST_LINE:
                self.say(too_long(answer))
                continue
            word = command(answer.partition(" ")[0], LESSON_COMMANDS) or answer.casefold()
            if word in ("quit", "q"):
                return self.leave()
            if word == "back":
                if not run.back():
                    self.say(_("This is the first step."))
                continue
            if word == "help":
                self.help()
                continue
            if word == "legal":
                self.legal()
                continue
            if not answer:
                if not run.go_on() and run.step is not None:
                    self.say(_("This step asks for a decision."))
                continue
            if run.screen().kind == READ:
                self.to_read(answer)
                continue
            outcome = run.offer(answer)
            for who, text in outcome.replies:
                self.say(f"{_(who)}: {text}")
        self.say()
        self.say(_("Lesson complete."))
        if self.lesson.handover and not run.game.is_terminal():
            return self.hand_over()
        return 0

    def hand_over(self) -> int:
        """The free game from the lesson's position, the learner against the gentlest bot."""
        from haleakala.ai import make_bot
        from haleakala.gameapi import describe, hook

        game = self.run_.game
        seat = self.run_.seat
        assert self.lesson.handover is not None
        bot = make_bot(self.lesson.handover, seed=self.lesson.seed, game=self.lesson.game)
        seats = [None if p == seat else bot for p in range(len(game.players))]
        # The game's own terminal session (its description's hook), reading the lesson's
        # input: every game plays on as `haleakala play` would, for any number of seats.
        session = hook(describe(self.lesson.game).terminal)(
            game, seats, out=self.out, tty=False, delay=None
        )
        session.read = self.read
        return session.run()


def board(game: Any, seat: int) -> str:
    """The game's table as the seat sees it: its description's ``render`` (the text every
    front-end draws it with when it has no drawing of its own)."""
    from haleakala.toolkit.generic.text import position_text

    return position_text(game, seat)
