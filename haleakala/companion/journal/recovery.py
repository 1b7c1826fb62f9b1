"""Recovery on start: the game of a journal exactly as last acknowledged, whatever happened.

Recovery never destroys anything: it reads every record it can (``scan.scan_journal``) and
picks the longest history it can *verify*: the journal replayed from its header, the
snapshot, and journal records after the snapshot's position whose digests prove they follow
it. Every decision and undo must prove itself: it is accepted only when its digest is the
digest of the position the history accepted before it leads to (its position, not its place
in the file; a CRC only says the bytes are whole). A copy of a record already proven is
skipped; the snapshot is used only when the journal reaches its position or proves less of
the same history. If the files must change, the old journal and snapshot are first copied to
uniquely named backups (``journal.bin.bad-…``, ``snapshot.json.bad-…``), then the journal is
replaced atomically with the records kept and a fresh snapshot is written. A repair that
cannot be written (a full disk) waits, and the journal writes it before its next record.
When intact, acknowledged records cannot be connected to the proven history, nothing is
rewritten: the game waits at the last decision recovery can prove (``resume.Resumption``).
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from haleakala.core.statefile import StateFileError
from haleakala.games.haleakala import Game

from .games import Snapshot, deal_from, read_snapshot, replay
from .records import (
    CARD_AHEAD,
    FORMAT,
    SOURCES,
    VERSION,
    acknowledged,
    counted,
    deal_of,
    is_header,
    language_of,
    loose_header,
    may_follow,
    new_game_id,
    palette_of,
    record_follows,
    settings_of,
    settle,
    speech_of,
)
from .repairs import Repairs
from .resume import Resumption
from .scan import JournalScan, Piece, Progress, scan_file
from .storage import JournalDisagrees, JournalError, newer_format, refused, storage_error

log = logging.getLogger("haleakala.journal")


@dataclass
class _Walk:
    """Recovery's replay of the journal: the position so far and the records it kept."""

    game: Game | None
    sources: list[str]
    kept: list[dict[str, Any]]
    solo: str | None
    strength: str | None
    last: int = 0  # index of the last piece taken
    language: str | None = None  # the board menu's language as last recorded
    palette: str | None = None  # the board menu's colour mode as last recorded
    speech: dict[str, Any] | None = None  # the board menu's verbosity and volume
    anchored: bool = False  # the position comes from the snapshot
    uncertain: bool = False  # a record was lost: the next must prove it follows
    reached: set[tuple[int, str]] = field(default_factory=set)  # positions proven on the way
    skipped: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # left out
    first_change: int = 1 << 30  # first piece left out: the records before keep their index
    gap: int = -1  # index of the last unreadable piece
    changed: list[str] = field(default_factory=list)  # why the journal must be rewritten


class Recovery(Repairs, Resumption):
    """The recovery half of ``Journal`` (``writer.py``): reads the files of ``state_dir``
    back into a game, mending and setting aside what it must, and notes what it repaired.

    The attributes below are the journal's (declared here so the type checker sees them)."""

    state_dir: Path
    path: Path
    snapshot_path: Path
    games_dir: Path
    sync: bool
    header: dict[str, Any]
    sources: list[str]
    notes: list[str]
    backups: list[Path]
    record_count: int
    since_snapshot: int
    digest_mismatches: int
    solo: str | None
    strength: str | None
    language: str | None
    palette: str | None
    speech: dict[str, Any] | None
    size: int
    allocated: int
    archived: Path | None
    failed: JournalError | None
    readonly: bool
    unsettled: JournalDisagrees | None
    progress: Progress | None
    _repair: Callable[[], None] | None

    if TYPE_CHECKING:  # provided by Journal: its file handle and snapshot writer

        @property
        def game_id(self) -> str | None: ...
        def close(self) -> None: ...
        def _open_append(self) -> int: ...
        def write_snapshot(self, game: Game) -> None: ...

    def _note(self, level: int, text: str) -> None:
        self.notes.append(text)
        log.log(level, "%s", text)

    # -- recovery ---------------------------------------------------------------------

    def recover(self) -> Game | None:
        """The game of this journal, exactly as last acknowledged; None if there is none.

        Reads every record it can, picks the longest verifiable history from the journal
        and the snapshot, and, if the files must change, backs them up before replacing."""
        self.notes, self.backups = [], []
        self.close()
        self.failed, self._repair, self.unsettled, self.proven = None, None, None, None
        if not self.readonly:
            self.state_dir.mkdir(parents=True, exist_ok=True)
        for path in (self.path, self.snapshot_path):  # unreadable: wait for the fix, touch nothing
            if path.exists() and not os.access(path, os.R_OK):
                raise storage_error(PermissionError(errno.EACCES, "not readable"), path, "read")
        found = self._scan()
        if not found.size and not self.snapshot_path.exists():
            return None
        pieces, size = found.pieces, found.size
        first = pieces[0].payload if pieces else None
        header = first if is_header(first) else None
        version = header.get("version") if header is not None else None
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise newer_format(self.path, version, VERSION)
        if header is not None and version != VERSION:
            self._set_aside(f"is version {header.get('version')}; this program writes {VERSION}")
            return None
        base = None
        if header is not None:
            try:
                base = Game(**deal_of(header))
            except (KeyError, TypeError, ValueError) as exc:
                self._note(logging.ERROR, f"journal: its header names no game ({exc})")
                header = None
        snap, snapshot_damaged = self._read_snapshot(header)
        loose = None
        if header is None and (snap is None or not self._replays(snap)):
            if pieces:
                loose = loose_header(found.head, pieces[0].start, pieces[0].end)
            if loose is None:
                self._set_aside("has no valid header")
                return None
            header, base = loose, Game(**deal_of(loose))
            if snap is not None and snap.game_id != header.get("game"):
                snap = None
        if header is None:
            assert snap is not None
            header = self._header_from(snap)
            self._note(
                logging.ERROR,
                f"journal: header unreadable; rebuilt from the snapshot of game {header['game']}",
            )
        self.header = header
        walk = self._walk(pieces, base, snap)
        if loose is not None:  # a deal read past a bad CRC counts only if a digest proves it
            if not any(r.get("type") in ("decision", "undo") for r in walk.kept):
                self._set_aside("has a damaged header that no record proves")
                return None
            self._note(
                logging.WARNING,
                "journal: header damaged; its deal is proved by the "
                "digests of the records after it and kept",
            )
        if walk.game is None:  # nothing verifiable but the snapshot
            assert snap is not None
            walk = self._from_snapshot(snap, walk, "the journal")
        disagrees = ""
        if walk.game is not None and snap is not None and not walk.anchored:
            proved = len(walk.game.history)
            if snap.position in walk.reached:
                pass
            elif self._covers_more(snap, walk) and self._replays(snap):
                walk = self._from_snapshot(
                    snap, walk, f"the readable journal ({walk.last + 1} records)"
                )
            elif len(snap.game.history) > proved:  # more, but of another history
                disagrees = (
                    f"the snapshot (decision {len(snap.game.history)}) is not on the history "
                    "the journal proves"
                )
            else:
                self._note(
                    logging.WARNING,
                    "snapshot: its position disagrees with the journal; the journal is used",
                )
        game = walk.game
        assert game is not None
        self.solo, self.strength = walk.solo, walk.strength
        self.language, self.palette, self.speech = walk.language, walk.palette, walk.speech
        self.sources = walk.sources
        self.record_count = len(walk.kept)
        self.size, self.allocated = size, found.allocated
        orphans = [
            (index, record)
            for index, record in walk.skipped
            if acknowledged(record) and (record["ply"], record["digest"]) not in walk.reached
        ]
        if orphans or disagrees:  # nothing is rewritten: the game waits for a decision
            self._pause(game, orphans, disagrees, found.allocated, snap)
            return game
        if found.allocated - size > CARD_AHEAD:  # more zeros than the daemon writes ahead
            walk.changed.append(f"{found.allocated - size} zero bytes after the records")
        if walk.changed:
            stands = self._snapshot_stands(snap, walk)
            self._rewrite(found.allocated, walk.kept, game, snap, stands)
        self.since_snapshot = self.record_count - self._covered(snap, walk)
        if snapshot_damaged and not walk.changed:  # (a rewrite keeps it and writes anew)
            self._replace_snapshot(game)
        kept = self.games_dir / f"{self.game_id}.jsonl"
        self.archived = kept if kept.exists() else None
        if not self.readonly:
            self._check_writable()
        return game

    def _scan(self) -> JournalScan:
        """The journal's records, streamed (``scan.scan_file``)."""
        return scan_file(self.path, self.progress)

    def _covers_more(self, snap: Snapshot, walk: _Walk) -> bool:
        """Does the snapshot hold more of the history the journal proved (the walk's history
        a beginning of the snapshot's, its position not passed already)?"""
        history = walk.game.history if walk.game is not None else []
        return (
            len(history) < len(snap.game.history)
            and snap.game.history[: len(history)] == history
            and snap.position not in walk.reached
        )

    def _covered(self, snap: Snapshot | None, walk: _Walk) -> int:
        """Journal records the snapshot on disk covers (1: none but the header)."""
        if self._snapshot_stands(snap, walk):
            assert snap is not None
            return snap.records
        return self.record_count if walk.changed and self._repair is None else 1

    def _snapshot_stands(self, snap: Snapshot | None, walk: _Walk) -> bool:
        """Is the snapshot still right for the journal as recovery keeps it (its position
        reached, no record before its end left out)?"""
        return (
            snap is not None
            and snap.position in walk.reached
            and not walk.anchored
            and snap.records <= min(walk.first_change, len(walk.kept))
        )

    def _walk(self, pieces: list[Piece], base: Game | None, snap: Snapshot | None) -> _Walk:
        """Replay the journal, taking each record that is readable and follows; try the
        snapshot as the starting point when a record is lost."""
        header = self.header
        solo, strength = settings_of(header, None, None)
        walk = _Walk(base, [], [header], solo, strength, language=language_of(header, None))
        walk.palette, walk.speech = palette_of(header, None), speech_of(header, None)
        covered = pieces[: snap.records] if snap is not None else pieces
        damaged = any(p.payload is None or p.mended for p in covered)  # after it: the walk
        begin = 1
        if base is None:  # the header came from the snapshot: it is the only way in
            walk.uncertain = True
            walk.changed.append("header rebuilt")
            walk.first_change = min(walk.first_change, 0)
            begin = 1 if is_header(pieces[0].payload if pieces else None) else 0
        elif snap is not None and not damaged and self._fast_start(pieces, snap):
            # (A snapshot's check covers its history and sources, the digest only the position:
            # one written before snapshots had a check must replay to be trusted.)
            # The common case: an intact journal, a snapshot it agrees with; replay the tail.
            walk.game, walk.sources = snap.game, list(snap.sources)
            walk.kept = [p.payload for p in pieces[: snap.records]]  # type: ignore[misc]
            for record in walk.kept[1:]:
                settle(walk, record)
                if acknowledged(record):  # proven by the snapshot: a later copy is a copy
                    walk.reached.add((record["ply"], record["digest"]))
            walk.last = snap.records - 1
            begin = snap.records
        elif pieces[0].mended or pieces[0].payload is None:
            walk.uncertain = True  # the first decision must prove the mended or loose deal
            walk.changed.append("header mended")
            if pieces[0].mended:
                self._note(
                    logging.WARNING,
                    f"journal: its header was damaged in {pieces[0].mended}; mended (its CRC "
                    "checks)",
                )
        if walk.game is not None:
            walk.reached.add((len(walk.game.history), walk.game.digest()))
        for index in range(begin, len(pieces)):
            self._take(walk, index, pieces[index], snap, tail=index == len(pieces) - 1)
        return walk

    def _fast_start(self, pieces: list[Piece], snap: Snapshot) -> bool:
        """May the records the snapshot covers be taken without replaying them? Its check
        holds, its position is the last covered record's, and the covered records count
        decisions one by one (a record copied, moved or left out in between breaks that)."""
        if not 1 <= snap.records <= len(pieces):
            return False
        last = pieces[snap.records - 1].payload or {}
        expected = last.get("digest") if snap.records > 1 else Game(**self._deal()).digest()
        covered = [p.payload or {} for p in pieces[1 : snap.records]]
        return (
            snap.digest == expected
            and counted(covered) == len(snap.game.history)
            and (snap.checked or self._replays(snap))
        )

    def _take(
        self, walk: _Walk, index: int, piece: Piece, snap: Snapshot | None, tail: bool
    ) -> None:
        """Take one piece of the journal if it is readable and follows the position."""
        record = piece.payload
        if record is None:
            walk.uncertain = True
            walk.gap = index
            walk.changed.append(f"unreadable bytes at {piece.start}")
            walk.first_change = min(walk.first_change, index)
            if tail:
                self._note(
                    logging.WARNING,
                    f"journal: {piece.problem} at byte {piece.start}; cut the torn tail "
                    f"({piece.end - piece.start} bytes, {len(walk.kept)} records kept)",
                )
            else:
                self._note(
                    logging.WARNING,
                    f"journal: {piece.problem} at byte {piece.start} "
                    f"({piece.end - piece.start} bytes unreadable); reading on behind it",
                )
            return
        if piece.mended:
            walk.changed.append(f"mended {index}")
            self._note(
                logging.WARNING,
                f"journal: record {index} at byte {piece.start} was damaged in {piece.mended}; "
                "mended (its CRC checks)",
            )
        if record.get("type") == "header":
            walk.changed.append(f"a second header at {piece.start}")
            walk.first_change = min(walk.first_change, index)
            return
        positional = record.get("type") in ("decision", "undo")
        why = "does not follow the position before it"
        if walk.game is not None:
            try:
                game, sources = self._apply(walk.game.clone(), list(walk.sources), record)
            except Exception as exc:  # an illegal or unreadable record: keep what is good
                why = f"cannot be replayed ({exc})"
                game = None
            if game is not None:
                # Every decision and undo proves itself: its digest must be the position the
                # history accepted so far leads to (a CRC only says its bytes are whole).
                digest = game.digest() if positional else None
                if digest is None or record_follows(record, game, digest):
                    self._keep(walk, index, record, game, sources, digest)
                    return
                self.digest_mismatches += 1
        if (
            positional
            and snap is not None
            and not walk.anchored
            and self._covers_more(snap, walk)
            and self._replays(snap)
        ):
            try:
                resumed, sources = self._apply(snap.game.clone(), list(snap.sources), record)
                digest = resumed.digest()
            except Exception:
                digest = ""
            if digest and record_follows(record, resumed, digest):
                self._note(
                    logging.WARNING,
                    f"journal: record {index} follows the snapshot; resuming from the snapshot",
                )
                self._anchor(walk, snap)
                self._keep(walk, index, record, resumed, sources, digest)
                return
        if walk.game is not None and walk.gap == index - 1 and self._bridge(walk, index, record):
            return
        walk.uncertain = True
        walk.changed.append(f"record {index} left out")
        walk.first_change = min(walk.first_change, index)
        walk.skipped.append((index, record))
        what = record.get("decision", record.get("type"))
        if acknowledged(record) and (record["ply"], record["digest"]) in walk.reached:
            self._note(
                logging.WARNING,
                f"journal: record {index} ({what}) repeats decision {record['ply']} of the "
                "history already proven; skipped (out of sequence)",
            )
            return
        self._note(logging.ERROR, f"journal: record {index} ({what}) {why}; it is left out")

    def _bridge(self, walk: _Walk, index: int, record: dict[str, Any]) -> bool:
        """The one decision an unreadable record can have held: the only legal decision
        after which this record's decision leads to this record's digest. Kept if unique."""
        assert walk.game is not None
        if record.get("type") != "decision" or record.get("ply") != len(walk.game.history) + 2:
            return False
        found = []
        for d in walk.game.legal_actions():
            try:
                middle = walk.game.clone()
                middle.apply(d)
                after = middle.clone()
                after.apply(record["decision"])
            except Exception:
                continue
            if record_follows(record, after, after.digest()):
                found.append((d, middle, after))
        if len(found) != 1:
            return False
        d, middle, after = found[0]
        lost: dict[str, Any] = {
            "type": "decision",
            "ply": len(middle.history),
            "decision": middle.format(d),
            "by": "player",
            "digest": middle.digest(),
        }
        self._note(
            logging.WARNING,
            f"journal: the unreadable record before record {index} can only have been "
            f"{lost['decision']} (the next record's digest says so); kept",
        )
        self._keep(walk, index - 1, lost, middle, [*walk.sources, "player"], lost["digest"])
        by = record.get("by")
        sources = [*walk.sources, str(by) if by in SOURCES else "player"]
        self._keep(walk, index, record, after, sources, record["digest"])
        return True

    def _keep(
        self,
        walk: _Walk,
        index: int,
        record: dict[str, Any],
        game: Game,
        sources: list[str],
        digest: str | None,
    ) -> None:
        walk.game, walk.sources = game, sources
        walk.kept.append(record)
        walk.last = max(walk.last, index)
        if record.get("type") in ("decision", "undo"):
            walk.uncertain = False
            if digest is not None:
                walk.reached.add((len(game.history), digest))
        settle(walk, record)
        if digest is not None:
            self._take_moved(walk)

    def _take_moved(self, walk: _Walk) -> None:
        """Records left out earlier that follow the position reached now (moved out of order
        in the file): each is taken where its digest proves it belongs, then the next."""
        found = True
        while found and walk.game is not None:
            found = False
            ply = len(walk.game.history)
            for at, (index, record) in enumerate(walk.skipped):
                if not may_follow(record, ply) or (record["ply"], record["digest"]) in walk.reached:
                    continue
                try:
                    game, sources = self._apply(walk.game.clone(), list(walk.sources), record)
                except Exception:
                    continue
                digest = game.digest()
                if record_follows(record, game, digest):
                    del walk.skipped[at]
                    self._note(
                        logging.WARNING,
                        f"journal: record {index} ({record.get('decision', 'undo')}) was out "
                        f"of order; its digest proves it follows decision {ply}: taken there",
                    )
                    walk.game, walk.sources = game, sources
                    walk.kept.append(record)
                    walk.reached.add((len(game.history), digest))
                    found = True
                    break

    def _anchor(self, walk: _Walk, snap: Snapshot) -> None:
        """Go on from the snapshot: its history's records replace the walk's (they are the
        walk's history and more), and each position of it counts as proven."""
        walk.anchored = True
        walk.kept = self._synthesized(snap, walk)
        for record in walk.kept:
            if acknowledged(record):
                walk.reached.add((record["ply"], record["digest"]))

    def _from_snapshot(self, snap: Snapshot, walk: _Walk, than: str) -> _Walk:
        self._note(
            logging.WARNING,
            f"snapshot: covers {snap.records} records, more than {than}; resuming from it",
        )
        walk.game, walk.sources = snap.game, list(snap.sources)
        self._anchor(walk, snap)
        walk.changed.append("snapshot used")
        walk.first_change = min(walk.first_change, 0)
        return walk

    def _synthesized(self, snap: Snapshot, walk: _Walk) -> list[dict[str, Any]]:
        """Journal records that lead to the snapshot's position (``records_to``)."""
        settings = (walk.solo, walk.strength, walk.language, walk.palette, walk.speech)
        return self.records_to(snap.game.history, snap.sources, *settings)

    def _replays(self, snap: Snapshot) -> bool:
        """Does the snapshot's history lead from the deal to its position? (Checked only
        when recovery must rely on it: replaying it is what a snapshot saves.)"""
        if snap.replays is None:
            try:
                deal = deal_from(snap.game)
                again = replay(**deal, history=list(snap.game.history))
                snap.replays = again.digest() == snap.digest
            except Exception:
                snap.replays = False
            if not snap.replays:
                self._note(logging.WARNING, "snapshot: its history does not lead to its position")
        return snap.replays

    def _header_from(self, snap: Snapshot) -> dict[str, Any]:
        return {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "game": snap.game_id or new_game_id(),
            **deal_from(snap.game),
            "rebuilt": "from the snapshot",
        }

    def _apply(
        self, game: Game, sources: list[str], record: dict[str, Any]
    ) -> tuple[Game, list[str]]:
        kind = record.get("type")
        if kind == "decision":
            game.apply(record["decision"])
            by = record.get("by", "player")
            return game, [*sources, by if by in SOURCES else "player"]
        if kind == "undo":
            count = int(record["count"])
            if not 0 < count <= len(game.history):
                raise ValueError(f"undo of {count} decisions, {len(game.history)} made")
            keep = game.history[: len(game.history) - count]
            return self._rebuild(keep), sources[: len(keep)]
        if kind in ("solo", "language", "palette", "speech"):  # a setting: the position stays
            return game, sources
        raise ValueError(f"unknown record type {kind!r}")

    def _rebuild(self, history: list[int]) -> Game:
        h = self.header
        return replay(h["variant"], int(h["seed"]), h["start"], history)

    def _read_snapshot(self, header: dict[str, Any] | None) -> tuple[Snapshot | None, bool]:
        """The snapshot if it reads well, agrees with itself and belongs to this game; and
        whether one is there but unusable (damaged: to be kept aside, never overwritten)."""
        try:
            found = read_snapshot(self.snapshot_path, header)
        except StateFileError as exc:  # a pipe, a device, a directory: wait for the fix
            raise refused(exc) from exc
        if isinstance(found, str) and self.readonly:
            self._note(logging.WARNING, f"snapshot: {found}; the whole journal is replayed")
            return None, False
        if isinstance(found, str):
            self._note(logging.WARNING, f"snapshot: {found}; replaying the whole journal instead")
            return None, True
        return found, False

    def _deal(self) -> dict[str, Any]:
        return deal_of(self.header)
