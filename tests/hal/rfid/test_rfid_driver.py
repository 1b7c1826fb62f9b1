"""The serial driver against the virtual Pico over a pseudo-terminal: garbage, broken and
replayed frames, the port vanishing and returning. The events must equal the true board
changes, every fault must be counted, and the driver must recover."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.waiting import wait_for

from haleakala.hal.events import BeachContents, Disc, LinkHealth
from haleakala.hal.rfid import driver as driver_module
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.driver import RfidDriver, find_pico_port
from haleakala.hal.rfid.virtual_pico import VirtualPico

DISCS = [Disc(c, v) for c in ("red", "yellow") for v in range(6)]
UIDS = [f"E00401500000{i:04X}" for i in range(len(DISCS))]
TAGS = {u: d.name for u, d in zip(UIDS, DISCS, strict=True)}


class Recorder:
    def __init__(self) -> None:
        self.events: list = []
        self.lock = threading.Lock()

    def __call__(self, event) -> None:
        with self.lock:
            self.events.append(event)

    def beach(self) -> list[BeachContents]:
        with self.lock:
            return [e for e in self.events if isinstance(e, BeachContents)]

    def health(self) -> list[LinkHealth]:
        with self.lock:
            return [e for e in self.events if isinstance(e, LinkHealth)]


@pytest.fixture
def tries(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every port lookup the driver makes: one per connection attempt, so a test can wait for
    the driver to have retried instead of sleeping for a guessed time."""
    looked: list[str] = []

    def counting(port: str = "auto", dev_root: str = "/dev") -> str | None:
        looked.append(port)
        return find_pico_port(port, dev_root)

    monkeypatch.setattr(driver_module, "find_pico_port", counting)
    return looked


def frames_after(driver: RfidDriver, more: int = 2) -> Callable[[], bool]:
    """True once the driver has read ``more`` frames beyond now: later input was handled."""
    seen = driver.health()["frames"]
    return lambda: driver.health()["frames"] >= seen + more


def contents(recorder: Recorder) -> dict[int, frozenset]:
    latest: dict[int, frozenset] = {}
    for event in recorder.beach():
        latest[event.beach] = event.discs
    return latest


def discs(*indices: int) -> frozenset:
    return frozenset(DISCS[i] for i in indices)


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[VirtualPico]:
    vp = VirtualPico(snapshot_period_s=0.05)
    vp.start(tmp_path / "haleakala-pico")
    yield vp
    vp.stop()


@pytest.fixture
def started() -> Iterator[Callable[..., RfidDriver]]:
    drivers: list[RfidDriver] = []

    def start(**kw) -> RfidDriver:
        driver = RfidDriver(TAGS, **kw)
        drivers.append(driver)
        driver.start()
        return driver

    yield start
    for driver in drivers:
        driver.stop()


def test_board_changes_become_beach_events(pico, started) -> None:
    seen = Recorder()
    started(port=pico.path, post=seen)
    wait_for(lambda: len(seen.beach()) == 6)
    assert all(e.discs == frozenset() for e in seen.beach())
    assert seen.health()[-1].ok
    pico.place(2, UIDS[0])
    pico.place(2, UIDS[6])
    wait_for(lambda: contents(seen).get(2) == discs(0, 6))
    pico.move(4, UIDS[0])
    wait_for(lambda: contents(seen).get(4) == discs(0))
    assert contents(seen)[2] == discs(6)


def test_link_faults_cause_no_phantom_events_and_are_all_counted(pico, started) -> None:
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    wait_for(lambda: len(seen.beach()) == 6)
    injected = {"garbage": 0, "truncated": 0, "crc": 0, "old": 0}
    truth = [contents(seen)]
    moves = [(0, 1), (1, 1), (2, 3), (0, 5), (1, None), (3, 0), (2, None), (4, 2)]
    for step, (index, beach) in enumerate(moves):
        if beach is None:
            pico.remove(UIDS[index])
        else:
            pico.place(beach, UIDS[index])
        frame = pico.recent[-1]  # the latest real frame
        pico.inject(b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico with RP2040\r\n")
        pico.inject(
            b">>> garbage without a frame "
            + os.urandom(8).replace(b"\n", b"").replace(b"$", b"")
            + b"\n"
        )
        injected["garbage"] += 2
        pico.inject(frame[: len(frame) // 2] + b"\n")
        injected["truncated"] += 1
        flipped = bytearray(frame)
        flipped[12] ^= 0x01
        pico.inject(bytes(flipped))
        injected["crc"] += 1
        pico.inject(frame)  # a copy: duplicate, or stale if overtaken
        if step:
            pico.inject(pico.recent[0])  # a frame from long ago
            injected["old"] += 1
        injected["old"] += 1
        state = pico.contents()
        expected = {b: frozenset(DISCS[UIDS.index(u)] for u in state[b]) for b in range(6)}
        wait_for(lambda expected=expected: contents(seen) == expected)
        truth.append(expected)
    # Every injected line has been read and judged before the events are compared.
    wait_for(
        lambda: (
            (
                driver.health()["garbage"],
                driver.health()["truncated"],
                driver.health()["crc"],
                driver.health()["duplicate"] + driver.health()["stale"],
            )
            == (injected["garbage"], injected["truncated"], injected["crc"], injected["old"])
        ),
        "the driver to count every injected line",
    )
    # Events: exactly the changes between consecutive true states, nothing else.
    expected_events = []
    for before, after in itertools.pairwise(truth):
        changed = [b for b in range(6) if before[b] != after[b]]
        losing = [b for b in changed if after[b] < before[b]]
        expected_events += [
            BeachContents(b, after[b]) for b in losing + [b for b in changed if b not in losing]
        ]
    assert seen.beach()[6:] == expected_events
    health = driver.health()
    assert pico.dropped_writes == 0
    assert health["garbage"] == injected["garbage"]
    assert health["truncated"] == injected["truncated"]
    assert health["crc"] == injected["crc"]
    # The injected frame copies reach the Pi as duplicates or as stale (older) frames.
    assert health["duplicate"] + health["stale"] == injected["old"]
    assert health["link"] == "up" and health["ok"]


def test_random_binary_noise_never_crashes_the_driver(pico, started) -> None:
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    wait_for(lambda: len(seen.beach()) == 6)
    for _ in range(50):
        pico.inject(os.urandom(97))
    pico.place(5, UIDS[11])
    wait_for(lambda: contents(seen).get(5) == discs(11))
    wait_for(frames_after(driver), "two more frames after the noise")
    assert driver.running
    assert [e for e in seen.beach()[6:]] == [BeachContents(5, discs(11))]
    assert driver.health()["driver_errors"] == 0


def test_port_vanishing_and_returning_recovers_with_only_the_real_change(
    pico, started, tries
) -> None:
    """The driver keeps retrying while the port is gone and picks the board up again when it
    returns. (How fast it recovers is a timing: ``haleakala bench``, not a test.)"""
    seen = Recorder()
    driver = started(port=pico.path, post=seen, stale_after_s=0.5)
    pico.place(0, UIDS[0])
    pico.place(3, UIDS[1])
    wait_for(lambda: contents(seen).get(3) == discs(1))
    before = len(seen.beach())
    pico.vanish()
    wait_for(lambda: not seen.health()[-1].ok)
    assert "RFID Pico" in seen.health()[-1].detail
    gone = len(tries)
    wait_for(lambda: len(tries) >= gone + 5, "five retries while the port is gone")
    pico.place(3, UIDS[2])  # a disc lands while the link is down
    pico.reappear()
    wait_for(lambda: contents(seen).get(3) == discs(1, 2), "the disc placed while away")
    wait_for(lambda: seen.health()[-1].ok, "the link reported healthy again")
    # Only the real change is posted after the reconnect: beach 0 is not re-announced.
    assert seen.beach()[before:] == [BeachContents(3, discs(1, 2))]
    health = driver.health()
    assert health["disconnects"] == 1 and health["connects"] == 2 and health["resyncs"] == 1


def test_reader_fault_shows_in_link_health_and_keeps_the_beach(pico, started) -> None:
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    pico.place(1, UIDS[3])
    wait_for(lambda: contents(seen).get(1) == discs(3))
    pico.fail_reader(1, "timeout", "BUSY stuck high")
    wait_for(lambda: not seen.health()[-1].ok)
    assert seen.health()[-1].detail == "beach 1 reader timeout (BUSY stuck high)"
    wait_for(frames_after(driver), "two more frames with the reader failed")
    assert contents(seen)[1] == discs(3)  # unknown, not emptied
    pico.mend_reader(1)
    wait_for(lambda: seen.health()[-1].ok)


def test_auto_finds_the_pico_by_usb_id(tmp_path: Path, started) -> None:
    dev = tmp_path / "dev"
    vp = VirtualPico(snapshot_period_s=0.05)
    try:
        vp.start(
            dev / "serial" / "by-id" / "usb-MicroPython_Board_in_FS_mode_e6614103e7455f2e-if00"
        )
        seen = Recorder()
        driver = started(port="auto", dev_root=str(dev), post=seen)
        wait_for(lambda: len(seen.beach()) == 6)
        assert driver.health()["port"].endswith("-if00")
    finally:
        vp.stop()


def test_no_pico_is_reported_and_found_once_plugged_in(tmp_path: Path, started, tries) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    seen = Recorder()
    started(port="auto", dev_root=str(dev), post=seen)
    wait_for(lambda: bool(seen.health()))
    assert not seen.health()[0].ok and "no RFID Pico found" in seen.health()[0].detail
    looked = len(tries)
    wait_for(lambda: len(tries) >= looked + 5, "five more looks for the Pico")
    assert len(seen.health()) == 1  # said once, not every retry
    vp = VirtualPico(snapshot_period_s=0.05)
    try:
        vp.start(dev / "haleakala-pico")
        wait_for(lambda: len(seen.beach()) == 6, "the board once the Pico is plugged in")
    finally:
        vp.stop()


def test_a_failing_event_consumer_does_not_stop_the_driver(pico, started) -> None:
    calls = Recorder()

    def post(event) -> None:
        calls(event)
        raise RuntimeError("queue closed")

    driver = started(port=pico.path, post=post)
    wait_for(lambda: len(calls.beach()) == 6)
    pico.place(0, UIDS[4])
    wait_for(lambda: contents(calls).get(0) == discs(4))
    assert driver.running and driver.health()["post_errors"] >= 7


def test_stop_is_prompt_and_idempotent(pico) -> None:
    driver = RfidDriver(TAGS, port=pico.path)
    driver.start(post=lambda _e: None)
    wait_for(lambda: driver.health()["frames"] > 0)
    driver.stop()
    assert not driver.running  # stopped within stop()'s own join
    driver.stop()


def test_find_pico_port_prefers_the_udev_name(tmp_path: Path) -> None:
    by_id = tmp_path / "serial" / "by-id"
    by_id.mkdir(parents=True)
    (by_id / "usb-Raspberry_Pi_Pico_E660-if00").touch()
    assert find_pico_port("auto", str(tmp_path)) == str(by_id / "usb-Raspberry_Pi_Pico_E660-if00")
    (tmp_path / "haleakala-pico").touch()
    assert find_pico_port("auto", str(tmp_path)) == str(tmp_path / "haleakala-pico")
    assert find_pico_port("/dev/ttyACM3", str(tmp_path)) == "/dev/ttyACM3"
    assert find_pico_port("auto", str(tmp_path / "nothing")) is None


def test_virtual_pico_frames_are_the_real_protocol() -> None:
    vp = VirtualPico(boot=0x00C0FFEE)
    vp.place(3, UIDS[0].lower())
    vp.fail_reader(5)
    lines = vp.frames_for(["hello", "snap", "hb"]).splitlines(keepends=True)
    frames = [protocol.parse(line) for line in lines]
    assert [type(f) for f in frames] == [protocol.Hello, protocol.Snapshot, protocol.Heartbeat]
    assert frames[1].beaches == ((), (), (), (UIDS[0],), (), None)
    assert [f.seq for f in frames] == [1, 2, 3]  # 0 was the fault frame
    assert {f.boot for f in frames} == {"00C0FFEE"}


def test_a_crafted_foreign_frame_and_a_sequence_jump_change_nothing(pico, started) -> None:
    """Issue 11: one valid-CRC frame with another boot id, and one with the number jumped by
    2^31-1, used to retire the real Pico's run and empty beach 0. Now the real Pico's next
    frames are accepted and no beach changes that nobody touched."""
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    pico.place(0, UIDS[0])
    wait_for(lambda: contents(seen).get(0) == discs(0))
    before = len(seen.beach())
    empty = ((),) * 6
    pico.inject(protocol.encode(protocol.Snapshot("DEADBEEF", 7, empty)))
    jumped = (protocol.parse(pico.recent[-1]).seq + (1 << 31) - 1) % protocol.SEQ_MODULO
    pico.inject(protocol.encode(protocol.Snapshot(pico.boot, jumped, empty)))
    pico.place(1, UIDS[1])
    wait_for(lambda: contents(seen).get(1) == discs(1))
    assert seen.beach()[before:] == [BeachContents(1, discs(1))]  # beach 0 never emptied
    health = driver.health()
    assert health["boot"] == pico.boot and health["unconfirmed"] == 2
    assert health["resyncs"] == 0 and health["seq_jumps"] == 0


def test_a_port_that_vanishes_while_opening_is_a_link_problem_not_a_driver_error(
    pico, started, monkeypatch
) -> None:
    """Unplugged while pyserial sets the port up, tcsetattr fails with EIO as a bare
    ``termios.error`` (not an OSError): the driver says it cannot open the port and tries
    again, instead of logging a traceback as a driver fault."""
    import termios

    import serial

    real = serial.Serial
    failures = []

    def vanishing_once(*args, **kwargs):
        if not failures:
            failures.append(args)
            raise termios.error(5, "Input/output error")
        return real(*args, **kwargs)

    monkeypatch.setattr(serial, "Serial", vanishing_once)
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    wait_for(lambda: len(seen.beach()) == 6, "the board after the failed open")
    assert failures and driver.health()["driver_errors"] == 0
    assert any("cannot open RFID Pico port" in h.detail for h in seen.health())


def test_a_forged_hello_and_snap_and_a_frame_900_ahead_move_nothing_over_the_real_port(
    pico, started
) -> None:
    """Issue 22: over the pseudo-terminal, while the virtual Pico streams, a ``hello`` with a
    new boot id and one snapshot used to make a placement (then acknowledged and
    journaled), and one frame of the current run numbered 900 ahead made every real frame
    stale. Now neither is posted and the real Pico's next change arrives as usual."""
    seen = Recorder()
    driver = started(port=pico.path, post=seen)
    pico.place(0, UIDS[0])
    wait_for(lambda: contents(seen).get(0) == discs(0))
    before = len(seen.beach())
    forged = ((), (protocol.normalise_uid(UIDS[3]),), (), (), (), ())
    pico.inject(
        protocol.encode(protocol.Hello("BADC0DE5", 0, "9.9.9", ("pn5180",) * 6, 2, 100))
        + protocol.encode(protocol.Snapshot("BADC0DE5", 1, forged))
    )
    ahead = (protocol.parse(pico.recent[-1]).seq + 900) % protocol.SEQ_MODULO
    pico.inject(protocol.encode(protocol.Snapshot(pico.boot, ahead, ((),) * 6)))
    pico.place(2, UIDS[1])
    wait_for(lambda: contents(seen).get(2) == discs(1), "the real Pico's next change")
    assert seen.beach()[before:] == [BeachContents(2, discs(1))]
    health = driver.health()
    assert health["boot"] == pico.boot and health["stale"] == 0 and health["resyncs"] == 0
    assert all(h.ok for h in seen.health()[1:])
