"""The firmware's scan loop under CPython with simulated readers: debounce, full snapshots,
faults. Every frame it emits is parsed by the host's parser."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fake_pico import firmware_module, firmware_on_path

from haleakala.hal.rfid import protocol

A, B, C = "E004015000000001", "E004015000000002", "E0040150000000C3"


@pytest.fixture(scope="module")
def fw() -> Iterator[dict]:
    with firmware_on_path():
        yield {
            "scanner": firmware_module("haleakala_pico.scanner"),
            "reader": firmware_module("haleakala_pico.reader"),
            "cores": firmware_module("haleakala_pico.cores"),
        }


class Clock:
    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return self.ms


class SimReader:
    """Answers from a script (one entry per scan, the last repeats); an exception entry is
    raised. Each scan takes ``scan_ms`` on the shared clock."""

    kind = "sim"

    def __init__(self, clock: Clock, script: list | None = None, scan_ms: int = 10) -> None:
        self.clock = clock
        self.script = list(script or [[]])
        self.scan_ms = scan_ms
        self.scans = 0
        self.inits = 0
        self.init_error: Exception | None = None

    def init(self) -> None:
        self.inits += 1
        if self.init_error is not None:
            raise self.init_error

    def inventory(self) -> list[str]:
        self.clock.ms += self.scan_ms
        entry = self.script[min(self.scans, len(self.script) - 1)]
        self.scans += 1
        if isinstance(entry, Exception):
            raise entry
        return list(entry)


def make_scanner(fw: dict, readers: list, **kw):
    frames: list[protocol.Frame] = []

    def emit(line: str) -> None:
        assert line.endswith("\n") and line.count("\n") == 1
        frames.append(protocol.parse(line.encode()))

    clock = readers[0].clock
    kw.setdefault("boot", 0xC0FFEE01)
    scanner = fw["scanner"].Scanner(readers, emit, clock_ms=clock, firmware="test", **kw)
    return scanner, frames


def snaps(frames: list) -> list[tuple]:
    return [f.beaches for f in frames if isinstance(f, protocol.Snapshot)]


# ----------------------------------------------------------------------------- debounce


def test_tag_counts_as_present_only_after_n_consecutive_scans(fw) -> None:
    beach = fw["scanner"].BeachDebouncer(3)
    assert beach.contents() is None
    assert beach.update([A]) is False
    assert beach.update([A]) is False
    assert beach.update([A]) is True  # third agreeing scan: known, with A
    assert beach.contents() == [A]


def test_tag_counts_as_gone_only_after_n_consecutive_misses(fw) -> None:
    beach = fw["scanner"].BeachDebouncer(2)
    beach.update([A])
    beach.update([A])
    assert beach.contents() == [A]
    assert beach.update([]) is False
    assert beach.contents() == [A]
    assert beach.update([]) is True
    assert beach.contents() == []


@pytest.mark.parametrize("present_at_start", [False, True])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_tag_seen_in_alternate_scans_never_toggles(fw, n: int, present_at_start: bool) -> None:
    beach = fw["scanner"].BeachDebouncer(n)
    for _ in range(n):
        beach.update([A] if present_at_start else [])
    assert beach.contents() == ([A] if present_at_start else [])
    for i in range(40):
        beach.update([A] if i % 2 else [])
        assert beach.contents() == ([A] if present_at_start else [])


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 4),
    scans=st.lists(st.sets(st.sampled_from([A, B, C]), max_size=3), max_size=30),
)
def test_debounced_presence_flips_exactly_when_the_last_n_scans_agree(fw, n, scans) -> None:
    beach = fw["scanner"].BeachDebouncer(n)
    stable: set[str] = set()
    for i, seen in enumerate(scans):
        changed = beach.update(seen)
        before = set(stable)
        for uid in (A, B, C):
            window = scans[max(0, i - n + 1) : i + 1]
            if len(window) == n and all((uid in s) != (uid in stable) for s in window):
                stable ^= {uid}
        known = i + 1 >= n
        assert beach.contents() == (sorted(stable) if known else None)
        assert changed == (known and (stable != before or i + 1 == n))


# ----------------------------------------------------------------------------- scanner


def test_tags_entering_and_leaving_appear_in_full_snapshots(fw) -> None:
    clock = Clock()
    script = [[], [], [A], [A], [A, B], [A, B], [B], [B], [B]]
    readers = [SimReader(clock, script if b == 2 else [[]]) for b in range(6)]
    scanner, frames = make_scanner(fw, readers)
    scanner.start()
    assert isinstance(frames[0], protocol.Hello)
    assert frames[0].readers == ("sim",) * 6 and frames[0].debounce_scans == 2
    scanner.run(steps=80)
    assert all(len(s) == 6 for s in snaps(frames))
    seen_on_2 = [s[2] for s in snaps(frames) if s[2] is not None]
    distinct = [seen_on_2[0]] + [b for a, b in itertools.pairwise(seen_on_2) if a != b]
    assert distinct == [(), (A,), (A, B), (B,)]
    assert snaps(frames)[-1] == ((), (), (B,), (), (), ())


def test_beaches_are_unknown_until_their_first_n_scans(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[A]] if b == 0 else [[]]) for b in range(6)]
    scanner, frames = make_scanner(fw, readers, debounce_scans=3)
    scanner.start()
    assert snaps(frames)[0] == (None,) * 6
    scanner.run(steps=30)
    assert snaps(frames)[-1] == ((A,), (), (), (), (), ())


def test_change_is_sent_at_once_and_snapshots_repeat_every_period(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[]], scan_ms=5) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers, snapshot_period_ms=100)
    scanner.start()
    scanner.run(steps=24)  # settle: everything known and empty
    readers[4].script = [[A]]
    count = len(frames)
    for _ in range(12):
        scanner.step()
        if any(isinstance(f, protocol.Snapshot) and f.beaches[4] == (A,) for f in frames[count:]):
            break
    else:
        pytest.fail("the arrival never reached a snapshot")
    # The step that confirmed A emitted the snapshot: no waiting for the 100 ms period.
    assert isinstance(frames[-1], protocol.Snapshot) and frames[-1].beaches[4] == (A,)
    # With nothing changing, a snapshot still goes out at least every 100 ms.
    times = []
    for _ in range(200):
        before = len(frames)
        scanner.step()
        times += [clock.ms for f in frames[before:] if isinstance(f, protocol.Snapshot)]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps and max(gaps) <= 100 + 5


def test_disagreeing_scan_is_confirmed_by_an_immediate_rescan(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[]]) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers)
    scanner.start()
    scanner.run(steps=12)
    readers[3].script = [[A]]
    while scanner._next != 3:
        scanner.step()
    others = [r.scans for r in readers]
    scanner.step()  # beach 3 twice, before beach 4
    assert readers[3].scans == others[3] + 2 and readers[4].scans == others[4]
    assert snaps(frames)[-1][3] == (A,)


def test_dead_reader_reports_a_fault_and_other_beaches_keep_working(fw) -> None:
    clock = Clock()
    fault = fw["reader"].ReaderFault("timeout", "BUSY stuck high")
    readers = [SimReader(clock, [[]]) for _ in range(6)]
    readers[1].script = [fault]
    readers[5].script = [[], [], [C]]
    scanner, frames = make_scanner(fw, readers, retry_ms=1000)
    scanner.start()
    scanner.run(steps=400)  # about 3 s
    faults = [f for f in frames if isinstance(f, protocol.Fault)]
    assert faults and faults[0].reader == 1 and faults[0].fault == "timeout"
    assert faults[0].detail == "BUSY stuck high"
    last = snaps(frames)[-1]
    assert last[1] is None  # unknown, never "empty"
    assert last[5] == (C,)  # the others are still scanned
    # Retried about once a second, not on every round.
    assert clock.ms > 2500 and readers[1].scans <= 1 + clock.ms // 1000
    hb = [f for f in frames if isinstance(f, protocol.Heartbeat)]
    assert hb and hb[-1].faulted == 1


def test_faulted_reader_is_retried_and_its_recovery_announced(fw) -> None:
    clock = Clock()
    fault = fw["reader"].ReaderFault("nochip", "no PN5180 answers")
    readers = [SimReader(clock, [[]]) for _ in range(6)]
    readers[0].init_error = fault
    scanner, frames = make_scanner(fw, readers, retry_ms=300)
    scanner.start()
    scanner.run(steps=60)
    assert snaps(frames)[-1][0] is None
    repeats = [f for f in frames if isinstance(f, protocol.Fault) and f.fault == "nochip"]
    assert len(repeats) >= 2  # repeated at each failed retry
    readers[0].init_error = None
    readers[0].script = [[B]]
    scanner.run(steps=60)
    kinds = [f.fault for f in frames if isinstance(f, protocol.Fault)]
    assert kinds[-1] == "ok"
    assert snaps(frames)[-1][0] == (B,)


def test_unexpected_reader_exception_is_a_fault_not_a_crash(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[]]) for _ in range(6)]
    readers[2].script = [[], OSError(5, "EIO"), []]
    readers[3].script = [[], KeyError("x"), []]
    scanner, frames = make_scanner(fw, readers)
    scanner.start()
    scanner.run(steps=30)
    kinds = {(f.reader, f.fault) for f in frames if isinstance(f, protocol.Fault)}
    assert {(2, "spi"), (3, "error")} <= kinds


def test_heartbeat_every_second_and_hello_repeated(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[]], scan_ms=10) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers, hello_period_ms=2000)
    scanner.start()
    scanner.run(steps=600)  # 6 s of scanning
    hbs = [f for f in frames if isinstance(f, protocol.Heartbeat)]
    hellos = [f for f in frames if isinstance(f, protocol.Hello)]
    assert 5 <= len(hbs) <= 7 and hbs[-1].uptime_s >= 5
    assert hbs[-1].round_ms == 60
    assert 3 <= len(hellos) <= 4


def test_sequence_numbers_count_every_frame_of_one_boot(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[A]]) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers, boot=0x0000ABCD)
    scanner.start()
    scanner.run(steps=50)
    assert [f.seq for f in frames] == list(range(len(frames)))
    assert {f.boot for f in frames} == {"0000ABCD"}


def test_crash_sends_a_firmware_fault(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock, [[]]) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers)
    scanner.start()
    scanner.crash(MemoryError("memory allocation failed, allocating 512 bytes"))
    last = frames[-1]
    assert isinstance(last, protocol.Fault)
    assert (last.reader, last.fault) == (-1, "crash")
    assert "," not in last.detail and len(last.detail) <= 48


# ----------------------------------------------------------------- issue 22 / issue 24 (1.2.0)


def test_a_change_goes_out_as_two_consecutive_snapshots(fw) -> None:
    """The Pi moves a disc only when two consecutive snapshots agree: the Pico sends each
    change twice at once instead of letting it wait for the next periodic snapshot."""
    clock = Clock()
    readers = [SimReader(clock, [[]], scan_ms=5) for _ in range(6)]
    scanner, frames = make_scanner(fw, readers)
    scanner.start()
    scanner.run(steps=24)
    readers[2].script = [[A]]
    count = len(frames)
    while not any(
        isinstance(f, protocol.Snapshot) and f.beaches[2] == (A,) for f in frames[count:]
    ):
        scanner.step()
    first, second = frames[-2:]
    assert isinstance(first, protocol.Snapshot) and isinstance(second, protocol.Snapshot)
    assert first.beaches == second.beaches and second.seq == first.seq + 1


def test_opposite_beaches_are_scanned_together_and_read_the_same(fw) -> None:
    clock = Clock()
    script = [[], [], [A], [A], [A, B], [A, B], [B], [B], [B]]
    calls: list[tuple[int, int]] = []
    readers = [SimReader(clock, script if b == 4 else [[]]) for b in range(6)]

    def together(first, second):
        def scanned(job) -> int:
            before = [r.scans for r in readers]
            answer[0] = job()
            return next(b for b, r in enumerate(readers) if r.scans != before[b])

        answer: list = [None]
        a = scanned(first)
        first_answer = answer[0]
        calls.append((a, scanned(second)))
        return (None, first_answer), (None, answer[0])

    scanner, frames = make_scanner(fw, readers, groups=((0, 3), (1, 4), (2, 5)), together=together)
    scanner.start()
    scanner.run(steps=40)
    assert set(calls) == {(0, 3), (1, 4), (2, 5)}
    assert snaps(frames)[-1] == ((), (), (), (), (B,), ())
    seen = [s[4] for s in snaps(frames) if s[4] is not None]
    distinct = [seen[0]] + [b for a, b in itertools.pairwise(seen) if a != b]
    assert distinct == [(), (A,), (A, B), (B,)]


def test_a_fault_on_the_other_core_faults_only_its_own_beach(fw) -> None:
    clock = Clock()
    fault = fw["reader"].ReaderFault("timeout", "BUSY stuck high")
    readers = [SimReader(clock, [[A]] if b == 0 else [[]]) for b in range(6)]
    readers[3].script = [[], [], fault]
    second_core = fw["cores"].SecondCore()
    scanner, frames = make_scanner(
        fw, readers, groups=((0, 3), (1, 4), (2, 5)), together=second_core.together
    )
    scanner.start()
    scanner.run(steps=30)
    faults = [f for f in frames if isinstance(f, protocol.Fault)]
    assert [(f.reader, f.fault) for f in faults][:1] == [(3, "timeout")]
    assert snaps(frames)[-1] == ((A,), (), (), None, (), ())


def test_scan_groups_must_name_every_beach_once_and_hold_at_most_two(fw) -> None:
    clock = Clock()
    readers = [SimReader(clock) for _ in range(6)]
    with pytest.raises(ValueError, match="every beach once"):
        make_scanner(fw, readers, groups=((0, 3), (1, 4), (2, 2)))
    with pytest.raises(ValueError, match="two cores"):
        make_scanner(fw, readers, groups=((0, 2, 4), (1, 3, 5)))
