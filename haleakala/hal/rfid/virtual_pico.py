"""A stand-in for the RFID Pico: a board of tags that speaks the real protocol.

Give it which tags lie on which beach (``place``, ``remove``, ``move``) and it sends the
frames the firmware would send: ``hello`` at start and every few seconds, a full ``snap``
at a fixed rate and at once, twice, on every change, ``hb`` every second, ``fault`` when a reader is
made to fail. It has no scan timing and no debounce: it is the Pico as the Pi sees it.

Over a pseudo-terminal (``start``) the real ``RfidDriver`` opens it like the USB port, which
is how the tests inject link faults (``inject``, ``vanish``/``reappear``, ``reboot``) and how
the desktop simulator's RFID mode runs the real driver. ``frames_for`` gives the same frames
as bytes without any terminal.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from haleakala.hal.events import BEACHES
from haleakala.hal.rfid.protocol import (
    FAULT_OK,
    SEQ_MODULO,
    Fault,
    Frame,
    Heartbeat,
    Hello,
    Snapshot,
    encode,
)


class VirtualPico:
    """Six beaches of tag UIDs and the frame stream that reports them."""

    def __init__(
        self,
        *,
        firmware: str = "virtual",
        readers: Iterable[str] = ("pn5180",) * 6,
        debounce_scans: int = 2,
        snapshot_period_s: float = 0.1,
        heartbeat_period_s: float = 1.0,
        hello_period_s: float = 5.0,
        boot: int | None = None,
    ) -> None:
        self.firmware = firmware
        self.readers = tuple(readers)
        if len(self.readers) != BEACHES:
            raise ValueError(f"a Pico has {BEACHES} readers, got {len(self.readers)}")
        self.debounce_scans = debounce_scans
        self.snapshot_period_s = snapshot_period_s
        self.heartbeat_period_s = heartbeat_period_s
        self.hello_period_s = hello_period_s
        self._lock = threading.RLock()
        self._beaches: list[set[str]] = [set() for _ in range(BEACHES)]
        self._faults: dict[int, tuple[str, str]] = {}
        self._boot = random.getrandbits(32) if boot is None else boot
        self._seq = 0
        self._started = time.monotonic()
        self._pending: list[bytes] = []
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path: str | None = None
        self.link: Path | None = None
        self.frames_sent = 0
        self.dropped_writes = 0
        self.recent: deque[bytes] = deque(maxlen=64)
        """The last frames made, for tests that replay old frames."""

    # ------------------------------------------------------------------ the board

    def place(self, beach: int, uid: str) -> None:
        """Put a tag on a beach (taking it off any other beach first)."""
        self._check_beach(beach)
        uid = uid.upper()
        with self._lock:
            for tags in self._beaches:
                tags.discard(uid)
            self._beaches[beach].add(uid)
            self._changed.set()

    move = place

    def remove(self, uid: str) -> None:
        with self._lock:
            for tags in self._beaches:
                tags.discard(uid.upper())
            self._changed.set()

    def set_beach(self, beach: int, uids: Iterable[str]) -> None:
        self._check_beach(beach)
        with self._lock:
            wanted = {u.upper() for u in uids}
            for tags in self._beaches:
                tags.difference_update(wanted)
            self._beaches[beach] = wanted
            self._changed.set()

    def clear(self) -> None:
        with self._lock:
            for tags in self._beaches:
                tags.clear()
            self._changed.set()

    def contents(self) -> tuple[frozenset[str], ...]:
        with self._lock:
            return tuple(frozenset(t) for t in self._beaches)

    def fail_reader(
        self, beach: int, kind: str = "timeout", detail: str = "BUSY stuck high"
    ) -> None:
        """The beach's reader stops working: a fault frame, then ``?`` in every snapshot."""
        self._check_beach(beach)
        with self._lock:
            self._faults[beach] = (kind, detail)
            self._pending.append(self._frame(Fault, beach, kind, detail))
            self._changed.set()

    def mend_reader(self, beach: int) -> None:
        with self._lock:
            if self._faults.pop(beach, None):
                self._pending.append(self._frame(Fault, beach, FAULT_OK, "recovered"))
            self._changed.set()

    def reboot(self, boot: int | None = None) -> None:
        """A new firmware run: new boot id, sequence from 0, hello first."""
        with self._lock:
            self._boot = random.getrandbits(32) if boot is None else boot
            self._seq = 0
            self._faults.clear()
            self._pending = [self.hello_frame()]
            self._changed.set()

    @staticmethod
    def _check_beach(beach: int) -> None:
        if not 0 <= beach < BEACHES:
            raise ValueError(f"beach {beach} is not 0..{BEACHES - 1}")

    # ------------------------------------------------------------------ frames

    @property
    def boot(self) -> str:
        return f"{self._boot:08X}"

    def _frame(self, make: Callable[..., Frame], *fields: Any) -> bytes:
        with self._lock:
            frame = make(self.boot, self._seq, *fields)
            self._seq = (self._seq + 1) % SEQ_MODULO
            data = encode(frame)
            self.recent.append(data)
            return data

    def hello_frame(self) -> bytes:
        return self._frame(
            Hello,
            self.firmware,
            self.readers,
            self.debounce_scans,
            round(self.snapshot_period_s * 1000),
        )

    def snap_frame(self) -> bytes:
        with self._lock:
            beaches = tuple(
                None if b in self._faults else tuple(sorted(t)) for b, t in enumerate(self._beaches)
            )
            return self._frame(Snapshot, beaches)

    def hb_frame(self) -> bytes:
        uptime = int(time.monotonic() - self._started)
        return self._frame(Heartbeat, uptime, 0, len(self._faults))

    def frames_for(self, kinds: Iterable[str]) -> bytes:
        """Frames without a terminal: ``frames_for(["hello", "snap"])``."""
        makers = {"hello": self.hello_frame, "snap": self.snap_frame, "hb": self.hb_frame}
        return b"".join(makers[k]() for k in kinds)

    # ------------------------------------------------------------------ the terminal

    @property
    def path(self) -> str:
        """What to give the driver as its port: the link if there is one, else the pty."""
        if self.link is not None:
            return str(self.link)
        if self._slave_path is None:
            raise RuntimeError("the virtual Pico has no terminal: call open() or start()")
        return self._slave_path

    def open(self, link: str | os.PathLike[str] | None = None) -> str:
        """Create the pseudo-terminal; with ``link``, also a symlink that survives
        ``vanish``/``reappear`` like a udev name."""
        if link is not None:
            self.link = Path(link)
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        with self._lock:
            self._master, self._slave = master, slave
            self._slave_path = os.ttyname(slave)
        if self.link is not None:
            self.link.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._slave_path)
            tmp.replace(self.link)
        return self.path

    def vanish(self) -> None:
        """Unplug: the terminal and its name disappear; the reader sees an I/O error."""
        with self._lock:
            master, slave = self._master, self._slave
            self._master = self._slave = None
            self._slave_path = None
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in (master, slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def reappear(self) -> str:
        """Plug back in (a new terminal under the same link), and start a new run."""
        path = self.open()
        self.reboot()
        return path

    def inject(self, data: bytes) -> None:
        """Raw bytes onto the line, between whole frames (garbage, broken frames, replays)."""
        with self._lock:
            self._pending.append(bytes(data))
            self._changed.set()

    def write(self, data: bytes) -> bool:
        """Write now; False if there is no terminal or its buffer is full (data dropped,
        as USB serial drops output nobody reads)."""
        with self._lock:
            master = self._master
            if master is None:
                return False
            try:
                written = os.write(master, data)
            except (BlockingIOError, OSError):
                self.dropped_writes += 1
                return False
            self.frames_sent += 1
            if written != len(data):
                self.dropped_writes += 1
            return written == len(data)

    def start(self, link: str | os.PathLike[str] | None = None) -> str:
        """Open the terminal (if needed) and stream frames from a thread; returns the port."""
        if self._master is None:
            self.open(link)
        if self._thread is None:
            self._stop.clear()
            self._pending.insert(0, self.hello_frame())
            self._thread = threading.Thread(target=self._run, name="virtual-pico", daemon=True)
            self._thread.start()
        return self.path

    def stop(self) -> None:
        self._stop.set()
        self._changed.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(2.0)
        self.vanish()

    def __enter__(self) -> VirtualPico:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        next_snap = next_hb = time.monotonic()
        next_hello = next_snap + self.hello_period_s
        while not self._stop.is_set():
            now = time.monotonic()
            timeout = max(0.0, min(next_snap, next_hb, next_hello) - now)
            changed = self._changed.wait(timeout)
            if self._stop.is_set():
                break
            self._changed.clear()
            now = time.monotonic()
            with self._lock:
                pending, self._pending = self._pending, []
            for data in pending:
                self.write(data)
            if changed or now >= next_snap:
                self.write(self.snap_frame())
                if changed:  # as firmware 1.2: a change goes out as two consecutive frames
                    self.write(self.snap_frame())
                next_snap = now + self.snapshot_period_s
            if now >= next_hb:
                self.write(self.hb_frame())
                next_hb = now + self.heartbeat_period_s
            if now >= next_hello:
                self.write(self.hello_frame())
                next_hello = now + self.hello_period_s
