"""The RFID Pico's line protocol, host side (specification: firmware/PROTOCOL.md).

One frame per line, ``$HK1,<kind>,<boot>,<seq>[,<field>...]*<CRC>``, CRC-16/CCITT-FALSE over
the characters between ``$`` and ``*``. The firmware has its own encoder
(firmware/haleakala_pico/protocol.py, MicroPython cannot import this package); the tests
run both and check that every frame one writes, the other reads.

Parsing is strict (a frame either passes every check or is rejected with the reason's
kind), because a frame that is half believed could move a disc that nobody touched.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from typing import ClassVar

from haleakala.hal.events import BEACHES

VERSION = 1
SYNC = b"$HK1,"
MAX_LINE = 1024
"""Longest line kept while looking for a newline (a full snapshot is about 300 bytes)."""
SEQ_MODULO = 1 << 32

GARBAGE = "garbage"  # a line that is not a frame (REPL output, line noise)
TRUNCATED = "truncated"  # a frame cut short (no *CRC at its end, or another frame began)
CRC = "crc"  # a complete frame whose CRC does not match: corrupted bits
MALFORMED = "malformed"  # CRC right but content impossible: a firmware/host mismatch
FRAME_ERRORS = (GARBAGE, TRUNCATED, CRC, MALFORMED)

FAULT_OK = "ok"
FAULT_CRASH = "crash"
FIRMWARE_READER = -1
"""``fault`` frames about the firmware itself (a crash before a reboot) name reader -1."""

_CRC = re.compile(rb"[0-9A-F]{4}")
_BOOT = re.compile(rb"[0-9A-F]{8}")
_SEQ = re.compile(rb"[0-9]{1,10}")
_UID = r"(?:[0-9A-F]{2}){4,10}"
_BEACH = re.compile(rf"(?:{_UID}(?:\.{_UID})*)?")
_WORD = re.compile(r"[a-z0-9_]{1,16}")
_NUMBER = re.compile(r"-?[0-9]{1,10}")


def normalise_uid(uid: str) -> str:
    """Tag UIDs compare as upper-case hex without separators: ``e0:04:01`` == ``E00401``.

    The one spelling of a UID on the host: the config, the tags CLI and the driver all
    compare through it, so a UID typed with colons still finds the tag the Pico reports."""
    return "".join(ch for ch in uid if ch not in ":- ").upper()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: ``crc16(b"123456789") == 0x29B1`` (``crc_hqx`` is this CRC)."""
    return binascii.crc_hqx(data, 0xFFFF)


class FrameError(ValueError):
    """A line that is not an acceptable frame; ``kind`` is one of ``FRAME_ERRORS``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Hello:
    """Sent at boot and every few seconds: who the Pico is and how it scans."""

    kind: ClassVar[str] = "hello"
    boot: str
    seq: int
    firmware: str
    readers: tuple[str, ...]
    debounce_scans: int
    snapshot_period_ms: int
    runtime: str = ""
    """The interpreter the Pico runs, e.g. ``micropython-1.29.0`` (firmware 1.1+; "" before)."""

    def fields(self) -> list[str]:
        return [
            self.firmware,
            ".".join(self.readers),
            str(self.debounce_scans),
            str(self.snapshot_period_ms),
            *([self.runtime] if self.runtime else []),
        ]


@dataclass(frozen=True)
class Snapshot:
    """What lies on every beach: UIDs per beach, or None where the reader cannot tell."""

    kind: ClassVar[str] = "snap"
    boot: str
    seq: int
    beaches: tuple[tuple[str, ...] | None, ...]

    def fields(self) -> list[str]:
        return ["?" if b is None else ".".join(sorted(b)) for b in self.beaches]


@dataclass(frozen=True)
class Heartbeat:
    """Once a second: uptime, the last full scan round's duration, faulted readers."""

    kind: ClassVar[str] = "hb"
    boot: str
    seq: int
    uptime_s: int
    round_ms: int
    faulted: int

    def fields(self) -> list[str]:
        return [str(self.uptime_s), str(self.round_ms), str(self.faulted)]


@dataclass(frozen=True)
class Fault:
    """A reader failed (kind nochip/timeout/badresp/collision/spi/error), recovered (``ok``),
    or the firmware crashed (reader -1, kind ``crash``)."""

    kind: ClassVar[str] = "fault"
    boot: str
    seq: int
    reader: int
    fault: str
    detail: str

    def fields(self) -> list[str]:
        return [str(self.reader), self.fault, self.detail]


@dataclass(frozen=True)
class Unknown:
    """A frame of a kind this host does not know: checked, counted, ignored (newer firmware)."""

    name: str
    boot: str
    seq: int
    extra: tuple[str, ...]

    @property
    def kind(self) -> str:
        return self.name

    def fields(self) -> list[str]:
        return list(self.extra)


Frame = Hello | Snapshot | Heartbeat | Fault | Unknown


def encode(frame: Frame) -> bytes:
    """The line for ``frame``, newline included."""
    body = ",".join(["HK1", frame.kind, frame.boot, str(frame.seq), *frame.fields()])
    data = body.encode("ascii")
    return b"$" + data + b"*%04X\n" % crc16(data)


def _word(text: str, what: str) -> str:
    if not _WORD.fullmatch(text):
        raise FrameError(MALFORMED, f"{what} {text!r} is not a short lower-case word")
    return text


def _int(text: str, what: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise FrameError(MALFORMED, f"{what} {text!r} is not a number")
    return int(text)


def _beach(text: str) -> tuple[str, ...] | None:
    if text == "?":
        return None
    if not _BEACH.fullmatch(text):
        raise FrameError(MALFORMED, f"beach field {text[:40]!r} is not UIDs joined by '.'")
    return tuple(text.split(".")) if text else ()


def parse(line: bytes) -> Frame:
    """One frame from one line (starting at ``$HK1,``; trailing CR/LF allowed).

    Raises ``FrameError`` whose ``kind`` says why: garbage, truncated, crc or malformed.
    """
    line = line.rstrip(b"\r\n")
    if not line.startswith(SYNC):
        raise FrameError(GARBAGE, "line does not start with $HK1,")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise FrameError(TRUNCATED, "frame does not end with *CRC")
    body = line[1:star]
    if not _CRC.fullmatch(line, star + 1):
        raise FrameError(CRC, "CRC is not four upper-case hex digits")
    claimed = int(line[star + 1 :], 16)
    if crc16(body) != claimed:
        raise FrameError(CRC, f"CRC {claimed:04X} does not match {crc16(body):04X}")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise FrameError(MALFORMED, "frame is not ASCII") from None
    parts = text.split(",")
    if len(parts) < 4:
        raise FrameError(MALFORMED, "frame has no boot id and sequence number")
    _, kind, boot, seq_text = parts[:4]
    fields = parts[4:]
    if not _BOOT.fullmatch(boot.encode()):
        raise FrameError(MALFORMED, f"boot id {boot!r} is not 8 hex digits")
    if not _SEQ.fullmatch(seq_text.encode()) or int(seq_text) >= SEQ_MODULO:
        raise FrameError(MALFORMED, f"sequence number {seq_text!r} is not 0..2^32-1")
    seq = int(seq_text)
    if kind == "snap":
        if len(fields) < BEACHES:
            raise FrameError(MALFORMED, f"snapshot has {len(fields)} beaches, not {BEACHES}")
        return Snapshot(boot, seq, tuple(_beach(f) for f in fields[:BEACHES]))
    if kind == "hb":
        if len(fields) < 3:
            raise FrameError(MALFORMED, "heartbeat needs uptime, round time, faulted count")
        return Heartbeat(
            boot,
            seq,
            _int(fields[0], "uptime"),
            _int(fields[1], "round time"),
            _int(fields[2], "faulted count"),
        )
    if kind == "fault":
        if len(fields) < 3:
            raise FrameError(MALFORMED, "fault needs reader, kind, detail")
        reader = _int(fields[0], "reader")
        if not FIRMWARE_READER <= reader < BEACHES:
            raise FrameError(MALFORMED, f"fault names reader {reader}, not -1..{BEACHES - 1}")
        return Fault(boot, seq, reader, _word(fields[1], "fault kind"), fields[2])
    if kind == "hello":
        if len(fields) < 4:
            raise FrameError(MALFORMED, "hello needs firmware, readers, debounce, period")
        readers = tuple(_word(r, "reader kind") for r in fields[1].split("."))
        if len(readers) != BEACHES:
            raise FrameError(MALFORMED, f"hello lists {len(readers)} readers, not {BEACHES}")
        return Hello(
            boot,
            seq,
            fields[0],
            readers,
            _int(fields[2], "debounce"),
            _int(fields[3], "snapshot period"),
            fields[4] if len(fields) > 4 else "",
        )
    return Unknown(_word(kind, "frame kind"), boot, seq, tuple(fields))
