"""The journal: a game that survives being unplugged, a full disk and damaged storage.

Every accepted decision is appended to ``journal.bin`` as one record and fsynced before it
is acknowledged. A record is ``length (4 bytes, big-endian) · CRC32 of the payload (4 bytes)
· payload`` where the payload is UTF-8 JSON. The first record is the header (variant, seed,
starting player: enough to rebuild the deal); then one record per decision
(``{"type": "decision", "ply": 12, "player": "red", "decision": "3@2", "by": "player",
"digest": "…"}``, the digest of the position *after* it) and one per undo
(``{"type": "undo", "count": 2, "ply": 10, "digest": "…"}``). Solo mode is part of the game
on the table, so its setting is kept too: in the header (``"solo": "yellow", "strength":
"normal"``) and as a ``{"type": "solo", …}`` record whenever the menu changes it; a daemon
restarted without ``--solo`` resumes the companion's seat as it was.

Every ``snapshot_every`` decisions ``snapshot.json`` is replaced atomically (write a temp
file, fsync, rename, fsync the directory) with ``Game.to_json`` and the number of journal
records it covers, so a restart replays only the tail.

A failed append (disk full, I/O error, a file that belongs to another user) cuts the file back
to its last good size at once, and no later record is written until that cut has succeeded:
acknowledged records are never followed by a partial one. The error says what happened in a
few words for the OLED (``short``) and in full for the log, with the ``chown`` that fixes a
file of the wrong owner.

Recovery on start never destroys anything: it reads every record it can, including those
behind a damaged one (it finds the next intact frame), mends a record with one flipped bit
(CRC32 locates it) or a damaged length field, and picks the longest history it can *verify*:
the journal replayed from its header, the snapshot, and journal records after the snapshot's
position whose digests prove they follow it. If the files must change, the old journal and
snapshot are first copied to uniquely named backups (``journal.bin.bad-…``,
``snapshot.json.bad-…``), then the journal is replaced atomically with the records kept and a
fresh snapshot is written. Finished games are kept as game logs (NOTATION.md) under ``games/``.
"""

from __future__ import annotations

import contextlib
import errno
import grp
import json
import logging
import os
import pwd
import secrets
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from haleakala.rules import PLAYERS, Game, SaveError
from haleakala.rules.log import action_record, event_records, setup_record

log = logging.getLogger("haleakala.journal")

JOURNAL_NAME = "journal.bin"
SNAPSHOT_NAME = "snapshot.json"
GAMES_DIR = "games"
FORMAT = "haleakala-journal"
VERSION = 1
SNAPSHOT_FORMAT = "haleakala-snapshot"
SNAPSHOT_VERSION = 1
FRAME = struct.Struct(">II")
MAX_PAYLOAD = 1 << 20
"""No record is anywhere near 1 MiB; a larger length field means a damaged record."""
DEFAULT_SNAPSHOT_EVERY = 20

SOURCES = ("player", "auto", "bot")
"""Who made a decision: a player, the forced-decision timer, or the solo bot. Undo takes
back the last player decision together with the automatic ones after it."""


class JournalError(OSError):
    """The journal could not be written (disk full, read-only, wrong owner, removed).

    ``str()`` is the whole story for the log; ``title`` and ``short`` are what fits the OLED.
    """

    def __init__(self, code: int, text: str, *, title: str = "NOT SAVED", short: str = ""):
        super().__init__(code, text)
        self.title = title
        self.short = short or text


def storage_error(exc: OSError, path: Path, doing: str = "write") -> JournalError:
    """``exc`` explained: what went wrong with ``path``, what the players see, how to fix it."""
    code = exc.errno or 0
    if isinstance(exc, JournalError):
        return exc
    if code in (errno.ENOSPC, errno.EDQUOT):
        return JournalError(
            code,
            f"journal: cannot {doing} {path}: no space left ({exc}); the game is paused, "
            "the decision waits in memory and is saved as soon as space is freed",
            title="STORAGE FULL",
            short="Storage full: the game is paused, nothing is lost. Free some space: "
            "it goes on by itself.",
        )
    if code in (errno.EACCES, errno.EPERM):
        owner, fix = ownership_fix(path, readable=doing != "read")
        return JournalError(
            code,
            f"journal: cannot {doing} {path} ({exc}): it belongs to {owner}, the daemon runs "
            f"as {_user()}; fix it with: {fix} (the game is paused until then, nothing is lost)",
            title="CANNOT SAVE",
            short=f"{path.name} belongs to {owner}. Game paused. Fix: {fix}",
        )
    return JournalError(
        code,
        f"journal: cannot {doing} {path} ({exc}); the game is paused, retrying",
        title="CANNOT SAVE",
        short=f"Cannot save ({exc.strerror or exc}): the game is paused, nothing is lost.",
    )


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def ownership_fix(path: Path, *, readable: bool = True) -> tuple[str, str]:
    """Who owns ``path`` and the command that lets this process write (and read) it."""
    try:
        st = path.stat()
    except OSError:
        return "nobody (it is missing)", f"mkdir -p {path.parent}"
    try:
        owner = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        owner = f"uid {st.st_uid}"
    if st.st_uid == os.geteuid():
        return owner, f"chmod u+{'w' if readable else 'rw'} {path}"
    try:
        group = grp.getgrgid(os.getegid()).gr_name
    except KeyError:
        group = str(os.getegid())
    return owner, f"sudo chown {_user()}:{group} {path}"


def unwritable(state_dir: Path) -> list[Path]:
    """The files of ``state_dir`` this process could not replace or append to."""
    names = (JOURNAL_NAME, SNAPSHOT_NAME, JOURNAL_NAME + ".tmp", SNAPSHOT_NAME + ".tmp")
    found = [state_dir] if state_dir.exists() and not os.access(state_dir, os.W_OK) else []
    for path in [state_dir / n for n in names] + [state_dir / GAMES_DIR]:
        if path.exists() and not os.access(path, os.W_OK):
            found.append(path)
    return found


class Disk:
    """The system calls a journal append goes through (tests put a full disk here)."""

    def open_append(self, path: Path) -> int:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, fd: int, data: bytes) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)


# --------------------------------------------------------------------------- records


def encode_record(payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return FRAME.pack(len(body), zlib.crc32(body)) + body


@dataclass
class RecordScan:
    """The readable records of a journal and where the good part ends."""

    records: list[tuple[int, dict[str, Any]]]  # (byte offset, payload)
    end: int  # bytes that hold whole, valid records
    problem: str | None = None  # why reading stopped before the end of the data


def _record_at(data: bytes, pos: int) -> tuple[dict[str, Any], int] | str:
    """The intact record at ``pos`` and where it ends, or why there is none."""
    if len(data) - pos < FRAME.size:
        return "partial record header"
    length, crc = FRAME.unpack_from(data, pos)
    if length > MAX_PAYLOAD:
        return f"impossible record length {length}"
    end = pos + FRAME.size + length
    if end > len(data):
        return "partial record"
    body = data[pos + FRAME.size : end]
    if zlib.crc32(body) != crc:
        return "record CRC mismatch"
    payload = _json_object(body)
    if payload is None:
        return "record is not a JSON object"
    return payload, end


def _json_object(body: bytes) -> dict[str, Any] | None:
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return payload if isinstance(payload, dict) else None


def scan_records(data: bytes) -> RecordScan:
    """The intact records from the start up to the first damage (strict; no mending)."""
    records: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    while pos < len(data):
        found = _record_at(data, pos)
        if isinstance(found, str):
            return RecordScan(records, pos, found)
        records.append((pos, found[0]))
        pos = found[1]
    return RecordScan(records, pos)


@dataclass
class Piece:
    """A stretch of a journal file: one record, or bytes that are no record."""

    start: int
    end: int
    payload: dict[str, Any] | None  # None: unreadable
    mended: str | None = None  # how a damaged record was read ("bit 37 of the payload", …)
    problem: str | None = None  # why an unreadable stretch is unreadable


@lru_cache(maxsize=128)
def _bit_syndromes(length: int) -> tuple[dict[int, int], tuple[int, ...]]:
    """CRC32 is linear: flipping payload bit i changes the CRC by a value that depends only
    on i and the length. Those values (by value, by bit), to find flipped bits."""
    base = zlib.crc32(bytes(length))
    table = {}
    buf = bytearray(length)
    for i in range(length * 8):
        buf[i >> 3] = 1 << (i & 7)
        table[zlib.crc32(buf) ^ base] = i
        buf[i >> 3] = 0
    return table, tuple(sorted(table, key=table.__getitem__))


def _flipped_bits(body: bytes, stored: int) -> tuple[list[int], int] | None:
    """Up to two flipped bits that explain a CRC mismatch: payload bits to flip back, and
    whether one bit of the stored CRC is wrong too. None: more damage than that. (CRC32 has
    a Hamming distance of 5 or more at these lengths, so the answer is unique.)"""
    syndrome = zlib.crc32(body) ^ stored
    if syndrome.bit_count() == 1:
        return [], 1
    table, by_bit = _bit_syndromes(len(body))
    if syndrome in table:
        return [table[syndrome]], 0
    for i, value in enumerate(by_bit):
        rest = syndrome ^ value
        j = table.get(rest)
        if j is not None and j > i:
            return [i, j], 0
        if rest.bit_count() == 1:
            return [i], 1
    return None


def _next_intact(data: bytes, pos: int) -> int:
    """Offset of the next intact record after ``pos`` (every payload starts with ``{``)."""
    brace = data.find(b"{", pos + 1 + FRAME.size)
    while brace != -1:
        start = brace - FRAME.size
        if not isinstance(_record_at(data, start), str):
            return start
        brace = data.find(b"{", brace + 1)
    return len(data)


def _mend(data: bytes, start: int, end: int) -> Piece:
    """Read ``data[start:end]`` (between intact records) as one record damaged in one field:
    the length, the CRC, or one bit of the payload. Anything else is unreadable."""
    why = _record_at(data, start)
    problem = why if isinstance(why, str) else "bytes after a record"
    if end - start <= FRAME.size:
        return Piece(start, end, None, problem=problem)
    length, crc = FRAME.unpack_from(data, start)
    body = bytearray(data[start + FRAME.size : end])
    mended = None
    if zlib.crc32(body) == crc and length != len(body):
        mended = "its length field"
    elif len(body) <= 4096:
        found = _flipped_bits(bytes(body), crc)
        length_ok = length == len(body)  # if not, that was one damaged field already
        if found is not None and (length_ok or len(found[0]) + found[1] <= 1):
            bits, in_crc = found
            for bit in bits:
                body[bit >> 3] ^= 1 << (bit & 7)
            parts = [f"bit {bit} of its payload" for bit in bits] + ["its CRC"] * in_crc
            mended = " and ".join(parts + ([] if length_ok else ["its length field"]))
    payload = _json_object(bytes(body)) if mended else None
    if payload is None:
        return Piece(start, end, None, problem=problem)
    return Piece(start, end, payload, mended=mended)


def _first_of_two(data: bytes, start: int, end: int) -> Piece | None:
    """The first record of a damaged stretch that holds two: where its length field says it
    ends, or (that field damaged) where a payload that matches its CRC ends."""
    if end - start <= FRAME.size:
        return None
    length, crc = FRAME.unpack_from(data, start)
    claimed = start + FRAME.size + length
    if claimed < end:
        first = _mend(data, start, claimed)
        if first.payload is not None:
            return first
    brace = data.find(b"{", start + 2 * FRAME.size + 1, end)
    while brace != -1:
        if zlib.crc32(data[start + FRAME.size : brace - FRAME.size]) == crc:
            first = _mend(data, start, brace - FRAME.size)
            if first.payload is not None:
                return first
        brace = data.find(b"{", brace + 1, end)
    return None


def read_pieces(data: bytes) -> list[Piece]:
    """Every record of a journal that can be read, in order, with the stretches between."""
    pieces: list[Piece] = []
    pos = 0
    while pos < len(data):
        found = _record_at(data, pos)
        if not isinstance(found, str):
            pieces.append(Piece(pos, found[1], found[0]))
            pos = found[1]
            continue
        end = _next_intact(data, pos)
        first = _first_of_two(data, pos, end)
        if first is not None:  # two damaged records in a row
            pieces.append(first)
            pos = first.end
            continue
        pieces.append(_mend(data, pos, end))
        pos = end
    return pieces


def new_game_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


def replay(variant: str, seed: int, start: str, history: list[int] | list[str]) -> Game:
    """The game rebuilt from its deal and decisions (raises IllegalDecision if one is not
    legal under the current rules)."""
    game = Game(variant, seed, start)
    for decision in history:
        game.apply(decision)
    return game


def game_log_lines(game: Game) -> list[dict[str, Any]]:
    """The NOTATION.md game log of ``game``, rebuilt from its history."""
    fresh = Game(game.variant, game.seed, PLAYERS[game.start])
    lines = [setup_record(fresh)]
    for d in game.history:
        lines.append(action_record(fresh, d))
        lines.extend(event_records(fresh, fresh.apply(d)))
    return lines


def _settings(
    record: dict[str, Any], solo: str | None, strength: str | None
) -> tuple[str | None, str | None]:
    """Solo settings from a header or solo record (a value that names nothing is ignored)."""
    if "solo" in record and (record["solo"] is None or record["solo"] in PLAYERS):
        solo = record["solo"]
    if isinstance(record.get("strength"), str):
        strength = record["strength"]
    return solo, strength


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a reader sees the old or the new file, never a
    mix: temp file, fsync, rename, fsync the directory. A temp file left by a crash (or by
    another user) is replaced; a failed write leaves no temp file behind."""
    tmp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        with open(tmp, "xb") as f:
            f.write(data)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if sync:
        _fsync_dir(path.parent)


def keep_copy(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """Write ``data`` (what ``path`` held) to a new, uniquely named backup beside it."""
    while True:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.bad-{stamp}-{secrets.token_hex(3)}")
        try:
            with open(target, "xb") as f:
                f.write(data)
                f.flush()
                if sync:
                    os.fsync(f.fileno())
        except FileExistsError:
            continue
        if sync:
            _fsync_dir(path.parent)
        return target


def _loose_header(data: bytes, piece: Piece) -> dict[str, Any] | None:
    """The header of a journal whose first record fails its CRC but whose JSON still names
    a deal of this version (recovery then asks the records' digests to prove it)."""
    if piece.start != 0 or piece.end - piece.start <= FRAME.size:
        return None
    length = FRAME.unpack_from(data, 0)[0]
    for end in (FRAME.size + length, piece.end):
        if end <= piece.end:
            record = _json_object(data[FRAME.size : end])
            if _is_header(record) and record is not None and record.get("version") == VERSION:
                try:
                    Game(**_deal_of(record))
                except (KeyError, TypeError, ValueError):
                    continue
                return record
    return None


def _is_header(record: dict[str, Any] | None) -> bool:
    return record is not None and record.get("type") == "header" and record.get("format") == FORMAT


def _deal_of(record: dict[str, Any]) -> dict[str, Any]:
    return {"variant": record["variant"], "seed": int(record["seed"]), "start": record["start"]}


def _follows(record: dict[str, Any], game: Game, digest: str) -> bool:
    """Does ``record`` (a decision or an undo, already applied) say ``game`` is its result?"""
    return record.get("digest") == digest and record.get("ply") == len(game.history)


@dataclass
class Snapshot:
    """A snapshot that reads well and agrees with itself (not yet with the journal)."""

    game: Game
    sources: list[str]
    records: int
    game_id: str | None
    raw: bytes
    digest: str
    replays: bool | None = None  # its history leads to its position (checked when needed)

    @property
    def position(self) -> tuple[int, str]:
        return len(self.game.history), self.digest


@dataclass
class _Walk:
    """Recovery's replay of the journal: the position so far and the records it kept."""

    game: Game | None
    sources: list[str]
    kept: list[dict[str, Any]]
    solo: str | None
    strength: str | None
    last: int = 0  # index of the last piece taken
    anchored: bool = False  # the position comes from the snapshot
    uncertain: bool = False  # a record was lost: the next must prove it follows
    reached: set[tuple[int, str]] = field(default_factory=set)
    snap_ply: int = -1  # where the snapshot's position would be reached
    unchecked: tuple[int, dict[str, Any]] | None = None  # last record, digest not compared
    first_change: int = 1 << 30  # first piece left out: the records before keep their index
    gap: int = -1  # index of the last unreadable piece
    changed: list[str] = field(default_factory=list)  # why the journal must be rewritten


# --------------------------------------------------------------------------- the journal


@dataclass
class Journal:
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
    disk: Disk = field(default_factory=Disk)
    """Where appends go (a fault-injecting stand-in in tests)."""

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.path = self.state_dir / JOURNAL_NAME
        self.snapshot_path = self.state_dir / SNAPSHOT_NAME
        self.games_dir = self.state_dir / GAMES_DIR
        self._fd: int | None = None
        self.archived: Path | None = None
        self.size = 0
        """Bytes of whole, acknowledged records in ``journal.bin`` (the last good size)."""
        self.failed: JournalError | None = None
        """Why the last write failed; no record is appended until the file is restored."""
        self._repair: Callable[[], None] | None = None  # what recovery could not write yet
        self.backups: list[Path] = []
        """The backups the last recovery made (the files as they were before)."""

    # -- paths and file handle ------------------------------------------------------

    @property
    def game_id(self) -> str | None:
        return self.header.get("game")

    def _open_append(self) -> int:
        if self._fd is None:
            self._fd = self.disk.open_append(self.path)
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

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
        self.failed, self._repair = None, None
        self.state_dir.mkdir(parents=True, exist_ok=True)
        for path in (self.path, self.snapshot_path):  # unreadable: wait for the fix, touch nothing
            if path.exists() and not os.access(path, os.R_OK):
                raise storage_error(PermissionError(errno.EACCES, "not readable"), path, "read")
        data = self.path.read_bytes() if self.path.exists() else b""
        if not data and not self.snapshot_path.exists():
            return None
        pieces = read_pieces(data)
        first = pieces[0].payload if pieces else None
        header = first if _is_header(first) else None
        if header is not None and header.get("version") != VERSION:
            self._set_aside(f"is version {header.get('version')}; this program writes {VERSION}")
            return None
        base = None
        if header is not None:
            try:
                base = Game(**_deal_of(header))
            except (KeyError, TypeError, ValueError) as exc:
                self._note(logging.ERROR, f"journal: its header names no game ({exc})")
                header = None
        snap = self._read_snapshot(header)
        loose = None
        if header is None and (snap is None or not self._replays(snap)):
            loose = _loose_header(data, pieces[0]) if pieces else None
            if loose is None:
                self._set_aside("has no valid header")
                return None
            header, base = loose, Game(**_deal_of(loose))
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
        elif snap is not None and not walk.anchored and snap.position not in walk.reached:
            if snap.records > walk.last + 1 and self._replays(snap):
                walk = self._from_snapshot(
                    snap, walk, f"the readable journal ({walk.last + 1} records)"
                )
            else:
                self._note(
                    logging.WARNING,
                    "snapshot: its position disagrees with the journal; the journal is used",
                )
        game = walk.game
        assert game is not None
        self.solo, self.strength = walk.solo, walk.strength
        self.sources = walk.sources
        self.record_count = len(walk.kept)
        self.size = len(data)
        if walk.changed:
            self._rewrite(data, walk, game, snap)
        self.since_snapshot = self.record_count - self._covered(snap, walk)
        kept = self.games_dir / f"{self.game_id}.jsonl"
        self.archived = kept if kept.exists() else None
        self._check_writable()
        return game

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
        solo, strength = _settings(header, None, None)
        walk = _Walk(base, [], [header], solo, strength)
        walk.snap_ply = len(snap.game.history) if snap is not None else -1
        covered = pieces[: snap.records] if snap is not None else pieces
        damaged = any(p.payload is None or p.mended for p in covered)  # after it: the walk
        begin = 1
        if base is None:  # the header came from the snapshot: it is the only way in
            walk.uncertain = True
            walk.changed.append("header rebuilt")
            walk.first_change = min(walk.first_change, 0)
            begin = 1 if _is_header(pieces[0].payload if pieces else None) else 0
        elif snap is not None and not damaged and self._fast_start(pieces, snap):
            # The common case: an intact journal, a snapshot it agrees with; replay the tail.
            walk.game, walk.sources = snap.game, list(snap.sources)
            walk.kept = [p.payload for p in pieces[: snap.records]]  # type: ignore[misc]
            for record in walk.kept[1:]:
                if record.get("type") == "solo":
                    walk.solo, walk.strength = _settings(record, walk.solo, walk.strength)
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
        if walk.unchecked is not None and walk.game is not None:  # the last position
            index, record = walk.unchecked
            digest = walk.game.digest()
            walk.reached.add((len(walk.game.history), digest))
            if not _follows(record, walk.game, digest):
                self._mismatch(index, record, digest)
        return walk

    def _fast_start(self, pieces: list[Piece], snap: Snapshot) -> bool:
        if not 1 <= snap.records <= len(pieces):
            return False
        last = pieces[snap.records - 1].payload or {}
        expected = last.get("digest") if snap.records > 1 else Game(**self._deal()).digest()
        return snap.digest == expected

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
                # An intact record right after a verified one is trusted (its CRC holds);
                # digests are compared where they decide something, and at the end.
                check = walk.uncertain or piece.mended or len(game.history) == walk.snap_ply
                digest = game.digest() if positional and check else None
                follows = digest is None or _follows(record, game, digest)
                if follows or not (walk.uncertain or piece.mended):
                    if not follows:
                        self._mismatch(index, record, digest)
                    self._keep(walk, index, record, game, sources, digest)
                    return
        if positional and snap is not None and not walk.anchored and self._replays(snap):
            try:
                game, sources = self._apply(snap.game.clone(), list(snap.sources), record)
                digest = game.digest()
            except Exception:
                digest = ""
            if digest and _follows(record, game, digest):
                self._note(
                    logging.WARNING,
                    f"journal: record {index} follows the snapshot; resuming from the snapshot",
                )
                walk.anchored = True
                walk.kept = self._synthesized(snap, walk)
                self._keep(walk, index, record, game, sources, digest)
                return
        if walk.game is not None and walk.gap == index - 1 and self._bridge(walk, index, record):
            return
        walk.uncertain = True
        walk.changed.append(f"record {index} left out")
        walk.first_change = min(walk.first_change, index)
        self._note(
            logging.ERROR,
            f"journal: record {index} ({record.get('decision', record.get('type'))}) {why}; "
            "it is left out",
        )

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
            if _follows(record, after, after.digest()):
                found.append((d, middle, after))
        if len(found) != 1:
            return False
        d, middle, after = found[0]
        lost = {
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
        sources = [*walk.sources, record.get("by") if record.get("by") in SOURCES else "player"]
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
        walk.last = index
        if record.get("type") in ("decision", "undo"):
            walk.uncertain = False
            walk.unchecked = (index, record) if digest is None else None
            if digest is not None:
                walk.reached.add((len(game.history), digest))
        if record.get("type") == "solo":
            walk.solo, walk.strength = _settings(record, walk.solo, walk.strength)

    def _mismatch(self, index: int, record: dict[str, Any], digest: str) -> None:
        self.digest_mismatches += 1
        self._note(
            logging.ERROR,
            f"journal: digest after record {index} is {digest}, the journal says "
            f"{record.get('digest')} (were the rules changed?)",
        )

    def _from_snapshot(self, snap: Snapshot, walk: _Walk, than: str) -> _Walk:
        self._note(
            logging.WARNING,
            f"snapshot: covers {snap.records} records, more than {than}; resuming from it",
        )
        walk.game, walk.sources = snap.game, list(snap.sources)
        walk.kept = self._synthesized(snap, walk)
        walk.anchored = True
        walk.changed.append("snapshot used")
        walk.first_change = min(walk.first_change, 0)
        return walk

    def _synthesized(self, snap: Snapshot, walk: _Walk) -> list[dict[str, Any]]:
        """Journal records that lead to the snapshot's position: the header, one decision
        record per decision of its history (digests by replay), the solo setting."""
        records: list[dict[str, Any]] = [self.header]
        game = Game(**self._deal())
        for ply, (d, by) in enumerate(zip(snap.game.history, snap.sources, strict=True), 1):
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
        if (walk.solo, walk.strength) != _settings(self.header, None, None):
            records.append({"type": "solo", "solo": walk.solo, "strength": walk.strength})
        return records

    def _replays(self, snap: Snapshot) -> bool:
        """Does the snapshot's history lead from the deal to its position? (Checked only
        when recovery must rely on it: replaying it is what a snapshot saves.)"""
        if snap.replays is None:
            try:
                deal = self._deal_from(snap.game)
                again = replay(**deal, history=list(snap.game.history))
                snap.replays = again.digest() == snap.digest
            except Exception:
                snap.replays = False
            if not snap.replays:
                self._note(logging.WARNING, "snapshot: its history does not lead to its position")
        return snap.replays

    @staticmethod
    def _deal_from(game: Game) -> dict[str, Any]:
        return {"variant": game.variant, "seed": game.seed, "start": PLAYERS[game.start]}

    def _header_from(self, snap: Snapshot) -> dict[str, Any]:
        return {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "game": snap.game_id or new_game_id(),
            **self._deal_from(snap.game),
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
        if kind == "solo":  # a setting, not a move: the position stays
            return game, sources
        raise ValueError(f"unknown record type {kind!r}")

    def _rebuild(self, history: list[int]) -> Game:
        h = self.header
        return replay(h["variant"], int(h["seed"]), h["start"], history)

    def _read_snapshot(self, header: dict[str, Any] | None) -> Snapshot | None:
        """The snapshot if it reads well, agrees with itself and belongs to this game."""
        if not self.snapshot_path.exists():
            return None
        why = None
        raw = b""
        try:
            raw = self.snapshot_path.read_bytes()
            snap = json.loads(raw)
            if not isinstance(snap, dict) or snap.get("format") != SNAPSHOT_FORMAT:
                why = "not a snapshot"
            elif snap.get("version") != SNAPSHOT_VERSION:
                why = (
                    f"version {snap.get('version')}, this program reads version {SNAPSHOT_VERSION}"
                )
            elif header is not None and snap.get("game") != header.get("game"):
                return None  # an older game's snapshot: silently stale
            else:
                game = Game.from_json(snap["state"])
                sources = [s if s in SOURCES else "player" for s in snap["sources"]]
                covered = int(snap["records"])
                digest = game.digest()
                if digest != snap.get("digest"):
                    why = "its position does not match its digest"
                elif header is not None and self._deal_from(game) != _deal_of(header):
                    why = "its position disagrees with the journal (another deal)"
                elif len(sources) != len(game.history):
                    why = "its decision sources do not match its history"
                elif covered < 1:
                    why = f"covers {covered} records"
                else:
                    return Snapshot(game, sources, covered, snap.get("game"), raw, digest)
        except SaveError as exc:
            why = f"its game does not load ({exc})"
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            why = f"unreadable ({exc.__class__.__name__}: {exc})"
        self._note(logging.WARNING, f"snapshot: {why}; replaying the whole journal instead")
        return None

    def _deal(self) -> dict[str, Any]:
        return _deal_of(self.header)

    def _rewrite(self, data: bytes, walk: _Walk, game: Game, snap: Snapshot | None) -> None:
        """Back up the journal and the snapshot as they are, then replace the journal with
        the records kept and write a snapshot of the position (so they agree again)."""
        new = b"".join(encode_record(r) for r in walk.kept)

        def repair() -> None:
            self.close()  # the file is replaced: a handle would write to the old one
            if data:
                self.backups.append(keep_copy(self.path, data, sync=self.sync))
            stands = self._snapshot_stands(snap, walk)
            if self.snapshot_path.exists() and not stands:
                old = self.snapshot_path.read_bytes()
                self.backups.append(keep_copy(self.snapshot_path, old, sync=self.sync))
            write_atomically(self.path, new, sync=self.sync)
            self.size = len(new)
            if not stands:
                self.write_snapshot(game)
            names = ", ".join(p.name for p in self.backups) or "nothing to keep"
            self._note(
                logging.WARNING,
                f"journal: rewritten with {len(walk.kept)} records at decision "
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
        moved = []
        for path in (self.path, self.snapshot_path):
            if path.exists():
                target = keep_copy(path, path.read_bytes(), sync=self.sync)
                path.unlink()
                moved.append(target)
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
                f"{path} belongs to {owner} and the daemon ({_user()}) cannot write it: {fix}",
            )

    # -- writing ----------------------------------------------------------------------

    def start(
        self,
        game: Game,
        game_id: str | None = None,
        *,
        solo: str | None = None,
        strength: str | None = None,
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
        first = encode_record(self.header)
        try:
            write_atomically(self.path, first, sync=self.sync)
            with contextlib.suppress(FileNotFoundError):
                self.snapshot_path.unlink()
        except OSError as exc:
            raise storage_error(exc, self.path, "start the journal in") from exc
        self.failed, self._repair = None, None
        self.size = len(first)
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
            if os.fstat(fd).st_size > self.size:
                self.disk.truncate(fd, self.size)
                if self.sync:
                    self.disk.fsync(fd)
        except OSError as exc:
            self.close()
            self.failed = storage_error(exc, self.path)
            raise self.failed from exc
        self.failed = None

    def _append(self, payload: dict[str, Any]) -> None:
        if self.failed is not None:
            self._restore()
        record = encode_record(payload)
        try:
            fd = self._open_append()
            view = memoryview(record)
            while view:
                written = self.disk.write(fd, view)
                if written <= 0:
                    raise OSError(errno.EIO, "the write wrote nothing")
                view = view[written:]
            if self.sync:
                self.disk.fsync(fd)
        except OSError as exc:
            error = storage_error(exc, self.path)
            log.error("%s", error)
            self.failed = error
            with contextlib.suppress(JournalError):
                self._restore()  # cut the partial record now; if not, before the next one
            raise error from exc
        self.size += len(record)
        self.record_count += 1

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
        write_atomically(
            self.snapshot_path, json.dumps(snap, separators=(",", ":")).encode(), sync=self.sync
        )
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
