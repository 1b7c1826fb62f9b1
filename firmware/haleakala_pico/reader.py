# ruff: noqa: UP031
# MicroPython: plain %-formatting, no f-strings.
"""What the scanner needs from a beach reader, whatever the chip.

A reader answers one question, "which tags are in your field right now?", and says so
with a list of UIDs (upper-case hex, most significant byte first, as printed on tag
labels). Anything that stops it from answering honestly raises ``ReaderFault``: the scanner
then reports the beach as unknown rather than empty, so a dead reader can never look like
discs being lifted off a beach.
"""

from haleakala_pico import compat

NOCHIP = "nochip"  # nothing answers on this chip select (unplugged, wrong wiring)
TIMEOUT = "timeout"  # the chip stopped answering (BUSY stuck, no interrupt)
BADRESP = "badresp"  # answers that make no sense (wrong length, error flags, garbled RF)
COLLISION = "collision"  # more tags than the reader can separate (MFRC522: one per field)
SPI = "spi"  # the bus itself failed
ERROR = "error"  # anything else the driver did not expect
FAULT_KINDS = (NOCHIP, TIMEOUT, BADRESP, COLLISION, SPI, ERROR)


class ReaderFault(Exception):
    """The reader cannot tell what lies on its beach."""

    def __init__(self, kind, detail=""):
        Exception.__init__(self, kind, detail)
        self.kind = kind
        self.detail = detail


class NoLock:
    """The bus lock of a reader that has its bus to itself: takes nothing, costs nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


NO_LOCK = NoLock()


class Reader:
    """Interface: ``kind`` names the chip (sent in ``hello``), ``init`` brings it up (and is
    called again to recover from a fault), ``inventory`` lists the tags in the field.

    Readers that share an SPI bus with a reader scanned at the same time on the other core
    hold ``bus`` (a ``_thread`` lock) from chip select low to chip select high: one SPI
    transaction at a time, while each chip runs its own air interface in between."""

    kind = "none"

    def init(self):
        raise NotImplementedError

    def inventory(self):
        raise NotImplementedError


def uid_hex(data):
    """Bytes in printing order -> ``"E004015012345678"``."""
    return "".join(["%02X" % b for b in data])


def wait_pin(pin, level, timeout_us, what):
    """Busy-wait until ``pin`` reads ``level``; a stuck line becomes a TIMEOUT fault."""
    start = compat.ticks_us()
    while pin.value() != level:
        if compat.ticks_diff(compat.ticks_us(), start) > timeout_us:
            raise ReaderFault(TIMEOUT, what)
