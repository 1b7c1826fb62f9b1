"""The host kit's journal written ahead on the card (``RemoteJournal(path, ahead=...)``): lines
written over zeros and synced with fdatasync (the file's size stays within a stretch), the
zeros are not lines, a last line torn at any 512-byte sector boundary (zeros where its first
sectors did not arrive, or no end) is dropped, and the first line written after it goes
over it only once the file as found is kept."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haleakala.remote.journal import RemoteJournal

AHEAD = 4096
SECTOR = 512
SETUP = {"table": "t", "game": "a1", "name": "kanaloa", "start": "{}"}


def decision(n: int) -> dict:
    return {"seq": n, "seat": ("red", "yellow", "green", "blue")[n % 4],
            "decision": f"move {'x' * (n % 37)} {n}"}  # fmt: skip


def written(path, n: int, ahead: int = AHEAD) -> RemoteJournal:
    journal = RemoteJournal(path, ahead=ahead)
    journal.start(SETUP)
    for i in range(1, n + 1):
        journal.append(decision(i))
    return journal


def test_lines_go_over_the_zeros_and_the_size_stays_within_a_stretch(tmp_path):
    path = tmp_path / "j.jsonl"
    journal = written(path, 20)
    raw = path.read_bytes()
    assert len(raw) == AHEAD and raw[journal.end :] == bytes(AHEAD - journal.end)
    setup, decisions = RemoteJournal(path, ahead=AHEAD).read()
    assert setup == SETUP and decisions == [decision(i) for i in range(1, 21)]


def test_a_stretch_used_up_is_followed_by_the_next(tmp_path):
    path = tmp_path / "j.jsonl"
    written(path, 200, ahead=256)
    assert path.stat().st_size % 256 == 0
    assert len(RemoteJournal(path, ahead=256).read()[1]) == 200


def test_a_line_whose_first_sectors_never_arrived_is_dropped_and_kept_before_overwriting(
    tmp_path,
):
    path = tmp_path / "j.jsonl"
    journal = written(path, 30)
    good = path.read_bytes()
    end = journal.end
    line = b'{"decision": "move ' + b"x" * 600 + b'", "seat": "blue", "seq": 31}\n'
    torn = bytearray(good)
    torn[end : end + len(line)] = line
    first = (end // SECTOR + 1) * SECTOR  # the sector the line starts in did not arrive
    torn[end:first] = bytes(first - end)
    path.write_bytes(bytes(torn))
    again = RemoteJournal(path, ahead=AHEAD)
    assert len(again.read()[1]) == 30
    again.append(decision(31))
    assert [p.read_bytes() for p in tmp_path.glob("j.jsonl.bad-*")] == [bytes(torn)]
    assert RemoteJournal(path, ahead=AHEAD).read()[1] == [decision(i) for i in range(1, 32)]


def test_a_line_cut_mid_write_is_cut_before_the_next_one_without_zeros_ahead(tmp_path):
    path = tmp_path / "j.jsonl"
    written(path, 5, ahead=0)
    with path.open("ab") as f:
        f.write(b'{"decision": "mo')  # the power cut came mid-write
    torn = path.read_bytes()
    again = RemoteJournal(path)
    assert len(again.read()[1]) == 5
    again.append(decision(6))
    assert RemoteJournal(path).read()[1] == [decision(i) for i in range(1, 7)]
    assert [p.read_bytes() for p in tmp_path.glob("j.jsonl.bad-*")] == [torn]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(n=st.integers(0, 80), seed=st.integers(0, 2**32 - 1))
def test_a_line_torn_at_sector_boundaries_loses_nothing_acknowledged(tmp_path, n, seed):
    path = tmp_path / f"j{n}-{seed}.jsonl"
    journal = written(path, n)
    old = path.read_bytes()
    start = journal.end
    journal.append(decision(n + 1))
    new = path.read_bytes()
    rng = random.Random(seed)
    torn = bytearray(old)
    for sector in range(start // SECTOR, (journal.end - 1) // SECTOR + 1):
        if rng.random() < 0.5:
            torn[sector * SECTOR : (sector + 1) * SECTOR] = new[
                sector * SECTOR : (sector + 1) * SECTOR
            ]
    path.write_bytes(bytes(torn))
    again = RemoteJournal(path, ahead=AHEAD)
    decisions = again.read()[1]
    assert decisions in ([decision(i) for i in range(1, n + 1)],
                         [decision(i) for i in range(1, n + 2)])  # fmt: skip
    again.append(decision(len(decisions) + 1))
    after = RemoteJournal(path, ahead=AHEAD).read()[1]
    assert after == [decision(i) for i in range(1, len(decisions) + 2)]
    kept = [p.read_bytes() for p in path.parent.glob(f"{path.name}.bad-*")]
    assert kept in ([], [bytes(torn)])
    if torn[start : journal.end] not in (old[start : journal.end], new[start : journal.end]):
        assert kept == [bytes(torn)]
