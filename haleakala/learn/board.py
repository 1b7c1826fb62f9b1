"""A lesson on the kit: the OLED says, the LEDs point, the buttons or discs answer.

``BoardLesson`` sits beside the controller (``Companion.lesson``, in the shape of the
companion's ``ui.LessonHooks``: the companion never imports this package, ``install`` plugs
it in) and is asked at three places: an input event (``intercept``: select goes on, back
goes to the step before, a long press on back leaves the lesson), a decision about to be
applied (``allows``: a wrong one gets the step's hint and the game stays), and a decision
applied (``decided``: the lesson moves on and the other side's scripted replies are carried
out through the controller, so they are journaled and shown like any decision). What the
OLED shows comes from ``view``, what the LEDs add from ``leds``, what the live view shows
from ``watch_data``.

Durable like the rest of the daemon's state: the lesson's progress is written atomically
beside the journal (``lesson.json``, fsynced) after every step, and a restart resumes it
when the journal's game is the lesson's game at that step (same digest); otherwise the
game simply goes on without the lesson.

Only Haleakala lessons run on the kit (its board is Haleakala's); the others run in the
terminal.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala.gameapi import DEFAULT_GAME
from haleakala.hal.events import ButtonHeld, ButtonPressed, EncoderTurned

from .engine import DECIDE, DONE, HINT, READ, REFUSED, Run
from .lesson import CONTEXT, Lesson, LessonError, find, lesson_paths, load

if TYPE_CHECKING:
    from haleakala.companion.controller import Companion as Controller
    from haleakala.companion.host import Host as Companion

log = logging.getLogger("haleakala.companion")

LESSON_FILE = "lesson.json"
FORMAT = "haleakala-lesson-1"


@dataclass(frozen=True)
class LessonView:
    """What the lesson adds to the panel: its words (catalog keys) while they show, the
    zones the LEDs point at, and which buttons do what (``kind`` of the engine's screen)."""

    kind: str
    title: str
    say: str
    number: int
    steps: int
    point: tuple[str, ...]
    showing: bool  # the words are on the OLED (else the game's own screen, with the LEDs)
    reason: str = ""
    context: str = CONTEXT  # the gettext context of title and say


def board_lessons() -> list[Lesson]:
    """The lessons the kit can teach (its board is Haleakala's), in file order."""
    out = []
    for path in lesson_paths():
        try:
            lesson = load(path)
        except LessonError as exc:  # listed by `haleakala learn --check`; not offered here
            log.error("lesson not offered: %s", exc)
            continue
        if lesson.game == DEFAULT_GAME:  # the board plays the default game
            out.append(lesson)
    return out


class BoardLesson:
    def __init__(self, run: Run, path: Path | None = None) -> None:
        self.run = run
        self.path = path  # where the progress is kept (None: not kept)
        self.seen = False  # the current decision step's words were acknowledged
        self.applying = False  # the lesson itself is carrying out decisions

    # -- starting, leaving, resuming ----------------------------------------------------

    @classmethod
    def start(cls, c: Companion, lesson: Lesson) -> BoardLesson:
        """A new game dealt as the lesson's, the companion's own seat off (the lesson
        plays the other side), and the lesson's first words on the OLED."""
        variant = str(lesson.options.get("variant", "base"))
        c.seat.colour = None
        c.seat.forget()
        c.new_game(variant, lesson.seed, lesson.start)
        path = None if c.journal is None else Path(c.journal.state_dir) / LESSON_FILE
        board = cls(Run(lesson), path)
        c.lesson = board
        board.check_in_step(c)
        board.save()
        log.info("lesson %s started", lesson.name)
        return board

    @classmethod
    def resume(cls, c: Companion) -> BoardLesson | None:
        """The lesson kept beside the journal, if it is at the journal's position."""
        if c.journal is None:
            return None
        path = Path(c.journal.state_dir) / LESSON_FILE
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:  # e.g. a newer release's, after a rollback
                raise ValueError(
                    f"{path} is format {data.get('format')!r} and this release reads {FORMAT!r}:"
                    " the file is left as it is (the release that wrote it resumes it)"
                )
            lesson = load(find(str(data["lesson"])))
            run = Run.from_dict(lesson, data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("lesson progress not resumed: %s", exc)
            return None
        if run.game.digest() != c.game.digest():
            log.info("the journal's game went on without the lesson: not resumed")
            return None
        board = cls(run, path)
        board.seen = bool(data.get("seen", False))
        log.info("lesson %s resumed at step %d", lesson.name, run.index + 1)
        return board

    def save(self) -> None:
        """The progress, atomically and fsynced beside the journal (a setting: a failure is
        logged, the game itself is in the journal)."""
        if self.path is None:
            return
        from haleakala.companion.journal.storage import write_atomically

        data = {"format": FORMAT, **self.run.to_dict(), "seen": self.seen}
        try:
            write_atomically(self.path, json.dumps(data).encode("utf-8"))
        except OSError as exc:
            log.error("lesson progress not saved (a restart may forget it): %s", exc)

    def leave(self, c: Companion, handover: str | None = None) -> None:
        """The lesson ends; the game stays on the board. ``handover``: the companion then
        plays the other side at that strength (the free game after the lesson)."""
        c.lesson = None
        if self.path is not None:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                log.error("cannot remove %s: %s", self.path, exc)
        if handover is not None and not c.game.is_terminal():
            other = next(p for p in c.game.players if p != self.run.lesson.player)
            c.seat.colour, c.seat.strength = other, handover
            c.seat.record(c.journal)
            c.seat.forget()
        log.info("lesson %s left at step %d", self.run.lesson.name, self.run.index + 1)
        c.refresh()

    # -- what is shown ------------------------------------------------------------------

    def view(self) -> LessonView | None:
        s = self.run.screen()
        if s.kind == DONE:
            return None
        showing = s.kind in (READ, HINT, REFUSED) or not self.seen
        return LessonView(s.kind, s.title, s.say, s.number, s.steps, s.point, showing, s.reason)

    def watch_data(self) -> dict[str, Any] | None:
        """The step for the live view's watchers (None: the lesson is over)."""
        view = self.view()
        return None if view is None else lesson_data(view)

    def leds(self, frame: dict) -> dict:
        """The zones the step points at, lit in the palette's "legal target" colour."""
        from haleakala import palette

        view = self.view()
        if view is None or not view.point:
            return frame
        colour = palette.led("legal")
        out = dict(frame)
        for zone in view.point:
            segment, _dot, part = zone.partition(".")
            out[int(segment), part] = colour
        return out

    # -- what the learner does ----------------------------------------------------------

    def intercept(self, c: Companion, event: object) -> bool:
        """Handle ``event`` for the lesson (True) or let the game have it (False)."""
        view = self.view()
        if view is None:
            return False
        if isinstance(event, ButtonHeld) and event.button == "back":
            self.leave(c)  # the way out: the game stays, the lesson ends
            return True
        if c.panel.overlay is not None:  # the menu is the menu
            return False
        if isinstance(event, ButtonPressed) and event.button == "back" and view.showing:
            self.back(c)
            return True
        if isinstance(event, ButtonPressed) and event.button == "select" and view.showing:
            self.go_on(c)
            return True
        if view.kind == READ and isinstance(event, ButtonPressed | EncoderTurned):
            return True  # nothing to decide yet: select goes on, back goes back
        if view.kind == DECIDE and not self.seen:
            self.seen = True  # acting is reading: the board's own screen comes now
            self.save()
        return False

    def go_on(self, c: Companion) -> None:
        run = self.run
        kind = run.screen().kind
        if kind in (HINT, REFUSED):
            run.go_on()  # the hint read: the step's own words again
        elif kind == DECIDE:
            self.seen = True
        elif kind == READ:
            step = run.step
            assert step is not None
            before = len(run.played)
            run.go_on()
            self._carry_out(c, run.played[before:], "player")  # a step's fast-forward
            self.check_in_step(c)
        self.save()
        c.refresh()

    def back(self, c: Companion) -> None:
        """The step before (or the step's words again, from a hint), with its decisions
        taken back on the board through the controller's undo."""
        run = self.run
        if not run.back():
            c.show(*_first_step_words(), refusal=False)
            return
        target = len(run.played)
        while len(c.game.history) > target:
            if not c.undo():
                break
        self.seen = False
        self._verify(c)
        self.save()

    def allows(self, c: Companion, d: int, by: str) -> bool:
        """May decision ``d`` be applied? A lesson step's own decision, or the lesson's
        replies, yes; anything else gets the hint (on the OLED, pointed at by the LEDs)."""
        if self.applying or self.run.done:
            return True
        if by == "auto":  # a forced decision waits for the learner's own hand
            c.panel = replace(c.panel, auto_at=None)
            return False
        step = self.run.step
        text = c.game.format(d)
        if step is not None and step.decides and step.admits(text):
            return True
        self.run.offer(text)  # not this step's: the run keeps it as its hint
        log.info("lesson: %s refused at step %d", text, self.run.index + 1)
        c.refresh()
        return False

    def decided(self, c: Companion, d: int, by: str) -> None:
        """After the learner's decision: the lesson moves on, the other side replies."""
        if self.applying or self.run.done:
            return
        outcome = self.run.offer(c.game.history[-1])
        if not outcome.accepted:  # cannot happen: allows() checked it
            log.error("lesson and game disagree at step %d", self.run.index + 1)
            return
        self._carry_out(c, [text for _who, text in outcome.replies], "bot")
        self.check_in_step(c)
        self.save()

    def check_in_step(self, c: Companion) -> None:
        """A new step: its words show first; a finished lesson hands over."""
        self.seen = False
        if self.run.done:
            self.leave(c, self.run.lesson.handover)

    def _carry_out(self, c: Companion, texts: list[str], by: str) -> None:
        """Apply the lesson's own decisions through the controller (journaled, shown); the
        pieces to move are every one of theirs, not only the last's."""
        moves: list[Any] = []  # the instructions' values (``companion.ui.Words``)
        self.applying = True
        try:
            for text in texts:
                c.decide(c.game.parse(text), by)
                moves += c.panel.instructions
        finally:
            self.applying = False
        if moves:
            c.panel = replace(c.panel, instructions=tuple(moves))
        self._verify(c)

    def _verify(self, c: Companion) -> None:
        if c.game.digest() != self.run.game.digest():
            log.error(
                "lesson and board disagree at step %d (%s vs %s): leaving the lesson",
                self.run.index + 1,
                c.game.digest(),
                self.run.game.digest(),
            )
            self.leave(c)


class Desk:
    """The lessons on offer in the board's menu (the companion's ``ui.Teacher``)."""

    def offer(self, c: Companion, first: bool = False) -> None:
        """The lessons the board teaches, and a plain game: on first boot (``first``) before
        anything else, later from the menu's "learn to play"."""
        from haleakala.companion import ui as U
        from haleakala.core.text import Text
        from haleakala.i18n import N_, pgettext

        options = [
            U.Option(pgettext(CONTEXT, lesson.title).lower(), f"lesson:{lesson.name}")
            for lesson in board_lessons()
        ]
        options.append(U.Option(Text(N_("play a game") if first else N_("back")), "resume"))
        title = Text(N_("LEARN TO PLAY?") if first else N_("LESSONS"))
        c.panel = replace(c.panel, overlay=U.Chooser(U.MENU, title, tuple(options), 0))

    def start(self, c: Companion, name: str) -> None:
        for lesson in board_lessons():
            if lesson.name == name:
                BoardLesson.start(c, lesson)
                return


def install(c: Controller, first_boot: bool = False) -> None:
    """Teach on this companion: the menu offers the lessons, a lesson kept beside the
    journal goes on, and a first boot (nothing to resume) offers them at once."""
    desk = Desk()
    c.menus.teacher = desk
    c.lesson = BoardLesson.resume(c)
    if c.lesson is None and first_boot:
        desk.offer(c, first=True)


def _first_step_words() -> tuple[Any, Any]:
    from haleakala.core.text import Text
    from haleakala.i18n import N_

    return Text(N_("LESSON")), Text(N_("This is the first step: hold back to leave the lesson."))


def lesson_data(view: LessonView) -> dict[str, Any]:
    """The lesson's part of the live view's snapshot, in the companion's language (as the
    rest of the snapshot): what the learner is told and where the LEDs point."""
    from haleakala.i18n import pgettext

    from .lesson import CONTEXT

    return {
        "kind": view.kind,
        "title": pgettext(CONTEXT, view.title),
        "say": pgettext(CONTEXT, view.say),
        "step": view.number,
        "steps": view.steps,
        "point": list(view.point),
    }
