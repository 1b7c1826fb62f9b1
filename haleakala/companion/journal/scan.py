"""Reading a damaged journal: every record that can be read, from a file of any size.

``scan_journal`` streams the file through a window of a few MiB: the records it holds and
the stretches between them (``Piece``), with the first bytes of the file for a damaged
header. Memory stays bounded whatever the file is (a sparse 2 GB journal, 200 MB of garbage
after the last record): a damaged stretch is kept only as far as a record can reach
(``HEAD``: two frames and the largest payload), and a journal that claims more records than
any game makes (``MAX_RECORDS``) is refused. Time is proportional to the size: the search
for the next intact frame behind damage looks at each ``{`` once, and the search for a
damaged record's end keeps a running CRC instead of starting over at every ``{``.

Behind a damaged record it finds the next intact frame, and mends a record with one or two
flipped bits (CRC32 locates them) or a damaged length field. ``read_pieces`` is the same
over bytes in memory.
"""

from __future__ import annotations

import errno
import io
import os
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from haleakala.core.statefile import StateFileError, aside_command, open_regular

from .records import FRAME, MAX_PAYLOAD, _json_object, _record_at
from .storage import refused

CHUNK = 1 << 20
"""Bytes read from the file at a time."""
HEAD = 2 * FRAME.size + MAX_PAYLOAD + 1
"""The most of a damaged stretch that can still hold (the start of) a readable record."""
MAX_RECORDS = 100_000
"""More records than any journal holds (a game is a few hundred decisions; a thousand undos
and settings more would still be a few thousand): a file with more is not a game's journal,
and reading it all would only fill the memory."""

Progress = Callable[[int, int], None]
"""Told ``(bytes read so far, bytes in the file)`` after every chunk read."""


@dataclass
class Piece:
    """A stretch of a journal file: one record, or bytes that are no record."""

    start: int
    end: int
    payload: dict[str, Any] | None  # None: unreadable
    mended: str | None = None  # how a damaged record was read ("bit 37 of the payload", …)
    problem: str | None = None  # why an unreadable stretch is unreadable


@dataclass
class JournalScan:
    """What ``scan_journal`` read: the pieces, the file's size and its first ``HEAD`` bytes
    (a damaged header is read from them)."""

    pieces: list[Piece]
    size: int
    head: bytes
    allocated: int = 0
    """The file's size: ``size`` and the zeros written ahead of the records after it
    (``Journal.preallocate``), which are neither records nor damage."""


class TooManyRecords(ValueError):
    """The file holds more than ``MAX_RECORDS`` records: not a game's journal."""


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


def _mend(data: bytes, start: int, end: int, problem: str | None = None) -> Piece:
    """Read ``data[start:end]`` (between intact records) as one record damaged in one field:
    the length, the CRC, or one bit of the payload. Anything else is unreadable (``problem``
    says why, if the caller saw more of the file than ``data``)."""
    if problem is None:
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
    ends, or (that field damaged) where a payload that matches its CRC ends. A payload is at
    most ``MAX_PAYLOAD``, so only the first ``HEAD`` bytes can hold its end; the CRC of the
    payload so far runs along from ``{`` to ``{`` (one pass, not one per ``{``)."""
    if end - start <= FRAME.size:
        return None
    length, crc = FRAME.unpack_from(data, start)
    claimed = start + FRAME.size + length
    if claimed < end:
        first = _mend(data, start, claimed)
        if first.payload is not None:
            return first
    view = memoryview(data)
    limit = min(end, start + HEAD)
    running, done = 0, start + FRAME.size
    brace = data.find(b"{", start + 2 * FRAME.size + 1, limit)
    while brace != -1:
        running = zlib.crc32(view[done : brace - FRAME.size], running)
        done = brace - FRAME.size
        if running == crc:
            first = _mend(data, start, done)
            if first.payload is not None:
                return first
        brace = data.find(b"{", brace + 1, limit)
    return None


class _Window:
    """Bytes ``[base, end)`` of a file in memory, read on demand and dropped behind."""

    def __init__(self, f: BinaryIO, total: int, progress: Progress | None) -> None:
        self.f, self.total, self.progress = f, total, progress  # nothing is read past total
        self.buf = bytearray()
        self.base = 0
        self.eof = False
        self.seen = 0  # the furthest byte read (what progress reports)

    @property
    def end(self) -> int:
        return self.base + len(self.buf)

    def fill(self, upto: int) -> None:
        """Read until the window reaches ``upto`` or the end of the file."""
        while self.end < upto and not self.eof:
            chunk = self.f.read(min(max(CHUNK, upto - self.end), self.total - self.end))
            if not chunk:
                self.eof = True
                break
            self.buf += chunk
            if self.end > self.seen:
                self.seen = self.end
                if self.progress is not None:
                    self.progress(self.seen, max(self.total, self.seen))

    def drop(self, before: int) -> None:
        """Forget the bytes before ``before`` (the reader will not look back there): once
        they are a chunk's worth, so that record after record does not move the window."""
        count = min(before - self.base, len(self.buf))
        if count >= CHUNK or (count > 0 and count == len(self.buf)):
            del self.buf[:count]
            self.base += count

    def seek(self, offset: int) -> None:
        """Make ``offset`` readable again if it was dropped (reads from there anew)."""
        if offset < self.base:
            self.f.seek(offset)
            self.buf.clear()
            self.base, self.eof = offset, False

    def take(self, start: int, end: int) -> bytes:
        self.seek(start)
        self.fill(end)
        return bytes(self.buf[start - self.base : end - self.base])

    def record_at(self, pos: int) -> tuple[dict[str, Any], int] | str:
        """``records._record_at`` at ``pos`` of the file (reading as far as it needs)."""
        if pos < self.base:
            self.seek(pos)
        if self.end < pos + FRAME.size:
            self.fill(pos + FRAME.size)
        at = pos - self.base
        if len(self.buf) - at >= FRAME.size:
            length = FRAME.unpack_from(self.buf, at)[0]
            if length <= MAX_PAYLOAD and self.end < pos + FRAME.size + length:
                self.fill(pos + FRAME.size + length)
                at = pos - self.base
        found = _record_at(self.buf, at)  # type: ignore[arg-type]  # bytes-like
        if isinstance(found, str):
            return found
        return found[0], found[1] + self.base

    def next_intact(self, pos: int) -> int:
        """Where the next intact record after ``pos`` starts, or the end of the file. A
        record starts with a length of at most ``MAX_PAYLOAD`` (its first byte zero, its
        second at most 0x10), a CRC and a payload that opens with ``{``: only where the two
        length bytes before a ``{`` fit is a record checked (``_candidates``), so random
        garbage costs a check every few hundred kB."""
        start = pos + 1
        while True:
            self.seek(start)
            self.fill(start + FRAME.size + 1)
            scanned = self.end
            for candidate in self._candidates(start):
                if not isinstance(self.record_at(candidate), str):
                    return candidate
            if self.eof and scanned == self.end:
                return self.end
            start = max(start, scanned - FRAME.size)  # a frame there may end in the next read
            self.drop(start)
            self.fill(self.end + CHUNK)

    def _candidates(self, start: int) -> list[int]:
        """The offsets from ``start`` on where an intact record could start, as far as the
        window reaches now (``CANDIDATE``; a window without a ``{`` is passed by memchr)."""
        first = self.buf.find(b"{", start - self.base + FRAME.size)
        if first == -1:
            return []
        return [self.base + m.start() - FRAME.size for m in CANDIDATE.finditer(self.buf, first)]


CANDIDATE = re.compile(rb"\{(?<=\x00[\x00-\x10][\x00-\xff]{6}\{)")
"""A ``{`` whose record frame could be whole: the length's first byte zero, its second at
most 0x10. The literal first lets the regex engine skip to each ``{``; the look-behind checks
the frame in C (about 1 GB/s through random bytes, measured; a Python check per ``{`` was 30
times slower)."""


def scan_journal(
    f: BinaryIO, *, size: int | None = None, progress: Progress | None = None
) -> JournalScan:
    """Every record of the journal open in ``f`` that can be read, in order, with the
    stretches between; bounded memory (a window and the records), time proportional to the
    file. ``size`` (the file's, for ``progress``) defaults to what ``fstat`` says. Raises
    ``TooManyRecords`` past ``MAX_RECORDS``."""
    if size is None:
        try:
            size = os.fstat(f.fileno()).st_size
        except (OSError, io.UnsupportedOperation):
            size = 0
    allocated, size = size, written_end(f, size)
    f.seek(0)
    win = _Window(f, size, progress)
    win.fill(HEAD)
    head = bytes(win.buf[:HEAD])
    pieces: list[Piece] = []
    pos = 0
    searched = (-1, -1)  # (from, found): no intact record starts strictly between them
    while True:
        if len(pieces) > MAX_RECORDS:
            raise TooManyRecords(f"more than {MAX_RECORDS:,} records")
        if pos < win.base:
            win.seek(pos)
        if pos >= win.end:
            win.fill(pos + 1)
            if pos >= win.end:
                break
        found = win.record_at(pos)
        if not isinstance(found, str):
            pieces.append(Piece(pos, found[1], found[0]))
            pos = found[1]
            win.drop(pos)
            continue
        if searched[0] < pos < searched[1]:
            end = searched[1]  # the search from before pos already looked past here
            stretch = win.take(pos, min(end, pos + HEAD))
        else:
            stretch = win.take(pos, pos + HEAD)  # what can hold a damaged record
            end = win.next_intact(pos)
            searched = (pos, end)
            stretch = stretch[: end - pos]
        first = _first_of_two(stretch, 0, len(stretch))
        if first is not None:  # two damaged records in a row
            pieces.append(Piece(pos + first.start, pos + first.end, first.payload, first.mended))
            pos += first.end
            continue
        if end - pos <= HEAD:
            piece = _mend(stretch, 0, len(stretch), problem=found)
            pieces.append(Piece(pos, end, piece.payload, piece.mended, piece.problem))
        else:  # longer than any record: no mending can make one of it
            pieces.append(Piece(pos, end, None, problem=found))
        pos = end
    return JournalScan(pieces, max(pos, win.end), head, max(allocated, pos, win.end))


def written_end(f: BinaryIO, size: int) -> int:
    """Where the written part of a journal of ``size`` bytes ends: before the zeros written
    ahead of its records (``Journal.preallocate``). A record ends with its JSON object's
    ``}``, never with a zero byte, so no record loses a byte; a record torn by a cut reads as
    torn with or without the zeros after it. Read backwards a chunk at a time: bounded
    memory, time proportional to the zeros."""
    end = size
    while end > 0:
        step = min(end, CHUNK)
        f.seek(end - step)
        chunk = f.read(step)
        if len(chunk) < step:  # the file shrank meanwhile: what is there is what counts
            return end - step + len(chunk.rstrip(b"\0"))
        kept = len(chunk.rstrip(b"\0"))
        if kept:
            return end - step + kept
        end -= step
    return 0


def scan_file(path: Path, progress: Progress | None = None) -> JournalScan:
    """The records of the journal at ``path``, streamed (bounded memory, whatever its size);
    a file that is not a regular file, or holds more records than any game, is refused with
    the fix (``JournalError``) and left as it is."""
    try:
        f = open_regular(path)
        if f is None:
            return JournalScan([], 0, b"")
        with f:
            return scan_journal(f, progress=progress)
    except StateFileError as exc:
        raise refused(exc) from exc
    except TooManyRecords as exc:
        fix = aside_command(path)
        text = (
            f"{path} holds more than {MAX_RECORDS:,} records, more than any game makes: it "
            f"is not read on and nothing was changed; move it away ({fix})"
        )
        too_many = StateFileError(errno.EFBIG, text, path=path, kind="too large", fix=fix)
        raise refused(too_many) from exc


def read_pieces(data: bytes) -> list[Piece]:
    """Every record of a journal that can be read, in order, with the stretches between."""
    return scan_journal(io.BytesIO(data), size=len(data)).pieces
