"""The simulator window's log: the game's story in words, with the session's notes
(refusals, misplaced pieces, undo, coach) where they happened, coloured by who acted.

A mixin of ``SimWindow`` (``window``); the attributes below are set by the window. The story's
entries and the session's notes are values (``core.text.Text``): the lines are rendered in
the language in use when the log is built, and built again when the language changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from haleakala import i18n
from haleakala.core.text import Param

from .palette import (
    TEXT,
)
from .story import DECISION_NOTE, Story

if TYPE_CHECKING:
    from .session import SimSession

LOG_KEEP = 80
NOTE_COLOUR = (150, 156, 170)
LOG_PLAYER = {"red": (250, 120, 110), "yellow": (245, 210, 90)}
LOG_ISLAND = (255, 150, 90)


class Logbook:
    """Keeps ``log_lines`` up to date for ``SimWindow``."""

    session: SimSession
    story: Story
    log_lines: list[tuple[str, tuple[int, int, int]]]
    _notes: list[tuple[int, Param]]
    _seen_note: Param | None
    _log_language: str | None = None

    def follow_log(self) -> bool:
        """Bring the log up to date: the game's story in words, with the session's notes
        (refusals, misplaced pieces, undo, coach) where they happened; True when it changed.
        The session's own decision lines ("12. 3@2 (player)") are left out: the story says
        them in words."""
        session = self.session
        changed = self.story.follow(session.game)
        notes = session.said
        start = 0
        if self._seen_note is not None:
            for i in range(len(notes) - 1, -1, -1):
                if notes[i] is self._seen_note:
                    start = i + 1
                    break
        fresh = [notes[i] for i in range(start, len(notes))]
        if fresh:
            self._seen_note = fresh[-1]
            for text in fresh:
                if not (isinstance(text, str) and DECISION_NOTE.match(text)):
                    self._notes.append((len(self.story.entries), text))
            del self._notes[:-LOG_KEEP]
            changed = True
        if changed or self._log_language != i18n.current():
            self._rebuild_log()
            self._log_language = i18n.current()
        return changed

    def _rebuild_log(self) -> None:
        entries = self.story.entries
        lines: list[tuple[str, tuple[int, int, int]]] = []
        notes = sorted(self._notes, key=lambda n: min(n[0], len(entries)))
        n = 0
        first = max(0, len(entries) - LOG_KEEP)
        for i in range(first, len(entries) + 1):
            while n < len(notes) and min(notes[n][0], len(entries)) <= i:
                lines.append((i18n.render(notes[n][1]), NOTE_COLOUR))
                n += 1
            if i < len(entries):
                entry = entries[i]
                if entry.who is not None:
                    colour = LOG_PLAYER[entry.who]
                elif entry.kind == "scoring":
                    colour = TEXT
                else:
                    colour = LOG_ISLAND
                indent = "    " if entry.kind in ("event", "scoring") and entry.who else ""
                lines.append((indent + i18n.render(entry.words), colour))
        self.log_lines = lines[-LOG_KEEP:]
