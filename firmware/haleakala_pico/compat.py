"""The few clock and random functions that differ between MicroPython and CPython.

MicroPython's ``time`` has ``ticks_ms``/``ticks_us``/``sleep_ms`` (wrapping counters compared
with ``ticks_diff``); CPython has not. Everything else in the firmware goes through this
module, so the same code runs on the Pico and in the host tests.
"""

import time

try:
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    sleep_ms = time.sleep_ms
    sleep_us = time.sleep_us
except AttributeError:  # CPython: same semantics, wrapping at 2**30 like most MicroPython ports
    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_us():
        return int(time.monotonic() * 1000000) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def ticks_add(a, delta):
        return (a + delta) & (_PERIOD - 1)

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        time.sleep(us / 1000000)


def runtime():
    """``micropython-1.29.0`` on the Pico (``cpython-3.11.7`` in the host tests): the
    interpreter this firmware really runs on, for the ``hello`` frame."""
    import sys

    impl = sys.implementation
    return impl.name + "-" + ".".join(str(n) for n in tuple(impl.version)[:3])


def boot_id():
    """A random 32-bit number naming this run of the firmware (host: new id = new session)."""
    try:
        import os

        raw = os.urandom(4)
        return (raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]
    except (ImportError, AttributeError, NotImplementedError):
        return (ticks_us() * 2654435761) & 0xFFFFFFFF
