"""``haleakala learn --check``: every lesson loads, and a scripted player completes it in every
language; how many decisions and screens it takes, and the time to the first placement at a
human pace computed from the lesson's data (never a wall clock).

The scripted player reads each screen, makes one wrong decision at the first step that asks
for one, goes back from its hint and once more to the step before (so the hint and the way
back are exercised too), then makes the expected decisions. Its
pace is a model, stated here so the number can be argued with: a screen takes
``LOOK_S`` plus its words at ``WORDS_PER_MINUTE``; a decision takes ``DECIDE_S`` more (find the
disc, put it down). The time counts the screens of the learner's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from haleakala.gameapi import describe

from .engine import DECIDE, DONE, HINT, READ, REFUSED, Run
from .lesson import CONTEXT, Lesson, LessonError, lesson_paths, load

WORDS_PER_MINUTE = 180
"""Reading speed of a player at the table reading a small screen (silent reading of easy
text is 200-250 words a minute for adults; a glance at the board in between slows it)."""
LOOK_S = 1.5
"""Seconds to take in a new screen and find what the lights point at."""
DECIDE_S = 4.0
"""Seconds to carry out a decision at the table: pick the disc, put it on the beach, or turn
the encoder to the choice and press."""


def reading_seconds(text: str) -> float:
    return LOOK_S + len(text.split()) * 60.0 / WORDS_PER_MINUTE


@dataclass
class Report:
    lesson: str
    language: str
    decisions: int = 0  # the learner's decisions, the wrong one included
    screens: int = 0  # screens shown (steps, hints)
    first_placement_s: float | None = None  # at the modelled pace, no detour
    seconds: float = 0.0  # the scripted player's whole lesson (its detour included)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        first = (
            "no placement" if self.first_placement_s is None else f"{self.first_placement_s:.0f}s"
        )
        state = "ok" if self.ok else "FAILED: " + "; ".join(self.problems)
        return (
            f"{self.lesson} [{self.language}]: {self.decisions} decisions, {self.screens} "
            f"screens, first placement at {first}, whole lesson {self.seconds:.0f}s: {state}"
        )


def wrong_decision(run: Run) -> str | None:
    """A legal decision the current step does not ask for (None: there is none)."""
    step = run.step
    if step is None:
        return None
    for text in run.game.legal_decisions():
        if not step.admits(text):
            return text
    return None


def play(
    lesson: Lesson,
    language: str,
    *,
    show: Callable[[Run], Any] | None = None,
    decide: Callable[[Run, str], Any] | None = None,
    go_on: Callable[[Run], Any] | None = None,
) -> Report:
    """Complete ``lesson`` as the scripted player, speaking ``language``. ``show`` is called
    with the run at every screen (a front-end draws it there); ``decide`` and ``go_on`` let
    a front-end carry the player's actions out through its own inputs (default: the run)."""
    from haleakala import i18n

    report = Report(lesson.name, language)
    i18n.use(language)
    run = Run(lesson)
    tried_wrong = False
    pace = 0.0
    guard = 0
    while not run.done and guard < 10 * len(lesson.steps) + 10:
        guard += 1
        screen = run.screen()
        report.screens += 1
        pace += reading_seconds(i18n.pgettext(CONTEXT, screen.say))
        if show is not None:
            show(run)
        if screen.kind == READ:
            (go_on or Run.go_on)(run)
            continue
        if screen.kind in (HINT, REFUSED):
            before = run.index
            run.back()  # the way back: to the step's own words
            if run.index != before or run.wrong is not None:
                report.problems.append(f"step {before + 1}: back from the hint moved the lesson")
            elif before > 0:  # and once more: the way back to the last step
                run.back()
                if run.index != before - 1:
                    report.problems.append(f"step {before + 1}: back did not reach the last step")
            continue
        if screen.kind == DECIDE:
            wrong = wrong_decision(run) if not tried_wrong else None
            text = wrong if wrong is not None else run.expected()
            tried_wrong = tried_wrong or wrong is not None
            assert text is not None
            index = run.index
            (decide or _offer)(run, text)
            report.decisions += 1
            pace += DECIDE_S
            if wrong is None:
                if run.index != index + 1:
                    report.problems.append(f"step {index + 1}: {text!r} was not accepted")
                    break
            elif run.wrong is None or run.index != index:
                report.problems.append(f"step {index + 1}: the wrong {text!r} was accepted")
                break
    if not run.done:
        report.problems.append(f"stopped at step {run.index + 1} of {len(lesson.steps)}")
    elif run.screen().kind != DONE:
        report.problems.append("the lesson did not say it is done")
    report.seconds = pace
    report.first_placement_s = first_placement_seconds(lesson)
    return report


def first_placement_seconds(lesson: Lesson) -> float | None:
    """Seconds from the lesson's first screen to its first placement, for a player who reads
    each screen at the modelled pace and makes each asked decision at once (the language in
    use: its words are what is read). None: the lesson places nothing."""
    from haleakala import i18n

    # A game's first placement in notation (its description's ``first_placement``: a disc
    # on a beach, a bridge on a line, a piece on an island); never, where it names none.
    placement = re.compile(describe(lesson.game).first_placement or r"$^")
    seconds = 0.0
    for step in lesson.steps:
        seconds += reading_seconds(i18n.pgettext(CONTEXT, step.say))
        if step.decides:
            seconds += DECIDE_S
            if placement.search(step.scripted or ""):
                return seconds
    return None


def _offer(run: Run, text: str) -> None:
    run.offer(text)


def check_all(languages: tuple[str, ...] | None = None) -> Iterator[Report | str]:
    """Load every lesson (a refused one is a problem line) and play each in every language."""
    from haleakala import i18n

    languages = languages or i18n.LANGUAGES
    before = i18n.current()
    try:
        for path in lesson_paths():
            try:
                lesson = load(path)
            except LessonError as exc:
                yield f"refused: {exc}"
                continue
            for language in languages:
                yield play(lesson, language)
    finally:
        i18n.use(before)
