"""Entry point on the Pico: scan the six beaches for ever, stream frames over USB serial.

Flash MicroPython (the release named in ``haleakala_pico.MICROPYTHON_VERSION``) onto the
Pico, then copy ``main.py`` and ``haleakala_pico/`` to it with mpremote (in the ``kit``
extra): ``mpremote cp -r haleakala_pico :`` and ``mpremote cp main.py :``; it starts at
power-up. Frames go to the USB serial port that the
REPL also uses: the host ignores every line that is not a frame, and never writes to the
Pico (a stray Ctrl-C would stop the scan loop).
"""

import sys

from haleakala_pico import FIRMWARE_VERSION, compat
from haleakala_pico import config as default_config
from haleakala_pico.board import build_readers, scans_in_pairs
from haleakala_pico.scanner import Scanner


def write_line(line):
    sys.stdout.write(line)


def main(cfg=None, emit=write_line, steps=None, start_thread=None):
    """Build the readers, say hello, scan. ``steps`` bounds the loop (tests), and
    ``start_thread`` starts the second core's worker (default ``_thread.start_new_thread``)."""
    import machine

    cfg = default_config if cfg is None else cfg
    together = None
    if scans_in_pairs(cfg):
        from haleakala_pico.cores import SecondCore

        together = SecondCore(start_thread).together
    scanner = Scanner(
        build_readers(cfg),
        emit,
        debounce_scans=cfg.DEBOUNCE_SCANS,
        snapshot_period_ms=cfg.SNAPSHOT_PERIOD_MS,
        heartbeat_period_ms=cfg.HEARTBEAT_PERIOD_MS,
        hello_period_ms=cfg.HELLO_PERIOD_MS,
        retry_ms=cfg.FAULT_RETRY_MS,
        firmware=FIRMWARE_VERSION,
        runtime=compat.runtime(),
        groups=getattr(cfg, "SCAN_GROUPS", None),
        together=together,
    )
    led = machine.Pin(cfg.STATUS_LED, machine.Pin.OUT)
    watchdog = machine.WDT(timeout=cfg.WATCHDOG_MS) if cfg.WATCHDOG_MS else None

    def idle():
        if watchdog is not None:
            watchdog.feed()
        if scanner._next == 0:
            led.toggle()

    scanner.start()
    try:
        scanner.run(idle=idle, steps=steps)
    except Exception as exc:
        # Tell the Pi why it is about to go quiet, then start over.
        scanner.crash(exc)
        compat.sleep_ms(1000)
        machine.reset()
    return scanner


if __name__ == "__main__":
    main()
