"""Haleakala RFID co-processor firmware (MicroPython, Raspberry Pi Pico).

Scans the reader under each of the six beaches and streams full snapshots of what lies on
them to the Raspberry Pi over USB serial (see firmware/PROTOCOL.md). Every module here runs
unchanged under CPython so that the tests can drive it with fake chips.
"""

FIRMWARE_VERSION = "1.3.0"
"""Sent in every ``hello``. 1.1.0: ``hello`` also names the MicroPython it runs on. 1.2.0:
every change is sent as two consecutive snapshots (the Pi confirms a change with two), and
two opposite beaches are scanned at once, one on each core. 1.3.0: the PN5180 plans each
scan from the last ones (``pn5180.ScanPlan``): probes, a confirming scan of just the
doubtful tags, collisions settled with Stay quiet. The line protocol is unchanged."""

MICROPYTHON_VERSION = "1.29.0"
"""The MicroPython release this firmware is written and checked for: its ``mpy-cross``
compiles every file in the test suite (tests/firmware/test_firmware_compiles.py, which also checks
that only modules of its rp2 port are imported), and the Pico gets the RPI_PICO build of the
same release. The logic itself is tested under CPython with fake reader chips; what only a
real Pico can show (SPI timing, the readers' RF) is listed in the README's "Tested on"."""
