"""The RFID kit in the simulator: a virtual Pico on a pseudo-terminal, read by the real driver.

The tagged discs the player drags are tags on the virtual Pico's beaches; the Pico streams
the firmware's frames into a pty; the kit's own ``RfidDriver`` opens that pty like the USB
port and posts ``BeachContents``: the link ``hal.factory`` builds on the sim backend. So
the simulator's RFID mode exercises the same framing, CRC, sequence and snapshot logic as a
real kit. Where no pty exists (Windows), the contents
are injected as ``BeachContents`` directly and the session says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from haleakala.hal.events import ALL_DISCS, BEACHES, BeachContents, Disc, InputEvent
from haleakala.hal.rfid.virtual_link import pty_available

Post = Callable[[InputEvent], None]


def tag_uid(disc: Disc) -> str:
    """A made-up, stable 7-byte UID per disc (ISO 15693 tags start with E0)."""
    index = ALL_DISCS.index(disc)
    return f"E00401{0xA0 + index:02X}00C0DE"


def tag_map() -> dict[str, Disc]:
    """UID → disc for every disc of the game, as a kit's ``[tags]`` enrolment would say."""
    return {tag_uid(d): d for d in ALL_DISCS}


class RfidLink:
    """Disc contents in (per beach), ``BeachContents`` out, through the chosen transport."""

    transport = "inject"

    def __init__(self, post: Post) -> None:
        self.post = post
        self.beaches: list[frozenset[Disc]] = [frozenset() for _ in range(BEACHES)]

    def start(self) -> None:
        """Report the starting contents (a fresh kit: every beach empty)."""
        for beach, discs in enumerate(self.beaches):
            self.post(BeachContents(beach, discs))

    def show(self, beaches: Sequence[frozenset[Disc]]) -> None:
        """The discs now lying on each beach; beaches that changed are reported."""
        for beach, discs in enumerate(beaches):
            if discs != self.beaches[beach]:
                self.beaches[beach] = frozenset(discs)
                self.post(BeachContents(beach, frozenset(discs)))

    def settle(self, timeout: float = 3.0) -> bool:
        """Wait until the driver has reported the current contents (True when so)."""
        return True

    def connected(self) -> bool:
        return self._plugged

    _plugged = True

    def unplug(self, detail: str) -> None:
        from haleakala.hal.events import LinkHealth

        self._plugged = False
        self.post(LinkHealth(False, detail))

    def plug(self) -> None:
        from haleakala.hal.events import LinkHealth

        self._plugged = True
        self.post(LinkHealth(True, "RFID Pico back"))
        for beach, discs in enumerate(self.beaches):
            self.post(BeachContents(beach, discs))

    def close(self) -> None:
        pass


class PicoLink(RfidLink):
    """The real path: ``VirtualPico`` → pty → ``RfidDriver`` → ``post``, as the HAL factory
    builds the sim backend's RFID link (``hal.factory.open_rfid_link``)."""

    transport = "pty"

    def __init__(self, post: Post) -> None:
        super().__init__(post)
        from haleakala.hal.factory import open_rfid_link
        from haleakala.hal.rfid.virtual_link import VirtualPicoLink

        link = open_rfid_link(
            None, "sim", tags=tag_map(), post=post, retry_max_s=0.2, read_timeout_s=0.02
        )
        assert isinstance(link, VirtualPicoLink)  # what the sim backend's factory makes
        self.link = link
        self.port = link.port
        self.pico = link.pico
        self.driver = link.driver

    def start(self) -> None:
        self.link.start()

    def show(self, beaches: Sequence[frozenset[Disc]]) -> None:
        """All changed beaches in one go: the Pico's lock is held so that its thread sends
        one snapshot of the whole change (a disc moved between beaches, two discs laid
        together), never a half-done one."""
        with self.pico._lock:  # an RLock: set_beach takes it again
            for beach, discs in enumerate(beaches):
                if discs != self.beaches[beach]:
                    self.beaches[beach] = frozenset(discs)
                    self.pico.set_beach(beach, [tag_uid(d) for d in discs])

    def settle(self, timeout: float = 3.0) -> bool:
        """Poll the driver until what it last posted is what lies on the beaches."""
        deadline = time.monotonic() + timeout
        want = tuple(self.beaches)
        while time.monotonic() < deadline:
            published = self.driver.published()
            if all(p == w or (p is None and not w) for p, w in zip(published, want, strict=True)):
                return True
            time.sleep(0.002)
        return False

    def unplug(self, detail: str) -> None:
        self._plugged = False
        self.pico.vanish()

    def plug(self) -> None:
        self.pico.reappear()
        self._plugged = True

    def close(self) -> None:
        self.link.close()


def open_link(post: Post, transport: str = "auto") -> RfidLink:
    """``pty`` (the real driver) where the OS has pseudo-terminals, else ``inject``."""
    if transport == "inject" or (transport == "auto" and not pty_available()):
        return RfidLink(post)
    return PicoLink(post)
