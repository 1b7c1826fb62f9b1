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
from haleakala.games.haleakala import Game
from haleakala.hal.events import ButtonHeld


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


# --------------------------------------------------------------------------- exhaustive

SMALL = 12
"""The small journal: 12 decisions, a snapshot every 5 (it covers the header and 10)."""


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Played:
    return Played(tmp_path_factory.mktemp("small-game"), SMALL, 5)


def runs(longest: int) -> list[tuple[int, int]]:
    """Every run of whole decision records (first, last), at most ``longest`` long."""
    return [(i, j) for i in range(1, SMALL + 1) for j in range(i, min(SMALL, i + longest - 1) + 1)]


def copies(longest: int) -> list[list[int]]:
    """The journal's records with a run copied in front of any record after the header, or
    to the end (the originals all stay, in order)."""
    found = []
    for first, last in runs(longest):
        for before in range(1, SMALL + 2):
            found.append([*range(before), *range(first, last + 1), *range(before, SMALL + 1)])
    return found


def moves(longest: int) -> list[list[int]]:
    """The journal's records with a run cut out and put in front of another record, or at
    the end: every record is there once, some out of order."""
    found = []
    for first, last in runs(longest):
        rest = [k for k in range(1, SMALL + 1) if not first <= k <= last]
        for at in range(len(rest) + 1):
            order = [0, *rest[:at], *range(first, last + 1), *rest[at:]]
            if order != list(range(SMALL + 1)):
                found.append(order)
    return found


def swaps() -> list[list[int]]:
    """The journal with two of its decision records swapped."""
    found = []
    for a in range(1, SMALL + 1):
        for b in range(a + 1, SMALL + 1):
            order = list(range(SMALL + 1))
            order[a], order[b] = b, a
            found.append(order)
    return found


def check_order(state: Path, small: Played, order: list[int]) -> None:
    """Every acknowledged record is there and intact (some twice, some out of order): the
    whole game comes back, proven record by record, and the journal is whole again."""
    journal = small.with_records(order)
    game, j = recover(state, journal, small.snapshot)
    assert j.unsettled is None, (order, j.notes)
    assert game.history == small.final.history, (order, j.notes)
    assert game.digest() == small.digests[SMALL]
    assert every_byte_kept(state, journal, small.snapshot), order
    assert (state / JOURNAL_NAME).read_bytes() == small.journal, order


@pytest.mark.parametrize("kind", ["copies", "moves", "swaps"])
def test_every_copied_moved_or_swapped_run_of_whole_records_resumes_the_whole_game(
    small, state, kind
):
    """Exhaustive over the small journal, runs of up to 3 records (about 900 cases in all):
    copies, moves and swaps of whole valid records never change the game that comes back."""
    orders = {"copies": lambda: copies(3), "moves": lambda: moves(3), "swaps": swaps}[kind]()
    assert len(orders) > 60
    for order in orders:
        check_order(state, small, order)


@pytest.mark.long
def test_long_every_copied_or_moved_run_of_any_length_resumes_the_whole_game(small, state):
    for order in copies(SMALL) + moves(SMALL):
        check_order(state, small, order)


# --------------------------------------------------------------------------- property


class Branching:
    """A game with take-backs: 14 decisions, two undos (so the journal holds decisions that
    were taken back and positions reached twice), a snapshot every 4 records. ``passed``:
    every position the game passed through, by digest, with the history that reached it."""

    def __init__(self, root: Path) -> None:
        rig = Rig("buttons", journal=Journal(root, snapshot_every=4, sync=False))
        self.passed = {rig.game.digest(): list(rig.game.history)}
        for step in [1] * 6 + ["undo"] + [2] * 4 + ["undo"] + [3] * 6:
            if step == "undo":
                rig.send(ButtonHeld("back"))
            else:
                rig.carry_out(choose(rig.game, step))
            self.passed[rig.game.digest()] = list(rig.game.history)
        rig.c.journal.close()
        self.journal = (root / JOURNAL_NAME).read_bytes()
        self.snapshot = (root / SNAPSHOT_NAME).read_bytes()
        scan = scan_records(self.journal)
        assert scan.problem is None
        kinds = [r["type"] for _, r in scan.records]
        assert kinds.count("undo") == 2, kinds
        starts = [offset for offset, _ in scan.records]
        ends = [*starts[1:], len(self.journal)]
        self.records = [self.journal[a:b] for a, b in zip(starts, ends, strict=True)]
        self.final = rig.game


@pytest.fixture(scope="module")
def branching(tmp_path_factory) -> Branching:
    return Branching(tmp_path_factory.mktemp("branching-game"))


EDIT = st.tuples(
    st.sampled_from(["copy", "move", "drop"]),
    st.integers(1, 40),  # first record of the run (modulo the records there are)
    st.integers(1, 4),  # its length
    st.integers(1, 40),  # where it goes
)


def edited(count: int, edits: list[tuple[str, int, int, int]]) -> list[int]:
    """Record numbers after ``edits`` (the header stays first)."""
    order = list(range(count))
    for kind, first, length, to in edits:
        body = order[1:]
        if not body:
            break
        a = first % len(body)
        run = body[a : a + length]
        if kind != "copy":
            del body[a : a + length]
        if kind != "drop":
            at = to % (len(body) + 1)
            body[at:at] = run
        order = [0, *body]
    return order


@settings(max_examples=150, deadline=None)
@given(edits=st.lists(EDIT, min_size=1, max_size=3), snapshot=st.booleans())
def test_recovery_never_resumes_a_position_the_game_did_not_pass_through(
    branching, edits, snapshot
):
    """Whole valid records copied, moved or dropped (with or without the snapshot beside
    them): the position that comes back is one the game passed through, reached by the
    history that reached it. When every acknowledged record is still there and recovery
    goes on by itself, it is the last acknowledged position; when it cannot settle, it
    waits at what it proves and rewrites nothing; the files as they were are always kept."""
    order = edited(len(branching.records), edits)
    journal = b"".join(branching.records[k] for k in order)
    snap = branching.snapshot if snapshot else b""
    with tempfile.TemporaryDirectory() as root:
        state = Path(root)
        (state / JOURNAL_NAME).write_bytes(journal)
        if snap:
            (state / SNAPSHOT_NAME).write_bytes(snap)
        j = Journal(state, sync=False)
        game = j.recover()
        j.close()
        assert game is not None
        assert game.digest() in branching.passed, (order, j.notes)
        assert game.history == branching.passed[game.digest()], (order, j.notes)
        everything = set(range(len(branching.records))) <= set(order)
        if j.unsettled is None and everything:
            assert game.digest() == branching.final.digest(), (order, j.notes)
        if j.unsettled is not None:
            assert j.unsettled.proven == len(game.history)
            assert (state / JOURNAL_NAME).read_bytes() == journal
        kept = [p.read_bytes() for p in state.glob("*.bad-*")]
        assert (state / JOURNAL_NAME).read_bytes() == journal or journal in kept
        if snap:
            assert (state / SNAPSHOT_NAME).read_bytes() == snap or snap in kept
