"""The lesson engine: a lesson's state machine over a ``GameState``, pure (no I/O, no clock).

A ``Run`` is where a learner stands in a lesson: the step, the game at that step, and whether
the last decision earned the step's hint. Front-ends (the terminal, the board, the window,
the checks) ask it what to show (``screen``), hand it what the learner did (``offer``,
``go_on``, ``back``) and save it (``to_dict``) to resume later. A wrong decision is never
applied: the step's hint is shown and the step stays, so there is no dead end; ``back``
returns to the start of the previous step (its decisions and replies taken back) and a
front-end's "quit" simply stops using the run.

Texts are catalog keys (``lesson.CONTEXT``); the front-end shows them in its language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .lesson import Lesson, Step

READ, DECIDE, HINT, REFUSED, DONE = "read", "decide", "hint", "refused", "done"


@dataclass(frozen=True)
class Screen:
    """What a front-end shows now: catalog keys, the zones to point at, and the kind of
    answer expected (READ: go on; DECIDE: a decision; HINT/REFUSED: the last decision was
    not the one asked for, the step's hint is shown; DONE: the lesson is over)."""

    kind: str
    title: str
    say: str
    point: tuple[str, ...]
    number: int  # 1-based step number (steps + 1 when done)
    steps: int
    reason: str = ""  # REFUSED: the rules' own sentence (English; the words layer's)


@dataclass(frozen=True)
class Outcome:
    """What became of an offered decision: accepted (the replies that followed, as
    (player, notation) pairs) or not (HINT: legal but not this step's; REFUSED: illegal)."""

    accepted: bool
    kind: str = ""
    replies: tuple[tuple[str, str], ...] = ()
    reason: str = ""
    decision: int | str = ""  # what was offered (a front-end words a refusal from it)


@dataclass
class Run:
    lesson: Lesson
    index: int = 0  # the current step, 0-based; len(steps) when done
    played: list[str] = field(default_factory=list)  # every decision so far, in notation
    marks: list[int] = field(default_factory=list)  # len(played) when each step began
    wrong: Outcome | None = None  # the last offer was refused: its hint shows
    game: Any = None

    def __post_init__(self) -> None:
        if self.game is None:
            self.game = self._replay(self.played)
        if not self.marks:
            self.marks = [len(self.played)]

    # -- what to show --------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.lesson.steps)

    @property
    def seat(self) -> int:
        return self.game.players.index(self.lesson.player)

    def screen(self) -> Screen:
        n = len(self.lesson.steps)
        step = self.step
        if step is None:
            return Screen(DONE, "", "", (), n + 1, n)
        title = step.title or self._last_title()
        if self.wrong is not None:
            return Screen(
                self.wrong.kind,
                title,
                step.hint,
                step.shown_point,
                self.index + 1,
                n,
                self.wrong.reason,
            )
        kind = DECIDE if step.decides else READ
        return Screen(kind, title, step.say, step.point, self.index + 1, n)

    def _last_title(self) -> str:
        """A step without a title keeps the one before it (a chapter's heading)."""
        for step in reversed(self.lesson.steps[: self.index + 1]):
            if step.title:
                return step.title
        return self.lesson.title.upper()

    def expected(self) -> str | None:
        """The decision a scripted player makes at this step (None: read and go on)."""
        step = self.step
        return None if step is None else step.scripted

    # -- what the learner does -----------------------------------------------------

    def go_on(self) -> bool:
        """Acknowledge a step to be read (or the hint: back to the step's own words).
        False when the step asks for a decision instead."""
        if self.wrong is not None:
            self.wrong = None
            return True
        step = self.step
        if step is None or step.decides:
            return False
        for text in step.skip:  # the lesson plays on to where its next rule matters
            code = self.game.parse(text)
            self.played.append(self.game.format(code))
            self.game.apply(code)
        self._advance()
        return True

    def offer(self, decision: int | str) -> Outcome:
        """The learner's decision: applied if it is what the step asks (and the other
        side's replies after it), else refused with the step's hint, the game unchanged."""
        step = self.step
        game = self.game
        if step is None:
            return Outcome(False, DONE)
        try:
            why = game.why_illegal(decision)
        except ValueError as exc:
            why = str(exc)
        if why is not None:
            self.wrong = Outcome(False, REFUSED, reason=why, decision=decision)
            return self.wrong
        code = game.parse(decision) if isinstance(decision, str) else decision
        text = game.format(code)
        if not step.decides or game.decider != self.seat or not step.admits(text):
            self.wrong = Outcome(False, HINT)
            return self.wrong
        game.apply(code)
        self.played.append(text)
        replies = []
        for reply in step.reply:
            who, code = game.to_move, game.parse(reply)
            reply_text = game.format(code)
            game.apply(code)
            self.played.append(reply_text)
            replies.append((who, reply_text))
        self._advance()
        return Outcome(True, replies=tuple(replies))

    def back(self) -> bool:
        """Back to the start of the previous step (or of this one, showing a hint): its
        decisions and replies taken back. False at the first step with nothing to undo."""
        if self.wrong is not None:
            self.wrong = None
            return True
        if self.index == 0:
            return False
        self.index -= 1
        self.marks = self.marks[: self.index + 1]
        self.played = self.played[: self.marks[self.index]]
        self.game = self._replay(self.played)
        return True

    def _advance(self) -> None:
        self.wrong = None
        self.index += 1
        self.marks.append(len(self.played))

    def _replay(self, played: list[str]) -> Any:
        game = self.lesson.new_game()
        for text in played:
            game.apply(text)
        return game

    # -- saving --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: enough to resume (the game is replayed from the lesson's seed)."""
        return {
            "lesson": self.lesson.name,
            "step": self.index,
            "played": list(self.played),
            "marks": list(self.marks),
        }

    @classmethod
    def from_dict(cls, lesson: Lesson, data: dict[str, Any]) -> Run:
        """The run saved by ``to_dict``; ``ValueError`` when it does not fit this lesson
        (the lesson file changed since): the caller starts the lesson afresh."""
        if data.get("lesson") != lesson.name:
            raise ValueError(f"saved for lesson {data.get('lesson')!r}, not {lesson.name!r}")
        index, played, marks = data.get("step"), data.get("played"), data.get("marks")
        if (
            not isinstance(index, int)
            or not isinstance(played, list)
            or not isinstance(marks, list)
            or not 0 <= index <= len(lesson.steps)
            or len(marks) != index + 1
            or not all(isinstance(m, int) and 0 <= m <= len(played) for m in marks)
        ):
            raise ValueError("the saved lesson is not a lesson's progress")
        try:
            return cls(lesson, index=index, played=[str(p) for p in played], marks=list(marks))
        except ValueError as exc:  # a decision the lesson's game no longer allows
            raise ValueError(f"the saved lesson does not replay: {exc}") from None
