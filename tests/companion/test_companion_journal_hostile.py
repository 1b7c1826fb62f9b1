"""Hostile state files through every command that reads them: ``haleakala journal check``,
``haleakala journal resume`` and ``haleakala run`` (the daemon).

What sits under ``journal.bin`` or ``snapshot.json`` decides whether the board starts at all.
A named pipe, a device (``/dev/zero``) or a directory is refused: the command says what it
is and the ``mv`` that fixes it, the daemon waits for the fix (no hang, no restart loop), and
nothing is changed. A sparse 2 GB journal, a sparse 1 GB snapshot or 10 MB of garbage after
the last record is read in bounded memory (each command runs under a 512 MB address-space
cap, below the files' sizes) and time: the game resumes at its last decision, and a start
keeps the bytes it cuts in a ``.bad-`` backup. Every wait is on a condition (the process's
exit or its log line), bounded by a generous timeout, never a sleep.
"""

from __future__ import annotations

import os
import random
import re
import resource
import selectors
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import (
    JOURNAL_NAME,
    MAX_RECORDS,
    SNAPSHOT_NAME,
    Journal,
    encode_record,
)
from haleakala.games.haleakala import Game

CAP = 512 << 20
"""The address-space cap every command runs under (a MemoryError for a whole-file read)."""
BOUND_S = 120.0
"""The longest any command may take (a hang fails the test instead of hanging it)."""
DECISIONS = 12


def played(state: Path) -> Game:
    """A game of ``DECISIONS`` decisions in ``state``, with a snapshot on the way."""
    journal = Journal(state, snapshot_every=5, sync=False)
    game = Game("base", 3, "red")
    journal.start(game)
    for _ in range(DECISIONS):
        game.apply(choose(game, 1))
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    journal.close()
    return game


def fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def device(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "kept.txt").write_text("a file someone keeps here\n")


def sparse(size: int) -> Callable[[Path], None]:
    def grow(path: Path) -> None:
        os.truncate(path, size)

    return grow


def garbage(count: int) -> Callable[[Path], None]:
    def append(path: Path) -> None:
        with open(path, "ab") as f:
            f.write(random.Random(35).randbytes(count))

    return append


def too_many_records(path: Path) -> None:
    with open(path, "ab") as f:
        f.write(encode_record({"type": "note"}) * (MAX_RECORDS + 1))


REFUSED = {  # name: (file, how it is made hostile, what the sentence calls it)
    "journal-fifo": (JOURNAL_NAME, fifo, "is a named pipe"),
    "snapshot-fifo": (SNAPSHOT_NAME, fifo, "is a named pipe"),
    "journal-dev-zero": (JOURNAL_NAME, device, "is a device"),
    "snapshot-dev-zero": (SNAPSHOT_NAME, device, "is a device"),
    "journal-directory": (JOURNAL_NAME, directory, "is a directory"),
    "snapshot-directory": (SNAPSHOT_NAME, directory, "is a directory"),
    "journal-too-many-records": (JOURNAL_NAME, too_many_records, "more than any game"),
}
READ = {  # name: (file, how it is made hostile)
    "journal-sparse-2gb": (JOURNAL_NAME, sparse(2 << 30)),
    "snapshot-sparse-1gb": (SNAPSHOT_NAME, sparse(1 << 30)),
    "journal-garbage-10mb": (JOURNAL_NAME, garbage(10 << 20)),
}


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def haleakala(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "haleakala", *args],
        capture_output=True,
        text=True,
        timeout=BOUND_S,
        preexec_fn=capped,
    )


def fingerprint(state: Path) -> dict[str, tuple]:
    """What is in the state directory: every name, its kind, size and content's start."""
    found = {}
    for path in sorted(state.rglob("*")):
        st = os.lstat(path)
        head = b""
        if stat.S_ISREG(st.st_mode):
            with open(path, "rb") as f:
                head = f.read(4096)
        found[str(path.relative_to(state))] = (stat.S_IFMT(st.st_mode), st.st_size, head)
    return found


@pytest.fixture
def state(tmp_path) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    played(state)
    return state


class Daemon:
    """``haleakala run`` on the sim backend under the memory cap, its log read as it comes."""

    def __init__(self, tmp_path: Path, state: Path) -> None:
        config = tmp_path / "config.toml"
        config.write_text('kit = "buttons"\n')
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "haleakala", "run", "--config", str(config), "--hardware",
             "sim", "--headless", "--state-dir", str(state)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=capped,
            env={**os.environ, "NOTIFY_SOCKET": ""},
        )  # fmt: skip
        self.log = ""

    def wait_for(self, pattern: str) -> re.Match:
        """The first log line matching ``pattern``; fails if the daemon ends or
        ``BOUND_S`` passes first."""
        assert self.proc.stdout is not None
        end = time.monotonic() + BOUND_S
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while (found := re.search(pattern, self.log)) is None:
                left = end - time.monotonic()
                assert left > 0, f"no {pattern!r} within {BOUND_S} s:\n{self.log}"
                if sel.select(left):
                    chunk = os.read(self.proc.stdout.fileno(), 65536)
                    assert chunk, f"the daemon ended before {pattern!r}:\n{self.log}"
                    self.log += chunk.decode(errors="replace")
        return found

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=BOUND_S)
        self.log += out.decode(errors="replace")
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_journal_check_refuses_a_hostile_state_file_with_its_fix_and_changes_nothing(state, name):
    file, make, words = REFUSED[name]
    make(state / file)
    before = fingerprint(state)
    done = haleakala("journal", "check", "--state-dir", str(state))
    assert done.returncode == 1, done.stdout + done.stderr
    assert words in done.stderr and "nothing was changed" in done.stderr
    assert f"mv {state / file} {state / file}.not-a-file" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_journal_resume_refuses_a_hostile_state_file_and_changes_nothing(state, name):
    file, make, words = REFUSED[name]
    make(state / file)
    before = fingerprint(state)
    done = haleakala("journal", "resume", "--state-dir", str(state))
    assert done.returncode == 1, done.stdout + done.stderr
    assert words in done.stderr and "mv " in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_daemon_waits_for_the_fix_of_a_hostile_state_file_and_then_resumes(
    tmp_path, state, name
):
    """No hang, no crash, no restart loop: it says why and how to fix it, touches nothing,
    and resumes the game by itself once the file is moved away as it says."""
    file, make, words = REFUSED[name]
    hostile = state / file
    if name == "journal-too-many-records":
        kept = hostile.read_bytes()
    make(hostile)
    before = fingerprint(state)
    daemon = Daemon(tmp_path, state)
    try:
        line = daemon.wait_for(r"not starting the game yet: .*\n")[0]
        assert words in line and f"mv {hostile} {hostile}.not-a-file" in line
        assert fingerprint(state) == before
        os.rename(hostile, f"{hostile}.not-a-file")  # the fix it names
        if name == "journal-too-many-records":
            hostile.write_bytes(kept)  # the journal as it was before the junk
        # without the journal, the snapshot proves decision 10 (every 5); else the journal 12
        at = 10 if file == JOURNAL_NAME and name != "journal-too-many-records" else DECISIONS
        daemon.wait_for(rf"resumed game \S+ \(base, seed 3\) at decision {at}\b")
        daemon.wait_for(r"ready: ")
        assert daemon.stop() == 0
    finally:
        daemon.kill()
    assert "Traceback" not in daemon.log


# --------------------------------------------------------------------------- read


@pytest.mark.parametrize("name", sorted(READ))
def test_journal_check_reads_a_huge_state_file_within_a_bound_and_changes_nothing(state, name):
    file, make = READ[name]
    make(state / file)
    before = fingerprint(state)
    done = haleakala("journal", "check", "--state-dir", str(state))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"at decision {DECISIONS}," in done.stdout and "a start repairs it" in done.stdout
    assert "Traceback" not in done.stderr + done.stdout
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", sorted(READ))
def test_journal_resume_reads_a_huge_state_file_and_leaves_it_to_the_start(state, name):
    file, make = READ[name]
    make(state / file)
    before = fingerprint(state)
    done = haleakala("journal", "resume", "--state-dir", str(state))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"resumes decision {DECISIONS} by itself" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", sorted(READ))
def test_the_daemon_resumes_past_a_huge_state_file_and_keeps_every_byte_it_cuts(
    tmp_path, state, name
):
    file, make = READ[name]
    hostile = state / file
    make(hostile)
    size = hostile.stat().st_size
    daemon = Daemon(tmp_path, state)
    try:
        daemon.wait_for(rf"resumed game \S+ \(base, seed 3\) at decision {DECISIONS}\b")
        daemon.wait_for(r"ready: ")
        assert daemon.stop() == 0
    finally:
        daemon.kill()
    assert "Traceback" not in daemon.log
    backups = sorted(state.glob(f"{file}.bad-*"))
    assert [b.stat().st_size for b in backups] == [size]  # the file as found, whole
    assert hostile.stat().st_size < 1 << 20  # and in its place what the game needs
    again = Journal(state, readonly=True)
    resumed = again.recover()
    assert resumed is not None and len(resumed.history) == DECISIONS and again.notes == []
