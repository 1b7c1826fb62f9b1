"""The journal's record format: framing, strict scanning, and reading damaged records.

A record is ``length (4 bytes, big-endian) · CRC32 of the payload (4 bytes) · payload``
where the payload is UTF-8 JSON. ``scan_records`` reads strictly up to the first damage;
``read_pieces`` reads every record it can, finding the next intact frame behind a damaged
one and mending a record with one flipped bit (CRC32 locates it) or a damaged length field.
The header helpers say what a header record must hold to name a deal.
"""

from __future__ import annotations

import json
import secrets
import struct
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from haleakala.games.haleakala import PLAYERS, Game
from haleakala.i18n import LANGUAGES
from haleakala.palette import MODES as COLOUR_MODES

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


def settings_of(
    record: dict[str, Any], solo: str | None, strength: str | None
) -> tuple[str | None, str | None]:
    """Solo settings from a header or solo record (a value that names nothing is ignored)."""
    if "solo" in record and (record["solo"] is None or record["solo"] in PLAYERS):
        solo = record["solo"]
    if isinstance(record.get("strength"), str):
        strength = record["strength"]
    return solo, strength


def language_of(record: dict[str, Any], language: str | None) -> str | None:
    """The language from a header or language record (one without a catalog is ignored)."""
    if record.get("language") in LANGUAGES:
        return str(record["language"])
    return language


def settle(walk: Any, record: dict[str, Any]) -> None:
    """Take a settings record (solo mode, language, colour mode) into recovery's replay
    (``walk``: its solo, strength, language and palette); other records change nothing."""
    if record.get("type") == "solo":
        walk.solo, walk.strength = settings_of(record, walk.solo, walk.strength)
    elif record.get("type") == "language":
        walk.language = language_of(record, walk.language)
    elif record.get("type") == "palette":
        walk.palette = palette_of(record, walk.palette)


def palette_of(record: dict[str, Any], palette: str | None) -> str | None:
    """The colour mode from a header or palette record (one that names none is ignored)."""
    if record.get("palette") in COLOUR_MODES:
        return str(record["palette"])
    return palette


def loose_header(data: bytes, piece: Piece) -> dict[str, Any] | None:
    """The header of a journal whose first record fails its CRC but whose JSON still names
    a deal of this version (recovery then asks the records' digests to prove it)."""
    if piece.start != 0 or piece.end - piece.start <= FRAME.size:
        return None
    length = FRAME.unpack_from(data, 0)[0]
    for end in (FRAME.size + length, piece.end):
        if end <= piece.end:
            record = _json_object(data[FRAME.size : end])
            if is_header(record) and record is not None and record.get("version") == VERSION:
                try:
                    Game(**deal_of(record))
                except (KeyError, TypeError, ValueError):
                    continue
                return record
    return None


def is_header(record: dict[str, Any] | None) -> bool:
    return record is not None and record.get("type") == "header" and record.get("format") == FORMAT


def deal_of(record: dict[str, Any]) -> dict[str, Any]:
    return {"variant": record["variant"], "seed": int(record["seed"]), "start": record["start"]}


def acknowledged(record: dict[str, Any]) -> bool:
    """Does ``record`` look like a decision or undo this program acknowledged (a whole number
    of decisions, a 16-hex-digit digest)? Such a record that cannot be connected to the
    proven history is a decision someone made, not noise: recovery must not drop it silently."""
    ply, digest = record.get("ply"), record.get("digest")
    return (
        record.get("type") in ("decision", "undo")
        and type(ply) is int
        and ply >= 0
        and isinstance(digest, str)
        and len(digest) == 16
        and all(c in "0123456789abcdef" for c in digest)
    )


def record_follows(record: dict[str, Any], game: Game, digest: str) -> bool:
    """Does ``record`` (a decision or an undo, already applied) say ``game`` is its result?"""
    return record.get("digest") == digest and record.get("ply") == len(game.history)


def may_follow(record: dict[str, Any], ply: int) -> bool:
    """Could ``record`` follow a position after ``ply`` decisions (by its ``ply`` alone)?"""
    if not acknowledged(record):
        return False
    if record["type"] == "decision":
        return bool(record["ply"] == ply + 1)
    count = record.get("count")
    return type(count) is int and record["ply"] == ply - count


def counted(records: list[dict[str, Any]]) -> int:
    """The decisions ``records`` make, counted one by one; -1 if a record's ``ply`` is not
    the count before it plus one (a decision) or minus its ``count`` (an undo)."""
    ply = 0
    for record in records:
        kind, count = record.get("type"), record.get("count")
        if kind == "decision":
            ply += 1
        elif kind == "undo" and type(count) is int:
            ply -= count
        elif kind == "undo":
            return -1
        else:
            continue
        if record.get("ply") != ply:
            return -1
    return ply
