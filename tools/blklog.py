"""QEMU's ``blklogwrites`` logs read back: the disk as of any flush, and the crash states
between two flushes.

``-blockdev driver=blklogwrites,file=DISK,log=LOG,log-sector-size=512`` puts every write the
guest makes to DISK into LOG as well. The format is Linux's dm-log-writes one, as QEMU's
block/blklogwrites.c writes it (checked against its source; all fields little-endian):

- sector 0, the superblock: ``magic`` u64 (0x6a736677736872), ``version`` u64 (1),
  ``nr_entries`` u64, ``sectorsize`` u32; the rest of the sector is zeros;
- then one entry per request, in the order the requests completed: one sector holding
  ``sector`` u64, ``nr_sectors`` u64, ``flags`` u64, ``data_len`` u64 (always 0), zero
  padded, followed by ``nr_sectors`` sectors of data (none for a discard, none for a
  flush). ``sector`` counts log sectors (``sectorsize`` bytes) from the start of the disk.
- flags: FLUSH 1, FUA 2, DISCARD 4, MARK 8 (QEMU writes no marks and, up to at least 8.2,
  no FUA either: a FUA write reaches it as a write and a flush).

QEMU rewrites the superblock, and so ``nr_entries``, only when it logs a flush: a log read
while QEMU runs, or after it was killed (the virtual Pi's power cut), holds entries past
``nr_entries``. They are read up to the end of the file or the first entry that is not
whole; ``nr_entries`` is kept for the record. An entry is logged after the write it records
has reached the disk file, and the guest hears of its request's completion only after that,
so when the guest says "acknowledged" (its fsync returned), the flush that made it durable is
already in the log: the log's size at that moment names it (``last_flush_within``).

The crash states (as CrashMonkey builds them) are the disk as of a flush with any subset of
the writes logged before the next flush applied on top (a card with a volatile write cache
may keep any of them), and writes torn at a sector boundary (a sector is the unit a card
writes whole). ``crash_states`` draws a bounded, seeded set of them for one window.

Pure Python, no QEMU: tests/kit/test_blklog.py checks it on small synthetic logs
(``write_log`` makes them).
"""

from __future__ import annotations

import os
import random
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

MAGIC = 0x6A736677736872
VERSION = 1
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
KNOWN_FLAGS = FLUSH | FUA | DISCARD | MARK
SUPER = struct.Struct("<QQQI")
ENTRY = struct.Struct("<QQQQ")


class LogError(ValueError):
    """A file that is not a blklogwrites log (the sentence says why)."""


@dataclass(frozen=True)
class Entry:
    """One logged request: ``count`` sectors written at ``sector`` (a flush writes none)."""

    index: int
    sector: int
    count: int
    flags: int
    data_at: int  # byte offset of the data in the log file (the entry's own sector + 1)
    end: int  # byte offset in the log just after this entry

    @property
    def flush(self) -> bool:
        return bool(self.flags & FLUSH)

    @property
    def discard(self) -> bool:
        return bool(self.flags & DISCARD)

    @property
    def write(self) -> bool:
        """A write that carries data (a flush or a discard carries none)."""
        return self.count > 0 and not self.discard


@dataclass
class Log:
    """A log's superblock and the entries that are whole in the file."""

    path: Path
    sectorsize: int
    nr_entries: int  # the superblock's count, as of the last logged flush
    entries: list[Entry]
    size: int  # bytes of the file read

    def data(self, entry: Entry, sector: int | None = None) -> bytes:
        """The data of ``entry`` (or of one of its sectors, an absolute sector number)."""
        with open(self.path, "rb") as f:
            if sector is None:
                f.seek(entry.data_at)
                return f.read(entry.count * self.sectorsize)
            f.seek(entry.data_at + (sector - entry.sector) * self.sectorsize)
            return f.read(self.sectorsize)

    def flushes(self) -> list[int]:
        """The indexes of the flush entries, in order."""
        return [e.index for e in self.entries if e.flush]

    def entries_within(self, size: int) -> int:
        """How many entries lie wholly in the first ``size`` bytes of the log."""
        lo, hi = 0, len(self.entries)
        while lo < hi:  # entries' ends increase with their index
            mid = (lo + hi) // 2
            if self.entries[mid].end <= size:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def last_flush_within(self, size: int) -> int | None:
        """The index of the last flush entry wholly in the first ``size`` bytes: what a
        guest that reported something when the log had ``size`` bytes had made durable."""
        for entry in reversed(self.entries[: self.entries_within(size)]):
            if entry.flush:
                return entry.index
        return None

    def writes_between(self, start: int, stop: int) -> list[Entry]:
        """The data-carrying entries after entry ``start`` and before entry ``stop``."""
        return [e for e in self.entries[start + 1 : stop] if e.write]

    def bytes_written(self, start: int = -1, stop: int | None = None) -> int:
        """Bytes of data the guest wrote in entries ``start`` < index < ``stop``."""
        stop = len(self.entries) if stop is None else stop
        return sum(e.count for e in self.writes_between(start, stop)) * self.sectorsize


def read_log(path: Path | str, limit: int | None = None) -> Log:
    """Parse the log at ``path`` (its first ``limit`` bytes if given)."""
    path = Path(path)
    size = path.stat().st_size if limit is None else limit
    with open(path, "rb") as f:
        head = f.read(SUPER.size)
        if len(head) < SUPER.size:
            raise LogError(f"{path}: {len(head)} bytes, too short for a blklogwrites superblock")
        magic, version, nr_entries, sectorsize = SUPER.unpack(head)
        if magic != MAGIC:
            raise LogError(f"{path}: not a blklogwrites log (magic {magic:#x})")
        if version != VERSION:
            raise LogError(f"{path}: blklogwrites log version {version}, this reads {VERSION}")
        if sectorsize < ENTRY.size or sectorsize & (sectorsize - 1):
            raise LogError(f"{path}: impossible log sector size {sectorsize}")
        entries = list(_entries(f, sectorsize, size))
    return Log(path, sectorsize, nr_entries, entries, size)


def _entries(f, sectorsize: int, size: int) -> Iterator[Entry]:
    at = sectorsize
    index = 0
    while at + sectorsize <= size:
        f.seek(at)
        sector, count, flags, data_len = ENTRY.unpack(f.read(ENTRY.size))
        if flags & ~KNOWN_FLAGS or data_len != 0 or (flags & FLUSH and count):
            return  # not an entry: the end of what was written (a hole, a torn entry)
        if not flags and not count:
            return  # zeros: space QEMU had not written yet
        data = 0 if flags & DISCARD else count * sectorsize
        end = at + sectorsize + data
        if end > size:
            return  # the entry's data is not all there (QEMU stopped mid-write)
        yield Entry(index, sector, count, flags, at + sectorsize, end)
        at = end
        index += 1


# --------------------------------------------------------------------------- rebuilding a disk


@dataclass
class Disk:
    """A raw disk image rebuilt from a log: ``apply`` writes entries (or some of their
    sectors) into it and returns what it overwrote, ``revert`` puts that back."""

    path: Path
    log: Log
    applied: int = 0  # entries of the log applied in order so far
    _fd: int = field(default=-1, repr=False)

    def __post_init__(self) -> None:
        self._fd = os.open(self.path, os.O_RDWR)
        self._logf = open(self.log.path, "rb")  # noqa: SIM115 (closed in close())

    def close(self) -> None:
        os.close(self._fd)
        self._logf.close()

    def __enter__(self) -> Disk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _data(self, entry: Entry) -> bytes:
        self._logf.seek(entry.data_at)
        return self._logf.read(entry.count * self.log.sectorsize)

    def apply(self, entry: Entry, sectors: Iterable[int] | None = None,
              undo: bool = True) -> list[tuple[int, bytes]]:  # fmt: skip
        """Write ``entry``'s data (only ``sectors``, absolute numbers, if given); the
        overwritten bytes as (offset, bytes) when ``undo``. Flushes and discards change
        nothing (QEMU's default ``discard=ignore`` leaves a discarded range as it was)."""
        if not entry.write:
            return []
        ss = self.log.sectorsize
        data = self._data(entry)
        wanted = range(entry.sector, entry.sector + entry.count) if sectors is None else sectors
        saved = []
        for run in _runs(sorted(set(wanted))):
            offset = run[0] * ss
            length = len(run) * ss
            if undo:
                saved.append((offset, os.pread(self._fd, length, offset)))
            start = (run[0] - entry.sector) * ss
            os.pwrite(self._fd, data[start : start + length], offset)
        return saved

    def advance(self, stop: int) -> None:
        """Apply the log's entries in order up to (not including) entry ``stop``."""
        for entry in self.log.entries[self.applied : stop]:
            self.apply(entry, undo=False)
        self.applied = max(self.applied, stop)

    def revert(self, saved: list[tuple[int, bytes]]) -> None:
        for offset, old in reversed(saved):
            os.pwrite(self._fd, old, offset)

    def read(self, offset: int, length: int) -> bytes:
        return os.pread(self._fd, length, offset)


def _runs(sectors: list[int]) -> Iterator[list[int]]:
    run: list[int] = []
    for s in sectors:
        if run and s != run[-1] + 1:
            yield run
            run = []
        run.append(s)
    if run:
        yield run


# --------------------------------------------------------------------------- crash states


@dataclass(frozen=True)
class CrashState:
    """The disk as of flush entry ``flush`` plus, of the writes logged before the next
    flush, those in ``writes`` (entry index -> the sectors of it that reached the card, None
    for all of them), applied in log order. ``kind``: prefix, subset or torn."""

    flush: int
    writes: tuple[tuple[int, tuple[int, ...] | None], ...]
    kind: str

    def describe(self) -> str:
        parts = [f"{i}" if s is None else f"{i}[{len(s)} sectors]" for i, s in self.writes]
        return f"flush {self.flush} + {self.kind} {{{', '.join(parts)}}}"


def crash_states(log: Log, flush: int, stop: int, rng: random.Random,
                 count: int = 3) -> list[CrashState]:  # fmt: skip
    """Up to ``count`` crash states between flush entry ``flush`` and entry ``stop`` (the
    next flush), drawn with ``rng``: an in-order prefix of the writes, a random subset, and
    a random subset with one write torn at sector boundaries. Never the two flush states
    themselves (no write, every write whole): those are checked as flushes."""
    writes = log.writes_between(flush, stop)
    if not writes:
        return []
    everything = tuple((w.index, None) for w in writes)
    found: dict[tuple, CrashState] = {}

    def add(kind: str, chosen: list[tuple[int, tuple[int, ...] | None]]) -> None:
        key = tuple(chosen)
        if chosen and key != everything and key not in found:
            found[key] = CrashState(flush, key, kind)

    tries = 0
    while len(found) < count and tries < count * 8:
        tries += 1
        kind = ("prefix", "subset", "torn")[tries % 3]
        if kind == "prefix" and len(writes) > 1:
            cut = rng.randrange(1, len(writes))
            add(kind, [(w.index, None) for w in writes[:cut]])
        elif kind == "subset" and len(writes) > 1:
            add(kind, [(w.index, None) for w in writes if rng.random() < 0.5])
        elif kind == "torn":
            torn = [w for w in writes if w.count > 1]
            if not torn:
                continue
            victim = rng.choice(torn)
            keep = [w for w in writes if w is victim or rng.random() < 0.5]
            span = list(range(victim.sector, victim.sector + victim.count))
            part = tuple(sorted(rng.sample(span, rng.randrange(1, len(span)))))
            add(kind, [(w.index, part if w is victim else None) for w in keep])
    return list(found.values())


def apply_state(disk: Disk, state: CrashState) -> list[tuple[int, bytes]]:
    """Put ``state``'s writes on ``disk`` (which must be as of its flush); what to revert."""
    saved: list[tuple[int, bytes]] = []
    for index, sectors in state.writes:
        saved += disk.apply(disk.log.entries[index], sectors)
    return saved


# --------------------------------------------------------------------------- synthetic logs


def write_log(path: Path | str, ops: Iterable[tuple], sectorsize: int = 512,
              nr_entries: int | None = None) -> None:  # fmt: skip
    """A log as QEMU writes it, for tests: ``ops`` are ("write", sector, data),
    ("flush",) and ("discard", sector, count). The superblock's ``nr_entries`` is the count
    as of the last flush (QEMU's), unless given."""
    body = bytearray()
    flushed = 0
    for seen, op in enumerate(ops, 1):
        if op[0] == "write":
            _, sector, data = op
            if len(data) % sectorsize or not data:
                raise ValueError("a write is whole sectors")
            entry = ENTRY.pack(sector, len(data) // sectorsize, 0, 0)
            body += entry.ljust(sectorsize, b"\0") + data
        elif op[0] == "flush":
            body += ENTRY.pack(0, 0, FLUSH, 0).ljust(sectorsize, b"\0")
            flushed = seen
        elif op[0] == "discard":
            _, sector, n = op
            body += ENTRY.pack(sector, n, DISCARD, 0).ljust(sectorsize, b"\0")
        else:
            raise ValueError(f"unknown op {op[0]!r}")
    count = flushed if nr_entries is None else nr_entries
    head = SUPER.pack(MAGIC, VERSION, count, sectorsize).ljust(sectorsize, b"\0")
    Path(path).write_bytes(head + bytes(body))
