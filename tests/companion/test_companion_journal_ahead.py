"""The daemon's journal on the card (``Journal.on_card``): zeros written ahead of the records,
each record written over them and synced with fdatasync. Within a stretch an append leaves the
file's size alone and never calls fsync (so no file-system metadata is committed with an
acknowledgement); the zeros are not records; a record torn at any 512-byte sector boundary,
or a write the disk refused, loses nothing acknowledged and every byte cut is kept."""

from __future__ import annotations

import errno
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from haleakala.companion.autoplay import reference_game
from haleakala.companion.journal import CARD_AHEAD, Disk, Journal, JournalError, scan_records
from haleakala.games.haleakala import Game

SEED, POLICY = 11, 1
FINAL = reference_game("base", SEED, None, POLICY)
SECTOR = 512


class CountingDisk(Disk):
    """Records which sync each append asks for; ``full``: the next pwrite fails (ENOSPC)."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.full = False

    def pwrite(self, fd: int, data, offset: int) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.calls.append("pwrite")
        return super().pwrite(fd, data, offset)

    def fsync(self, fd: int) -> None:
        self.calls.append("fsync")
        super().fsync(fd)

    def fdatasync(self, fd: int) -> None:
        self.calls.append("fdatasync")
        super().fdatasync(fd)


def play(journal: Journal, decisions: int) -> Game:
    game = Game("base", SEED, None)
    journal.start(game)
    for d in FINAL.history[:decisions]:
        game.apply(d)
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    return game


def test_an_acknowledgement_within_the_zeros_changes_no_size_and_asks_only_fdatasync(tmp_path):
    disk = CountingDisk()
    journal = Journal(tmp_path, snapshot_every=0, preallocate=CARD_AHEAD, disk=disk)
    play(journal, 30)
    path = tmp_path / "journal.bin"
    assert path.stat().st_size == CARD_AHEAD  # the header's stretch holds them all
    # the second fdatasync is the proof of the first (Disk.sync: a card failing under it)
    assert disk.calls == ["pwrite", "fdatasync", "fdatasync"] * 30
    data = path.read_bytes()
    assert data[journal.size :] == bytes(CARD_AHEAD - journal.size)
    scan = scan_records(data)
    assert scan.problem is None and len(scan.records) == 31 and scan.end == journal.size


def test_a_start_resumes_a_journal_written_ahead_as_it_is(tmp_path):
    game = play(Journal.on_card(tmp_path, 7), 40)
    before = (tmp_path / "journal.bin").read_bytes()
    journal = Journal.on_card(tmp_path, 7)
    again = journal.recover()
    assert again is not None and again.digest() == game.digest()
    assert journal.notes == [] and journal.backups == []
    for d in FINAL.history[40:45]:  # and goes on where the records end
        again.apply(d)
        journal.append_decision(again)
    journal.close()
    after = (tmp_path / "journal.bin").read_bytes()
    assert after[: len(before.rstrip(b"\0"))] == before.rstrip(b"\0")
    assert len(after) == len(before)
    recovered = Journal.on_card(tmp_path, 7).recover()
    assert recovered is not None and recovered.history == FINAL.history[:45]


def test_a_stretch_used_up_is_followed_by_the_next_in_the_same_write(tmp_path):
    journal = Journal(tmp_path, snapshot_every=0, preallocate=256)
    game = play(journal, 60)
    size = (tmp_path / "journal.bin").stat().st_size
    assert size % 256 == 0 and journal.size < size <= journal.size + 256
    recovered = Journal(tmp_path, preallocate=256).recover()
    assert recovered is not None and recovered.digest() == game.digest()


def test_a_refused_write_is_cut_back_and_the_next_decision_is_written(tmp_path):
    disk = CountingDisk()
    journal = Journal(tmp_path, snapshot_every=0, preallocate=CARD_AHEAD, disk=disk)
    game = play(journal, 10)
    disk.full = True
    game.apply(FINAL.history[10])
    try:
        journal.append_decision(game)
    except JournalError:
        pass
    else:
        raise AssertionError("the full disk was not reported")
    disk.full = False
    journal.append_decision(game)  # the same decision, once the disk takes it
    journal.close()
    recovered = Journal.on_card(tmp_path).recover()
    assert recovered is not None and recovered.history == FINAL.history[:11]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],  # a directory per example
)
@given(decisions=st.integers(1, 60), seed=st.integers(0, 2**32 - 1))
def test_a_record_torn_at_sector_boundaries_loses_nothing_acknowledged(tmp_path, decisions, seed):
    """The card took some sectors of the next record's pages and not others (a cut before
    its fdatasync returned): the start resumes at the last acknowledged decision or, if every
    sector of the record arrived, after it; the file as found is kept whenever it changes."""
    state = tmp_path / f"s{decisions}-{seed}"
    journal = Journal.on_card(state, 20)
    game = play(journal, decisions)
    journal.close()
    path = state / "journal.bin"
    old = path.read_bytes()
    nxt = Journal.on_card(state, 20)
    assert nxt.recover() is not None
    game.apply(FINAL.history[decisions])
    nxt.append_decision(game)
    nxt.close()
    new = path.read_bytes()
    first, last = journal.size // SECTOR, (nxt.size - 1) // SECTOR
    rng = random.Random(seed)
    torn = bytearray(old)
    for sector in range(first, last + 1):
        if rng.random() < 0.5:
            torn[sector * SECTOR : (sector + 1) * SECTOR] = new[
                sector * SECTOR : (sector + 1) * SECTOR
            ]
    path.write_bytes(bytes(torn))
    recovered = Journal.on_card(state, 20)
    again = recovered.recover()
    assert again is not None and recovered.unsettled is None
    assert again.history in (FINAL.history[:decisions], FINAL.history[: decisions + 1])
    kept = {p.read_bytes() for p in state.glob("journal.bin.bad-*")}
    assert path.read_bytes() == bytes(torn) or bytes(torn) in kept
