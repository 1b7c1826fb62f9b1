"""The scan loop: the beach readers in turn (two at a time), debounced, full snapshots out.

A disc sliding onto a beach, or a tag at the edge of a field, may be read in one scan and
missed in the next. So a tag only counts as arrived (or gone) once ``debounce_scans``
consecutive scans of its beach agree, and a tag seen in every other scan never toggles.

The Pi is told everything every time: each ``snap`` frame carries all six beaches, sent at
once, twice in a row, when a beach's debounced contents change (the Pi moves a disc only
when two consecutive snapshots agree, so no single stray frame can), and at least every
``snapshot_period_ms`` anyway.

Beaches are scanned in ``groups``: by default two opposite beaches at a time, one on each
core (cores.py), so a round takes about half as long as six scans one after another (the
scanner's own default, kept for tests and for ``config.SCAN_GROUPS`` of single beaches).

A reader that faults makes its beach unknown (``?``), never empty, and is retried every
``retry_ms`` without slowing the scans of the other beaches.
"""

from haleakala_pico import compat
from haleakala_pico.cores import attempt, one_after_the_other
from haleakala_pico.protocol import Encoder
from haleakala_pico.reader import ERROR, SPI, ReaderFault


class BeachDebouncer:
    """Debounced contents of one beach: unknown until ``scans`` scans have been seen."""

    def __init__(self, scans):
        if scans < 1:
            raise ValueError("debounce needs at least 1 scan")
        self.scans = scans
        self.reset()

    def reset(self):
        """Forget everything (start, or the reader faulted): unknown again."""
        self.stable = set()
        self._streak = {}
        self._seen_scans = 0

    def known(self):
        return self._seen_scans >= self.scans

    def pending(self):
        """Some tag's presence is in doubt (seen differently by the last scans)."""
        return bool(self._streak)

    def contents(self):
        """Sorted UIDs on the beach, or None while unknown."""
        if not self.known():
            return None
        return sorted(self.stable)

    def update(self, seen):
        """Feed one scan's UIDs; True when ``contents()`` changed."""
        was_known = self.known()
        changed = False
        seen = set(seen)
        for uid in seen | self.stable | set(self._streak):
            present = uid in seen
            if present == (uid in self.stable):
                self._streak.pop(uid, None)
                continue
            streak = self._streak.get(uid, 0) + 1
            if streak >= self.scans:
                if present:
                    self.stable.add(uid)
                else:
                    self.stable.discard(uid)
                self._streak.pop(uid, None)
                changed = True
            else:
                self._streak[uid] = streak
        if self._seen_scans < self.scans:
            self._seen_scans += 1
        if not self.known():
            return False
        return changed or not was_known


def describe_fault(exc):
    """(kind, detail) for anything a reader raised."""
    if isinstance(exc, ReaderFault):
        return exc.kind, exc.detail
    if isinstance(exc, OSError):
        return SPI, "OSError " + str(exc)
    return ERROR, type(exc).__name__ + " " + str(exc)


class Scanner:
    """Owns the readers, their debouncers and the frame encoder; ``step`` scans one group of
    beaches (one beach, or two at once through ``together``)."""

    def __init__(
        self,
        readers,
        emit,
        debounce_scans=2,
        snapshot_period_ms=100,
        heartbeat_period_ms=1000,
        hello_period_ms=5000,
        retry_ms=1000,
        firmware="?",
        boot=None,
        clock_ms=None,
        runtime=None,
        groups=None,
        together=None,
    ):
        self.readers = list(readers)
        self.groups = (
            [tuple(g) for g in groups] if groups else [(i,) for i in range(len(self.readers))]
        )
        if sorted(i for g in self.groups for i in g) != list(range(len(self.readers))):
            raise ValueError("scan groups must name every beach once")
        if max(len(g) for g in self.groups) > 2:
            raise ValueError("a scan group holds one or two beaches (two cores)")
        self.together = together or one_after_the_other
        self.emit = emit
        self.debounce_scans = debounce_scans
        self.snapshot_period_ms = snapshot_period_ms
        self.heartbeat_period_ms = heartbeat_period_ms
        self.hello_period_ms = hello_period_ms
        self.retry_ms = retry_ms
        self.firmware = firmware
        self.runtime = runtime
        self.beaches = [BeachDebouncer(debounce_scans) for _ in self.readers]
        self.faults = [None] * len(self.readers)
        self.round_ms = 0
        self.uptime_ms = 0
        self._clock = clock_ms if clock_ms is not None else compat.ticks_ms
        self.encoder = Encoder(compat.boot_id() if boot is None else boot)
        self._retry_at = [0] * len(self.readers)
        self._next = 0
        self._now = self._clock()
        self._last_snap = self._last_hb = self._last_hello = self._round_start = self._now

    # ------------------------------------------------------------------ output

    def _say(self, line):
        self.emit(line)

    def hello(self):
        kinds = [r.kind for r in self.readers]
        self._say(
            self.encoder.hello(
                self.firmware, kinds, self.debounce_scans, self.snapshot_period_ms, self.runtime
            )
        )
        self._last_hello = self._now

    def snapshot(self):
        self._say(self.encoder.snap([b.contents() for b in self.beaches]))
        self._last_snap = self._now

    def heartbeat(self):
        faulted = len([f for f in self.faults if f is not None])
        self._say(self.encoder.hb(self.uptime_ms // 1000, self.round_ms, faulted))
        self._last_hb = self._now

    # ------------------------------------------------------------------ life cycle

    def _tick(self):
        now = self._clock()
        self.uptime_ms += max(0, compat.ticks_diff(now, self._now))
        self._now = now
        return now

    def start(self):
        """Say hello, bring every reader up (faults reported), send the first snapshot."""
        self._tick()
        self.hello()
        for i in range(len(self.readers)):
            self._bring_up(i)
        self._tick()
        self.snapshot()
        self.snapshot()
        self._last_hb = self._round_start = self._now

    def _bring_up(self, i):
        try:
            self.readers[i].init()
        except Exception as exc:  # any failure is a fault report, never a crash
            self._fault(i, exc)
            return False
        return True

    def _fault(self, i, exc):
        kind, detail = describe_fault(exc)
        self.beaches[i].reset()
        self.faults[i] = (kind, detail)
        self._retry_at[i] = compat.ticks_add(self._clock(), self.retry_ms)
        self._say(self.encoder.fault(i, kind, detail))

    def step(self):
        """Scan the next group of beaches, then send whatever is due.

        A beach whose scan disagreed with its debounced contents is scanned once more
        straight away, by the same core, while the other core goes on with its own beach:
        the confirming scan costs one reader's time, not a whole round.
        A change is sent as two consecutive snapshots, so the Pi can confirm it at once.
        """
        g = self._next
        if g == 0:
            now = self._tick()
            self.round_ms = compat.ticks_diff(now, self._round_start)
            self._round_start = now
        changed = self._scan_group(self.groups[g])
        self._next = (g + 1) % len(self.groups)
        now = self._tick()
        if changed:
            self.snapshot()
            self.snapshot()
        elif compat.ticks_diff(now, self._last_snap) >= self.snapshot_period_ms:
            self.snapshot()
        if compat.ticks_diff(now, self._last_hb) >= self.heartbeat_period_ms:
            self.heartbeat()
        if compat.ticks_diff(now, self._last_hello) >= self.hello_period_ms:
            self.hello()

    def _scan_group(self, group):
        """Scan the beaches of ``group`` (at once when there are two); True when what the Pi
        should know about any of them changed."""
        ready = [i for i in group if self._ready(i)]
        if len(ready) == 2:
            answers = self.together(self._job(ready[0]), self._job(ready[1]))
        else:
            answers = [attempt(self._job(i)) for i in ready]
        changed = False
        for n in range(len(ready)):
            if self._absorb(ready[n], answers[n]):
                changed = True
        return changed

    def _job(self, i):
        """The work for one core: scan beach ``i``, and once more if the scan disagreed
        with the debounced contents. Touches only this beach's reader and debouncer (the
        other core has another beach); frames are left to core 0 (``_absorb``).
        Returns (changed, scans that worked, the exception that stopped it or None)."""
        reader = self.readers[i]
        beach = self.beaches[i]

        def job():
            changed = False
            scans = 0
            while True:
                try:
                    seen = reader.inventory()
                except Exception as exc:  # a reader fault must not stop the others
                    return changed, scans, exc
                scans += 1
                if beach.update(seen):
                    changed = True
                if scans > 1 or not beach.pending():
                    return changed, scans, None

        return job

    def _ready(self, i):
        """Whether beach ``i`` can be scanned now: a faulted reader only once its retry time
        has come and it came back up."""
        if self.faults[i] is None:
            return True
        if compat.ticks_diff(self._clock(), self._retry_at[i]) < 0:
            return False
        return self._bring_up(i)

    def _scan(self, i):
        """Scan beach ``i`` alone; True when what the Pi should know about it changed."""
        return self._scan_group((i,))

    def _absorb(self, i, answer):
        """Report what one core's job found on beach ``i``: a recovery, a fault."""
        error, result = answer
        if error is not None:  # the job itself failed (it catches reader faults)
            result = (False, 0, error)
        changed, scans, fault = result
        if scans and self.faults[i] is not None:
            self.faults[i] = None
            self._say(self.encoder.fault(i, "ok", "recovered"))
        if fault is not None:
            was_known = self.beaches[i].known()
            self._fault(i, fault)
            return changed or was_known
        return changed

    def crash(self, exc):
        """Last words before a reboot: a ``fault`` frame for reader -1 (the firmware)."""
        self._say(self.encoder.fault(-1, "crash", describe_fault(exc)[1]))

    def run(self, idle=None, steps=None):
        """Scan forever (or ``steps`` beaches); ``idle`` runs after each step (watchdog)."""
        done = 0
        while steps is None or done < steps:
            self.step()
            if idle is not None:
                idle()
            done += 1
