"""Two readers at once: one inventory on this core, the other on the RP2040's second core.

A PN5180 or MFRC522 runs its air interface by itself: after a command the host only waits
(the tag's power-up, the 16 inventory slots, the timer of an empty field) and polls. So
while one reader waits, another can be working: the scanner scans two beaches at a time,
each on its own core, and the readers hold the SPI bus lock only from chip select low to
chip select high (reader.py). MicroPython's rp2 port runs a ``_thread`` on core 1 without a
global interpreter lock, so both loops really run at the same time.

Only the inventories run on core 1: every frame is still written by core 0, so the serial
line never carries two writers.
"""

import _thread


def attempt(job):
    """(None, result) or (exception, None): an exception is a reader fault, not a crash."""
    try:
        return None, job()
    except Exception as exc:  # handed to the scanner, which reports it as a fault
        return exc, None


def one_after_the_other(first, second):
    """The same answer as ``SecondCore.together`` on one core (tests, or pairs disabled)."""
    return attempt(first), attempt(second)


class SecondCore:
    """A worker on core 1 that runs one job at a time, handed over through two locks."""

    def __init__(self, start_thread=None):
        self._go = _thread.allocate_lock()
        self._done = _thread.allocate_lock()
        self._go.acquire()
        self._done.acquire()
        self._job = None
        self._answer = (None, None)
        (start_thread or _thread.start_new_thread)(self._loop, ())

    def _loop(self):
        while True:
            self._go.acquire()
            self._answer = attempt(self._job)
            self._job = None
            self._done.release()

    def together(self, first, second):
        """Run ``second`` on core 1 while ``first`` runs here; both answers, in order."""
        self._job = second
        self._go.release()
        mine = attempt(first)
        self._done.acquire()
        return mine, self._answer
