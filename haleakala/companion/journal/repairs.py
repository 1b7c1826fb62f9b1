"""The files recovery changes: a journal rewritten with the records kept, a damaged snapshot
kept aside and written again, a journal that names no game moved aside, and a journal another
user owns named with its fix. Each change first keeps the files as they were in a uniquely
named backup; a repair a full disk refuses waits, and the journal writes it before its next
record. With ``readonly`` (``haleakala journal check``) nothing is written: the notes say
what a start would do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala.games.haleakala import Game

from .games import Snapshot
from .records import encode_record
from .storage import (
    JournalError,
    keep_file,
    move_aside,
    ownership_fix,
    runs_as,
    storage_error,
    unwritable,
    write_atomically,
)


class Repairs:
    """The writing half of recovery (``Recovery`` reads and decides; this changes files)."""

    state_dir: Path
    path: Path
    snapshot_path: Path
    sync: bool
    readonly: bool
    backups: list[Path]
    size: int
    allocated: int
    failed: JournalError | None
    _repair: Callable[[], None] | None

    if TYPE_CHECKING:  # provided by Recovery and Journal

        def _note(self, level: int, text: str) -> None: ...

        def close(self) -> None: ...

        def _open_append(self) -> int: ...

        def write_snapshot(self, game: Game) -> None: ...

    def _replace_snapshot(self, game: Game) -> None:
        """Keep an unusable snapshot aside, byte for byte, and write the recovered position
        in its place: the next snapshot would otherwise overwrite the damaged bytes unkept,
        and the next start would report the same damage again."""
        game = game.clone()  # a repair that waits must not see the decisions played meanwhile

        def repair() -> None:
            if self.snapshot_path.exists():  # a link, not a read: it may be huge
                self.backups.append(keep_file(self.snapshot_path, sync=self.sync))
            self.write_snapshot(game)
            self._note(
                logging.WARNING,
                f"snapshot: written again at decision {len(game.history)}; the damaged one "
                f"is kept in {self.backups[-1].name if self.backups else 'nothing'}",
            )

        try:
            repair()
        except OSError as exc:  # e.g. a full disk: written before the next record
            self._repair = repair
            self.failed = storage_error(exc, self.snapshot_path, "repair")
            self._note(logging.ERROR, str(self.failed))

    def _rewrite(
        self,
        size: int,
        kept: list[dict[str, Any]],
        game: Game,
        snap: Snapshot | None,
        stands: bool,
    ) -> None:
        """Back up the journal and the snapshot as they are, then replace the journal with
        the records kept and write a snapshot of the position (so they agree again)."""
        new = b"".join(encode_record(r) for r in kept)
        game = game.clone()  # a repair that waits must not see the decisions played meanwhile
        if self.readonly:
            self._note(
                logging.WARNING,
                f"journal: a start keeps {len(kept)} records (decision "
                f"{len(game.history)}) and keeps the files as they are in backups first",
            )
            return

        def repair() -> None:
            self.close()  # the file is replaced: a handle would write to the old one
            if size:  # the journal as found, every byte (a cut tail too), under a new name
                self.backups.append(keep_file(self.path, sync=self.sync))
            if self.snapshot_path.exists() and not stands:
                self.backups.append(keep_file(self.snapshot_path, sync=self.sync))
            write_atomically(self.path, new, sync=self.sync)
            self.size = self.allocated = len(new)
            if not stands:
                self.write_snapshot(game)
            names = ", ".join(p.name for p in self.backups) or "nothing to keep"
            self._note(
                logging.WARNING,
                f"journal: rewritten with {len(kept)} records at decision "
                f"{len(game.history)}; the files as they were are kept in {names}",
            )

        try:
            repair()
        except OSError as exc:  # e.g. a full disk: play on from memory, repair before writing
            self._repair = repair
            self.failed = storage_error(exc, self.path, "repair")
            self._note(logging.ERROR, str(self.failed))

    def _set_aside(self, why: str) -> None:
        """A journal that names no game: moved aside whole (with the snapshot), never cut."""
        self.close()
        if self.readonly:
            self._note(logging.ERROR, f"journal {why}; a start moves it aside, begins afresh")
            return
        moved = []
        for path in (self.path, self.snapshot_path):
            if path.exists():  # renamed, whole: nothing is read, copied or cut
                moved.append(move_aside(path, sync=self.sync))
        self.backups = moved
        names = ", ".join(p.name for p in moved)
        self._note(logging.ERROR, f"journal {why}; moved to {names}, starting afresh")

    def _check_writable(self) -> None:
        """A journal another user owns (after ``sudo haleakala run``): say so now, with the
        fix, rather than on the first decision."""
        try:
            self._open_append()
        except OSError as exc:
            self.failed = storage_error(exc, self.path, "append to")
            self._note(logging.ERROR, str(self.failed))
            return
        for path in unwritable(self.state_dir):
            owner, fix = ownership_fix(path)
            self._note(
                logging.ERROR,
                f"{path} belongs to {owner} and the daemon ({runs_as()}) cannot write it: {fix}",
            )
