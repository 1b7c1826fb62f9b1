"""Whole valid records in the wrong place: recovery proves every record by its position.

Damage that a CRC cannot see: records copied, moved or spliced in from elsewhere, each with a
valid CRC and a digest the real game once had. A record is accepted only when its digest is
the digest of the position the accepted history before it produces (position, not place in
the file); a copy of a record already accepted is skipped; a record that is intact but
cannot be connected to the proven history pauses the game at the last decision recovery can
prove, and nothing is rewritten until someone decides (``haleakala journal resume``).

Issue 22's two attacks come first, on the game the issue used (72 decisions, snapshot at 60);
then, on a small journal (12 decisions, snapshot at 10), every copy, move and swap of a run of
whole records, and a property: whatever the splice, recovery resumes at a position the game
passed through, and never behind an intact, acknowledged history.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import (
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    scan_records,
)
from haleakala.rules import Game


class Played:
    """A game journaled with a snapshot every ``every`` decisions: the files, each record's
    bytes (the header first), and the digest after 0, 1, … decisions."""

    def __init__(self, root: Path, decisions: int, every: int, seed: int = 3) -> None:
        rig = Rig("buttons", seed=seed, journal=Journal(root, snapshot_every=every, sync=False))
        for _ in range(decisions):
            rig.carry_out(choose(rig.game, 1))
        rig.c.journal.close()
        self.journal = (root / JOURNAL_NAME).read_bytes()
        self.snapshot = (root / SNAPSHOT_NAME).read_bytes()
        scan = scan_records(self.journal)
        assert scan.problem is None and len(scan.records) == decisions + 1
        ends = [offset for offset, _ in scan.records[1:]] + [len(self.journal)]
        starts = [offset for offset, _ in scan.records]
        self.records = [self.journal[a:b] for a, b in zip(starts, ends, strict=True)]
        self.digests = [Game("base", seed, "red").digest()] + [
            r["digest"] for _, r in scan.records[1:]
        ]
        self.final = rig.game

    def with_records(self, order: list[int]) -> bytes:
        """A journal made of the records numbered in ``order`` (0: the header)."""
        return b"".join(self.records[k] for k in order)


def recover(state: Path, journal: bytes, snapshot: bytes) -> tuple[Game, Journal]:
    """A fresh state folder holding ``journal`` and ``snapshot``, recovered (and closed)."""
    if state.exists():
        shutil.rmtree(state)
    state.mkdir(parents=True)
    (state / JOURNAL_NAME).write_bytes(journal)
    (state / SNAPSHOT_NAME).write_bytes(snapshot)
    j = Journal(state, sync=False)
    game = j.recover()
    j.close()
    assert game is not None, j.notes
    return game, j


def every_byte_kept(state: Path, journal: bytes, snapshot: bytes) -> bool:
    for name, before in ((JOURNAL_NAME, journal), (SNAPSHOT_NAME, snapshot)):
        now = (state / name).read_bytes() if (state / name).exists() else None
        kept = [p.read_bytes() for p in state.glob(f"{name}.bad-*")]
        if now != before and before not in kept:
            return False
    return True


@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Played:
    """Issue 22's game: 72 decisions, a snapshot every 20 (the last at decision 60). (Seed 1:
    there, the copies of records 3..7 are legal decisions at decision 64, as in the issue.)"""
    return Played(tmp_path_factory.mktemp("long-game"), 72, 20, seed=1)


@pytest.mark.parametrize(
    ("run", "before"),
    [((3, 7), 65), ((60, 62), 69)],
    ids=["records-3-7-before-65", "records-60-62-before-69"],
)
def test_issue22_a_copied_run_of_valid_records_is_skipped_and_the_whole_game_resumes(
    long_game, tmp_path, run, before
):
    """Issue 22: records 3..7 copied in front of record 65 (or 60..62 in front of 69) made
    recovery resume at decision 66 with a digest the game never had. Each copy is now
    compared with the position before it, found out of sequence and skipped; all 72
    acknowledged decisions come back, the copies stay in the backup, and a second start
    finds nothing to repair."""
    first, last = run
    order = [*range(before), *range(first, last + 1), *range(before, 73)]
    journal = long_game.with_records(order)
    state = tmp_path / "state"
    game, j = recover(state, journal, long_game.snapshot)
    assert game.history == long_game.final.history, j.notes
    assert game.digest() == long_game.digests[72]
    assert j.unsettled is None
    assert journal in [path.read_bytes() for path in j.backups]
    assert (state / JOURNAL_NAME).read_bytes() == long_game.journal
    again = Journal(state, sync=False)
    resumed = again.recover()
    again.close()
    assert resumed is not None and resumed.digest() == long_game.digests[72]
    assert again.notes == [] and again.backups == []
