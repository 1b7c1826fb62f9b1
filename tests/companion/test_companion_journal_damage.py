"""Journal damage, exhaustively: every single-bit flip and every truncation of a small game.

The game: 12 decisions with a snapshot every 5 (the snapshot covers the header and 10
decisions). Each case puts the damaged journal beside the intact snapshot and runs recovery
directly (no subprocess, no fsync: fast).

Which acknowledged decisions are still *readable* after the damage:
- a single flipped bit damages one field of one record: its length (the record's end is then
  where the next intact record starts), its CRC (the payload is intact), or one payload bit
  (CRC32 locates it). Every record stays readable: all 12 decisions. (So do two flipped bits
  anywhere: a hypothesis test below.)
- a truncation at byte t keeps the records that end at or before t; the record cut in two is
  unreadable and nothing lies behind it. The snapshot still holds its 10 decisions. Readable:
  max(10, decisions whose records end at or before t).
"Acknowledged decisions lost" = readable decisions − decisions resumed; it must be 0 in every
case, the resumed position must be the acknowledged one at that point (same digest), and the
backups must hold every byte the journal and the snapshot held before.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import (
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    encode_record,
    scan_records,
)
from haleakala.games.haleakala import Game

DECISIONS = 12
EVERY = 5


class SmallGame:
    """The intact journal and snapshot, and the acknowledged position after each record."""

    def __init__(self, root: Path) -> None:
        rig = Rig("buttons", journal=Journal(root, snapshot_every=EVERY, sync=False))
        for _ in range(DECISIONS):
            rig.carry_out(choose(rig.game, 1))
        self.journal = (root / JOURNAL_NAME).read_bytes()
        self.snapshot = (root / SNAPSHOT_NAME).read_bytes()
        scan = scan_records(self.journal)
        assert scan.problem is None and len(scan.records) == DECISIONS + 1
        self.ends = [offset for offset, _ in scan.records[1:]] + [len(self.journal)]
        """Byte where each record ends (the header's end first)."""
        self.digests = [Game("base", 3, "red").digest()] + [
            r["digest"] for _, r in scan.records[1:]
        ]
        """The acknowledged digest after 0, 1, … decisions."""
        self.in_snapshot = len(json.loads(self.snapshot)["sources"])
        assert self.in_snapshot == 10
        self.final = rig.game

    def readable_after_cut(self, t: int) -> int:
        """Decisions still readable when the journal is cut at byte ``t``."""
        whole = sum(1 for end in self.ends[1:] if end <= t)
        return max(self.in_snapshot, whole) if self.ends[0] <= t else self.in_snapshot


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> SmallGame:
    return SmallGame(tmp_path_factory.mktemp("small-game"))


def recover_damaged(state: Path, small: SmallGame, journal: bytes) -> tuple[Game, Journal]:
    """Put the damaged journal beside the intact snapshot and recover (a clean directory)."""
    if state.exists():
        for path in state.iterdir():
            path.unlink()
    else:
        state.mkdir()
    (state / JOURNAL_NAME).write_bytes(journal)
    (state / SNAPSHOT_NAME).write_bytes(small.snapshot)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    assert game is not None, j.notes
    j.close()
    return game, j


def assert_nothing_was_destroyed(state: Path, small: SmallGame, journal: bytes) -> None:
    """Every file recovery changed is kept, byte for byte, in a backup."""
    for name, before in ((JOURNAL_NAME, journal), (SNAPSHOT_NAME, small.snapshot)):
        now = (state / name).read_bytes()
        kept = [p.read_bytes() for p in state.glob(f"{name}.bad-*")]
        assert now == before or before in kept or not before, f"{name}: old bytes are gone"


def check_case(state: Path, small: SmallGame, journal: bytes, readable: int) -> int:
    """Recover one damaged journal; the acknowledged decisions lost (asserted to be 0)."""
    game, _ = recover_damaged(state, small, journal)
    lost = readable - len(game.history)
    assert lost == 0, f"lost {lost} acknowledged decisions"
    assert game.digest() == small.digests[readable]
    assert game.history == small.final.history[:readable]
    assert_nothing_was_destroyed(state, small, journal)
    return lost


@pytest.mark.parametrize("record", range(DECISIONS + 1), ids=lambda k: f"record{k}")
def test_every_single_bit_flip_loses_no_acknowledged_decision_and_keeps_every_byte(
    small, state, record
):
    """Every bit of one record (frame and payload) flipped in turn: one test per record, so
    that parallel workers share the ~11,000 cases."""
    start = small.ends[record - 1] if record else 0
    end = small.ends[record]
    cases = lost = 0
    for byte in range(start, end):
        for bit in range(8):
            damaged = bytearray(small.journal)
            damaged[byte] ^= 1 << bit
            lost += check_case(state, small, bytes(damaged), DECISIONS)
            cases += 1
    assert cases == 8 * (end - start) and lost == 0


def test_every_truncation_resumes_at_the_longest_readable_history_and_keeps_the_cut_bytes(
    small, state
):
    for t in range(len(small.journal)):
        check_case(state, small, small.journal[:t], small.readable_after_cut(t))


def test_a_repaired_journal_is_whole_again_and_a_second_start_changes_nothing(small, state):
    """Sample of damage kinds: after recovery the files agree; a restart needs no repair."""
    record_5 = small.ends[4]
    cuts = [
        small.journal[:3],  # inside the header
        small.journal[: record_5 + 20],  # inside a record before the snapshot's end
        small.journal[:-1],  # the last record torn
    ]
    flips = [0, 4 * 8 + 3, (record_5 + 2) * 8, (record_5 + 6) * 8 + 1, (record_5 + 30) * 8]
    for bit in flips:
        damaged = bytearray(small.journal)
        damaged[bit // 8] ^= 1 << (bit % 8)
        cuts.append(bytes(damaged))
    for journal in cuts:
        game, first = recover_damaged(state, small, journal)
        assert first.backups, "damage must leave a backup"
        again = Journal(state, snapshot_every=EVERY, sync=False)
        resumed = again.recover()
        assert resumed is not None and resumed.digest() == game.digest()
        assert again.notes == [] and again.backups == []
        again.close()


def scrambled(small: SmallGame, *records: int) -> bytes:
    """The journal with the payloads of ``records`` damaged beyond mending (many bits)."""
    damaged = bytearray(small.journal)
    for k in records:
        start = small.ends[k - 1] + 8
        damaged[start + 5 : start + 25] = b"#" * 20
    return bytes(damaged)


def test_damaged_records_before_the_snapshot_do_not_cost_the_records_after_it(small, tmp_path):
    """Records 3 and 4 unreadable: the snapshot bridges the gap, and the intact records after
    its position are verified by replay from it."""
    game, journal = recover_damaged(tmp_path / "state", small, scrambled(small, 3, 4))
    assert game.digest() == small.final.digest() and len(game.history) == DECISIONS
    assert any("follows the snapshot" in note for note in journal.notes)


def test_one_unreadable_decision_is_found_again_from_the_digest_of_the_next(small, tmp_path):
    """Record 11 unreadable (after the snapshot): exactly one legal decision there lets
    record 12's decision reach record 12's digest. It is kept, and so is record 12."""
    game, journal = recover_damaged(tmp_path / "state", small, scrambled(small, 11))
    assert game.digest() == small.final.digest() and game.history == small.final.history
    assert any("can only have been" in note for note in journal.notes)


def test_an_unreadable_last_record_keeps_the_history_up_to_it(small, tmp_path):
    """Record 12 unreadable, nothing behind it to prove what it held: 11 decisions stay."""
    game, _ = recover_damaged(tmp_path / "state", small, scrambled(small, 12))
    assert len(game.history) == 11 and game.digest() == small.digests[11]


def test_two_unreadable_records_after_the_snapshot_keep_the_history_up_to_them(small, tmp_path):
    game, _ = recover_damaged(tmp_path / "state", small, scrambled(small, 11, 12))
    assert len(game.history) == 10 and game.digest() == small.digests[10]


def test_old_partial_records_between_acknowledged_ones_are_skipped_not_followed(small, tmp_path):
    """What the old journal left on a full disk: part of a rolled-back record, then more
    acknowledged records. They follow the position before the partial one: all are kept."""
    partial = encode_record({"type": "decision", "ply": 7, "decision": "x", "digest": "y"})
    cut = small.ends[6]
    journal = small.journal[:cut] + partial[:-9] + small.journal[cut:]
    game, j = recover_damaged(tmp_path / "state", small, journal)
    assert game.digest() == small.final.digest() and len(game.history) == DECISIONS
    assert scan_records((tmp_path / "state" / JOURNAL_NAME).read_bytes()).problem is None
    assert any(b.read_bytes() == journal for b in j.backups)


def test_a_journal_shorter_than_the_snapshot_resumes_from_the_snapshot(small, tmp_path):
    game, j = recover_damaged(tmp_path / "state", small, small.journal[: small.ends[3]])
    assert len(game.history) == 10 and game.digest() == small.digests[10]
    assert any("covers 11 records" in note for note in j.notes)
    assert any(b.read_bytes() == small.snapshot for b in j.backups)


def test_a_missing_journal_beside_a_snapshot_resumes_from_the_snapshot(small, tmp_path):
    state = tmp_path / "state"
    recover_damaged(state, small, b"")
    (state / JOURNAL_NAME).unlink()
    (state / SNAPSHOT_NAME).write_bytes(small.snapshot)
    game = Journal(state, sync=False).recover()
    assert game is not None and game.digest() == small.digests[10]


BIT = st.integers(min_value=0, max_value=1 << 24)
"""A bit anywhere in a file (taken modulo its size). Bounded, so that hypothesis spreads its
draws over the whole file: unbounded integers favour small ones, the first bytes only."""
WHERE = st.sampled_from(("nowhere", "anywhere", "unchecked fields"))
"""Where the snapshot's bit is flipped: nowhere, anywhere, or in the fields its position's digest
does not cover (its history and decision sources: 37 of some 9,200 bits once turned the
snapshot into a different game unnoticed, too few for uniform draws to find)."""
MAYBE_BIT = st.one_of(st.none(), BIT)
"""A journal bit to flip, or none: damage in the records the snapshot covers makes recovery
replay the journal whole, which hid a snapshot that lied (two flips nearly always land
there)."""


@settings(max_examples=200, deadline=None)
@given(first=MAYBE_BIT, second=MAYBE_BIT, snapshot_flip=BIT, where=WHERE)
@example(first=288136, second=288136, snapshot_flip=289424, where="anywhere")  # issue 11
def test_two_flipped_bits_in_the_journal_and_one_in_the_snapshot_still_lose_nothing(
    small, first, second, snapshot_flip, where
):
    """Up to two flipped bits per record are mended (CRC32's Hamming distance is at least 5
    at these lengths), and a damaged snapshot fails its check, so even then every
    acknowledged decision comes back, and no byte is destroyed."""
    two_flips_and_a_snapshot_flip(small, first, second, snapshot_flip, where)


@pytest.mark.long
@settings(max_examples=5000, deadline=None)
@given(first=MAYBE_BIT, second=MAYBE_BIT, snapshot_flip=BIT, where=WHERE)
def test_long_two_flipped_bits_in_the_journal_and_one_in_the_snapshot_still_lose_nothing(
    small, first, second, snapshot_flip, where
):
    two_flips_and_a_snapshot_flip(small, first, second, snapshot_flip, where)


def two_flips_and_a_snapshot_flip(
    small: SmallGame, first: int | None, second: int | None, snapshot_flip: int, where: str
) -> None:
    with tempfile.TemporaryDirectory() as root:
        state = Path(root)
        damaged = bytearray(small.journal)
        for bit in {flip % (len(damaged) * 8) for flip in (first, second) if flip is not None}:
            damaged[bit // 8] ^= 1 << (bit % 8)
        snapshot = bytearray(small.snapshot)
        if where != "nowhere":
            bit = snapshot_flip % (len(snapshot) * 8)
            if where == "unchecked fields":
                fields = unchecked_fields(small.snapshot)
                spread = snapshot_flip * 2654435761 % (len(fields) * 8)  # small draws too
                bit = fields[spread // 8] * 8 + spread % 8
            snapshot[bit // 8] ^= 1 << (bit % 8)
        (state / JOURNAL_NAME).write_bytes(bytes(damaged))
        (state / SNAPSHOT_NAME).write_bytes(bytes(snapshot))
        game = Journal(state, sync=False).recover()
        assert game is not None and game.history == small.final.history
        assert game.digest() == small.final.digest()
        kept = [p.read_bytes() for p in state.glob("*.bad-*")]
        for name, before in ((JOURNAL_NAME, bytes(damaged)), (SNAPSHOT_NAME, bytes(snapshot))):
            path = state / name
            assert (path.exists() and path.read_bytes() == before) or before in kept


def flipped(data: bytes, bit: int) -> bytes:
    damaged = bytearray(data)
    damaged[bit // 8] ^= 1 << (bit % 8)
    return bytes(damaged)


def history_offset(snapshot: bytes, decision: int) -> int:
    """Byte of the snapshot file where the notation of decision ``decision`` (from 1) of its
    history starts (the history is a JSON list of strings inside the state string)."""
    start = snapshot.index(b'\\"history\\":[') + len(b'\\"history\\":[')
    entries = snapshot[start : snapshot.index(b"]", start)].split(b",")
    return start + sum(len(entry) + 1 for entry in entries[: decision - 1]) + len(b'\\"')


def unchecked_fields(snapshot: bytes) -> list[int]:
    """The bytes of the snapshot the position's digest does not cover: its list of decision
    sources and its history."""
    fields = []
    for name in (b'"sources":[', b'\\"history\\":['):
        start = snapshot.index(name)
        fields.extend(range(start, snapshot.index(b"]", start) + 1))
    return fields


def test_issue11_a_flipped_decision_in_the_snapshot_history_is_detected_not_resumed(
    small, tmp_path
):
    """Issue 11 regression (the hypothesis example first=second=288136,
    snapshot_flip=289424): record 11's length field damaged in the journal, and one bit of
    the snapshot's history flipped so that decision 8 reads 4@2 (42) instead of 5@2 (52).
    The digest covers the position only, so that snapshot passed for a good one and
    recovery resumed a different game. Now its check fails: the damage is reported, the
    snapshot kept aside byte for byte, and the journal's own history resumed."""
    at = history_offset(small.snapshot, 8)
    snapshot = flipped(small.snapshot, at * 8)
    assert (small.snapshot[at : at + 3], snapshot[at : at + 3]) == (b"5@2", b"4@2")
    journal = flipped(small.journal, small.ends[10] * 8)  # record 11's length, high byte
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    j.close()
    assert game is not None and game.history == small.final.history
    assert game.format(game.history[7]) == "5@2" and game.digest() == small.final.digest()
    assert any("check does not match" in note for note in j.notes)
    kept = [path.read_bytes() for path in j.backups]
    assert snapshot in kept and journal in kept
    again = Journal(state, snapshot_every=EVERY, sync=False)
    resumed = again.recover()
    assert resumed is not None and resumed.history == small.final.history
    assert again.notes == [] and again.backups == []
    again.close()


def test_a_damaged_snapshot_beside_an_intact_journal_is_kept_aside_and_written_again(
    small, tmp_path
):
    """Only the snapshot damaged (decision 8 of its history): the journal needs no rewrite,
    but the snapshot is kept aside and written again, so that the next snapshot cannot
    overwrite the damaged bytes unkept and the next start finds nothing to repair."""
    snapshot = flipped(small.snapshot, history_offset(small.snapshot, 8) * 8)
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(small.journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    j.close()
    assert game is not None and game.history == small.final.history
    assert [path.read_bytes() for path in j.backups] == [snapshot]
    assert (state / JOURNAL_NAME).read_bytes() == small.journal
    again = Journal(state, snapshot_every=EVERY, sync=False)
    assert again.recover() is not None and again.notes == [] and again.backups == []
    again.close()


def test_a_snapshot_without_a_check_is_trusted_only_if_its_history_replays(small, tmp_path):
    """A snapshot written before snapshots had a check: its history is replayed before the
    fast start trusts it, so a flipped decision there is caught too (its history does not
    lead to its position) and the journal's history is resumed."""
    fields = json.loads(small.snapshot)
    del fields["check"]
    legacy = json.dumps(fields, separators=(",", ":")).encode()
    state = tmp_path / "state"
    for snapshot, trusted in (
        (legacy, True),
        (flipped(legacy, history_offset(legacy, 8) * 8), False),
    ):
        game, j = recover_beside(state, small.journal, snapshot)
        assert game is not None and game.history == small.final.history
        assert trusted == (j.notes == []), j.notes
        assert (state / SNAPSHOT_NAME).read_bytes() == snapshot or snapshot in [
            path.read_bytes() for path in j.backups
        ]


def recover_beside(state: Path, journal: bytes, snapshot: bytes) -> tuple[Game | None, Journal]:
    """A fresh state folder holding ``journal`` and ``snapshot``, recovered (and closed)."""
    if state.exists():
        shutil.rmtree(state)
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    j.close()
    return game, j


def check_snapshot_flip(state: Path, small: SmallGame, bit: int) -> None:
    """One flipped bit of the snapshot beside an intact journal: the journal's game exactly
    (history and who made each decision), and the snapshot's bytes kept."""
    snapshot = flipped(small.snapshot, bit)
    game, j = recover_beside(state, small.journal, snapshot)
    assert game is not None and game.history == small.final.history, (bit, j.notes)
    assert j.sources == ["player"] * DECISIONS, (bit, j.notes)
    now = (state / SNAPSHOT_NAME).read_bytes()
    assert now == snapshot or snapshot in [path.read_bytes() for path in j.backups]


def test_every_flipped_bit_of_the_snapshot_history_and_sources_is_caught(small, state):
    """The fields the position's digest does not cover, every bit in turn."""
    for byte in unchecked_fields(small.snapshot):
        for bit in range(8):
            check_snapshot_flip(state, small, byte * 8 + bit)


@pytest.mark.long
def test_long_every_flipped_bit_of_the_snapshot_is_caught(small, state):
    for bit in range(len(small.snapshot) * 8):
        check_snapshot_flip(state, small, bit)


def test_a_damaged_snapshot_on_a_full_disk_is_kept_before_the_next_record(
    small, tmp_path, monkeypatch
):
    """No room to keep the damaged snapshot aside: it stays as it is (nothing is replaced),
    the journal says why, and the next record first keeps it and writes the snapshot anew."""
    from haleakala.companion.journal import repairs  # where recovery writes its backups

    snapshot = flipped(small.snapshot, history_offset(small.snapshot, 8) * 8)
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(small.journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    keep = repairs.keep_file

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(repairs, "keep_file", full_disk)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    assert game is not None and game.history == small.final.history
    assert j.failed is not None and j.failed.errno == errno.ENOSPC
    assert (state / SNAPSHOT_NAME).read_bytes() == snapshot and j.backups == []
    monkeypatch.setattr(repairs, "keep_file", keep)  # room again
    game.apply(choose(game, 1))
    j.append_decision(game)
    j.close()
    assert [path.read_bytes() for path in j.backups] == [snapshot]
    assert j.failed is None
    again = Journal(state, snapshot_every=EVERY, sync=False)
    resumed = again.recover()
    assert resumed is not None and resumed.history == game.history
    assert again.notes == [] and again.backups == []
    again.close()


def test_a_journal_repair_that_waits_for_space_writes_the_position_recovered(
    small, tmp_path, monkeypatch
):
    """A damaged journal on a full disk: the repair waits for the next record. The snapshot
    it then writes is the recovered position, not the game as played since (that decision is
    the record after it), so the next start finds journal and snapshot agreeing."""
    from haleakala.companion.journal import repairs  # where recovery writes its backups

    journal = flipped(small.journal, (small.ends[2] + 20) * 8)  # a payload bit of record 3
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(journal)  # no snapshot: the repair writes one
    keep = repairs.keep_file

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(repairs, "keep_file", full_disk)
    j = Journal(state, snapshot_every=EVERY, sync=False)
    game = j.recover()
    assert game is not None and game.history == small.final.history and j.failed is not None
    monkeypatch.setattr(repairs, "keep_file", keep)
    game.apply(choose(game, 1))
    j.append_decision(game)
    j.close()
    assert journal in [path.read_bytes() for path in j.backups]
    again = Journal(state, snapshot_every=EVERY, sync=False)
    resumed = again.recover()
    assert resumed is not None and resumed.history == game.history
    assert again.notes == [] and again.backups == []
    again.close()
