"""The sim backend's RFID link: a virtual Pico on a pseudo-terminal, read by the real driver.

``VirtualPicoLink`` pairs a ``VirtualPico`` (the firmware's frames, streamed into a pty) with
the kit's own ``RfidDriver`` opening that pty under a stable name, as the udev link names the
real Pico. So everything that runs on the sim backend with an RFID link (the desktop
simulator, ``selftest --auto``) goes through the same framing, CRC, sequence and snapshot
logic as a kit, and unplugging (``pico.vanish``/``pico.reappear``) is the real reconnect
path. ``hal.factory.open_rfid_link`` builds it; nothing else should.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from typing import Any

from haleakala.hal.events import Disc, InputEvent, UnknownTag
from haleakala.hal.rfid.driver import RfidDriver
from haleakala.hal.rfid.virtual_pico import VirtualPico

PORT_NAME = "haleakala-rfid"
"""The pty's stable name in the link's own directory (the udev rule's second name)."""


def pty_available() -> bool:
    """Whether this OS has pseudo-terminals (not on Windows): the virtual Pico needs one."""
    return hasattr(os, "openpty")


class VirtualPicoLink:
    """A ``VirtualPico`` and the ``RfidDriver`` that reads it: an ``RfidLink`` on the sim
    backend. ``pico`` is the board of tags to lay discs on; ``driver`` the host side."""

    transport = "pty"

    def __init__(
        self,
        tag_map: Mapping[str, Disc | str],
        *,
        firmware: str = "simulator",
        snapshot_period_s: float = 0.1,
        **driver_options: Any,
    ) -> None:
        if not pty_available():
            raise OSError(
                "the virtual RFID Pico needs pseudo-terminals, which this OS does not have: "
                "inject BeachContents instead (SimInputs.place)"
            )
        self._dir: tempfile.TemporaryDirectory[str] | None = tempfile.TemporaryDirectory(
            prefix="haleakala-rfid-"
        )
        # A stable name for the port, like the udev link: it survives vanish / reappear.
        self.port = os.path.join(self._dir.name, PORT_NAME)
        self.pico = VirtualPico(firmware=firmware, snapshot_period_s=snapshot_period_s)
        self.driver = RfidDriver(tag_map, port=self.port, **driver_options)

    def start(self, post: Callable[[InputEvent], None] | None = None) -> None:
        """The Pico starts streaming, then the driver opens it and posts to ``post``."""
        if self._dir is None:
            raise RuntimeError("this virtual Pico link is closed: open a new one")
        self.pico.start(self.port)
        self.driver.start(post)

    def close(self) -> None:
        """Stop the driver, then the Pico; remove the port's directory. Safe to call twice."""
        self.driver.stop()
        self.pico.stop()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    stop = close

    def health(self) -> dict[str, Any]:
        return self.driver.health()

    def published(self) -> tuple[frozenset[Disc | UnknownTag] | None, ...]:
        return self.driver.published()

    def __enter__(self) -> VirtualPicoLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
