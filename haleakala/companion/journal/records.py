"""The journal's record format: framing, strict scanning, and reading damaged records.

A record is ``length (4 bytes, big-endian) · CRC32 of the payload (4 bytes) · payload``
where the payload is UTF-8 JSON. A journal may end with zero bytes: space the daemon wrote
ahead of its records (``Journal.preallocate``), not records and not damage (``written``).
``scan_records`` reads strictly up to the first damage; ``scan.read_pieces`` reads every
record it can (finding the next intact frame behind a damaged one, mending what one flipped
bit or a damaged length field did).
The header helpers say what a header record must hold to name a deal.
"""

from __future__ import annotations

import json
import secrets
import struct
import time
import zlib
from dataclasses import dataclass
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
CARD_AHEAD = 64 * 1024
"""Zeros the daemon writes ahead of its records on the card (``Journal.preallocate``): a
whole game's records (about 100 bytes each) fit in one stretch, so a game usually grows
the file once, when it starts."""

SOURCES = ("player", "auto", "bot")
"""Who made a decision: a player, the forced-decision timer, or the solo bot. Undo takes
back the last player decision together with the automatic ones after it."""
# --------------------------------------------------------------------------- records


def written(data: bytes) -> bytes:
    """``data`` without the zeros written ahead of the records. A record ends with its JSON
    object's ``}``, never with a zero byte, so no record loses a byte; a record torn by a cut
    reads as torn with or without the zeros after it."""
    return data.rstrip(b"\0")


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
    data = written(data)
    records: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    while pos < len(data):
        found = _record_at(data, pos)
        if isinstance(found, str):
            return RecordScan(records, pos, found)
        records.append((pos, found[0]))
        pos = found[1]
    return RecordScan(records, pos)


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


def speech_of(record: dict[str, Any], speech: dict[str, Any] | None) -> dict[str, Any] | None:
    """The speech settings (verbosity, volume) from a header or speech record; a record
    that names none, or nonsense, is ignored."""
    from haleakala.speech.settings import Settings

    found = Settings.of_record(record.get("speech"))
    return found.to_record() if found is not None else speech


def settle(walk: Any, record: dict[str, Any]) -> None:
    """Take a settings record (solo mode, language, colour mode, speech) into recovery's
    replay (``walk``: its solo, strength, language, palette and speech); other records
    change nothing."""
    if record.get("type") == "solo":
        walk.solo, walk.strength = settings_of(record, walk.solo, walk.strength)
    elif record.get("type") == "language":
        walk.language = language_of(record, walk.language)
    elif record.get("type") == "palette":
        walk.palette = palette_of(record, walk.palette)
    elif record.get("type") == "speech":
        walk.speech = speech_of(record, walk.speech)


def palette_of(record: dict[str, Any], palette: str | None) -> str | None:
    """The colour mode from a header or palette record (one that names none is ignored)."""
    if record.get("palette") in COLOUR_MODES:
        return str(record["palette"])
    return palette


def loose_header(data: bytes, start: int, end: int) -> dict[str, Any] | None:
    """The header of a journal whose first record (the file's bytes ``start``–``end``, of
    which ``data`` holds the beginning) fails its CRC but whose JSON still names a deal of
    this version (recovery then asks the records' digests to prove it)."""
    if start != 0 or end - start <= FRAME.size:
        return None
    length = FRAME.unpack_from(data, 0)[0]
    for stop in (FRAME.size + length, end):
        if stop <= end and stop <= len(data):
            record = _json_object(data[FRAME.size : stop])
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
