"""Haleakala RFID co-processor firmware (MicroPython, Raspberry Pi Pico).

Scans the reader under each of the six beaches and streams full snapshots of what lies on
them to the Raspberry Pi over USB serial (see firmware/PROTOCOL.md). Every module here runs
unchanged under CPython so that the tests can drive it with fake chips.
"""

FIRMWARE_VERSION = "1.0.0"
