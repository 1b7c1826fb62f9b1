"""Durability: a change is shown first, then journaled, then acknowledged in the log.

The controller shows a new position at once (instant feedback) and hands the keeper what
is not saved yet (``UnsavedDecision`` / ``UnsavedUndo``). After drawing, the keeper appends
it to the journal and fsyncs, and only then logs the acknowledgement ("ack decision 12 red
3@2 by player digest …"). If the journal cannot be written (storage full, a file of the
wrong owner) the keeper pauses: the change stays shown but unacknowledged, the controller
refuses inputs that would decide and says why, and the write is tried again every
``RETRY_S`` until it succeeds and the game goes on by itself.

A journal whose intact records recovery cannot connect to the history it proves
(``JournalDisagrees``) pauses the game the same way, at the last decision recovery can prove,
before anything is decided: nothing is written, the OLED says what to run, and the keeper looks
at the files again every ``RETRY_S``; once ``haleakala journal resume`` has written them (or
they were put back), the game goes on from what they now prove.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol

from haleakala.core.text import Param
from haleakala.games.haleakala import PLAYERS, Game
from haleakala.games.haleakala.words import board as BW

from .journal import JournalDisagrees, JournalError
from .ui import Message

if TYPE_CHECKING:
    from . import ui as U
    from .journal import Journal
    from .solo import Seat
    from .watch import BoardWatch

log = logging.getLogger("haleakala.companion")

RETRY_S = 2.0
"""While the journal cannot be written, the pending decision is saved again this often."""
MESSAGE_S = 3.0
"""A pause's note stays this long past the next retry (so it shows until the one after)."""


@dataclass(frozen=True)
class UnsavedDecision:
    """A decision shown but not yet in the journal: the position before it, and who made it."""

    before: Game
    by: str


@dataclass(frozen=True)
class UnsavedUndo:
    """An undo shown but not yet in the journal: the position before it, its decisions'
    sources, and how many decisions it took back."""

    before: Game
    sources: tuple[str, ...]
    count: int


class Waits(Protocol):
    """What the keeper changes of the controller when a journal that waited settles."""

    game: Game
    sources: list[str]
    notes: tuple[Param, ...]
    panel: U.Panel
    seat: Seat
    watch: BoardWatch

    def refresh(self) -> None: ...

    def render(self) -> None: ...

    def new_game(self, variant: str | None = None, seed: int | None = None) -> None: ...


Unsaved = UnsavedDecision | UnsavedUndo
Saved = Literal["saved", "resumed", "paused"]


class Keeper:
    """The journal's side of the controller: what is shown but unsaved, and whether the
    game is paused because it cannot be saved."""

    def __init__(self, journal: Journal | None, clock: Callable[[], float]) -> None:
        self.journal = journal
        self.clock = clock
        self.unsaved: Unsaved | None = None
        self.paused: JournalError | None = None  # why the pending change is not saved yet
        self.retry_at = 0.0
        self.acknowledged = 0
        self.notes: tuple[Param, ...] = ()
        self._asked: tuple[str | None, str | None] = (None, None)  # solo, strength to resume
        self._files: tuple[tuple[int, int, int], ...] = ()  # the files a waiting pause read

    @property
    def waiting(self) -> bool:
        """Paused before anything was decided: the journal waits for ``journal resume``."""
        return isinstance(self.paused, JournalDisagrees)

    def resume(
        self, seat: Seat, solo: str | None, strength: str | None
    ) -> tuple[Game, list[str]] | None:
        """The journal's game and its decisions' sources (the seat as the journal recorded
        it, unless ``solo``/``strength`` say otherwise); None: nothing to resume. ``notes``:
        what the recovery repaired, for the OLED."""
        journal = self.journal
        if journal is None:
            return None
        self._asked = (solo, strength)
        resumed = journal.recover()
        short = (journal.failed.short,) if journal.failed else ()
        self.notes = short or tuple(journal.notes[-2:])
        if resumed is None:
            return None
        seat.resume(journal, solo, strength)
        if journal.unsettled is not None:  # the message says it all: no notes under it
            self.paused, self.notes = journal.unsettled, ()
            self.retry_at = self.clock()  # at once: the first look shows why it waits
            self._files = journal.signature()
        log.info(
            "%s game %s (%s, seed %d) at decision %d, digest %s",
            "paused" if self.waiting else "resumed",
            journal.game_id,
            resumed.variant,
            resumed.seed,
            len(resumed.history),
            resumed.digest(),
        )
        return resumed, list(journal.sources)

    def start(self, game: Game, seat: Seat) -> None:
        """A new game: the journal starts over with it (and the seat's settings)."""
        if self.journal is not None:
            # The language chosen at the board carries over to the next game's journal.
            self.journal.start(
                game,
                **seat.settings(),
                language=self.journal.language,
                palette=self.journal.palette,
                speech=self.journal.speech,
            )
        log.info(
            "new game %s (%s, seed %d, %s starts), digest %s",
            self.journal.game_id if self.journal else "-",
            game.variant,
            game.seed,
            PLAYERS[game.start],
            game.digest(),
        )

    def due(self) -> bool:
        """Something to save (or journal files to look at again), and not waiting for the
        next retry."""
        pending = self.unsaved is not None or self.waiting
        return pending and (self.paused is None or self.clock() >= self.retry_at)

    def recheck(self, host: Waits) -> None:
        """While the journal waits: look at its files again if they changed (``haleakala
        journal resume`` wrote them) and go on from what they prove now; else keep saying
        why the game waits (a journal gone meanwhile: a new game)."""
        journal = self.journal
        assert journal is not None and self.waiting
        self.retry_at = self.clock() + RETRY_S
        files = journal.signature()
        resumed = None
        if files != self._files:
            self.paused = None
            resumed = self.resume(host.seat, *self._asked)
        if self.waiting or files == self._files:
            host.panel = replace(host.panel, message=self.note(MESSAGE_S))
        elif resumed is None:
            host.new_game()
        else:
            log.warning("journal settled: the game goes on at decision %d", len(resumed[0].history))
            host.game, host.sources = resumed
            host.notes = self.notes
            host.panel = replace(host.panel.reset(), instructions=())
            host.watch.changed_by_game(BW.NEW_GAME_CLEAR)
            host.refresh()
        host.render()

    def note(self, seconds: float) -> Message:
        """The OLED's note while paused: why, and what fixes it; it stays ``seconds`` past
        the next retry (so it shows until the retry after next)."""
        assert self.paused is not None
        until = self.retry_at + seconds
        return Message(self.paused.title, self.paused.short, refusal=True, until=until)

    def forget(self) -> None:
        """A new game: a change held by a pause went with the old one."""
        self.unsaved, self.paused = None, None

    def save(self, game: Game, digest: str) -> Saved:
        """Append the unsaved change (now ``game``) to the journal and acknowledge it:
        "saved"; "resumed" when that ends a pause; "paused" when it cannot be written."""
        unsaved = self.unsaved
        assert unsaved is not None
        try:
            if self.journal is not None and isinstance(unsaved, UnsavedDecision):
                self.journal.append_decision(game, unsaved.by, digest)
            elif self.journal is not None and isinstance(unsaved, UnsavedUndo):
                self.journal.append_undo(game, unsaved.count)
        except JournalError as exc:
            if self.paused is None or self.paused.errno != exc.errno:
                log.error("game paused, the last decision is not saved yet: %s", exc)
            self.paused = exc
            self.retry_at = self.clock() + RETRY_S
            return "paused"
        self.unsaved = None
        outcome: Saved = "saved"
        if self.paused is not None:
            log.warning("journal written again: the game goes on")
            self.paused = None
            outcome = "resumed"
        if isinstance(unsaved, UnsavedDecision):
            self.acknowledged += 1
            log.info(
                "ack decision %d %s %s by %s digest %s",
                len(game.history),
                PLAYERS[unsaved.before.decider],
                game.format(game.history[-1]),
                unsaved.by,
                digest,
            )
        else:
            log.info(
                "ack undo %d to decision %d digest %s",
                unsaved.count,
                len(game.history),
                game.digest(),
            )
        return outcome

    def keep_log(self, old: Game) -> None:
        """Before a new game: the current one is kept as a game log if it had decisions."""
        journal = self.journal
        if journal is not None and old.history and journal.archived is None:
            try:
                path = journal.archive(old)
                log.info("kept the previous game as %s", path)
            except OSError as exc:
                log.error("could not keep the previous game's log: %s", exc)

    def housekeeping(self, game: Game) -> None:
        """The snapshot when due, and the game log once the game is over (not while paused:
        they wait for the pending change)."""
        journal = self.journal
        if journal is None or self.paused is not None:
            return
        try:
            if journal.snapshot_due:
                journal.write_snapshot(game)
            if game.is_terminal() and journal.archived is None:
                path = journal.archive(game)
                log.info("game over; game log kept as %s", path)
        except OSError as exc:
            log.error("snapshot or game log not written: %s", exc)
