"""When recovery cannot settle what the files say: wait at the decision it can prove.

Recovery (``recovery.py``) accepts a record only when its digest proves it follows the
history accepted before it. Copies of proven records are skipped; but a record that is
intact, looks acknowledged (a ply and a digest this program writes) and still cannot be
connected to the proven history (records moved out of order, rules that changed, a splice
from another branch of the game) is a decision someone made that recovery cannot place. Then
it does not guess: nothing is rewritten, the journal and the snapshot as found are kept once
in ``*.bad-*`` backups, one log line names the backup and the last decision recovery can
prove, and the daemon pauses (``JournalDisagrees``) until ``haleakala journal resume --at N``
writes the proven history up to decision N (``resume_at``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala.games.haleakala import Game

from .games import Snapshot
from .records import encode_record, language_of, palette_of, settings_of, speech_of
from .storage import JournalDisagrees, keep_file_once, keep_once, write_atomically

if TYPE_CHECKING:
    from .storage import JournalError

log = logging.getLogger("haleakala.journal")


class Resumption:
    """The part of ``Journal`` that pauses an unsettled journal and resumes it by hand."""

    state_dir: Path
    path: Path
    snapshot_path: Path
    sync: bool
    readonly: bool
    header: dict[str, Any]
    sources: list[str]
    solo: str | None
    strength: str | None
    language: str | None
    palette: str | None
    speech: dict[str, Any] | None
    backups: list[Path]
    record_count: int
    size: int
    allocated: int
    failed: JournalError | None
    unsettled: JournalDisagrees | None
    proven: Game | None
    """The position recovery proved, while it waits for a decision (``unsettled``)."""

    if TYPE_CHECKING:  # provided by Recovery and Journal

        def _note(self, level: int, text: str) -> None: ...

        def _deal(self) -> dict[str, Any]: ...

        def close(self) -> None: ...

        def write_snapshot(self, game: Game) -> None: ...

    def records_to(
        self,
        history: list[int],
        sources: list[str],
        solo: str | None,
        strength: str | None,
        language: str | None,
        palette: str | None = None,
        speech: dict[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """Journal records that lead to the position after ``history``: the header, one
        decision record per decision (digests by replay), then the settings if they differ
        from the header's."""
        records: list[dict[str, Any]] = [self.header]
        game = Game(**self._deal())
        for ply, (d, by) in enumerate(zip(history, sources, strict=True), 1):
            game.apply(d)
            records.append(
                {
                    "type": "decision",
                    "ply": ply,
                    "decision": game.format(d),
                    "by": by,
                    "digest": game.digest(),
                }
            )
        if (solo, strength) != settings_of(self.header, None, None):
            records.append({"type": "solo", "solo": solo, "strength": strength})
        if language != language_of(self.header, None):
            records.append({"type": "language", "language": language})
        if palette != palette_of(self.header, None):
            records.append({"type": "palette", "palette": palette})
        if speech != speech_of(self.header, None):
            records.append({"type": "speech", "speech": speech})
        return records

    def _pause(
        self,
        game: Game,
        orphans: list[tuple[int, dict[str, Any]]],
        disagrees: str,
        size: int,
        snap: Snapshot | None,
    ) -> None:
        """Wait at ``game`` (what recovery proves): keep the files once, say so, write nothing."""
        self.proven = game.clone()
        proven = len(game.history)
        kept = None
        if not self.readonly:
            if size:
                kept = keep_file_once(self.path, sync=self.sync)
                self.backups.append(kept)
            if snap is not None:
                self.backups.append(keep_once(self.snapshot_path, snap.raw, sync=self.sync))
        if orphans:
            first, record = orphans[0]
            why = (
                f"{len(orphans)} intact records (the first is record {first}, decision "
                f"{record['ply']}) do not follow the history it proves"
            )
        else:
            why = disagrees
        where = f"kept in {kept.name}" if kept else f"left as found in {self.path.name}"
        text = (
            f"journal: {why}; the game is paused at decision {proven}, the last recovery can "
            f"prove; nothing is rewritten, the journal is {where}; to go on from there: "
            f"haleakala journal resume --at {proven} --state-dir {self.state_dir}"
        )
        self.unsettled = JournalDisagrees(text, proven=proven, kept=kept)
        self._note(logging.ERROR, text)

    def resume_at(self, decision: int) -> Game:
        """Write the proven history up to ``decision`` as the journal (and a snapshot of it),
        after keeping the files as they are: the choice ``haleakala journal resume`` makes.
        Raises ValueError with a sentence if there is nothing to resume or ``decision`` is
        not proven."""
        proven = self.proven
        if self.unsettled is None or proven is None:
            raise ValueError("the journal waits for no decision: a start resumes it by itself")
        if not 0 <= decision <= len(proven.history):
            raise ValueError(
                f"decision {decision} is not proven: the journal proves decisions 0 to "
                f"{len(proven.history)}"
            )
        history, sources = proven.history[:decision], self.sources[:decision]
        records = self.records_to(
            history, sources, self.solo, self.strength, self.language, self.palette, self.speech
        )
        new = b"".join(encode_record(r) for r in records)
        self.close()
        kept = [
            keep_file_once(path, sync=self.sync)
            for path in (self.path, self.snapshot_path)
            if path.exists()
        ]
        write_atomically(self.path, new, sync=self.sync)
        game = Game(**self._deal())
        for d in history:
            game.apply(d)
        self.sources, self.record_count, self.size = list(sources), len(records), len(new)
        self.allocated = len(new)
        self.write_snapshot(game)
        self.unsettled, self.proven, self.backups = None, None, kept
        names = ", ".join(path.name for path in kept)
        self._note(
            logging.WARNING,
            f"journal: resumed by hand at decision {decision}; the files as they were are "
            f"kept in {names}",
        )
        return game

    def signature(self) -> tuple[tuple[int, int, int], ...]:
        """What changes when the journal or the snapshot is replaced or written (a daemon that
        waits for ``haleakala journal resume`` looks again when it changes)."""
        found = []
        for path in (self.path, self.snapshot_path):
            try:
                st = os.stat(path)
                found.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                found.append((0, -1, 0))
        return tuple(found)
