"""The journal of the game in progress: what the controller accepted, durable on return.

Every accepted decision is appended as one record and fsynced before it is acknowledged;
every ``snapshot_every`` decisions ``snapshot.json`` is replaced atomically so a restart
replays only the tail. On the kit's card (``preallocate``) the file is written ahead with
zeros and each record overwrites some of them, synced with ``fdatasync``: no file-system
metadata changes with an acknowledgement, so the card receives one page and a flush per
decision, not an ext4 journal commit as well (docs/benchmarks.md, the write budget; the
booted crash states, ``tools/virtual-pi crash``, prove nothing acknowledged is lost).

A failed append (disk full, I/O error, a file that belongs to another user) cuts the file
back to its last good size at once, and no later record is written until that cut has
succeeded: acknowledged records are never followed by a partial one. Reading a journal back
after a power cut or damage is ``Recovery``'s job (``recovery.py``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.games.haleakala import PLAYERS, Game

from .games import game_log_lines, snapshot_bytes
from .records import (
    CARD_AHEAD,
    DEFAULT_SNAPSHOT_EVERY,
    FORMAT,
    GAMES_DIR,
    JOURNAL_NAME,
    SNAPSHOT_FORMAT,
    SNAPSHOT_NAME,
    SNAPSHOT_VERSION,
    VERSION,
    encode_record,
    new_game_id,
)
from .recovery import Recovery
from .scan import Progress
from .storage import Disk, JournalDisagrees, JournalError, storage_error, write_atomically

log = logging.getLogger("haleakala.journal")


@dataclass
class Journal(Recovery):
    """The journal of the game in progress in ``state_dir``.

    ``recover()`` returns the game found there (or None); ``start(game)`` begins a new one;
    ``append_decision`` / ``append_undo`` record what the controller accepted.
    """

    state_dir: Path
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    sync: bool = True
    header: dict[str, Any] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    """Who made each decision of the history (parallel to ``game.history``)."""
    notes: list[str] = field(default_factory=list)
    """What recovery had to repair, for the log and the OLED."""
    record_count: int = 0
    since_snapshot: int = 0
    digest_mismatches: int = 0
    solo: str | None = None
    """The colour the companion plays in this game (None: nobody), as last recorded."""
    strength: str | None = None
    """The solo bot's strength as last recorded (None: never recorded)."""
    language: str | None = None
    """The language chosen in the board's menu as last recorded (None: never chosen)."""
    palette: str | None = None
    """The colour mode chosen in the board's menu as last recorded (None: never chosen)."""
    speech: dict[str, Any] | None = None
    """The verbosity and volume chosen in the board's menu as last recorded (None: never)."""
    disk: Disk = field(default_factory=Disk)
    """Where appends go (a fault-injecting stand-in in tests)."""
    readonly: bool = False
    """Recovery only reads and says what a start would do (``haleakala journal check``)."""
    progress: Progress | None = None
    """Told how far recovery has read a long journal (the daemon tells systemd it needs
    longer to start: ``daemon.StartupClock``)."""
    preallocate: int = 0
    """Zeros written ahead of the records, in stretches of this many bytes (0: none, the file
    grows with each record). With them an append changes the file's contents only: its size
    and blocks stay, its times are the only other change, and ``fdatasync`` (which the
    appends then use) does not write those, so acknowledging a decision commits no
    file-system metadata. A stretch used up is followed by the next in the same write."""

    @classmethod
    def on_card(
        cls,
        state_dir: Path,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        progress: Progress | None = None,
    ) -> Journal:
        """The daemon's journal (``haleakala run``): written ahead, synced with fdatasync."""
        return cls(
            state_dir, snapshot_every=snapshot_every, preallocate=CARD_AHEAD, progress=progress
        )

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.path = self.state_dir / JOURNAL_NAME
        self.snapshot_path = self.state_dir / SNAPSHOT_NAME
        self.games_dir = self.state_dir / GAMES_DIR
        self._fd: int | None = None
        self.archived: Path | None = None
        self.size = 0
        """Bytes of whole, acknowledged records in ``journal.bin`` (the last good size)."""
        self.allocated = 0
        """Bytes in the file: the records and the zeros written ahead of them."""
        self.failed: JournalError | None = None
        """Why the last write failed; no record is appended until the file is restored."""
        self._repair: Callable[[], None] | None = None  # what recovery could not write yet
        self.backups: list[Path] = []
        """The backups the last recovery made (the files as they were before)."""
        self.unsettled: JournalDisagrees | None = None
        """Why recovery waits at the decision it can prove (nothing is written until
        ``resume_at``), or None."""
        self.proven: Game | None = None

    # -- paths and file handle ------------------------------------------------------

    @property
    def game_id(self) -> str | None:
        return self.header.get("game")

    def _open_append(self) -> int:
        if self._fd is None:
            disk = self.disk
            self._fd = (
                disk.open_write(self.path) if self.preallocate else disk.open_append(self.path)
            )
        return self._fd

    def _ahead(self, data: bytes) -> bytes:
        """``data`` and the zeros after it up to the next stretch's end (none without
        ``preallocate``)."""
        if not self.preallocate:
            return data
        end = (len(data) // self.preallocate + 1) * self.preallocate
        return data + bytes(end - len(data))

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    # -- writing ----------------------------------------------------------------------

    def start(
        self,
        game: Game,
        game_id: str | None = None,
        *,
        solo: str | None = None,
        strength: str | None = None,
        language: str | None = None,
        palette: str | None = None,
        speech: dict[str, Any] | None = None,
    ) -> None:
        """Begin the journal of a new game (atomically replacing the previous one)."""
        self.close()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.header = {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "game": game_id or new_game_id(),
            "variant": game.variant,
            "seed": game.seed,
            "start": PLAYERS[game.start],
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        if solo is not None or strength is not None:
            self.header.update(solo=solo, strength=strength)
        self.solo, self.strength = solo, strength
        if language is not None:
            self.header["language"] = language
        self.language = language
        if palette is not None:
            self.header["palette"] = palette
        self.palette = palette
        if speech is not None:
            self.header["speech"] = speech
        self.speech = speech
        first = encode_record(self.header)
        whole = self._ahead(first)
        try:
            write_atomically(self.path, whole, sync=self.sync)
            with contextlib.suppress(FileNotFoundError):
                self.snapshot_path.unlink()
        except OSError as exc:
            raise storage_error(exc, self.path, "start the journal in") from exc
        self.failed, self._repair, self.unsettled, self.proven = None, None, None, None
        self.size, self.allocated = len(first), len(whole)
        self.sources = []
        self.record_count = 1
        self.since_snapshot = 0
        self.archived = None
        if game.history:  # a game started from a position: journal the way there
            again = Game(**self._deal())
            for d in game.history:
                again.apply(d)
                self.append_decision(again)

    def _restore(self) -> None:
        """Make the file end at the last good size again (cut what a failed append left;
        write a repair recovery could not). Raises JournalError while that fails."""
        try:
            if self._repair is not None:
                self._repair()
                self._repair = None
            fd = self._open_append()
            if os.fstat(fd).st_size > self.size:  # (the zeros ahead go too: written anew)
                self.disk.truncate(fd, self.size)
                self.allocated = self.size
                if self.sync:
                    self.disk.sync(fd)
        except OSError as exc:
            self.close()
            self.failed = storage_error(exc, self.path)
            raise self.failed from exc
        self.failed = None

    def _append(self, payload: dict[str, Any]) -> None:
        if self.unsettled is not None:  # the files wait for a decision: never append a guess
            raise self.unsettled
        if self.failed is not None:
            self._restore()
        record = encode_record(payload)
        try:
            fd = self._open_append()
            if self.preallocate:
                self._write_ahead(fd, record)
            else:
                view = memoryview(record)
                while view:
                    written = self.disk.write(fd, view)
                    if written <= 0:
                        raise OSError(errno.EIO, "the write wrote nothing")
                    view = view[written:]
                if self.sync:
                    self.disk.sync(fd)  # a card failing under the fsync is caught here too
        except OSError as exc:
            error = storage_error(exc, self.path)
            log.error("%s", error)
            self.failed = error
            with contextlib.suppress(JournalError):
                self._restore()  # cut the partial record now; if not, before the next one
            raise error from exc
        self.size += len(record)
        self.record_count += 1

    def _write_ahead(self, fd: int, record: bytes) -> None:
        """``record`` over the zeros after the last one (and, if it passes their end, the
        next stretch of zeros with it), then ``fdatasync``: the data and, when the file grew,
        its size; not its times, which nothing reads back."""
        data = record
        end = self.size + len(record)
        if end >= self.allocated:
            data = record + bytes((end // self.preallocate + 1) * self.preallocate - end)
        at, view = self.size, memoryview(data)
        while view:
            written = self.disk.pwrite(fd, view, at)
            if written <= 0:
                raise OSError(errno.EIO, "the write wrote nothing")
            view, at = view[written:], at + written
        if self.sync:
            self.disk.sync(fd, data_only=True)  # fdatasync, proven as an fsync is
        self.allocated = max(self.allocated, at)

    def append_decision(self, game: Game, by: str = "player", digest: str | None = None) -> None:
        """Record the last decision of ``game`` (already applied); durable on return."""
        d = game.history[-1]
        self._append(
            {
                "type": "decision",
                "ply": len(game.history),
                "decision": game.format(d),
                "by": by,
                "digest": digest or game.digest(),
            }
        )
        self.sources.append(by)
        self.since_snapshot += 1

    def append_solo(self, solo: str | None, strength: str | None) -> None:
        """Record a change of solo mode (who the companion plays, how strongly)."""
        self._append({"type": "solo", "solo": solo, "strength": strength})
        self.solo, self.strength = solo, strength

    def append_language(self, language: str) -> None:
        """Record a change of language in the board's menu (a daemon restarted without
        ``--lang`` speaks it again)."""
        self._append({"type": "language", "language": language})
        self.language = language

    def append_palette(self, palette: str) -> None:
        """Record a change of colour mode in the board's menu (a daemon restarted lights the
        board in it again, whatever the config says)."""
        self._append({"type": "palette", "palette": palette})
        self.palette = palette

    def append_speech(self, speech: dict[str, Any]) -> None:
        """Record a change of verbosity or volume in the board's menu (a restarted daemon
        speaks as the players last chose, whatever the config says)."""
        self._append({"type": "speech", "speech": speech})
        self.speech = speech

    def append_undo(self, game: Game, count: int) -> None:
        """Record that the last ``count`` decisions were taken back (``game`` is after)."""
        self._append(
            {"type": "undo", "count": count, "ply": len(game.history), "digest": game.digest()}
        )
        del self.sources[len(game.history) :]
        self.since_snapshot += 1

    @property
    def snapshot_due(self) -> bool:
        return (
            self.snapshot_every > 0
            and self.since_snapshot >= self.snapshot_every
            and self.failed is None
        )

    def write_snapshot(self, game: Game) -> None:
        """Replace the snapshot with ``game`` (covering every record written so far)."""
        snap = {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "game": self.game_id,
            "records": self.record_count,
            "digest": game.digest(),
            "sources": self.sources,
            "state": game.to_json(),
        }
        write_atomically(self.snapshot_path, snapshot_bytes(snap), sync=self.sync)
        self.since_snapshot = 0

    def archive(self, game: Game) -> Path:
        """Keep ``game`` as a game log (one JSON record per line) under ``games/``."""
        self.games_dir.mkdir(parents=True, exist_ok=True)
        name = f"{self.game_id or new_game_id()}.jsonl"
        lines = game_log_lines(game)
        data = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        target = self.games_dir / name
        write_atomically(target, data.encode(), sync=self.sync)
        self.archived = target
        return target
