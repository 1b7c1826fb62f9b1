"""The RFID Pico over USB serial: a thread that owns the port and feeds ``RfidSession``.

``RfidDriver`` finds the Pico (the udev link, then a by-id name), reads, hands the bytes to
the pure ``session.RfidSession`` and posts the events it returns; when the Pico disappears it
keeps looking (backing off to ``retry_max_s``) without ever raising. Why nothing the link
does can invent a disc move is told in ``session``. Build it through ``hal.factory``
(``open_rfid_link``, or ``open_hardware`` for an RFID kit), which knows the backend.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from haleakala.hal.events import Disc, InputEvent, UnknownTag
from haleakala.hal.rfid.session import BeachUids, RfidSession

log = logging.getLogger("haleakala.rfid")

UDEV_LINKS = ("haleakala-pico", "haleakala-rfid")
"""Stable names a udev rule gives the Pico (systemd/): tried first by ``port = "auto"``."""
BY_ID_PATTERNS = ("serial/by-id/*MicroPython*", "serial/by-id/*Pico*")

try:  # pyserial lets termios.error (not an OSError) escape when a port vanishes mid-open
    from termios import error as _TermiosError
except ImportError:  # pragma: no cover - not a POSIX system
    _TermiosError = OSError  # type: ignore[misc,assignment]

RETRY_MIN_S = 0.05
"""First retry after losing the Pico; doubles up to ``retry_max_s`` while it stays away."""


def find_pico_port(port: str = "auto", dev_root: str = "/dev") -> str | None:
    """The serial device to open: ``port`` itself unless it is "auto", then the udev link,
    then a USB serial device whose by-id name says MicroPython or Pico; None if none is there.
    """
    if port != "auto":
        return port
    for name in UDEV_LINKS:
        path = os.path.join(dev_root, name)
        if os.path.exists(path):
            return path
    for pattern in BY_ID_PATTERNS:
        matches = sorted(glob.glob(os.path.join(dev_root, pattern)))
        if matches:
            return matches[0]
    return None


def _where(port: str, dev_root: str = "/dev") -> str:
    if port != "auto":
        return port
    return ", ".join(
        [os.path.join(dev_root, n) for n in UDEV_LINKS]
        + [os.path.join(dev_root, p) for p in BY_ID_PATTERNS]
    )


class RfidDriver:
    """The RFID kit as an input source: a thread reading the Pico, posting events.

    ``post`` receives ``BeachContents`` (a beach's discs changed) and ``LinkHealth`` (the
    link or a reader changed state); it is called from the driver's thread. ``on_uids``, if
    given, receives the raw UIDs per beach after every snapshot (tag enrolment uses it).
    Conforms to ``haleakala.hal.base.Inputs`` (``start(post)``, ``close()``).
    """

    def __init__(
        self,
        tag_map: Mapping[str, Disc | str],
        *,
        port: str = "auto",
        baud: int = 115200,
        post: Callable[[InputEvent], None] | None = None,
        on_uids: Callable[[BeachUids], None] | None = None,
        stale_after_s: float = 1.0,
        retry_max_s: float = 0.5,
        read_timeout_s: float = 0.05,
        dev_root: str = "/dev",
        warn_unknown: bool = True,
    ) -> None:
        self.port = port
        self.baud = baud
        self.dev_root = dev_root
        self.retry_max_s = retry_max_s
        self.read_timeout_s = read_timeout_s
        self._post = post
        self._on_uids = on_uids
        self._session = RfidSession(tag_map, stale_after_s=stale_after_s, warn_unknown=warn_unknown)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_snapshots = 0

    # ------------------------------------------------------------------ public

    def start(self, post: Callable[[InputEvent], None] | None = None) -> None:
        """Start the reading thread (once); ``post`` here overrides the constructor's."""
        if post is not None:
            self._post = post
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="haleakala-rfid", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and close the port. Safe to call twice or before ``start``."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    close = stop

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def health(self) -> dict[str, Any]:
        with self._lock:
            return self._session.health(time.monotonic())

    def published(self) -> tuple[frozenset[Disc | UnknownTag] | None, ...]:
        """The contents last posted per beach (None: not known yet)."""
        with self._lock:
            return tuple(self._session.published)

    def __enter__(self) -> RfidDriver:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ thread

    def _emit(self, events: Iterable[InputEvent]) -> None:
        for event in events:
            if self._post is None:
                continue
            try:
                self._post(event)
            except Exception:
                with self._lock:
                    self._session.counts["post_errors"] += 1
                log.exception("posting %r failed", event)

    def _call(self, method: Callable[..., list[InputEvent]], *args: Any) -> None:
        with self._lock:
            events = method(*args, time.monotonic())
            snapshots = self._session.counts["snapshots"]
            raw = self._session.raw
        self._emit(events)
        if self._on_uids is not None and snapshots != self._last_snapshots:
            self._last_snapshots = snapshots
            try:
                self._on_uids(raw)
            except Exception:
                log.exception("on_uids callback failed")

    def _run(self) -> None:
        delay = RETRY_MIN_S
        while not self._stop.is_set():
            try:
                had_link = self._connect_and_read()
            except Exception:  # never let the thread die: log, count, try again
                log.exception("RFID driver error")
                with self._lock:
                    self._session.counts["driver_errors"] += 1
                had_link = False
            if had_link:
                delay = RETRY_MIN_S
            if self._stop.wait(delay):
                break
            if not had_link:
                delay = min(delay * 2, self.retry_max_s)

    def _connect_and_read(self) -> bool:
        """One connection: find, open, read until lost or stopped. True if it was open."""
        import serial  # pyserial: a core dependency, imported when the kit is used

        path = find_pico_port(self.port, self.dev_root)
        if path is None:
            self._call(
                self._session.closed,
                f"no RFID Pico found (looked for {_where(self.port, self.dev_root)})",
            )
            return False
        try:
            link = serial.Serial(path, self.baud, timeout=self.read_timeout_s, exclusive=True)
        except (serial.SerialException, OSError, ValueError, _TermiosError) as exc:
            # e.g. EIO from tcsetattr: the Pico was unplugged while the port was opening
            self._call(self._session.closed, f"cannot open RFID Pico port {path}: {exc}")
            return False
        try:
            link.reset_input_buffer()
            self._call(self._session.opened, path)
            while not self._stop.is_set():
                data = link.read(link.in_waiting or 1)
                if data:
                    self._call(self._session.feed, data)
                else:
                    self._call(self._session.tick)
        except (serial.SerialException, OSError, _TermiosError) as exc:
            self._call(self._session.closed, f"lost the RFID Pico on {path}: {exc}")
        finally:
            with contextlib.suppress(serial.SerialException, OSError):
                link.close()
        return True
