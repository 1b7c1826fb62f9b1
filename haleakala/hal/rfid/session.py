"""The RFID link's judgement: the Pico's bytes in, ``BeachContents`` changes out.

``RfidSession`` is pure (bytes and the time go in, events come out) so that every fault the
link can suffer is replayed in tests without a thread or a port; ``driver.RfidDriver`` feeds
it from the serial port.

Why nothing the link does can invent a disc move:

* every frame carries a CRC; anything that fails a check is dropped and counted by kind;
* every snapshot is complete, so a lost frame costs nothing and the next one repairs all;
* frames carry the firmware run's boot id and a sequence number: within a run each frame
  must be the next one (a repeat or a step back is dropped as duplicate/stale); anything
  else (a gap or jump of any size, a new boot id, a ``hello``, any frame after the port
  (re)opened) starts a *candidate* run, believed only when ``CONFIRM_FRAMES`` consecutive
  frames of its own continue it and the believed run has meanwhile fallen silent: the real
  Pico, which speaks at least every snapshot period, is never retired by frames it talks
  over, and its frames are never called stale because of a run that was not confirmed;
* a beach's contents change only when two consecutive snapshots of the believed run agree
  on them (the firmware sends every change twice), so no single frame places or takes back
  a disc;
* a reconnect forgets the run (the Pico may have restarted meanwhile) but keeps the posted
  contents;
* a tag the ``[tags]`` table does not name is posted as an ``UnknownTag`` on its beach, so
  the controller refuses the board and says how to enrol it; the driver logs each such UID
  once, remembering at most ``UNKNOWN_TAGS_MAX`` of them;
* a beach whose reader cannot tell (``?``) keeps its last contents instead of looking empty;
* events are posted only for a beach whose discs differ from the last posted contents, and
  those contents survive reconnections, so a reconnect re-posts nothing that did not change.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping
from typing import Any

from haleakala.hal.events import (
    BEACHES,
    BeachContents,
    Disc,
    InputEvent,
    LinkHealth,
    UnknownTag,
)
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.protocol import (
    FAULT_CRASH,
    FAULT_OK,
    FIRMWARE_READER,
    GARBAGE,
    MAX_LINE,
    SEQ_MODULO,
    SYNC,
    TRUNCATED,
    Fault,
    FrameError,
    Heartbeat,
    Hello,
    Snapshot,
)

log = logging.getLogger("haleakala.rfid")

BeachUids = tuple[frozenset[str] | None, ...]
"""Raw tag UIDs per beach as the Pico last reported them (None: that reader cannot tell)."""

COUNTERS = (
    "frames", "snapshots", "garbage", "truncated", "crc", "malformed", "stale", "duplicate",
    "unconfirmed", "ignored", "seq_gaps", "seq_jumps", "resyncs", "connects", "disconnects",
    "firmware_crashes", "post_errors", "driver_errors", "unknown_tags_unlisted",
)  # fmt: skip

CONFIRM_FRAMES = 3
"""Consecutive frames of a candidate run (without a frame of the believed run between them)
that it needs before it is believed. A ``hello`` is one of them, not a verdict."""
SEQ_STEP_MAX = 1000
"""Largest step between two frames of one candidate run that still continues it (frames
lost on the line while it confirms itself); the believed run itself only takes the next
number, so a gap of any size is a candidate."""
RETIRE_PERIODS = 3
"""A candidate retires the believed run only once that run has said nothing for this many
of its snapshot periods (from its ``hello``; 100 ms before one is heard): the Pico sends a
snapshot at least once a period, so a live Pico is never retired by frames sent over it."""
DEFAULT_PERIOD_S = 0.1
CANDIDATE_HELD_MAX = 64
"""Frames a candidate holds back while it waits for the believed run to fall silent; older
ones are dropped (as ``unconfirmed``): snapshots are complete, the newest ones suffice."""
FIRMWARE_SENDS_TWICE = (1, 2)
"""The firmware version from which every change arrives as two consecutive snapshots."""
UNKNOWN_TAGS_MAX = 256
"""Unknown UIDs remembered (and logged once each); beyond that they are only counted."""


class _Candidate:
    """A run (boot id and sequence number) not believed yet, and its frames held back."""

    __slots__ = ("boot", "dropped", "first", "frames", "seq")

    def __init__(self, boot: str, seq: int) -> None:
        self.boot = boot
        self.first = seq
        self.seq = seq
        self.frames: list[protocol.Frame] = []
        self.dropped = 0


def normalise_tag_map(tag_map: Mapping[str, Disc | str]) -> dict[str, Disc]:
    """UID -> Disc from a config-style map whose values may be disc names ("red3", "yellow*")."""
    result: dict[str, Disc] = {}
    for uid, disc in tag_map.items():
        result[protocol.normalise_uid(uid)] = disc if isinstance(disc, Disc) else Disc.parse(disc)
    return result


def uid_in(uids: frozenset[str] | None, uid: str) -> bool:
    return uids is not None and uid in uids


class RfidSession:
    """The protocol state machine: bytes in, events out. No thread, no port, no clock.

    Every method takes ``now`` (seconds, monotonic) and returns the events to post, in order.
    """

    def __init__(
        self,
        tag_map: Mapping[str, Disc | str],
        *,
        stale_after_s: float = 1.0,
        warn_unknown: bool = True,
    ) -> None:
        self.tag_map = normalise_tag_map(tag_map)
        self.stale_after_s = stale_after_s
        self.warn_unknown = warn_unknown
        self.counts: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.port: str | None = None
        self.hello: Hello | None = None
        self.round_ms: int | None = None
        self.raw: BeachUids = (None,) * BEACHES
        """The confirmed view: per beach, what two consecutive snapshots agreed on."""
        self._last_raw: BeachUids | None = None  # the previous snapshot of the believed run
        self.published: list[frozenset[Disc | UnknownTag] | None] = [None] * BEACHES
        self.reader_faults: dict[int, tuple[str, str]] = {}
        self.unknown_tags: set[str] = set()
        self.ambiguous_tags: set[str] = set()
        self.last_crash: str | None = None
        self._buffer = bytearray()
        self._boot: str | None = None
        self._seq: int | None = None
        self._known_boot: str | None = None  # the last run believed, across reconnects
        self._run_at: float | None = None  # when the believed run last sent a frame
        self._candidate: _Candidate | None = None
        self._retired: deque[str] = deque(maxlen=16)
        self._link = "searching"
        self._down_detail = "looking for the RFID Pico"
        self._opened_at: float | None = None
        self._last_frame_at: float | None = None
        self._posted_health: tuple[bool, str] | None = None

    # ------------------------------------------------------------------ connection

    def opened(self, port: str, now: float) -> list[InputEvent]:
        """The port is open: expect frames. The link's view restarts (the run must be
        confirmed again: the Pico may have restarted while away); contents are kept."""
        self.port = port
        self._link = "open"
        self._buffer.clear()
        self._discard_candidate()
        self._boot = self._seq = None
        self._run_at = None
        self._last_raw = None
        self._retired.clear()
        self._opened_at = now
        self._last_frame_at = None
        self.counts["connects"] += 1
        return self._health_events(now)

    def closed(self, detail: str, now: float) -> list[InputEvent]:
        """No port (not found, or lost): ``detail`` says which, for the OLED."""
        if self._link == "open":
            self.counts["disconnects"] += 1
        self._link = "down"
        self._down_detail = detail
        self._buffer.clear()
        return self._health_events(now)

    def tick(self, now: float) -> list[InputEvent]:
        """Time passed without data: notice a silent Pico, and believe a candidate run
        that was only waiting for the old run to fall silent."""
        events: list[InputEvent] = []
        held = self._promote(now)
        if held:
            for frame in held:
                self._apply(frame, now, events)
        return events + self._health_events(now)

    # ------------------------------------------------------------------ bytes

    def feed(self, data: bytes, now: float) -> list[InputEvent]:
        """Bytes from the port; returns the events they cause."""
        events: list[InputEvent] = []
        buffer = self._buffer
        buffer += data
        start = 0
        while True:
            newline = buffer.find(b"\n", start)
            if newline < 0:
                break
            self._line(bytes(buffer[start:newline]), now, events)
            start = newline + 1
        if start:
            del buffer[:start]
        if len(buffer) > MAX_LINE:
            self._overflow()
        events += self._health_events(now)
        return events

    def _overflow(self) -> None:
        """A line longer than any frame: noise. Keep only a frame that may be starting."""
        buffer = self._buffer
        self.counts[GARBAGE] += 1
        sync = buffer.rfind(SYNC)
        if sync > 0 and len(buffer) - sync <= MAX_LINE:
            del buffer[:sync]
        else:
            del buffer[: len(buffer) - (len(SYNC) - 1)]

    def _line(self, line: bytes, now: float, events: list[InputEvent]) -> None:
        line = line.rstrip(b"\r")
        if not line.strip():
            return
        sync = line.rfind(SYNC)
        if sync < 0:
            self.counts[GARBAGE] += 1
            return
        if sync > 0:
            self.counts[TRUNCATED if SYNC in line[:sync] else GARBAGE] += 1
            line = line[sync:]
        try:
            frame = protocol.parse(line)
        except FrameError as exc:
            self.counts[exc.kind] += 1
            return
        held = self._admit(frame, now)
        if held is None:
            return
        for admitted in held:
            self._apply(admitted, now, events)

    def _apply(self, frame: protocol.Frame, now: float, events: list[InputEvent]) -> None:
        self.counts["frames"] += 1
        self._last_frame_at = now
        if isinstance(frame, Snapshot):
            self._snapshot(frame, events)
        elif isinstance(frame, Hello):
            if self.hello is None or self.hello.firmware != frame.firmware:
                self._check_firmware(frame.firmware)
            self.hello = frame
        elif isinstance(frame, Heartbeat):
            self.round_ms = frame.round_ms
        elif isinstance(frame, Fault):
            self._fault(frame)
        else:
            self.counts["ignored"] += 1

    def _admit(self, frame: protocol.Frame, now: float) -> tuple[protocol.Frame, ...] | None:
        """The frames ``frame`` lets through, in order (None: nothing yet).

        Only the next frame of the believed run is believed at once. Anything else (another
        boot id, a ``hello`` of one, a number that skips ahead by any amount, any frame
        before a run is believed) is a *candidate*: held back until ``CONFIRM_FRAMES``
        consecutive frames continue it and the believed run has fallen silent
        (``RETIRE_PERIODS``), then believed with its held frames in order. A frame of the
        believed run in between ends the candidate. So a stray frame with a valid CRC (a
        crafted ``hello``, a number 900 or 2^31 ahead) neither moves a disc nor makes the
        real Pico's frames stale: they go on being the next numbers of the believed run."""
        boot, seq = frame.boot, frame.seq
        if boot == self._boot and self._seq is not None:
            ahead = (seq - self._seq) % SEQ_MODULO
            if ahead == 0:
                self.counts["duplicate"] += 1
                return None
            if ahead >= SEQ_MODULO // 2:
                self.counts["stale"] += 1
                return None
            if ahead == 1:
                self._discard_candidate()  # the run goes on: the candidate was not consecutive
                self._seq = seq
                self._run_at = now
                return (frame,)
        candidate = self._candidate
        if candidate is not None and candidate.boot == boot:
            ahead = (seq - candidate.seq) % SEQ_MODULO
            if ahead == 0:
                self.counts["duplicate"] += 1
                return None
            if ahead > SEQ_STEP_MAX:
                candidate = None
        else:
            candidate = None
        if candidate is None:
            self._discard_candidate()
            candidate = self._candidate = _Candidate(boot, seq)
        candidate.seq = seq
        candidate.frames.append(frame)
        if len(candidate.frames) > CANDIDATE_HELD_MAX:
            del candidate.frames[0]
            candidate.dropped += 1
        return self._promote(now)

    def _retire_after_s(self) -> float:
        period = self.hello.snapshot_period_ms / 1000 if self.hello else DEFAULT_PERIOD_S
        return RETIRE_PERIODS * max(period, DEFAULT_PERIOD_S)

    def _promote(self, now: float) -> tuple[protocol.Frame, ...] | None:
        """Believe the candidate if it has confirmed itself and the believed run is silent;
        returns its held frames, or None."""
        candidate = self._candidate
        if candidate is None or len(candidate.frames) + candidate.dropped < CONFIRM_FRAMES:
            return None
        if self._run_at is not None and now - self._run_at < self._retire_after_s():
            return None  # the believed run may still be talking: it is not retired
        self._candidate = None
        self.counts["unconfirmed"] += candidate.dropped
        self._adopt(candidate.boot, candidate.seq, now, candidate.first)
        return tuple(candidate.frames)

    @staticmethod
    def _check_firmware(version: str) -> None:
        """Firmware before 1.2 sends each change once; the host, which moves a disc only on
        two agreeing snapshots, then waits for the next periodic one (up to 100 ms)."""
        parts = version.split(".")
        if (
            len(parts) >= 2
            and parts[0].isdigit()
            and parts[1].isdigit()
            and ((int(parts[0]), int(parts[1])) < FIRMWARE_SENDS_TWICE)
        ):
            log.warning(
                "RFID Pico firmware %s sends each change once, so every disc waits "
                "up to 100 ms more: flash firmware %d.%d.0 (firmware/PROTOCOL.md)",
                version,
                *FIRMWARE_SENDS_TWICE,
            )

    def _discard_candidate(self) -> None:
        """Forget a run that was never confirmed; its held frames are counted as dropped:
        ``stale`` if they came from an old run, else ``unconfirmed``."""
        candidate, self._candidate = self._candidate, None
        if candidate is not None and (candidate.frames or candidate.dropped):
            old = candidate.boot in self._retired
            self.counts["stale" if old else "unconfirmed"] += (
                len(candidate.frames) + candidate.dropped
            )

    def _adopt(self, boot: str, seq: int, now: float, first: int) -> None:
        """A candidate run (or jump) is confirmed: it becomes the run frames must follow.
        Its snapshots are compared with each other only, not with the old run's."""
        how = f"{CONFIRM_FRAMES} frames, the old run silent"
        self._last_raw = None
        self._run_at = now
        if boot == self._boot and self._seq is not None:
            lost = (first - self._seq) % SEQ_MODULO - 1
            if lost <= SEQ_STEP_MAX:  # frames lost on the line: counted, not a warning
                self.counts["seq_gaps"] += lost
            else:
                self.counts["seq_jumps"] += 1
                log.warning(
                    "RFID Pico sequence number jumped from %s to %d (confirmed by %s)",
                    self._seq,
                    first,
                    how,
                )
        else:
            if self._boot is not None:
                self._retired.append(self._boot)
            if boot in self._retired:
                self._retired.remove(boot)
            if self._known_boot is not None and boot != self._known_boot:
                self.counts["resyncs"] += 1
                log.info(
                    "RFID Pico restarted (run %s -> %s, confirmed by %s)",
                    self._known_boot,
                    boot,
                    how,
                )
            if boot != self._known_boot:
                self.reader_faults.clear()
                self.hello = None
            self._boot = self._known_boot = boot
        self._seq = seq

    # ------------------------------------------------------------------ frames

    def _fault(self, frame: Fault) -> None:
        if frame.reader == FIRMWARE_READER:
            self.counts["firmware_crashes"] += frame.fault == FAULT_CRASH
            self.last_crash = frame.detail
            log.error("RFID Pico firmware %s: %s", frame.fault, frame.detail)
        elif frame.fault == FAULT_OK:
            if self.reader_faults.pop(frame.reader, None):
                log.info("beach %d reader recovered", frame.reader)
        else:
            if self.reader_faults.get(frame.reader) != (frame.fault, frame.detail):
                log.warning(
                    "beach %d reader fault: %s (%s)", frame.reader, frame.fault, frame.detail
                )
            self.reader_faults[frame.reader] = (frame.fault, frame.detail)

    def _snapshot(self, frame: Snapshot, events: list[InputEvent]) -> None:
        self.counts["snapshots"] += 1
        seen_now = tuple(None if b is None else frozenset(b) for b in frame.beaches)
        previous, self._last_raw = self._last_raw, seen_now
        for beach, uids in enumerate(seen_now):
            if uids is not None and beach in self.reader_faults:
                del self.reader_faults[beach]  # the "ok" frame was lost; the beach reads again
        if previous is None:
            return  # nothing to compare with yet: the next snapshot confirms or not
        # A beach changes only when this snapshot and the one before agree on it.
        raw = tuple(
            seen if seen == prev else kept
            for seen, prev, kept in zip(seen_now, previous, self.raw, strict=True)
        )
        before, self.raw = self.raw, raw
        if raw == before:
            return  # nothing confirmed changed: nothing to post, no stranger seen anew
        where: dict[str, list[int]] = {}
        for beach, uids in enumerate(raw):
            if uids is None:
                continue
            for uid in uids:
                where.setdefault(uid, []).append(beach)
        contents: list[set[Disc | UnknownTag] | None] = [None if u is None else set() for u in raw]
        for uid, beaches in where.items():
            disc = self.tag_map.get(uid)
            if disc is None:
                self._unknown_tag(uid, beaches[0])
                for beach in beaches:  # the controller refuses it and says how to enrol it
                    target = contents[beach]
                    if target is not None:
                        target.add(UnknownTag(uid))
                continue
            if len(beaches) > 1:
                beaches = self._resolve_ambiguous(uid, disc, beaches, before)
            for beach in beaches:
                target = contents[beach]
                if target is not None:
                    target.add(disc)
        seen = {d for c in contents if c is not None for d in c}
        updates: dict[int, frozenset[Disc | UnknownTag]] = {}
        for beach in range(BEACHES):
            found = contents[beach]
            old = self.published[beach]
            if found is not None:
                updates[beach] = frozenset(found)
            elif old is not None and old & seen:
                # Unknown beach: it cannot still hold a disc that is now seen elsewhere.
                updates[beach] = old - seen
        # Beaches that only lost discs first, so a disc moved between two beaches within one
        # snapshot is never posted on both at once.
        losing = [b for b, d in updates.items() if d < (self.published[b] or frozenset())]
        for beach in losing + [b for b in updates if b not in losing]:
            self._publish(beach, updates[beach], events)

    def _unknown_tag(self, uid: str, beach: int) -> None:
        """Log a UID missing from ``[tags]`` once; remember at most ``UNKNOWN_TAGS_MAX``."""
        if uid in self.unknown_tags:
            return
        if len(self.unknown_tags) >= UNKNOWN_TAGS_MAX:
            self.counts["unknown_tags_unlisted"] += 1
            if self.counts["unknown_tags_unlisted"] == 1 and self.warn_unknown:
                log.warning(
                    "more than %d unknown tags: further ones are counted, not "
                    "logged (a reader returning random UIDs?)",
                    UNKNOWN_TAGS_MAX,
                )
            return
        self.unknown_tags.add(uid)
        if self.warn_unknown:
            log.warning(
                "unknown tag %s on beach %d: not in [tags] (run 'haleakala tags enroll')",
                uid,
                beach,
            )

    def _resolve_ambiguous(
        self, uid: str, disc: Disc, beaches: list[int], before: BeachUids
    ) -> list[int]:
        """One tag reported on several beaches. Usually a move: the new beach confirmed the
        arrival before the old one confirmed the departure, so the one beach that has just
        started reporting it wins, and it stays there while the old beach catches up.
        Otherwise (two new beaches at once) it stays where it was posted, or nowhere until
        the readers agree."""
        fresh = [b for b in beaches if not uid_in(before[b], uid)]
        if len(fresh) == 1:
            return fresh
        had = [b for b in beaches if disc in (self.published[b] or ())]
        if len(had) == 1:
            return had
        if uid not in self.ambiguous_tags:
            self.ambiguous_tags.add(uid)
            log.warning(
                "tag %s (%s) is read on beaches %s at once",
                uid,
                disc.name,
                ", ".join(map(str, beaches)),
            )
        return []

    def _publish(
        self, beach: int, discs: frozenset[Disc | UnknownTag], events: list[InputEvent]
    ) -> None:
        if self.published[beach] != discs:
            self.published[beach] = discs
            events.append(BeachContents(beach, discs))

    # ------------------------------------------------------------------ health

    def link_state(self, now: float) -> tuple[str, bool, str]:
        """(link, ok, detail): link is searching, down, connecting, stale or up."""
        if self._link != "open":
            return self._link, False, self._down_detail
        if self._last_frame_at is None:
            assert self._opened_at is not None
            if now - self._opened_at <= self.stale_after_s:
                return "connecting", False, f"RFID Pico on {self.port}: waiting for data"
            return (
                "stale",
                False,
                (f"RFID Pico on {self.port} sends nothing: is the firmware running?"),
            )
        if now - self._last_frame_at > self.stale_after_s:
            return (
                "stale",
                False,
                (f"RFID Pico on {self.port} went quiet (no frame for {self.stale_after_s:g} s)"),
            )
        if self.reader_faults:
            faults = "; ".join(
                f"beach {b} reader {kind} ({detail})" if detail else f"beach {b} reader {kind}"
                for b, (kind, detail) in sorted(self.reader_faults.items())
            )
            return "up", False, faults
        firmware = f" fw {self.hello.firmware}" if self.hello else ""
        return "up", True, f"RFID Pico{firmware} on {self.port}"

    def _health_events(self, now: float) -> list[InputEvent]:
        link, ok, detail = self.link_state(now)
        if link == "connecting":
            return []
        if self._posted_health == (ok, detail):
            return []
        self._posted_health = (ok, detail)
        return [LinkHealth(ok, detail)]

    def health(self, now: float) -> dict[str, Any]:
        """Counters and state for the STATUS= line and ``haleakala status``."""
        link, ok, detail = self.link_state(now)
        age = None if self._last_frame_at is None else round(now - self._last_frame_at, 3)
        return {
            "link": link,
            "ok": ok,
            "detail": detail,
            "port": self.port,
            "firmware": self.hello.firmware if self.hello else None,
            "readers": list(self.hello.readers) if self.hello else None,
            "boot": self._boot,
            "last_frame_age_s": age,
            "round_ms": self.round_ms,
            **self.counts,
            "reader_faults": {
                b: f"{k}: {d}" if d else k for b, (k, d) in sorted(self.reader_faults.items())
            },
            "unknown_beaches": [b for b, u in enumerate(self.raw) if u is None],
            "unknown_tags": sorted(self.unknown_tags),
            "ambiguous_tags": sorted(self.ambiguous_tags),
            "last_crash": self.last_crash,
        }


def format_health(health: Mapping[str, Any]) -> str:
    """One line for systemd's STATUS=: ``rfid up, 1234 frames, dropped 0 crc ...``."""
    dropped = [
        f"{health[k]} {k}"
        for k in ("garbage", "truncated", "crc", "malformed", "stale", "duplicate")
        if health[k]
    ]
    text = f"rfid {health['link']}, {health['frames']} frames"
    if dropped:
        text += ", dropped " + " ".join(dropped)
    if health["reader_faults"]:
        text += ", faults: " + "; ".join(
            f"beach {b} {f}" for b, f in health["reader_faults"].items()
        )
    if health["unknown_tags"]:
        text += f", {len(health['unknown_tags'])} unknown tags"
    return text
