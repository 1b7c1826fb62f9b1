"""The blklogwrites log replayer (``tools/blklog.py``) on small synthetic logs written in QEMU's
format: entries read past the superblock's count, a torn last entry ignored, the disk as of a
flush rebuilt byte for byte, the log's size at an acknowledgement naming its flush, and the
crash states between two flushes: seeded, bounded, never a flush state, each sector old or
new."""

from __future__ import annotations

import importlib.util
import random
import struct
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import REPO_ROOT

SS = 512


@pytest.fixture(scope="module")
def blklog():
    spec = importlib.util.spec_from_file_location("blklog", REPO_ROOT / "tools" / "blklog.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["blklog"] = module
    spec.loader.exec_module(module)
    return module


def sectors(fill: int, n: int = 1) -> bytes:
    return bytes([fill]) * (SS * n)


def test_the_format_is_qemus_superblock_then_one_sector_per_entry(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, [("write", 8, sectors(1, 2)), ("flush",), ("discard", 0, 4)])
    raw = log.read_bytes()
    assert struct.unpack_from("<QQQI", raw, 0) == (0x6A736677736872, 1, 2, SS)
    assert struct.unpack_from("<QQQQ", raw, SS) == (8, 2, 0, 0)
    assert raw[2 * SS : 4 * SS] == sectors(1, 2)
    assert struct.unpack_from("<QQQQ", raw, 4 * SS) == (0, 0, 1, 0)  # FLUSH, no data
    assert struct.unpack_from("<QQQQ", raw, 5 * SS) == (0, 4, 4, 0)  # DISCARD, no data
    assert len(raw) == 6 * SS


def test_entries_after_the_superblocks_count_are_read(blklog, tmp_path):
    """QEMU rewrites nr_entries only on a flush: a killed guest's last writes lie past it."""
    log = tmp_path / "log"
    blklog.write_log(log, [("write", 0, sectors(1)), ("flush",), ("write", 1, sectors(2))])
    parsed = blklog.read_log(log)
    assert parsed.nr_entries == 2
    assert [(e.sector, e.count, e.flush) for e in parsed.entries] == [
        (0, 1, False), (0, 0, True), (1, 1, False)]  # fmt: skip
    assert parsed.data(parsed.entries[2]) == sectors(2)


def test_a_torn_last_entry_is_not_an_entry(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, [("write", 0, sectors(1)), ("flush",), ("write", 4, sectors(3, 4))])
    raw = log.read_bytes()
    log.write_bytes(raw[:-SS])  # the last write's data is not all there
    assert len(blklog.read_log(log).entries) == 2
    log.write_bytes(raw[: -5 * SS] + bytes(5 * SS))  # ... or a hole where it was to go
    assert len(blklog.read_log(log).entries) == 2


def test_not_a_log_is_said(blklog, tmp_path):
    bad = tmp_path / "bad"
    bad.write_bytes(bytes(SS))
    with pytest.raises(blklog.LogError, match="not a blklogwrites log"):
        blklog.read_log(bad)
    bad.write_bytes(b"short")
    with pytest.raises(blklog.LogError, match="too short"):
        blklog.read_log(bad)


def test_the_disk_as_of_a_flush_is_rebuilt_from_the_log(blklog, tmp_path):
    log, disk = tmp_path / "log", tmp_path / "disk"
    disk.write_bytes(sectors(0, 8))
    blklog.write_log(log, [("write", 1, sectors(1, 2)), ("flush",), ("write", 2, sectors(2)),
                           ("discard", 5, 2), ("flush",), ("write", 7, sectors(7))])  # fmt: skip
    parsed = blklog.read_log(log)
    assert parsed.flushes() == [1, 4]
    with blklog.Disk(disk, parsed) as d:
        d.advance(1)
        assert d.read(0, 8 * SS) == sectors(0) + sectors(1, 2) + sectors(0, 5)
        d.advance(4)  # the discard leaves its range as it was (QEMU's discard=ignore)
        assert d.read(0, 8 * SS) == sectors(0) + sectors(1) + sectors(2) + sectors(0, 5)
    assert parsed.bytes_written(1, 4) == SS and parsed.bytes_written() == 4 * SS


def test_the_log_size_at_an_acknowledgement_names_the_flush_it_had(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, [("write", 0, sectors(1)), ("flush",), ("write", 1, sectors(2)),
                           ("flush",)])  # fmt: skip
    parsed = blklog.read_log(log)
    first_flush_end = parsed.entries[1].end
    assert parsed.last_flush_within(first_flush_end) == 1
    assert parsed.last_flush_within(first_flush_end + SS) == 1  # the next write's header only
    assert parsed.last_flush_within(first_flush_end - 1) is None
    assert parsed.last_flush_within(parsed.size) == 3
    assert parsed.entries_within(parsed.entries[2].end) == 3


def test_a_log_read_in_part_is_the_log_at_that_size(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, [("write", 0, sectors(1)), ("flush",), ("write", 1, sectors(2))])
    partial = blklog.read_log(log, limit=blklog.read_log(log).entries[1].end)
    assert len(partial.entries) == 2


WINDOW = [("write", 0, sectors(9)), ("flush",), ("write", 0, sectors(1, 4)),
          ("write", 10, sectors(2, 2)), ("write", 2, sectors(3)), ("write", 20, sectors(4, 8)),
          ("flush",)]  # fmt: skip


def test_crash_states_are_seeded_bounded_and_never_a_flush_state(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, WINDOW)
    parsed = blklog.read_log(log)
    states = blklog.crash_states(parsed, 1, 6, random.Random(5), count=6)
    again = blklog.crash_states(parsed, 1, 6, random.Random(5), count=6)
    assert states == again and 0 < len(states) <= 6
    everything = tuple((i, None) for i in range(2, 6))
    assert all(s.writes and s.writes != everything for s in states)
    assert {s.kind for s in states} <= {"prefix", "subset", "torn"}
    assert len({s.writes for s in states}) == len(states)
    for s in states:
        torn = [(i, part) for i, part in s.writes if part is not None]
        assert len(torn) <= 1
        for i, part in torn:
            entry = parsed.entries[i]
            assert 0 < len(part) < entry.count
            assert set(part) <= set(range(entry.sector, entry.sector + entry.count))
    assert blklog.crash_states(parsed, 6, 7, random.Random(5)) == []  # no write in between


def test_a_single_one_sector_write_has_no_crash_state_of_its_own(blklog, tmp_path):
    log = tmp_path / "log"
    blklog.write_log(log, [("flush",), ("write", 3, sectors(1)), ("flush",)])
    assert blklog.crash_states(blklog.read_log(log), 0, 2, random.Random(1)) == []


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # files named by seed
@given(seed=st.integers(0, 10_000))
def test_every_sector_of_a_crash_state_is_old_or_written_in_the_window(blklog, tmp_path, seed):
    """Applied and reverted: each sector holds its content as of the flush or a write of the
    window (the last chosen one in log order), and revert gives the flush state back."""
    log, disk = tmp_path / f"log{seed}", tmp_path / f"disk{seed}"
    disk.write_bytes(bytes(32 * SS))
    blklog.write_log(log, WINDOW)
    parsed = blklog.read_log(log)
    with blklog.Disk(disk, parsed) as d:
        d.advance(2)
        before = d.read(0, 32 * SS)
        for state in blklog.crash_states(parsed, 1, 6, random.Random(seed), count=4):
            saved = blklog.apply_state(d, state)
            now = d.read(0, 32 * SS)
            for sector in range(32):
                expected = before[sector * SS : (sector + 1) * SS]
                for index, part in state.writes:
                    e = parsed.entries[index]
                    if e.sector <= sector < e.sector + e.count and (part is None or sector
                                                                    in part):  # fmt: skip
                        expected = parsed.data(e, sector)
                assert now[sector * SS : (sector + 1) * SS] == expected
            d.revert(saved)
            assert d.read(0, 32 * SS) == before
