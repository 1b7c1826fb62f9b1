"""``haleakala bench rfid``: how fast the host reads frames, and how long a disc takes from
landing on a beach to reaching the controller.

``frames_per_s`` is measured: the host parser on a full six-beach snapshot frame.

``scan_to_event_ms`` is simulated on a virtual clock, because no Pico is attached to CI:
the real firmware scanner (firmware/haleakala_pico/scanner.py, which only a source checkout
has: ``--firmware DIR`` names it, else the checkout beside the package; an installed package
says so instead of guessing) drives six simulated readers whose scan times follow the timing
model below (see firmware/PROTOCOL.md, "Reader timing"), its frames cross a USB model and
are fed to the real host ``RfidSession``; the host's own processing time is measured and
added. Discs are placed, lifted and moved at random on a board of 12 tagged discs, and the
time from each change to the matching ``BeachContents`` event is recorded.

Firmware 1.2 scans two opposite beaches at once, one on each RP2040 core (``--scan``): the
model charges a pair the longer of its two scans plus, as if every SPI transaction of the
shorter scan had to wait for one of the other's, the whole time the shorter scan holds the
bus lock (pessimistic: the lock covers only chip select and the transfer; the waits for
the tags and most of the Python run on both cores at once).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from haleakala.ai.stats import percentile
from haleakala.checkout import CheckoutNeeded, firmware_dir
from haleakala.hal.events import BEACHES, BeachContents, Disc
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.session import RfidSession

USB_LATENCY_US = 1000
"""USB full speed polls the CDC endpoint once per 1 ms frame."""


# ----------------------------------------------------------------------------- timing model


class PN5180Timing:
    """Scan time of one PN5180 in MicroPython on an RP2040 (µs), ISO 15693 high data rate.

    VCD→tag 1-of-4 coding: 302 µs per byte; tag→VCD: 37.76 µs per bit; t1 = 320.9 µs.
    One host-interface SPI frame (BUSY handshake, chip select, 2..8 bytes at 2 MHz, Python
    overhead) ≈ 60 µs. ``frames`` counts the SPI frames of the last scan (the bus time).
    """

    spi = 60
    locked = 35
    """Of each SPI frame, the part under the bus lock: chip select, 2..8 bytes at 2 MHz
    (avg. ~20 µs), chip select again; BUSY waits and the rest of the Python run outside."""
    field_on = 3 * 60 + 300 + 1000  # LOAD_RF_CONFIG, RF_ON, IRQ poll; 1 ms tag power-up
    field_off = 60
    request = 5 * 302 + 113  # flags, cmd, mask length, CRC + SOF/EOF
    mask_byte = 302  # each byte of a mask (1-of-4 coding)
    transmit_setup = 4 * 60  # IRQ clear, Idle, Transceive, SEND_DATA
    silent_slot = 38 + 400 + 2 * 60  # EOF, SOF wait, last IRQ poll
    answered_slot = 321 + 57 + 96 * 38 + 38 + 6 * 60  # t1, answer, RX_STATUS + READ_DATA
    next_slot = 4 * 60  # transmit setup for the EOF
    quiet_request = 12 * 302 + 113  # Stay quiet: flags, cmd, 8-byte UID, CRC + SOF/EOF
    restore_tx = 60  # WRITE_REGISTER TX_CONFIG: whole frames again
    SPI_FRAMES: ClassVar[dict[str, int]] = {
        "spi": 1,
        "field_on": 3,
        "field_off": 1,
        "request": 0,
        "mask_byte": 0,
        "transmit_setup": 4,
        "silent_slot": 2,
        "answered_slot": 6,
        "next_slot": 4,
        "quiet_request": 0,
        "restore_tx": 1,
    }

    def __init__(self) -> None:
        self.frames = 0

    FULL, PROBE, VERIFY, CONFIRM = 0, 1, 2, 3
    """The firmware's ``ScanPlan`` modes (same numbers)."""

    def scan(
        self,
        uids: list[int],
        was_empty: bool,
        mode: int | None = None,
        known: list[int] | None = None,
        doubtful: list[int] | None = None,
    ) -> int:
        """Time of one scan of a field holding ``uids``, as firmware/haleakala_pico/pn5180.py
        runs it: ``mode`` is the firmware's ``ScanPlan`` choice (by default, as firmware
        1.2: probe a beach that was empty), ``known`` the UIDs its last scan found (used to
        settle a collision with Stay quiet, ``PN5180._behind``), ``doubtful`` the ones a
        ``CONFIRM`` reads again (``PN5180._confirm``)."""
        if mode is None:
            mode = self.PROBE if was_empty else self.FULL
        known = known or []
        self.frames = 0
        total = 0
        eof_only = False

        def add(step: str, times: int = 1) -> None:
            nonlocal total
            total += getattr(self, step) * times
            self.frames += self.SPI_FRAMES[step] * times

        def ask(mask: int, bits: int, slots: int) -> None:
            add("transmit_setup")
            add("request")
            add("mask_byte", (bits + 7) // 8)
            if slots == 16:
                add("spi")  # TX_CONFIG: just an EOF for the next slots
                add("next_slot", 15)

        def behind(mask: int, bits: int) -> bool:
            """``PN5180._behind``: True when silencing the known tags settled the slot."""
            nonlocal eof_only
            low = (1 << bits) - 1
            here = [u for u in known if u & low == mask]
            if not here or len(here) > 2:
                return False
            if eof_only:
                add("restore_tx")
                eof_only = False
            for _ in here:
                add("transmit_setup")
                add("quiet_request")
                add("silent_slot")  # no answer: the SOF wait runs out
            answering = [u for u in uids if u & low == mask and u not in here]
            ask(mask, bits, 1)
            add("answered_slot" if answering else "silent_slot")
            if len(answering) > 1:
                return False
            return len(here) == (1 if answering else 2)

        add("field_on")
        add("field_off")
        if mode == self.CONFIRM:  # each doubtful tag: 1 slot, masked with its whole UID
            for uid in doubtful or []:
                ask(uid, 64, 1)
                add("answered_slot" if uid in uids else "silent_slot")
            return total
        if mode != self.FULL:  # a 1-slot probe: silence, one clean answer, or a collision
            ask(0, 0, 1)
            add("answered_slot" if uids else "silent_slot")
            if len(uids) == 1 and mode == self.VERIFY:  # PN5180._alone: quiet, ask again
                add("transmit_setup")
                add("quiet_request")
                add("silent_slot")
                ask(0, 0, 1)
                add("silent_slot")
            if len(uids) <= 1:
                return total
            if known:
                if behind(0, 0):
                    return total
                add("field_off")
                add("field_on")
        pending: list[tuple[int, int]] = [(0, 0)]
        first = True
        while pending:
            mask, bits = pending.pop(0)
            if not first:
                if behind(mask, bits):
                    continue
                add("field_off")
                add("field_on")
            first = False
            ask(mask, bits, 16)
            eof_only = True
            for slot in range(16):
                here = [
                    u for u in uids if u & ((1 << bits) - 1) == mask and (u >> bits) & 0xF == slot
                ]
                add("answered_slot" if here else "silent_slot")
                if len(here) > 1:
                    pending.append((mask | (slot << bits), bits + 4))
        return total


class MFRC522Timing:
    """Scan time of one MFRC522 (µs), ISO 14443A 106 kbit/s, 7-byte UID (two cascade
    levels); one register access over SPI in MicroPython ≈ 40 µs. ``frames`` counts the
    register accesses of the last scan."""

    reg = 40
    spi = reg
    locked = 25
    """Of each register access, the part under the bus lock (2 bytes at 2 MHz and the
    chip select around them)."""
    setup = 7 * 40  # Idle, IRQ clear, flush, FIFO, framing, command, start
    result = 4 * 40  # ErrorReg, FIFOLevel, Control, FIFO read
    timeout = 2000  # TReload: 80 × 25 µs

    def __init__(self) -> None:
        self.frames = 0

    def scan(self, uids: list[int], was_empty: bool) -> int:
        wupa = self.setup + 2 * self.reg + 70
        if not uids:
            self.frames = 7 + 2 + 1
            return wupa + self.timeout + self.reg
        total = wupa + 90 + 190 + self.result  # FDT, ATQA
        for _level in range(2):
            total += self.setup + 190 + 90 + 470 + self.result  # ANTICOLLISION
            total += self.setup + 850 + 90 + 280 + self.result  # SELECT
        total += self.setup + 380 + self.timeout  # HLT A: no answer
        self.frames = 7 + 2 + 4 + 2 * 2 * (7 + 4) + 7
        return total


# ----------------------------------------------------------------------------- simulation


class VirtualClock:
    def __init__(self) -> None:
        self.us = 0
        self.bus_us = 0
        """SPI bus time of every scan so far (for the pair model)."""

    def ticks_ms(self) -> int:
        return (self.us // 1000) & ((1 << 30) - 1)


class SimBoard:
    """Which tagged disc lies on which beach (None: in a player's hand)."""

    def __init__(self, uids: list[str]) -> None:
        self.where: dict[str, int | None] = dict.fromkeys(uids)

    def on(self, beach: int) -> list[str]:
        return sorted(u for u, b in self.where.items() if b == beach)


class TimedReader:
    """A firmware ``Reader`` whose inventory reads the board and advances the clock."""

    def __init__(self, kind: str, beach: int, board: SimBoard, clock: VirtualClock) -> None:
        self.kind = kind
        self.beach = beach
        self.board = board
        self.clock = clock
        self.model = PN5180Timing() if kind == "pn5180" else MFRC522Timing()
        self.was_empty = True
        plan = getattr(importlib.import_module("haleakala_pico.pn5180"), "ScanPlan", None)
        self.plan = plan() if plan is not None else None

    def init(self) -> None:
        self.clock.us += 10_000

    def inventory(self) -> list[str]:
        uids = self.board.on(self.beach)
        mode, known, doubtful = None, [], []
        if self.kind == "pn5180" and self.plan is not None:
            mode, known = self.plan.mode(), [int(u, 16) for u in self.plan.last]
            doubtful = [int(u, 16) for u in self.plan.doubtful()]
        if isinstance(self.model, PN5180Timing):
            took = self.model.scan(
                [int(u, 16) for u in uids], self.was_empty, mode, known, doubtful
            )
        else:
            took = self.model.scan([int(u, 16) for u in uids], self.was_empty)
        self.clock.us += took
        self.clock.bus_us += self.model.frames * self.model.locked
        if mode == PN5180Timing.CONFIRM and self.plan is not None:  # see PN5180._confirm
            doubtful_now = set(self.plan.doubtful())
            uids = sorted((set(self.plan.last) - doubtful_now) | (doubtful_now & set(uids)))
        self.was_empty = not uids
        if self.kind == "pn5180" and self.plan is not None:
            self.plan.scanned(uids, mode)
        return uids


def two_cores(clock: VirtualClock) -> Callable[..., tuple[Any, Any]]:
    """The firmware's ``together`` on the virtual clock: both scans start now; the pair
    ends after the longer one plus the shorter one's whole bus time (see the module)."""

    def together(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Any, Any]:
        start, bus = clock.us, clock.bus_us
        a = first()
        took_a, bus_a = clock.us - start, clock.bus_us - bus
        clock.us, bus = start, clock.bus_us
        b = second()
        took_b, bus_b = clock.us - start, clock.bus_us - bus
        clock.us = start + max(took_a, took_b) + min(bus_a, bus_b)
        return (None, a), (None, b)

    return together


def scan_groups(scan: str, firmware: str | Path | None = None) -> tuple[tuple[int, ...], ...]:
    """The beaches scanned together: ``config`` reads the firmware's ``SCAN_GROUPS``."""
    if scan == "sequential":
        return tuple((b,) for b in range(BEACHES))
    if scan == "pairs":
        return ((0, 3), (1, 4), (2, 5))
    firmware_scanner(firmware)
    config = importlib.import_module("haleakala_pico.config")
    return tuple(tuple(g) for g in getattr(config, "SCAN_GROUPS", ((b,) for b in range(6))))


def firmware_scanner(firmware: str | Path | None = None) -> ModuleType:
    """The Pico firmware's ``haleakala_pico.scanner``, from ``firmware`` or the checkout's
    ``firmware/`` (``CheckoutNeeded`` says what to do when neither is there).

    The firmware's modules import each other as ``haleakala_pico.*`` (as on the Pico), so
    its folder goes on ``sys.path``; the bench prints which folder it ran (``firmware:``)."""
    root = firmware_dir(firmware)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module("haleakala_pico.scanner")


def _tag(rng: random.Random) -> str:
    return "E0040150" + f"{rng.getrandbits(32):08X}"


def simulate(
    changes: int = 300,
    seed: int = 1,
    reader: str = "pn5180",
    debounce: int = 2,
    firmware: str | Path | None = None,
    scan: str = "config",
) -> dict[str, Any]:
    """Run the firmware scanner and the host session on a virtual clock; latencies in ms."""
    scanner_module = firmware_scanner(firmware)
    groups = scan_groups(scan, firmware)
    rng = random.Random(seed)
    discs = [Disc(c, v) for c in ("red", "yellow") for v in range(6)]
    uids = [_tag(rng) for _ in discs]
    tag_map = dict(zip(uids, discs, strict=True))
    board = SimBoard(uids)
    clock = VirtualClock()
    readers = [TimedReader(reader, b, board, clock) for b in range(BEACHES)]
    lines: list[tuple[int, str]] = []
    scanner = scanner_module.Scanner(
        readers,
        lambda line: lines.append((clock.us, line)),
        debounce_scans=debounce,
        firmware="bench",
        boot=0x0BE4C400,
        clock_ms=clock.ticks_ms,
        groups=groups,
        together=two_cores(clock),
    )
    session = RfidSession(tag_map, warn_unknown=False)
    session.opened("bench", 0.0)
    scanner.start()
    arrivals: list[float] = []
    departures: list[float] = []
    host_us: list[float] = []
    rounds: list[int] = []
    missed = 0
    step_started = [0]

    def run_until(deadline_us: int, want: tuple[int, Disc, bool] | None) -> int | None:
        """Step the scanner; time (µs) of the event showing ``want`` (beach, disc, present)."""
        while clock.us < deadline_us:
            step_started[0] = clock.us
            scanner.step()
            if scanner.round_ms:
                rounds.append(scanner.round_ms)
            seen: int | None = None
            for emitted_at, line in lines:  # every frame of the step reaches the host
                start = time.perf_counter()
                events = session.feed(line.encode(), emitted_at / 1e6)
                spent = (time.perf_counter() - start) * 1e6
                host_us.append(spent)
                for event in events:
                    if (
                        want is not None
                        and seen is None
                        and isinstance(event, BeachContents)
                        and event.beach == want[0]
                        and (want[1] in event.discs) == want[2]
                    ):
                        seen = int(emitted_at + USB_LATENCY_US + spent)
            lines.clear()
            if seen is not None:
                return seen
        return None

    run_until(clock.us + 1_000_000, None)  # settle
    for _ in range(changes):
        run_until(clock.us + rng.randint(20_000, 300_000), None)
        uid = rng.choice(uids)
        disc = tag_map[uid]
        old = board.where[uid]
        if old is None:
            new: int | None = rng.randrange(BEACHES)
        elif rng.random() < 0.5:
            new = None
        else:
            new = rng.choice([b for b in range(BEACHES) if b != old])
        # The disc lands at a random moment of the scan that just ended (no scan started
        # since, so applying it now is the same), and the clock for it starts then.
        changed_at = step_started[0] + rng.random() * (clock.us - step_started[0])
        board.where[uid] = new
        want = (new, disc, True) if new is not None else (old, disc, False)
        assert want[0] is not None
        seen = run_until(int(changed_at) + 2_000_000, (want[0], disc, want[2]))
        if seen is None:
            missed += 1
            continue
        (arrivals if new is not None else departures).append((seen - changed_at) / 1000)
    arrivals.sort()
    return {
        "reader": reader,
        "debounce": debounce,
        "changes": changes,
        "missed": missed,
        "arrival_mean_ms": statistics.fmean(arrivals),
        "arrival_p95_ms": percentile(arrivals, 0.95),
        "arrival_max_ms": arrivals[-1],
        "departure_mean_ms": statistics.fmean(departures) if departures else 0.0,
        "round_ms": statistics.fmean(rounds) if rounds else 0.0,
        "host_us_per_frame": statistics.fmean(host_us),
        "groups": groups,
    }


def parse_throughput(seconds: float = 0.5) -> float:
    """Frames per second through ``protocol.parse``: a snapshot of 12 tags on 6 beaches."""
    rng = random.Random(7)
    beaches = tuple(tuple(sorted(_tag(rng) for _ in range(2))) for _ in range(BEACHES))
    line = protocol.encode(protocol.Snapshot("0BE4C400", 123456, beaches))
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            protocol.parse(line)
        count += 200
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


# ----------------------------------------------------------------------------- command


def run(args: argparse.Namespace) -> int:
    """Options come from ``haleakala bench rfid`` (``haleakala.cli.bench``)."""
    changes, seed, reader, debounce = args.changes, args.seed, args.reader, args.debounce
    fps = parse_throughput(args.seconds or 0.5)
    print(f"frames_per_s: {fps:.0f}")
    print(f"parse_ms_per_frame: {1000 / fps:.4f}")
    try:
        firmware = firmware_dir(args.firmware)
    except CheckoutNeeded as exc:
        print(f"scan_to_event_ms: unavailable ({exc})")
        return 1
    print(f"firmware: {firmware}")
    scan = getattr(args, "scan", "config")
    result = simulate(changes, seed, reader, debounce, firmware, scan)
    print(f"scan_to_event_ms: {result['arrival_mean_ms']:.0f}")
    print(f"scan_to_event_p95_ms: {result['arrival_p95_ms']:.0f}")
    print(f"scan_to_event_max_ms: {result['arrival_max_ms']:.0f}")
    print(f"lift_to_event_ms: {result['departure_mean_ms']:.0f}")
    print(f"scan_round_ms: {result['round_ms']:.0f}")
    print(f"host_us_per_frame: {result['host_us_per_frame']:.0f}")
    together = " ".join("+".join(map(str, g)) for g in result["groups"])
    print(f"scan: {together} ({'pairs' if len(result['groups']) < BEACHES else 'sequential'})")
    print(
        f"model: {reader} x{BEACHES}, debounce {debounce}, {changes} changes, "
        f"seed {seed}, missed {result['missed']}"
    )
    return 0
