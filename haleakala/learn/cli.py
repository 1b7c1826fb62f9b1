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

from haleakala.i18n import _, pgettext

from .engine import DECIDE, DONE, HINT, REFUSED, Run
from .lesson import CONTEXT, Lesson, LessonError, find, lesson_paths, load

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
        print(text, file=self.out)

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
        if s.kind in (HINT, REFUSED):
            self.say(_("Enter: try again · back: the step before · quit: leave the lesson"))
        elif s.kind == DECIDE:
            self.say(_("Type the decision · back: the step before · quit: leave the lesson"))
        else:
            self.say(_("Enter: go on · back: the step before · quit: leave the lesson"))

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
            except EOFError:
                self.say()
                return 0
            word = answer.casefold()
            if word in ("quit", "exit", "q"):
                self.say(
                    _("Lesson left. Come back with: haleakala learn {name}").format(
                        name=self.lesson.name
                    )
                )
                return 0
            if word == "back":
                if not run.back():
                    self.say(_("This is the first step."))
                continue
            if not answer:
                if not run.go_on() and run.step is not None:
                    self.say(_("This step asks for a decision."))
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
