# ruff: noqa: UP031
# MicroPython: plain %-formatting, no f-strings.
"""Wiring the readers described in config.py: the only firmware module that uses ``machine``.

Every chip select is driven high before any reader is created, so no two chips ever share
the bus; then each beach gets the driver for its chip. When beaches are scanned two at a
time (``config.SCAN_GROUPS``), the readers share one lock that they hold for each SPI
transaction, so the two cores never select two chips at once.
"""

from haleakala_pico import config as default_config
from haleakala_pico.mfrc522 import MFRC522
from haleakala_pico.pn5180 import PN5180

BEACHES = 6


def scans_in_pairs(cfg):
    return any(len(group) > 1 for group in getattr(cfg, "SCAN_GROUPS", ()))


def build_readers(cfg=None):
    import machine

    cfg = default_config if cfg is None else cfg
    bus = None
    if scans_in_pairs(cfg):
        import _thread

        bus = _thread.allocate_lock()
    if len(cfg.READERS) != BEACHES:
        raise ValueError(
            "config.READERS lists %d readers; the island has %d beaches"
            % (len(cfg.READERS), BEACHES)
        )
    spi = machine.SPI(
        cfg.SPI_ID,
        baudrate=cfg.SPI_BAUD,
        polarity=0,
        phase=0,
        sck=machine.Pin(cfg.SPI_SCK),
        mosi=machine.Pin(cfg.SPI_MOSI),
        miso=machine.Pin(cfg.SPI_MISO),
    )
    selects = [machine.Pin(spec["cs"], machine.Pin.OUT, value=1) for spec in cfg.READERS]
    readers = []
    for beach in range(BEACHES):
        spec = cfg.READERS[beach]
        rst = machine.Pin(spec["rst"], machine.Pin.OUT, value=1)
        kind = spec["kind"]
        if kind == cfg.PN5180:
            # Pulled down: an unplugged PN5180 then reads as "no chip", not as stuck BUSY.
            busy = machine.Pin(spec["busy"], machine.Pin.IN, machine.Pin.PULL_DOWN)
            readers.append(PN5180(spi, selects[beach], busy, rst, bus=bus))
        elif kind == cfg.MFRC522:
            readers.append(MFRC522(spi, selects[beach], rst, bus=bus))
        else:
            raise ValueError("beach %d: reader kind %r is not pn5180 or mfrc522" % (beach, kind))
    return readers
